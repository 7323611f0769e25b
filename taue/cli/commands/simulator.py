"""`taue simulator ...`: checks of the user simulator on finished runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError

simulator_app = typer.Typer(help="Checks of the user simulator on finished runs.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(simulator_app, name="simulator")


AUDIT_HELP = (
    "Flag user messages that state facts absent from the scenario (hallucinations): emails, ids, numbers "
    "and names found neither in the task's scenario nor in an earlier agent message. Reports the rate of "
    "flagged user messages overall and per emotion."
)


@simulator_app.command("audit", help=AUDIT_HELP)
def audit(
    run_dir: Annotated[Path, typer.Argument(help="A run directory (holding results.jsonl).")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the whole report, every flag included, as JSON.")
    ] = False,
    show: Annotated[int, typer.Option(min=0, help="How many flagged messages to print (text output).")] = 10,
) -> None:
    from taue.runner.audit import audit_run

    if not run_dir.is_dir():
        typer.echo(f"error: {run_dir} is not a directory", err=True)
        raise typer.Exit(2)
    try:
        report = audit_run(run_dir)
    except FileNotFoundError as exc:
        typer.echo(f"error: {exc}; give the folder a `taue run --out` wrote", err=True)
        raise typer.Exit(2) from None
    except (ValidationError, json.JSONDecodeError) as exc:
        typer.echo(
            f"error: {run_dir / 'results.jsonl'} is not a results file: {exc}".splitlines()[0], err=True
        )
        raise typer.Exit(2) from None
    if as_json:
        typer.echo(report.model_dump_json(indent=2))
        return
    typer.echo(
        f"{report.episodes} episodes, {report.user_messages} user messages, "
        f"{report.flagged_messages} flagged ({report.rate:.1%})"
    )
    typer.echo(f"{'emotion':20} {'user msgs':>10} {'flagged':>8} {'rate':>7}")
    for emotion, row in report.by_emotion.items():
        typer.echo(
            f"{emotion:20} {row['user_messages']:>10.0f} {row['flagged_messages']:>8.0f} {row['rate']:>7.1%}"
        )
    for flag in report.flags[:show]:
        typer.echo(
            f"- {flag.task_id}#{flag.trial} turn {flag.turn}: {flag.kind} {flag.value!r} in {flag.message!r}"
        )
    if len(report.flags) > show:
        typer.echo(f"... {len(report.flags) - show} more (--show N or --json)")
    if report.skipped:
        typer.echo(f"skipped {len(report.skipped)} episodes whose task is not installed", err=True)


UNDERSTAND_HELP = (
    "Show how the scripted user reads one agent message on one task: the acts it finds, the facts "
    "asked, the goals a proposal matches (action and value hits per goal), the completion claim, the "
    "charges and the reply. The message is read as the agent's first turn after the user's opening."
)


@simulator_app.command("understand", help=UNDERSTAND_HELP)
def understand(
    text: Annotated[str | None, typer.Argument(help="The agent message (markdown welcome).")] = None,
    domain: Annotated[str | None, typer.Option(help="The task's domain.")] = None,
    task: Annotated[str | None, typer.Option(help="The task id (e.g. retail-004).")] = None,
    examples: Annotated[
        bool,
        typer.Option(
            "--examples",
            help="Read one built-in example of each way real agents write (choices, record lists, policy "
            "questions, plans, offers of help, sympathy, refusals in other words, …) on a built-in task.",
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the explanation as JSON.")] = False,
) -> None:
    from taue.simulator.explain import explain, explanation_text

    if examples:
        _explain_examples(as_json)
        return
    if text is None or domain is None or task is None:
        typer.echo("error: give TEXT with --domain and --task, or --examples", err=True)
        raise typer.Exit(2)
    found, tools = _task(domain, task)
    result = explain(text, found, tools)
    typer.echo(result.model_dump_json(indent=2) if as_json else explanation_text(result))


def _explain_examples(as_json: bool) -> None:
    from taue.envs.runtime.discovery import get_domain
    from taue.simulator.examples import EXAMPLE_TASK, EXAMPLES
    from taue.simulator.explain import explain, explanation_text

    tools = tool_descriptions(get_domain(EXAMPLE_TASK.domain))
    read = [(example, explain(example.message, EXAMPLE_TASK, tools)) for example in EXAMPLES]
    if as_json:
        rows = [{**e.model_dump(), "explanation": x.model_dump()} for e, x in read]
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    for example, result in read:
        typer.echo(
            f"## {example.category}: {example.what}\n\n{example.message}\n\n{explanation_text(result)}\n"
        )


def _task(domain: str, task_id: str):
    from taue.envs.runtime.discovery import get_domain

    try:
        found = get_domain(domain)
    except KeyError as exc:
        typer.echo(f"error: {exc.args[0]}", err=True)
        raise typer.Exit(2) from None
    task = found.task_index.get(task_id)
    if task is None:
        typer.echo(f"error: no task {task_id!r} in {domain}", err=True)
        raise typer.Exit(2)
    return task, tool_descriptions(found)


def tool_descriptions(domain) -> dict[str, str]:
    """Each tool's description (its docstring's first paragraph), as the agent sees it."""
    return {fn.__name__: (fn.__doc__ or "").strip().split("\n\n")[0] for fn in domain.tools}


CORPUS_HELP = (
    "Read every message of the dialogue-act corpus (tests/simulator/corpus) as the scripted user does "
    "and print per-act precision and recall on the test split (targets: 97 % for completion claims, "
    "confirmations matched to the right goal and fact requests). Recorded LLM-agent messages are read "
    "from the published few-shot data (TAUE_PUBLISHED_DATA, else ../shared/data/tau-emotion-bench); "
    "without it they are left out, and the output says so. `--corpus sgd` reads the agent turns of the "
    "Schema-Guided Dialogue corpus instead (TAUE_SGD_DATA, else "
    "../shared/data/sgd/system_turns_dev.jsonl; targets: 95 % for confirmations, completion claims, "
    "failures, fact requests and choices; --split does not apply)."
)


@simulator_app.command("corpus-eval", help=CORPUS_HELP)
def corpus_eval(
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the report, misses included, as JSON.")
    ] = False,
    split: Annotated[str, typer.Option(help="test, train or all.")] = "test",
    corpus: Annotated[
        str | None,
        typer.Option(
            help="The corpus folder (default: the checkout's), or `sgd`: the Schema-Guided Dialogue turns."
        ),
    ] = None,
    show: Annotated[int, typer.Option(min=0, help="Misses to print (text output).")] = 10,
) -> None:
    from taue.simulator.corpus import evaluate, load_corpus, report_markdown

    if corpus == "sgd":
        sgd_eval(as_json, show)
        return
    folder = Path(corpus) if corpus else default_corpus()
    if split not in ("test", "train", "all") or not folder.is_dir():
        typer.echo(f"error: split must be test, train or all, and {folder} a corpus folder", err=True)
        raise typer.Exit(2)
    entries = load_corpus(folder)
    resolver = CorpusResolver()
    report = evaluate(entries, split, resolver.text, resolver.context)
    if as_json:
        typer.echo(report.model_dump_json(indent=2))
    else:
        typer.echo(report_markdown(report))
        for miss in report.misses[:show]:
            typer.echo(f"- {miss.id} {miss.act}: expected {miss.expected}, got {miss.got}")
        if len(report.misses) > show:
            typer.echo(f"... {len(report.misses) - show} more misses (--show N or --json)")
    left_out = sum(1 for e in entries if e.source == "recorded" and (split == "all" or e.split == split))
    if resolver.missing_data and left_out:
        typer.echo(
            f"note: {left_out} recorded messages left out: no published data at {resolver.data}", err=True
        )
    if not report.meets_targets():
        raise typer.Exit(1)


def default_corpus() -> Path:
    import taue.simulator

    return Path(taue.simulator.__file__).resolve().parent.parent / "tests" / "simulator" / "corpus"


def published_data() -> Path:
    import os

    import taue.simulator

    default = Path(taue.simulator.__file__).resolve().parent.parent.parent / "shared/data/tau-emotion-bench"
    return Path(os.environ.get("TAUE_PUBLISHED_DATA", default))


def sgd_data() -> Path:
    """The Schema-Guided Dialogue agent turns: `TAUE_SGD_DATA`, else beside the checkout."""
    import os

    import taue.simulator

    checkout = Path(taue.simulator.__file__).resolve().parent.parent
    default = checkout.parent / "shared/data/sgd/system_turns_dev.jsonl"
    return Path(os.environ.get("TAUE_SGD_DATA") or default)


def sgd_eval(as_json: bool, show: int) -> None:
    """`corpus-eval --corpus sgd`: the reader on the SGD agent turns (utterances printed, never stored)."""
    from taue.simulator.sgd_corpus import evaluate, fact_books, load_turns, report_markdown

    path = sgd_data()
    if not path.is_file():
        typer.echo(f"error: no SGD data at {path} (set TAUE_SGD_DATA to system_turns_dev.jsonl)", err=True)
        raise typer.Exit(2)
    turns = load_turns(path)
    report = evaluate(turns, fact_books(turns), text=True)
    if as_json:
        typer.echo(report.model_dump_json(indent=2))
    else:
        typer.echo(report_markdown(report))
        for miss in report.misses[:show]:
            where = f"{miss.dialogue_id}#{miss.turn}"
            typer.echo(f"- {where} {miss.act}: expected {miss.expected}, got {miss.got}: {miss.text!r}")
        if len(report.misses) > show:
            typer.echo(f"... {len(report.misses) - show} more misses (--show N or --json)")
    if not report.meets_targets():
        raise typer.Exit(1)


class CorpusResolver:
    """Message texts and reading contexts of corpus entries: tasks from the installed domains,
    recorded messages from the published few-shot files (read, never stored)."""

    def __init__(self) -> None:
        self.data = published_data() / "few_shot_data"
        self.missing_data = not self.data.is_dir()
        self._files: dict[str, list[str]] = {}

    def text(self, entry) -> str | None:
        if entry.message is not None:
            return entry.message
        turn = self._turns(entry.ref.file, entry.ref.line)
        if turn is None or entry.ref.turn >= len(turn):
            return None
        return turn[entry.ref.turn].removeprefix("assistant: ")

    def _turns(self, file: str, line: int) -> list[str] | None:
        from taue.simulator.corpus import recorded_turns

        if self.missing_data:
            return None
        if file not in self._files:
            path = self.data / file
            self._files[file] = path.read_text(encoding="utf-8").splitlines() if path.is_file() else []
        lines = self._files[file]
        if line >= len(lines):
            return None
        return recorded_turns(json.loads(lines[line])["messages_display"])

    def context(self, entry):
        from taue.envs.runtime.discovery import get_domain
        from taue.simulator.corpus import scenario_context, task_context

        domain = get_domain(entry.domain)
        if entry.task is not None:
            return task_context(domain.task_index[entry.task], tool_descriptions(domain))
        turns = self._turns(entry.ref.file, entry.ref.line) if entry.ref else None
        if turns is None or entry.scenario is None:
            return None
        values = [t for turn in turns if not turn.startswith("assistant: ") for t in turn.split()]
        return scenario_context(entry.scenario, values, tool_descriptions(domain))


REPLAY_HELP = (
    "Replay recorded real-agent conversations (a τ-bench trajectory file) through the scripted user: "
    "every agent text the customer saw is fed in order, with the service's confirmations of the "
    "agent's successful writes, to the user playing the same task of an imported task set (taue import "
    "tau-bench --tasks FILE). Counts the turns the user cannot place, the proposals the recorded "
    "customer accepted that it does not approve, approvals of the wrong goal, completion reports it "
    "misses, and where it would have ended the conversation (docs/simulator.md, 'Replaying real agents')."
)


@simulator_app.command("replay", help=REPLAY_HELP)
def replay(
    file: Annotated[
        Path,
        typer.Argument(
            help="A τ-bench trajectory file: a JSON list of {task_id, trial, reward, info, traj}."
        ),
    ],
    task_set: Annotated[
        str, typer.Option("--task-set", help="The task set holding the recordings' tasks (by task_id).")
    ],
    condition: Annotated[
        str | None,
        typer.Option(
            help="Play every task under this emotion condition (emotion.politeness.urgency.trust, see "
            "taue emotion list) or 'neutral' (the neutral twin); default: each task as imported."
        ),
    ] = None,
    every: Annotated[
        bool, typer.Option("--all", help="Replay every conversation, not only those with reward 1.")
    ] = False,
    seed: Annotated[int, typer.Option(help="The scripted user's seed (its wording).")] = 0,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the whole report, every flagged turn included, as JSON.")
    ] = False,
    show: Annotated[int, typer.Option(min=0, help="How many flagged turns to print (text output).")] = 10,
) -> None:
    from taue.envs.task_sets.loader import require_task_set
    from taue.envs.task_sets.storage import TaskSetError
    from taue.simulator.replay import ReplayError, report_text
    from taue.simulator.replay import replay as replay_file

    try:
        domain = require_task_set(task_set)
        report = replay_file(
            file,
            domain.tasks,
            task_set,
            domain.write_tools,
            tool_descriptions(domain),
            condition,
            seed,
            every,
        )
    except (TaskSetError, ReplayError) as exc:
        typer.echo(f"error: {str(exc).splitlines()[0]}", err=True)
        raise typer.Exit(2) from None
    typer.echo(report.model_dump_json(indent=2) if as_json else report_text(report, show))
