"""`taue`: the command line of τ-Emotion-Bench."""

from __future__ import annotations

import importlib
import json
import pkgutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple

import typer
from rich.console import Console
from rich.text import Text

from taue.cli import commands
from taue.cli.options import KEY_FILE_HELP
from taue.cli.options import fail as _fail
from taue.cli.options import parse_choice as _parse_choice
from taue.cli.options import parse_domains as _parse_domains
from taue.cli.options import parse_location as _parse_location
from taue.cli.options import signing_key as _signing_key
from taue.cli.options import stdout_console as _stdout_console
from taue.cli.options import uncut_help as _uncut_help
from taue.cli.options import user_fault as _user_fault
from taue.cli.settings import SettingsCommand, SettingsFile
from taue.cli.trust_options import TrustedKeys, key_ring

if TYPE_CHECKING:
    from taue.contracts.integrity import SigningKey
    from taue.contracts.run import Split
    from taue.contracts.tasks import Task
    from taue.runner.storage import RunLocation
    from taue.runner.trust import KeyRing

# Everything below the CLI is imported inside the commands that need it, so `taue --help` and every
# command start without loading servers, models or gRPC.

app = typer.Typer(
    help="τ-Emotion-Bench: evaluate tool-calling agents against emotional users.", no_args_is_help=True
)
tasks_app = typer.Typer(help="Inspect and validate task files.", no_args_is_help=True)
serve_app = typer.Typer(help="Run services as long-lived servers.", no_args_is_help=True)
app.add_typer(tasks_app, name="tasks")
app.add_typer(serve_app, name="serve")
console = Console(stderr=True, soft_wrap=True)


@tasks_app.command("list")
def tasks_list(
    domain: Annotated[str | None, typer.Option(help="Only this domain.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
    task_set: Annotated[str | None, typer.Option(help="Only this imported task set.")] = None,
    split: Annotated[
        str, typer.Option(help="eval (the benchmark tasks and twins) or train (the Tracer training split).")
    ] = "eval",
) -> None:
    """Each task's id, domain, emotion condition (null for a neutral twin), twin, gold call count and
    whether it is a policy challenge (part of the request must be refused)."""
    from rich.table import Table

    from taue.contracts.run import SPLITS
    from taue.envs.runtime.discovery import domain_names

    chosen_split = _parse_choice("--split", split, SPLITS)
    domain = task_set or domain
    names = _parse_domains(domain) if domain else list(domain_names())
    rows: list[dict[str, Any]] = []
    for name in names:
        for task in _load_tasks(name, chosen_split):
            rows.append(
                {
                    "id": task.id,
                    "domain": task.domain,
                    "condition": task.condition_id,
                    "twin": task.twin,
                    "actions": len(task.evaluation.actions),
                    "refusal": any(goal.refusal_expected for goal in task.user_scenario.goals),
                    "provenance": task.provenance.model_dump(),
                }
            )
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    table = Table()
    for column in ("id", "domain", "condition", "twin", "actions", "refusal"):
        table.add_column(column)
    for r in rows:
        cells = (r["id"], r["domain"], r["condition"] or "-", r["twin"] or "-", str(r["actions"]))
        table.add_row(*cells, "yes" if r["refusal"] else "")
    _stdout_console().print(table)


def _load_tasks(name: str, split: Split = "eval") -> list[Task]:
    from taue.contracts.tasks import TaskFileError
    from taue.envs.runtime.discovery import get_domain

    try:
        domain = get_domain(name)
        return domain.train_tasks if split == "train" else domain.tasks
    except TaskFileError as exc:
        raise _fail(str(exc)) from None


@tasks_app.command("validate")
def tasks_validate(
    domain: Annotated[str | None, typer.Option(help="Only this domain.")] = None,
    task_set: Annotated[str | None, typer.Option(help="Only this imported task set.")] = None,
) -> None:
    """Check schema, twins, goal targets, outputs, and that every ground-truth action replays."""
    import asyncio

    from taue.envs.runtime.discovery import domain_names, get_domain
    from taue.envs.runtime.task_checks import task_set_problems

    domain = task_set or domain
    names = _parse_domains(domain) if domain else list(domain_names())
    bad = 0
    for name in names:
        tasks = _load_tasks(name)
        problems = asyncio.run(task_set_problems(get_domain(name), tasks))
        for problem in problems:
            console.print(f"[red]{name}[/red]: {problem}")
        bad += len(problems)
        console.print(f"{name}: {len(tasks)} tasks, {len(problems)} problems")
    if bad:
        raise typer.Exit(1)


@app.command()
def merge(
    run_dirs: Annotated[
        list[str], typer.Argument(help="Run directories or object-store URLs to combine (e.g. the shards).")
    ],
    out: Annotated[str, typer.Option(help="Directory (or object-store URL) for the merged run.")],
    name: Annotated[
        str | None,
        typer.Option(
            help="Name of the merged run (default: the shards' common name, else the --out folder's)."
        ),
    ] = None,
    key_file: Annotated[Path | None, typer.Option(help=KEY_FILE_HELP)] = None,
    trusted_keys: TrustedKeys = None,
    allow_unverified: Annotated[
        bool, typer.Option(help="Merge records that fail verification (each problem is still printed).")
    ] = False,
    allow_self_signed: Annotated[
        bool,
        typer.Option(help="Merge inputs not signed with a trusted key (with --key-file or --trusted-keys)."),
    ] = False,
) -> None:
    """Combine shard runs into one run, identical to an unsharded run of the same settings. Every
    input is verified first (as `taue verify`, missing episodes aside): a record that fails stops the
    merge (exit 2) unless --allow-unverified. Each input's signed manifest is kept: only shards of one
    run merge (one run per shard), and `merged_run_ids` are their run ids. Given a key or
    --trusted-keys, an input signed with another key stops the merge unless --allow-self-signed."""

    from taue.runner.merge import MergeError, merge_runs
    from taue.runner.storage import StorageError
    from taue.runner.verify import VerifyError

    shards, merged = [_parse_location(run_dir) for run_dir in run_dirs], _parse_location(out)
    key = _signing_key(key_file)
    ring = key_ring(key_file, trusted_keys)
    try:
        if ring.trusted and not allow_self_signed:
            _refuse_untrusted(shards, ring)
        report = merge_runs(shards, merged, name, key, allow_unverified)
    except (MergeError, StorageError, VerifyError) as exc:
        raise _fail(str(exc)) from None
    for line in report.unverified:
        console.print(Text.assemble(("unverified:", "yellow"), " ", line))
    console.print(
        f"{report.episodes} episodes from {len(run_dirs)} runs -> {merged.shown('results.jsonl')} "
        f"(run {report.run})"
    )
    if report.missing:
        console.print(
            f"[yellow]{report.missing} planned episodes are missing; rerun the shards that lack them"
        )
        raise typer.Exit(1)


def _refuse_untrusted(shards: list[RunLocation], ring: KeyRing) -> None:
    """One line for the first input whose records name a key that is not trusted."""
    from taue.runner.trust import signing_key_ids

    for shard in shards:
        named = signing_key_ids(shard)
        untrusted = sorted(named - ring.trusted)
        if untrusted or not named:
            key = f"with key {untrusted[0]}, which is not a trusted key" if untrusted else "by no key"
            raise _fail(f"{shard} is signed {key} (--trusted-keys); --allow-self-signed merges it")


InsecureNoToken = Annotated[
    bool,
    typer.Option(
        help="Serve without the admin token (anyone who reaches the port may use it): for a sealed-off "
        "test network only."
    ),
]


@serve_app.command("simulator", cls=SettingsCommand)
def serve_simulator(
    port: Annotated[int, typer.Option(help="gRPC port.")] = 50051,
    host: Annotated[str, typer.Option(help="Address to bind.")] = "127.0.0.1",
    session_ttl: Annotated[
        float, typer.Option(min=0.1, help="Seconds without a request after which a user session expires.")
    ] = 900.0,
    max_sessions: Annotated[
        int, typer.Option(min=1, help="Live user sessions at most; beyond it StartSession is refused.")
    ] = 10_000,
    insecure_no_token: InsecureNoToken = False,
    config: SettingsFile = None,
) -> None:
    """Serve the user simulator over gRPC (taue.v1.Simulator, health, reflection); calls need the admin
    token (TAUE_ADMIN_TOKEN)."""
    from functools import partial

    from taue.simulator.service import build_server

    secrets = _serving_secrets("simulator", insecure_no_token)
    build = partial(build_server, session_ttl_s=session_ttl, max_sessions=max_sessions, token=secrets.token)
    _serve_grpc(build, host, port, "simulator", secrets.warnings)


@serve_app.command("scorer", cls=SettingsCommand)
def serve_scorer(
    port: Annotated[int, typer.Option(help="gRPC port.")] = 50052,
    host: Annotated[str, typer.Option(help="Address to bind.")] = "127.0.0.1",
    insecure_no_token: InsecureNoToken = False,
    config: SettingsFile = None,
) -> None:
    """Serve the scorer over gRPC (taue.v1.Scorer, health, reflection); calls need the admin token
    (TAUE_ADMIN_TOKEN); rewards are sealed with TAUE_SIGNING_KEY."""
    from functools import partial

    from taue.scorer.service import build_server

    secrets = _serving_secrets("scorer", insecure_no_token, signs="rewards")
    build = partial(build_server, token=secrets.token, signing_key=secrets.key)
    _serve_grpc(build, host, port, "scorer", secrets.warnings)


class _Secrets(NamedTuple):
    token: str | None
    key: SigningKey | None
    warnings: list[str]
    """Printed after the line saying where the service listens (scripts read that line first)."""


def _serving_secrets(name: str, insecure_no_token: bool, signs: str | None = None) -> _Secrets:
    """A service's admin token (required unless told to serve open) and, for one that signs `signs`,
    its signing key (TAUE_SIGNING_KEY / TAUE_SIGNING_KEY_FILE; unsigned with a warning without)."""
    from taue.contracts.integrity import SigningKey, admin_token_from_env

    warnings = []
    try:
        token = admin_token_from_env()
        key = SigningKey.from_env() if signs else None
    except ValueError as exc:
        raise _fail(str(exc)) from None
    if insecure_no_token:
        token = None
        warnings.append(f"warning: {name} serves WITHOUT a token: anyone who reaches it can use it")
    elif token is None:
        raise _fail(
            f"the {name} needs an admin token: set TAUE_ADMIN_TOKEN (or TAUE_ADMIN_TOKEN_FILE), e.g. "
            "`export TAUE_ADMIN_TOKEN=$(openssl rand -hex 24)`; --insecure-no-token serves without one"
        )
    if signs and key is None:
        warnings.append(f"warning: {name}: TAUE_SIGNING_KEY is not set, {signs} are not signed")
    return _Secrets(token, key, warnings)


def _serve_grpc(build, host: str, port: int, name: str, warnings: list[str]) -> None:
    import asyncio

    async def serve() -> None:
        try:
            server = build(host, port)  # grpc.aio servers belong to the loop they are created in
        except OSError as exc:
            raise _fail(f"cannot listen on {host}, port {port}: {exc}") from None
        console.print(f"{name}: gRPC on {server.address} (SIGTERM stops it cleanly)")
        for warning in warnings:
            console.print(warning, markup=False)
        await server.serve_until_signalled()

    asyncio.run(serve())


@serve_app.command("env", cls=SettingsCommand)
def serve_env(
    domain: Annotated[str, typer.Argument(help="The domain to serve.")],
    mcp_port: Annotated[int, typer.Option(help="Agent-facing MCP port.")] = 8000,
    control_port: Annotated[int, typer.Option(help="Control port (never give it to agents).")] = 9000,
    host: Annotated[str, typer.Option(help="Address to bind.")] = "127.0.0.1",
    public_host: Annotated[str | None, typer.Option(help="Host name agents use for the MCP port.")] = None,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            help="Allowed Host header on the MCP port (repeatable; host:port); the control port answers "
            "these names on any port. Default on a loopback address: the loopback names."
        ),
    ] = None,
    episode_ttl: Annotated[
        float,
        typer.Option(min=0.1, help="Seconds without an MCP or control request before an episode expires."),
    ] = 900.0,
    max_episodes: Annotated[
        int | None,
        typer.Option(min=1, help="Live episodes at most (beyond: 429). Default: memory limit / one episode."),
    ] = None,
    memory_limit: Annotated[
        int | None,
        typer.Option(
            "--memory-limit-mb",
            "--memory-limit",
            min=1,
            help="MB the server may use, for the episode cap. Default: the cgroup limit, else half the RAM.",
        ),
    ] = None,
    insecure_no_token: InsecureNoToken = False,
    config: SettingsFile = None,
) -> None:
    """Serve one domain: MCP on --mcp-port, control API on --control-port (admin token: TAUE_ADMIN_TOKEN,
    required unless --insecure-no-token; observations signed with TAUE_SIGNING_KEY)."""
    import asyncio

    from taue.envs.runtime.discovery import get_domain
    from taue.envs.runtime.server import DomainServer

    _parse_domains(domain)
    secrets = _serving_secrets(f"{domain} domain server", insecure_no_token, signs="episode observations")
    try:
        server = DomainServer(
            get_domain(domain),
            host=host,
            mcp_port=mcp_port,
            control_port=control_port,
            public_host=public_host,
            allowed_hosts=allowed_host,
            admin_token=secrets.token,
            insecure_no_token=secrets.token is None,
            signing_key=secrets.key,
            episode_ttl_s=episode_ttl,
            max_episodes=max_episodes,
            memory_limit_mb=memory_limit,
        )
    except OSError as exc:  # a port in use or an address not of this machine
        ports = f"MCP port {mcp_port}, control port {control_port}"
        raise _fail(f"cannot listen on {host}, {ports}: {exc}") from None
    console.print(f"{domain}: MCP {server.mcp_url}/episodes/<id>/mcp, control {server.control_url}")
    for warning in secrets.warnings:
        console.print(warning, markup=False)
    asyncio.run(server.serve_until_signalled())


def _register_command_modules() -> None:
    """Each module of `taue.cli.commands` adds its commands with `register(app)`."""
    for module in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        importlib.import_module(f"{commands.__name__}.{module.name}").register(app)


_register_command_modules()


def main() -> None:
    try:
        app(**_uncut_help(app))
    except BrokenPipeError:  # e.g. `taue tasks list --json | head`
        sys.exit(0)
    except (OSError, ValueError) as exc:  # the net under the commands' own one-line errors
        message = _user_fault(exc)
        if message is None:
            raise  # a bug: its traceback must show
        _fail(message)
        sys.exit(2)
