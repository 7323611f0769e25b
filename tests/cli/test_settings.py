"""Settings of `taue run`, `tracer rollout`, `episode …` and `serve …`: every option from its flag, a
`TAUE_<OPTION>` environment variable or a `--config` TOML file (first found wins), secrets from the
environment only; `TAUE_HOME` (episode state) and `TAUE_TASK_SETS_DIR` (task sets) kept apart."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from taue.cli import app
from taue.cli.commands.episode import _control_url
from taue.cli.commands.episode import _home as episode_home
from taue.cli.settings import SECRET_VARIABLES, env_variable, looks_secret, settable_options, setting_name
from taue.envs.task_sets.storage import task_sets_root
from tests.deploy.helpers import taue_command

pytestmark = pytest.mark.xdist_group("settings")

SETTINGS_COMMANDS = (
    ["run"],
    ["tracer", "rollout"],
    ["episode", "new"],
    ["episode", "say"],
    ["episode", "score"],
    ["serve", "env"],
    ["serve", "simulator"],
    ["serve", "scorer"],
)
TINY_RUN = {"domains": "airline", "agent": "oracle", "trials": 1, "limit": 1, "seed": 7, "name": "tiny"}
SECRET = "sk-settings-test-secret"


def settings_variables() -> set[str]:
    """Every TAUE_* variable a settings command reads (to keep the caller's own out of the tests)."""
    return {
        env_variable(param)
        for path in SETTINGS_COMMANDS
        for param in taue_command(path).params
        if param.param_type_name == "option"
    }


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for variable in settings_variables():
        monkeypatch.delenv(variable, raising=False)
    return monkeypatch


def taue(*args: str, env: dict[str, str] | None = None) -> Any:
    unset: dict[str, str | None] = {v: None for v in settings_variables() if v in os.environ}
    return CliRunner().invoke(app, list(args), env={**unset, "COLUMNS": "200", **(env or {})})


def toml_line(key: str, value: Any) -> str:
    return f"{key} = {json.dumps(value)}"  # JSON strings, numbers, booleans and lists are TOML too


def write_toml(path: Path, settings: dict[str, Any]) -> Path:
    path.write_text("".join(toml_line(k, v) + "\n" for k, v in settings.items()))
    return path


def run_json(run_dir: Path) -> dict[str, Any]:
    """The run's settings: run.json without its `run_id`, which every run directory makes anew."""
    settings = json.loads((run_dir / "run.json").read_text())
    assert len(settings.pop("run_id")) == 32
    return settings


def parsed(path: list[str], args: list[str]) -> tuple[dict[str, Any], dict[str, str]]:
    """The values a command would run with, and where each came from, without running it."""
    command = taue_command(path)
    with command.make_context(" ".join(path), args) as ctx:
        sources = {name: ctx.get_parameter_source(name).name for name in ctx.params}
        return dict(ctx.params), sources


def test_flags_variables_and_a_file_make_the_same_run(tmp_path: Path) -> None:
    flags = [f"--{key}={value}" for key, value in TINY_RUN.items()]
    by_flags = taue("run", *flags, "--quiet", f"--out={tmp_path / 'flags'}")
    variables = {f"TAUE_{key.upper()}": str(value) for key, value in TINY_RUN.items()}
    by_env = taue(
        "run",
        env={
            **variables,
            "TAUE_QUIET": "true",
            "TAUE_OUT": str(tmp_path / "env"),
            "TAUE_AGENT_API_KEY": SECRET,
        },
    )
    file = write_toml(tmp_path / "run.toml", {**TINY_RUN, "quiet": True, "out": str(tmp_path / "file")})
    by_file = taue("run", "--config", str(file))
    for result in (by_flags, by_env, by_file):
        assert result.exit_code == 0, result.output
    settings = run_json(tmp_path / "flags")
    picked = {key: settings[key] for key in ("domains", "trials", "limit", "seed", "run")}
    assert picked == {"domains": ["airline"], "trials": 1, "limit": 1, "seed": 7, "run": "tiny"}
    assert run_json(tmp_path / "env") == settings == run_json(tmp_path / "file")
    assert SECRET not in (tmp_path / "env" / "run.json").read_text()
    for folder in ("flags", "env", "file"):
        assert len((tmp_path / folder / "results.jsonl").read_text().splitlines()) == 1


def test_a_flag_beats_a_variable_beats_the_file_beats_the_default(
    tmp_path: Path, clean_env: pytest.MonkeyPatch
) -> None:
    file = write_toml(tmp_path / "run.toml", {"trials": 2})
    values, sources = parsed(["run"], [])
    assert (values["trials"], sources["trials"]) == (3, "DEFAULT")
    values, sources = parsed(["run"], ["--config", str(file)])
    assert (values["trials"], sources["trials"]) == (2, "DEFAULT_MAP")
    clean_env.setenv("TAUE_TRIALS", "4")
    values, sources = parsed(["run"], ["--config", str(file)])
    assert (values["trials"], sources["trials"]) == (4, "ENVIRONMENT")
    values, sources = parsed(["run"], ["--config", str(file), "--trials", "5"])
    assert (values["trials"], sources["trials"]) == (5, "COMMANDLINE")
    clean_env.setenv("TAUE_CONFIG", str(file))  # the file itself may come from the environment
    clean_env.delenv("TAUE_TRIALS")
    assert parsed(["tracer", "rollout"], [])[0]["trials"] == 2, "rollouts read the same settings"


def test_every_kind_of_option_reads_from_the_file_and_the_environment(
    tmp_path: Path, clean_env: pytest.MonkeyPatch
) -> None:
    file = write_toml(
        tmp_path / "run.toml",
        {"env": ["airline=http://a:9000", "retail=http://r:9000"], "thinking": False, "turn_timeout": 30},
    )
    values, _ = parsed(["run"], ["--config", str(file)])
    assert list(values["env"]) == ["airline=http://a:9000", "retail=http://r:9000"]
    assert values["enable_thinking"] is False and values["turn_timeout"] == 30.0
    clean_env.setenv("TAUE_ENV", "bank=http://b:9000 movie=http://m:9000")
    clean_env.setenv("TAUE_THINKING", "true")
    values, _ = parsed(["run"], ["--config", str(file)])
    assert list(values["env"]) == ["bank=http://b:9000", "movie=http://m:9000"]
    assert values["enable_thinking"] is True


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("trails = 2\n", "unknown setting 'trails' for "),
        ('trials = "2"\n', "trials: expected an integer, got '2'"),
        ("trials = 0\n", "trials: "),
        ("quiet = 1\n", "quiet: expected a boolean"),
        ('env = "airline=http://a:9000"\n', "env: expected a list of strings"),
        ("[run]\ntrials = 2\n", "[run]: no tables"),
        ("trials = \n", "not valid TOML"),
        ('agent_api_key = "sk-1"\n', "agent_api_key: secrets are never read from a settings file"),
        ('admin_token = "t"\n', "set TAUE_ADMIN_TOKEN in the environment"),
        ('user_api_key = "sk-2"\n', "set TAUE_USER_API_KEY in the environment"),
    ],
)
def test_a_bad_file_is_a_one_line_error_and_nothing_is_written(
    tmp_path: Path, text: str, message: str
) -> None:
    file = tmp_path / "bad.toml"
    file.write_text(text)
    out = tmp_path / "out"
    result = taue("run", "--domains=airline", "--limit=1", "--config", str(file), f"--out={out}")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: {file}") and message in result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stdout == "" and not out.exists()


def test_an_unreadable_file_is_a_one_line_error(tmp_path: Path) -> None:
    missing = tmp_path / "missing.toml"
    result = taue("serve", "env", "airline", "--config", str(missing))
    assert result.exit_code == 2
    assert result.stderr == f"error: cannot read the settings file {missing}: No such file or directory\n"


def test_episode_reads_variables_and_the_file(tmp_path: Path, clean_env: pytest.MonkeyPatch) -> None:
    file = write_toml(tmp_path / "episode.toml", {"domain": "retail", "simulator": "sim.example:50051"})
    clean_env.setenv("TAUE_SCORER", "scorer.example:50052")  # the variables `episode` always honoured
    values, sources = parsed(["episode", "new"], ["--config", str(file), "--task", "T1"])
    assert (values["domain"], values["task"]) == ("retail", "T1")
    assert (values["simulator"], values["scorer"]) == ("sim.example:50051", "scorer.example:50052")
    assert (sources["simulator"], sources["scorer"]) == ("DEFAULT_MAP", "ENVIRONMENT")
    clean_env.setenv("TAUE_FORCE", "1")
    assert parsed(["episode", "score"], ["ep-1"])[0] == {
        "episode": "ep-1",
        "force": True,
        "strict_policy": False,
    }
    clean_env.setenv("TAUE_ENV_BANK", "http://bank.example:9000")
    pairs = "airline=http://a.example:9000 retail=http://r.example:9000"  # `taue run`'s TAUE_ENV
    assert _control_url("retail", pairs) == "http://r.example:9000"
    assert _control_url("bank", pairs) == _control_url("bank", None) == "http://bank.example:9000"
    assert _control_url("retail", "http://x.example:9000/") == "http://x.example:9000/"
    wrong = write_toml(tmp_path / "wrong.toml", {"trials": 3})
    result = taue("episode", "new", "--task", "T1", "--config", str(wrong))
    assert result.exit_code == 2 and "unknown setting 'trials' for" in result.stderr


def test_serve_reads_variables_and_the_file(tmp_path: Path, clean_env: pytest.MonkeyPatch) -> None:
    file = write_toml(
        tmp_path / "serve.toml",
        {"mcp_port": 8001, "public_host": "airline.example", "allowed_host": ["airline.example:8001"]},
    )
    clean_env.setenv("TAUE_HOST", "0.0.0.0")
    values, _ = parsed(["serve", "env"], ["airline", "--config", str(file), "--control-port", "9001"])
    assert {k: values[k] for k in ("domain", "mcp_port", "control_port", "host", "public_host")} == {
        "domain": "airline",
        "mcp_port": 8001,
        "control_port": 9001,
        "host": "0.0.0.0",
        "public_host": "airline.example",
    }
    assert list(values["allowed_host"]) == ["airline.example:8001"]
    clean_env.setenv("TAUE_PORT", "50061")
    assert parsed(["serve", "scorer"], [])[0] == {
        "port": 50061,
        "host": "0.0.0.0",
        "insecure_no_token": False,
    }
    assert parsed(["serve", "simulator"], ["--port", "50062"])[0]["port"] == 50062


def test_every_option_names_its_variable_and_none_is_a_secret() -> None:
    for path in SETTINGS_COMMANDS:
        command = taue_command(path)
        assert any(p.name == "config" and "--config" in p.opts for p in command.params), path
        for name, option in settable_options(command).items():
            assert option.envvar == f"TAUE_{name.upper()}" and option.show_envvar, (path, name)
            assert option.envvar not in SECRET_VARIABLES and not looks_secret(name, option), name
    assert setting_name(settable_options(taue_command(["run"]))["thinking"]) == "thinking"
    help_text = taue("run", "--help").stdout
    assert "TAUE_USER_BASE_URL" in help_text and "--config" in help_text


def test_taue_home_holds_episodes_and_task_sets_have_their_own_folder(
    tmp_path: Path, clean_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    home, sets = tmp_path / "home", tmp_path / "sets"
    (home / "episodes").mkdir(parents=True)
    clean_env.setenv("TAUE_HOME", str(home))
    clean_env.delenv("TAUE_TASK_SETS_DIR", raising=False)
    assert episode_home() == home / "episodes"
    assert task_sets_root() == Path("task-sets"), "a home holding only episodes is no task-set folder"
    clean_env.setenv("TAUE_TASK_SETS_DIR", str(sets))
    assert task_sets_root() == sets and episode_home() == home / "episodes"
    assert capsys.readouterr().err == ""
    clean_env.delenv("TAUE_TASK_SETS_DIR")
    (home / "mine").mkdir()
    (home / "mine" / "task_set.json").write_text("{}")
    assert task_sets_root() == home, "task sets imported under the old name are still found"
    assert f"set TAUE_TASK_SETS_DIR={home} instead" in capsys.readouterr().err


def test_the_documented_run_toml_loads(tmp_path: Path, clean_env: pytest.MonkeyPatch) -> None:
    docs = (Path(__file__).parents[2] / "docs" / "running.md").read_text()
    section = docs.split("## Settings: flags, environment, config file", 1)[1]
    example = section.split("```toml\n", 1)[1].split("```", 1)[0]
    file = tmp_path / "run.toml"
    file.write_text(example)
    values, sources = parsed(["run"], ["--config", str(file)])
    assert (values["agent"], values["user"], values["enable_thinking"]) == ("model", "llm", False)
    assert sources["user_base_url"] == "DEFAULT_MAP" and len(values["env"]) == 2
