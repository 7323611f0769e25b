"""`taue import tau-bench ...` and `taue db export ...`: published task sets in, published databases out."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Annotated, Any

import httpx2
import typer
from rich.console import Console

from taue.envs.runtime.domain import Domain
from taue.envs.runtime.registry import get_domain
from taue.envs.runtime.tasks import Task
from taue.envs.task_sets.exporter import published_tables, seed_state, write_tables
from taue.envs.task_sets.importer import SPLITS, import_task_set
from taue.envs.task_sets.loader import require_task_set
from taue.envs.task_sets.storage import TaskSetError, TaskSetInfo, task_sets_root
from taue.runner.control import ControlClient, InfraError
from taue.runner.embedded import embedded_domains
from taue.runner.mcp_session import episode_session

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
) -> None:
    """Import one domain split as a task set in $TAUE_HOME (default ./task-sets); never runs PATH's code."""
    if split not in SPLITS:
        raise _fail(f"--split must be one of {', '.join(SPLITS)}, not {split!r}")
    try:
        info = asyncio.run(import_task_set(path, domain, split, task_set, emotion_twins, replace))
    except TaskSetError as exc:
        raise _fail(str(exc)) from None
    if as_json:
        typer.echo(json.dumps(info.model_dump(mode="json"), indent=2, ensure_ascii=False))
        return
    _report(info)


def _report(info: TaskSetInfo) -> None:
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
    if export_format not in FORMATS:
        raise _fail(f"--format must be one of {', '.join(FORMATS)}, not {export_format!r}")
    if (task_set is None) == (episode is None):
        raise _fail("give exactly one of --task-set NAME or --episode ID")
    if episode is not None and (after is not None or control_url is None):
        raise _fail("--episode needs --control-url URL and takes no --after")
    try:
        target, state, problems = asyncio.run(_state(task_set, after, episode, control_url, domain))
        written = write_tables(out_dir, published_tables(target, state))
    except (TaskSetError, InfraError, ValueError, KeyError) as exc:
        raise _fail(str(exc).strip('"')) from None
    for problem in problems:
        console.print(f"warning: {problem}", style="yellow", markup=False)
    typer.echo(f"wrote {', '.join(p.name for p in written)} to {out_dir}")


async def _state(
    task_set: str | None, after: str | None, episode: str | None, control_url: str | None, domain: str | None
) -> tuple[Domain, dict[str, Any], list[str]]:
    if episode is not None and control_url is not None:
        target, state = await live_state(control_url, episode, domain)
        return target, state, []
    target = _domain(task_set or "")
    if after is None:
        return target, seed_state(target), []
    state, problems = await state_after(target, _task(target, after))
    return target, state, problems


def _domain(name: str) -> Domain:
    try:
        return get_domain(name)
    except KeyError:
        return require_task_set(name)


def _task(domain: Domain, task_id: str) -> Task:
    task = domain.task_index.get(task_id)
    if task is None:
        raise TaskSetError(
            f"no task {task_id!r} in {domain.name!r} (see taue tasks list --task-set {domain.name})"
        )
    return task


async def state_after(domain: Domain, task: Task) -> tuple[dict[str, Any], list[str]]:
    """The canonical state after the task's initial state and ground truth, called over MCP on an embedded
    server (conversation-ending tools skipped, as in the scorer's replay); failing calls are reported."""
    problems = []
    async with embedded_domains([domain.name]) as servers, httpx2.AsyncClient(timeout=60) as http:
        control = ControlClient(servers[domain.name].control_url, http)
        created = await control.create_episode(task.id, 0)
        headers = {"Authorization": f"Bearer {created.token}"}
        async with episode_session(created.mcp_url, headers) as client:
            for index, action in enumerate(task.evaluation.actions):
                if action.name in domain.terminal_tools:
                    continue
                result = await client.call_tool(action.name, dict(action.arguments))
                if result.is_error:
                    text = "".join(getattr(block, "text", "") for block in result.content)
                    problems.append(f"ground-truth action {index} {action.name} failed: {text}")
        state = (await control.state(created.episode_id))["state"]
        await control.delete_episode(created.episode_id)
    return state, problems


async def live_state(control_url: str, episode_id: str, domain: str | None) -> tuple[Domain, dict[str, Any]]:
    """(the domain of the episode's tables, its canonical state) from a running server's control port."""
    async with httpx2.AsyncClient(timeout=60) as http:
        control = ControlClient(control_url, http, os.environ.get("TAUE_ADMIN_TOKEN"))
        try:
            served = (await http.get(control.base_url + "/healthz")).json()["domain"]
        except (httpx2.HTTPError, ValueError, KeyError) as exc:
            raise InfraError(
                f"{control_url}/healthz: not a taue domain server ({type(exc).__name__})"
            ) from None
        state = (await control.state(episode_id))["state"]
    name = domain or served
    try:
        return _domain(name), state
    except TaskSetError:
        raise TaskSetError(
            f"the server serves {served!r}, which is neither an installed domain nor a task set here; "
            "pass --domain with its base domain or task set"
        ) from None
