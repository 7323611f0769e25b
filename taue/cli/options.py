"""Parsing shared by the commands: one-line errors (exit 2) for domains, shards, workers, choices and
service URLs."""

from __future__ import annotations

import errno
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import typer
from rich.console import Console
from rich.text import Text

if TYPE_CHECKING:
    from taue.contracts.integrity import SigningKey
    from taue.runner.storage import RunLocation

console = Console(stderr=True, soft_wrap=True)
Choice = TypeVar("Choice", bound=str)
UNCUT_WIDTH = 100_000
"""Columns given to help and tables when stdout is not a terminal: wide enough that nothing is cut."""


def stdout_console() -> Console:
    """The console for tables on stdout: on a terminal, its width; into a pipe or a file, as wide as
    the table, so no cell is cut short with "…" (`taue tasks list | grep …`)."""
    return Console() if sys.stdout.isatty() else Console(width=UNCUT_WIDTH)


def uncut_help(app: typer.Typer) -> dict[str, Any]:
    """When stdout is not a terminal, help is click's plain text, unwrapped: no boxes, nothing cut with
    "…" (`taue run --help | grep`); returns the context settings to run `app` with."""
    if sys.stdout.isatty():
        return {}
    _plain_help(app)
    return {"terminal_width": UNCUT_WIDTH, "max_content_width": UNCUT_WIDTH}


def _plain_help(app: typer.Typer) -> None:
    app.rich_markup_mode = None
    for group in app.registered_groups:
        if group.typer_instance is not None:
            _plain_help(group.typer_instance)


USER_ERRNOS = frozenset(
    {errno.ENOSPC, errno.EDQUOT, errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOTDIR, errno.EISDIR}
)
"""File-system errors of a path the user gave or of their disk, never of this program."""


def user_fault(exc: BaseException) -> str | None:
    """The one-line message of an error the user can fix that no command caught (a path that cannot
    be used, a full disk, a corrupt results file); None for anything else, whose traceback must show."""
    from taue.runner.results import ResultsFileError
    from taue.runner.storage import NO_SPACE, RunDirError, file_fault

    if isinstance(exc, RunDirError | ResultsFileError):
        return str(exc)
    if not isinstance(exc, OSError) or not exc.filename:
        return None
    path = Path(str(exc.filename))
    if exc.errno in NO_SPACE:
        return str(file_fault(path, exc))
    if exc.errno in USER_ERRNOS or (exc.errno == errno.ENOENT and not _ours(path)):
        return f"{path}: {exc.strerror or type(exc).__name__}"
    return None


def _ours(path: Path) -> bool:
    """Whether `path` is inside this program's installation (a file missing there is a bug)."""
    homes = {Path(sys.prefix), Path(sys.base_prefix)}
    homes |= {
        Path(folder)
        for name, module in sys.modules.items()
        if name.startswith("taue")
        for folder in getattr(module, "__path__", [])
    }
    resolved = path.resolve()
    return any(resolved.is_relative_to(home.resolve()) for home in homes)


def check_base_url(flag: str, url: str | None) -> None:
    """An OpenAI-compatible endpoint's URL must be `http(s)://host[:port]/...`: else one line, exit 2."""
    from urllib.parse import urlsplit

    if url is None:
        return
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise fail(f"{flag} must be a URL like http://host:port/v1 (scheme, host, port, path), got {url!r}")


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print `error: message` and return the exit (status 2: bad input) for the caller to raise."""
    print_error(message)
    return typer.Exit(code)


def print_error(message: str) -> None:
    """`error: message` on stderr, the message printed as it is: brackets in it (a path, `.[inspect]`)
    are never read as markup."""
    console.print(Text.assemble(("error:", "red"), " ", message))


def parse_domains(value: str, remote: frozenset[str] = frozenset()) -> list[str]:
    """The domain names of `value` (`all`: every registered domain and every one in `remote`); those in
    `remote` are served elsewhere and need no local code."""
    names = [name.strip() for name in value.split(",") if name.strip()]
    if names and set(names) <= remote:
        return names
    from taue.envs.runtime.discovery import domain_names
    from taue.envs.task_sets.loader import is_task_set

    if names == ["all"]:
        return sorted(set(domain_names()) | remote)

    unknown = [
        name for name in names if name not in remote and name not in domain_names() and not is_task_set(name)
    ]
    if not names or unknown:
        raise fail(
            f"unknown domain(s) {unknown or value!r}; known: {', '.join(domain_names())} "
            "or a task set imported with `taue import tau-bench`"
        )
    return names


def parse_choice(flag: str, value: str, choices: tuple[Choice, ...]) -> Choice:
    """`value` as one of `choices` (a Literal's values: `SPLITS`), else `--flag must be a or b`."""
    for choice in choices:
        if value == choice:
            return choice
    named = f"{', '.join(choices[:-1])} or {choices[-1]}" if len(choices) > 1 else choices[0]
    raise fail(f"{flag} must be {named}, not {value!r}")


def parse_workers(value: str) -> int | None:
    """`--workers`: N (1-64), or None for auto (the runner's policy, `taue.runner.worker_count`)."""
    if value == "auto":
        return None
    if not value.isdigit() or not 1 <= int(value) <= 64:
        raise fail(f"--workers must be a number from 1 to 64 or auto, not {value!r}")
    return int(value)


def parse_shard(value: str | None) -> tuple[int, int] | None:
    if value is None:
        return None
    index, sep, count = value.partition("/")
    if not (sep and index.isdigit() and count.isdigit() and 0 <= int(index) < int(count)):
        raise fail(f"--shard takes I/N with 0 <= I < N, got {value!r}")
    return int(index), int(count)


def parse_env_urls(values: list[str]) -> dict[str, str]:
    urls = {}
    for value in values:
        name, sep, url = value.partition("=")
        if not sep or not url.startswith(("http://", "https://")):
            raise fail(f"--env takes DOMAIN=http://HOST:CONTROL_PORT, got {value!r}")
        urls[name] = url
    return urls


def parse_price_table(path: Path | None) -> dict[str, dict[str, float]] | None:
    if path is None:
        return None
    try:
        table = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise fail(f"cannot read the price table {path}: {exc}") from None
    valid = isinstance(table, dict) and all(
        isinstance(p, dict) and all(isinstance(v, int | float) for v in p.values()) for p in table.values()
    )
    if not valid:
        raise fail(f'{path}: expected {{"MODEL": {{"input": $/1M tokens, "output": $/1M tokens}}}}')
    return table


def parse_location(value: str | Path) -> RunLocation:
    """A run directory: a local path, or an object-store URL (s3://, gs://, az://, file://)."""

    from taue.runner.storage import RunLocation, StorageError

    if not str(value).strip():
        raise fail("an empty path names no run directory; give one (`.` for the current directory)")
    try:
        return RunLocation.parse(value)
    except StorageError as exc:
        raise fail(str(exc)) from None


KEY_FILE_HELP = (
    "File holding the signing key the servers signed with (default: $TAUE_SIGNING_KEY, else the file "
    "$TAUE_SIGNING_KEY_FILE names; without a key, signatures are not checked)."
)


def signing_key(key_file: Path | None) -> SigningKey | None:
    """The key of `--key-file`, else of the environment, else None; a bad key is a one-line error."""
    from taue.contracts.integrity import SigningKey

    try:
        return SigningKey.from_file(key_file) if key_file is not None else SigningKey.from_env()
    except ValueError as exc:
        raise fail(str(exc)) from None


# `taue run --help` (and `taue tracer rollout --help`): the common options stay in typer's default panel,
# the others follow in this order.
MODEL_PANEL = "Model agent (--agent model)"
USER_PANEL = "LLM user (--user llm)"
TASKS_PANEL = "Tasks"
LIMITS_PANEL = "Limits"
WORKERS_PANEL = "Workers and services"
STORAGE_PANEL = "Storage and resume"
RUN_PANELS = ("Options", MODEL_PANEL, USER_PANEL, TASKS_PANEL, LIMITS_PANEL, WORKERS_PANEL, STORAGE_PANEL)
