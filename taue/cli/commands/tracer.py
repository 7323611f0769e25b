"""`taue tracer graph|build|verify|stats`: the task factory (docs/tracer.md); `taue tracer rollout|export`:
training data from the training split (docs/training.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

tracer_app = typer.Typer(
    help="Make tasks: tool graphs, grounded workflows, verified evaluation and training sets."
)


def register(app: typer.Typer) -> None:
    from taue.cli.commands.run import make_run_command
    from taue.cli.settings import SettingsCommand

    rollout = make_run_command(
        default_split="train",
        default_trials=1,
        out_prefix="rollout-",
        doc="Collect trajectories on the training split: `taue run` with --split train (resumable, "
        "sharded, the same records), the input of `taue tracer export`.",
    )
    tracer_app.command("rollout", cls=SettingsCommand)(rollout)
    app.add_typer(tracer_app, name="tracer", no_args_is_help=True)


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def _domains(value: str | None) -> list:
    """The domains named (comma-separated, or `all`) that declare Tracer parts; exit 2 otherwise."""
    from taue.envs.runtime.discovery import domain_names, get_domain

    with_parts = [n for n in domain_names() if (get_domain(n).folder / "tracer.py").exists()]
    if value in (None, "all"):
        return [get_domain(n) for n in with_parts]
    names = [n.strip() for n in value.split(",") if n.strip()]
    unknown = [n for n in names if n not in with_parts]
    if not names or unknown:
        raise _fail(f"no Tracer parts for {unknown or value!r}; domains with them: {', '.join(with_parts)}")
    return [get_domain(n) for n in names]


@tracer_app.command("graph")
def graph(
    domain: Annotated[str, typer.Argument(help="The domain.")],
    infer: Annotated[
        bool, typer.Option(help="Propose the graph from the tools' signatures and outputs.")
    ] = False,
    check: Annotated[
        bool, typer.Option(help="Show how the stored graph differs from the inferred one.")
    ] = False,
    write: Annotated[
        bool, typer.Option(help="With --infer: store the proposal as envs/<domain>/graph.json.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The domain's tool graph: nodes, edges and density.

    With --check, exit 1 when the stored graph's nodes are not the domain's workflow tools (edges may
    differ: the stored graph is reviewed by hand).
    """
    from taue.tracer.graph import graph_difference, graph_path, infer_graph, load_graph

    (chosen,) = _domains(domain)
    if write and not infer:
        raise _fail("--write stores an inferred graph: give --infer too")
    if infer:
        proposed = infer_graph(chosen)
        if write:
            graph_path(chosen).write_text(proposed.dumps(), encoding="utf-8")
        _print_graph(proposed, as_json, "inferred")
        return
    try:
        stored = load_graph(chosen)
    except FileNotFoundError as exc:
        raise _fail(str(exc)) from None
    if not check:
        _print_graph(stored, as_json, "stored")
        return
    difference = graph_difference(stored, infer_graph(chosen))
    if as_json:
        typer.echo(json.dumps({"stored": stored.summary(), **difference}, indent=2))
    else:
        typer.echo(_summary_line(stored.summary(), "stored"))
        for key, items in difference.items():
            for item in items:
                typer.echo(f"{key}: {item if isinstance(item, str) else ' -> '.join(item)}")
    if difference["nodes_only_stored"] or difference["nodes_only_inferred"]:
        raise typer.Exit(1)


def _summary_line(summary: dict, label: str) -> str:
    counts = f"{summary['nodes']} tools, {summary['edges']} edges, density {summary['density']}"
    return f"{summary['domain']} ({label}): {counts}"


def _print_graph(graph, as_json: bool, label: str) -> None:
    if as_json:
        typer.echo(
            json.dumps({**graph.summary(), "nodes_list": graph.nodes, "edges_list": graph.edges}, indent=2)
        )
        return
    typer.echo(_summary_line(graph.summary(), label))
    for a, b in graph.edges:
        typer.echo(f"  {a} -> {b}")


@tracer_app.command("build")
def build(
    domain: Annotated[str, typer.Option(help="Domain, comma-separated domains, or all.")] = "all",
    eval_count: Annotated[
        int, typer.Option("--eval", min=1, max=594, help="Emotional evaluation tasks.")
    ] = 58,
    train_count: Annotated[int, typer.Option("--train", min=0, help="Training tasks.")] = 700,
    seed: Annotated[int, typer.Option(help="Seed of every draw.")] = 0,
    out: Annotated[
        Path | None,
        typer.Option(help="Write into OUT/<domain>/ instead of rewriting the domain's committed task files."),
    ] = None,
    agent_check: Annotated[
        bool, typer.Option(help="Verify every evaluation task with the careful agent and the scripted user.")
    ] = True,
    refiner_model: Annotated[
        str | None, typer.Option(help="Rewrite instructions with this model (OpenAI-compatible endpoint).")
    ] = None,
    refiner_base_url: Annotated[str | None, typer.Option(help="Base URL of the refiner's endpoint.")] = None,
    quiet: Annotated[bool, typer.Option(help="No progress bar.")] = False,
) -> None:
    """Build each domain's evaluation set (emotional tasks + neutral twins) and training split."""
    from rich.console import Console

    from taue.tracer.build import Builder, BuildError, write_result

    if (refiner_model is None) != (refiner_base_url is None):
        raise _fail("--refiner-model and --refiner-base-url go together")
    console = Console(stderr=True)
    refiner = _refiner(refiner_model, refiner_base_url, seed)
    for chosen in _domains(domain):
        try:
            result = _build_one(
                chosen,
                console,
                quiet,
                Builder(chosen, seed, None, refiner),
                eval_count,
                train_count,
                agent_check,
            )
        except (BuildError, FileNotFoundError) as exc:
            raise _fail(str(exc)) from None
        folder = chosen.folder if out is None else out / chosen.name
        written = ", ".join(str(path) for path in write_result(result, folder))
        kept = sum(1 for t in result.eval_tasks if t.emotion)
        console.print(
            f"{chosen.name}: {kept} evaluation tasks (+{kept} twins), {len(result.train_tasks)} training "
            f"tasks from {result.candidates} candidates -> {written}"
        )


def _build_one(chosen, console, quiet: bool, builder, eval_count: int, train_count: int, agent_check: bool):
    """Run one domain's build under a progress bar per stage."""
    import asyncio

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

    columns = (TextColumn(f"[bold]{chosen.name}" + " {task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, TimeElapsedColumn(), console=console, disable=quiet) as progress:
        bars: dict[str, TaskID] = {}

        def update(stage: str, done: int, total: int) -> None:
            if stage not in bars:
                bars[stage] = progress.add_task(stage, total=total)
            progress.update(bars[stage], completed=done)

        builder.progress = update
        return asyncio.run(builder.build(eval_count, train_count, agent_check))


def _refiner(model: str | None, base_url: str | None, seed: int):
    if model is None or base_url is None:  # given together (checked with the options)
        return None
    import os

    from taue.tracer.refine import LlmRefiner

    return LlmRefiner(model, base_url, os.environ.get("TAUE_REFINER_API_KEY", "EMPTY"), seed)


@tracer_app.command("verify")
def verify(
    domain: Annotated[str, typer.Option(help="Domain, comma-separated domains, or all.")] = "all",
    rebuild: Annotated[
        bool, typer.Option(help="Also rebuild from the recorded seed and compare the files byte for byte.")
    ] = False,
    semantic_lints: Annotated[
        bool,
        typer.Option(
            "--semantic-lints",
            help="Count the semantic lints' hits as problems (task set v4 has none).",
        ),
    ] = False,
) -> None:
    """Check the committed task sets; exit 1 on any problem.

    Every task replays and passes the Tracer's checks and the prose lints; the sets meet their
    requirements (counts, mean gold calls, refusal share, conditions, entity-disjoint split, the
    realism targets). The semantic lints (docs/tracer.md, "Semantic lints") are reported after the
    domains, and fail only with --semantic-lints.
    """
    import asyncio

    from taue.tracer.semantic_lints import domain_semantic_hits
    from taue.tracer.verify import verify_domain

    bad = 0
    semantic = {}
    for chosen in _domains(domain):
        problems = asyncio.run(verify_domain(chosen, rebuild))
        for problem in problems:
            typer.echo(f"{chosen.name}: {problem}", err=True)
        typer.echo(f"{chosen.name}: {len(problems)} problems")
        bad += len(problems)
        semantic[chosen.name] = domain_semantic_hits(chosen)
    bad += _report_semantic(semantic, semantic_lints)
    if bad:
        raise typer.Exit(1)


def _report_semantic(hits_by_domain: dict, failing: bool) -> int:
    """Print the semantic lints' section; with `failing`, each hit as a problem. Returns the problems."""
    from taue.tracer.semantic_lints import semantic_lint_summary

    summary = semantic_lint_summary(hits_by_domain)
    status = "failing" if failing else "reported; --semantic-lints fails on them"
    tasks = sum(summary["tasks_hit"].values())
    counts = {
        lint: sum(summary["totals"][split][lint] for split in summary["totals"]) for lint in summary["lints"]
    }
    listed = ", ".join(f"{lint} {n}" for lint, n in counts.items() if n) or "none"
    typer.echo(f"semantic lints ({status}): {tasks} tasks, by lint: {listed}")
    if not failing:
        return 0
    problems = 0
    for name, splits in hits_by_domain.items():
        for hits in splits.values():
            for task_id, found in hits.items():
                for lint, detail in found.items():
                    typer.echo(f"{name}: {task_id}: {lint}: {detail}", err=True)
                    problems += 1
    return problems


@tracer_app.command("stats")
def stats(
    domain: Annotated[str, typer.Option(help="Domain, comma-separated domains, or all.")] = "all",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """What the task sets hold, per domain and across domains.

    Realism of the emotional evaluation set (writes and reads per task, declared vs realised intent
    and walk-length mixes, instruction words, reason and preference shares, sentence-skeleton
    diversity, the most common sentence, ids denied); gold-call distribution, intents, write mix,
    refusal share, condition coverage and the build's rejections by reason; the distinct conditions
    across the domains' evaluation sets. With --json, `semantic_lints`: the tasks each semantic lint
    fires on, per domain and split, and totals; and `situations` per split (per domain and across
    domains): the condition x situation table (tasks per emotion and family and situation, contacts,
    and the tasks whose emotion does not fit their situation).
    """
    from taue.tracer.semantic_lints import domain_semantic_hits, semantic_lint_summary
    from taue.tracer.stats import cross_domain_conditions, domain_stats

    chosen = _domains(domain)
    entries = [domain_stats(d) for d in chosen]
    across = cross_domain_conditions(chosen, with_situations=as_json)
    if as_json:
        lints = semantic_lint_summary({d.name: domain_semantic_hits(d) for d in chosen})
        body = {"domains": entries, "across_domains": across, "semantic_lints": lints}
        typer.echo(json.dumps(body, indent=2))
        return
    for entry in entries:
        _print_stats(entry)
    typer.echo(
        f"across {len(chosen)} domains: {across['distinct']} distinct conditions in {across['tasks']} "
        f"evaluation tasks ({across['distinct_share']:.0%})"
    )


def _print_stats(entry: dict) -> None:
    typer.echo(f"== {entry['domain']}")
    r = entry["realism"]
    typer.echo(
        f"  realism (emotional eval): writes/task {r['writes_per_task']}, reads/task {r['reads_per_task']}, "
        f"no-write {r['no_write_share']:.0%}, words {r['words']}, reasons {r['reason_share']:.0%}, "
        f"preferences {r['preference_share']:.0%}, skeletons {r['skeleton_share']:.0%}, "
        f"top sentence {r['top_sentence_share']:.0%}, top frame {r['top_frame_share']:.0%}, "
        f"ids denied {r['ids_denied']}"
    )
    for name in ("intent_mix", "walk_mix"):
        mix = r[name]
        typer.echo(
            f"    {name.replace('_', ' ')}: declared {mix.get('declared')} realised {mix['realised']} "
            f"(gap {mix['gap']} points)"
        )
    for split in ("eval", "train"):
        s = entry[split]
        conditions = s["conditions"]
        typer.echo(
            f"  {split}: {s['tasks']} tasks, gold calls mean {s['gold_calls']['mean']} "
            f"{s['gold_calls']['distribution']}, refusal share {s['refusal_share']:.0%} "
            f"(accept {s['challenge_branches']['accept']}, decline {s['challenge_branches']['decline']}), "
            f"{conditions['distinct']} distinct conditions"
        )
        typer.echo(f"    intents per task {s['intents_per_task']}; intents {s['intents']}")
        typer.echo(f"    writes {s['writes']}")
        typer.echo(f"    families {conditions['families']}")
        for pair, test in conditions.get("chi_square", {}).items():
            typer.echo(f"    chi-square {pair}: {test['statistic']} (p = {test['p']})")
    typer.echo(f"  candidates {entry['candidates']}; rejections {entry['rejections']}")


@tracer_app.command("export")
def export(
    run_dirs: Annotated[list[Path], typer.Argument(help="Rollout run directories (`taue tracer rollout`).")],
    out: Annotated[Path, typer.Option(help="Dataset folder: train.jsonl, stats.json, README.md.")],
    format: Annotated[
        str, typer.Option(help="sft (+1 trajectories) or preference (+1 vs 0/−1 pairs of a task).")
    ] = "sft",
    max_per_domain: Annotated[int | None, typer.Option(min=1, help="At most N rows per domain.")] = None,
    max_per_family: Annotated[
        int | None, typer.Option(min=1, help="At most N rows per emotion family.")
    ] = None,
    balance_families: Annotated[
        bool, typer.Option(help="Cap every emotion family at the size of the smallest.")
    ] = False,
    min_calls_per_question: Annotated[
        float | None,
        typer.Option(min=0, help="Keep trajectories with tool calls >= X × questions to the user."),
    ] = None,
    dedup: Annotated[bool, typer.Option(help="Drop rows identical to an earlier one.")] = True,
    seed: Annotated[int, typer.Option(help="Seed of the shuffle that caps and pairs draw from.")] = 0,
) -> None:
    """Turn rollouts into a training dataset for TRL (SFTTrainer or DPOTrainer) with its card."""
    from pydantic import ValidationError

    from taue.tracer.dataset_card import render_card
    from taue.tracer.export import ExportError, ExportOptions, export_dataset, read_records, write_dataset

    try:
        options = ExportOptions(
            format=format,
            max_per_domain=max_per_domain,
            max_per_family=max_per_family,
            balance_families=balance_families,
            min_calls_per_question=min_calls_per_question,
            dedup=dedup,
            seed=seed,
        )
    except ValidationError:
        raise _fail(f"--format must be sft or preference, not {format!r}") from None
    if out.exists() and not out.is_dir():
        raise _fail(f"--out {out} exists and is not a folder")
    try:
        result = export_dataset(read_records(run_dirs), options)
    except ExportError as exc:
        raise _fail(str(exc)) from None
    write_dataset(result, out, render_card(result.stats))
    for step in result.stats["steps"]:
        typer.echo(f"{step['count']:>7}  {step['step']}", err=True)
    typer.echo(f"{len(result.rows)} rows -> {out / 'train.jsonl'} (card: {out / 'README.md'})", err=True)
    if not result.rows:
        typer.echo("warning: no episode passed the filters; the card's filter steps say where", err=True)
