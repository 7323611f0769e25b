"""`taue import tau-bench ...` and `taue db export ...`: published task sets in, published databases out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

if TYPE_CHECKING:
    from taue.envs.task_sets.storage import TaskSetInfo

import_app = typer.Typer(help="Import published task sets.", no_args_is_help=True)
db_app = typer.Typer(help="Databases of domains, task sets and live episodes.", no_args_is_help=True)
console = Console(stderr=True, soft_wrap=True)
FORMATS = ("tau-bench",)


def register(app: typer.Typer) -> None:
    app.add_typer(import_app, name="import")
    app.add_typer(db_app, name="db")


def _fail(message: str) -> typer.Exit:
    console.print(f"error: {message}", style="red", markup=False, highlight=False)
    return typer.Exit(2)


@import_app.command("tau-bench")
def import_tau_bench(
    path: Annotated[
        Path,
        typer.Argument(
            help="A τ-bench-family checkout (domain under */envs/DOMAIN/) or a folder in the published "
            "JSON layout (DOMAIN/db/*.json, wiki.md, tasks_SPLIT[_no_emotion].json)."
        ),
    ],
    domain: Annotated[str, typer.Option(help="Domain to import (airline, retail, ...).")],
    split: Annotated[str, typer.Option(help="Split to import: train, dev or test.")],
    task_set: Annotated[str, typer.Option("--task-set", help="Name of the new task set.")],
    emotion_twins: Annotated[
        bool,
        typer.Option(
            "--emotion-twins/--no-emotion-twins",
            help="Link each emotional task to a neutral twin (from the _no_emotion file, else derived); "
            "--no-emotion-twins imports the emotional tasks alone.",
        ),
    ] = True,
    replace: Annotated[bool, typer.Option(help="Overwrite an existing task set of that name.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print task_set.json instead of a report.")] = False,
    tasks: Annotated[
        Path | None,
        typer.Option(
            "--tasks",
            help="A JSON file replacing the split's task files (no neutral-twins file then): a list of "
            "published tasks, or of recorded τ-bench trajectories (each distinct info.task, its index "
            "and id suffix the trajectory's task_id). PATH still gives the database and wiki.md.",
        ),
    ] = None,
) -> None:
    """Import one domain split as a task set in $TAUE_TASK_SETS_DIR (default ./task-sets); never runs
    PATH's code."""
    import asyncio

    from taue.envs.task_sets.importer import SPLITS, import_task_set
    from taue.envs.task_sets.storage import TaskSetError

    if split not in SPLITS:
        raise _fail(f"--split must be one of {', '.join(SPLITS)}, not {split!r}")
    try:
        info = asyncio.run(import_task_set(path, domain, split, task_set, emotion_twins, replace, tasks))
    except TaskSetError as exc:
        raise _fail(str(exc)) from None
    if as_json:
        typer.echo(json.dumps(info.model_dump(mode="json"), indent=2, ensure_ascii=False))
        return
    _report(info)


def _report(info: TaskSetInfo) -> None:
    from taue.envs.task_sets.storage import task_sets_root

    originals = info.emotional + (info.tasks - info.emotional - info.neutral_twins)
    clean = originals - len(info.replay_failures)
    typer.echo(
        f"task set {info.name} ({info.base_domain}, {info.split}) -> {task_sets_root() / info.name}\n"
        f"  {info.tasks} tasks: {info.emotional} emotional, {info.neutral_twins} neutral twins, "
        f"{info.tasks - info.emotional - info.neutral_twins} neutral without twin\n"
        f"  ground truth replays cleanly for {clean} of {originals} tasks "
        f"({100 * clean / max(originals, 1):.1f} %)\n"
        f"  {len(info.flagged)} tasks flagged (details: taue tasks list --task-set {info.name} --json)"
    )
    for flagged in info.flagged:
        typer.echo(f"  - {flagged.task_id} ({flagged.source} #{flagged.index}): {'; '.join(flagged.flags)}")


@db_app.command("export")
def db_export(
    out_dir: Annotated[Path, typer.Argument(help="Folder to write <table>.json files into.")],
    task_set: Annotated[
        str | None, typer.Option("--task-set", help="Export this task set's (or domain's) database.")
    ] = None,
    after: Annotated[
        str | None,
        typer.Option(help="Export the database after replaying this task's ground truth over MCP."),
    ] = None,
    episode: Annotated[str | None, typer.Option(help="Export a live episode's database.")] = None,
    control_url: Annotated[
        str | None,
        typer.Option(help="Control URL of the server holding --episode (admin token: TAUE_ADMIN_TOKEN)."),
    ] = None,
    domain: Annotated[
        str | None,
        typer.Option(help="With --episode: domain or task set of its tables (default: the server's)."),
    ] = None,
    export_format: Annotated[
        str, typer.Option("--format", help="Output layout; tau-bench: one JSON file per table.")
    ] = "tau-bench",
) -> None:
    """Write a database in the published τ-bench JSON layout (same files, keys and value types)."""
    import asyncio

    from taue.envs.task_sets.exporter import published_tables, write_tables
    from taue.envs.task_sets.storage import TaskSetError
    from taue.runner.control import InfraError
    from taue.runner.db_export import export_state

    if export_format not in FORMATS:
        raise _fail(f"--format must be one of {', '.join(FORMATS)}, not {export_format!r}")
    if (task_set is None) == (episode is None):
        raise _fail("give exactly one of --task-set NAME or --episode ID")
    if episode is not None and (after is not None or control_url is None):
        raise _fail("--episode needs --control-url URL and takes no --after")
    try:
        target, state, problems = asyncio.run(export_state(task_set, after, episode, control_url, domain))
        written = write_tables(out_dir, published_tables(target, state))
    except (TaskSetError, InfraError, ValueError, KeyError) as exc:
        raise _fail(str(exc).strip('"')) from None
    for problem in problems:
        console.print(f"warning: {problem}", style="yellow", markup=False)
    typer.echo(f"wrote {', '.join(p.name for p in written)} to {out_dir}")
