"""One way to set every option of `taue run`, `taue tracer rollout`, `taue episode …` and `taue serve …`.

Each option is read, first found wins, from:

1. its flag on the command line (`--user-base-url URL`);
2. the environment variable `TAUE_<OPTION>`: the long flag without dashes, upper-cased, inner
   dashes as underscores (`TAUE_USER_BASE_URL`, `TAUE_TRIALS`, `TAUE_THINKING=false`); a repeatable
   option takes several values separated by spaces (`TAUE_ENV="airline=http://a:9000 retail=…"`);
3. the settings file given with `--config FILE` (or `TAUE_CONFIG`): TOML, one top-level key per
   option, named like the flag with underscores (`user_base_url = "…"`, `trials = 3`,
   `thinking = false`, `env = ["airline=http://a:9000"]`), only options of the command it is given to;
4. the option's default.

Secrets never come from a settings file: API keys and the admin token stay environment variables
(`SECRET_VARIABLES`), and a settings key that names one is refused. A bad file (unreadable, not
TOML, an unknown key, a value of the wrong type) is a one-line error, exit 2, before the command runs.

A command takes part by being registered with `cls=SettingsCommand` and declaring
`config: SettingsFile = None`.
"""

from __future__ import annotations

import difflib
import inspect
import types
import typing
from pathlib import Path
from typing import Annotated, Any

import typer
import typer.core

from taue.cli.options import fail

ENV_PREFIX = "TAUE_"
SECRET_VARIABLES = (
    "TAUE_AGENT_API_KEY",
    "TAUE_USER_API_KEY",
    "TAUE_JUDGE_API_KEY",
    "TAUE_REFINER_API_KEY",
    "TAUE_PARAPHRASE_API_KEY",
    "TAUE_ADMIN_TOKEN",
)
"""Read from the environment only, never from a settings file and never written to run.json."""
SECRET_ENDINGS = ("_key", "token", "secret", "password")


class SettingsError(ValueError):
    """A settings file that cannot be used; the one-line message names the file and the key."""


# Options are typed Any: typer ships its own copy of click, whose classes differ between typer versions.


def setting_name(option: Any) -> str:
    """The option's name in a settings file: its first long flag, dashes as underscores."""
    flag = next((opt for opt in option.opts if opt.startswith("--")), f"--{option.name}")
    return flag.removeprefix("--").replace("-", "_")


def env_variable(option: Any) -> str:
    return f"{ENV_PREFIX}{setting_name(option).upper()}"


def settable_options(command: Any) -> dict[str, Any]:
    """The command's options by settings name (arguments and --config itself are left out)."""
    return {
        setting_name(param): param
        for param in command.params
        if getattr(param, "param_type_name", "") == "option" and param.name != "config"
    }


class SettingsCommand(typer.core.TyperCommand):
    """A command whose every option also reads `TAUE_<OPTION>` and a `--config` file (shown in --help)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not any(param.name == "config" for param in self.params):
            raise TypeError(f"settings command {self.name!r} must declare `config: SettingsFile = None`")
        for param in self.params:
            if isinstance(param, typer.core.TyperOption):
                param.envvar = env_variable(param)
                param.show_envvar = True

    def format_options(self, ctx: Any, formatter: Any) -> None:
        """Plain help (stdout not a terminal) keeps the rich help's panels as sections, in order."""
        sections: dict[str, list[tuple[str, str]]] = {}
        for param in self.get_params(ctx):
            if (record := param.get_help_record(ctx)) is not None:
                panel = getattr(param, "rich_help_panel", None) or "Options"
                sections.setdefault(panel, []).append(record)
        for panel, records in sorted(sections.items(), key=lambda item: item[0] != "Options"):
            with formatter.section(panel):
                formatter.write_dl(records)


def load_settings_file(ctx: Any, param: Any, value: Path | None) -> None:
    """`--config` callback (eager, so it runs before the other options are read): the file's values
    become the command's defaults, below flags and environment variables."""
    if value is None or ctx.resilient_parsing:
        return
    try:
        defaults = read_settings(value, ctx.command, ctx)
    except SettingsError as exc:
        raise fail(str(exc)) from None
    ctx.default_map = {**(ctx.default_map or {}), **defaults}


SettingsFile = Annotated[
    Path | None,
    typer.Option(
        "--config",
        metavar="FILE",
        is_eager=True,
        expose_value=False,
        callback=load_settings_file,
        help="TOML settings file, one key per option (`trials = 3`); flags and TAUE_* variables win "
        "over it (docs/running.md).",
    ),
]


def read_settings(path: Path, command: Any, ctx: Any) -> dict[str, Any]:
    """The file's settings as the command's defaults (by parameter name), each checked."""
    raw = read_toml(path)
    options = settable_options(command)
    hints = typing.get_type_hints(inspect.unwrap(command.callback))
    defaults = {}
    for key, value in raw.items():
        option = known_option(path, key, value, options, ctx.command_path)
        if option.name in NUMBER_OR_WORD and is_kind(value, int):
            value = str(value)
        check_kind(path, key, value, hints[option.name])
        try:
            option.process_value(ctx, value)
        except typer.BadParameter as exc:
            raise SettingsError(f"{path}: {key}: {exc.message} (got {value!r})") from None
        defaults[option.name] = value
    return defaults


def read_toml(path: Path) -> dict[str, Any]:
    import tomllib

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise SettingsError(f"cannot read the settings file {path}: {reason}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"{path}: not valid TOML: {exc}") from None


def looks_secret(key: str, option: Any | None) -> bool:
    """A setting named like a secret (`…_key`, `…token`), unless it is an on/off flag
    (`--insecure-no-token`)."""
    return key.lower().endswith(SECRET_ENDINGS) and not getattr(option, "is_flag", False)


def known_option(path: Path, key: str, value: Any, options: dict[str, Any], command: str) -> Any:
    if looks_secret(key, options.get(key)):
        raise SettingsError(
            f"{path}: {key}: secrets are never read from a settings file; set {ENV_PREFIX}{key.upper()} "
            "in the environment"
        )
    if isinstance(value, dict):
        raise SettingsError(f"{path}: [{key}]: no tables; write the settings of {command} as top-level keys")
    if key not in options:
        close = difflib.get_close_matches(key, options, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else f"; known: {', '.join(sorted(options))}"
        raise SettingsError(f"{path}: unknown setting {key!r} for {command}{hint}")
    return options[key]


NUMBER_OR_WORD = frozenset({"workers"})
"""Options that take a number or a word (`--workers 2|auto`): a TOML integer is their number."""


def check_kind(path: Path, key: str, value: Any, annotation: Any) -> None:
    """TOML values must have the option's own type: no `trials = "3"`, `quiet = 1` or `env = "a=b"`."""
    expected = base_type(annotation)
    if typing.get_origin(expected) is list:
        [item_type] = typing.get_args(expected)
        if isinstance(value, list) and all(is_kind(item, item_type) for item in value):
            return
        raise SettingsError(f"{path}: {key}: expected a list of {kind_name(item_type)}s, got {value!r}")
    if not is_kind(value, expected):
        raise SettingsError(f"{path}: {key}: expected {kind_name(expected, article=True)}, got {value!r}")


def base_type(annotation: Any) -> Any:
    """`Annotated[int | None, …]` -> int."""
    if typing.get_origin(annotation) is Annotated:
        annotation = typing.get_args(annotation)[0]
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        [annotation] = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
    return annotation


def is_kind(value: Any, expected: Any) -> bool:
    if expected is bool:
        return isinstance(value, bool)
    if expected is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if expected is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, str)


def kind_name(expected: Any, article: bool = False) -> str:
    name = {bool: "boolean", int: "integer", float: "number"}.get(expected, "string")
    return f"{'an' if name[0] == 'i' else 'a'} {name}" if article else name
