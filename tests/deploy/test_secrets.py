"""`taue deploy secrets DIR`: the admin token and signing key of a docker compose deployment, made once,
kept after, readable by their owner only, never printed; and read back as the services read them."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from taue.cli import app
from taue.contracts.integrity import SigningKey, admin_token_from_env
from taue.deploy.secrets import SECRET_FILES

pytestmark = pytest.mark.xdist_group("deploy-config")


def secrets_cli(*args: str) -> Any:
    return CliRunner().invoke(app, ["deploy", "secrets", *args], env={"COLUMNS": "200"})


def contents(folder: Path) -> dict[str, str]:
    return {name: (folder / name).read_text() for name in SECRET_FILES}


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_makes_the_folder_and_both_secrets_never_printing_them(tmp_path: Path) -> None:
    folder = tmp_path / "deep" / "secrets"
    result = secrets_cli(str(folder))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [f"made: {folder / name}" for name in SECRET_FILES]
    assert result.stderr == ""
    assert mode(folder) == 0o700
    made = contents(folder)
    for name, text in made.items():
        assert mode(folder / name) == 0o600, name
        value = text.strip()
        assert len(value) == 64 and int(value, 16) >= 0, f"{name}: 32 random bytes as hex"
        assert value not in result.output, f"{name} was printed"
    assert made["admin-token"] != made["signing-key"]
    assert sorted(path.name for path in folder.iterdir()) == sorted(SECRET_FILES), "no temporary file left"
    assert secrets_cli(str(tmp_path / "other")).exit_code == 0
    assert contents(tmp_path / "other") != made, "random each time"


def test_the_services_read_them_as_written(tmp_path: Path) -> None:
    """What `taue serve` and `taue run` read through TAUE_ADMIN_TOKEN_FILE and TAUE_SIGNING_KEY_FILE; an
    empty TAUE_ADMIN_TOKEN / TAUE_SIGNING_KEY (compose's default) falls back to the file."""
    assert secrets_cli(str(tmp_path)).exit_code == 0
    made = contents(tmp_path)
    environ = {
        "TAUE_ADMIN_TOKEN": "",
        "TAUE_ADMIN_TOKEN_FILE": str(tmp_path / "admin-token"),
        "TAUE_SIGNING_KEY": "",
        "TAUE_SIGNING_KEY_FILE": str(tmp_path / "signing-key"),
    }
    assert admin_token_from_env(environ) == made["admin-token"].strip()
    key = SigningKey.from_env(environ)
    assert key is not None and key.id == SigningKey(made["signing-key"]).id
    assert admin_token_from_env({**environ, "TAUE_ADMIN_TOKEN": "set-by-hand"}) == "set-by-hand"


def test_existing_secrets_are_kept_and_force_replaces_them(tmp_path: Path) -> None:
    assert secrets_cli(str(tmp_path)).exit_code == 0
    first = contents(tmp_path)
    kept = secrets_cli(str(tmp_path))
    assert kept.exit_code == 0, kept.output
    assert kept.stdout.splitlines() == [f"kept: {tmp_path / name}" for name in SECRET_FILES]
    assert contents(tmp_path) == first
    (tmp_path / "admin-token").unlink()
    partly = secrets_cli(str(tmp_path))
    assert partly.stdout.splitlines() == [
        f"made: {tmp_path / 'admin-token'}",
        f"kept: {tmp_path / 'signing-key'}",
    ]
    assert contents(tmp_path)["signing-key"] == first["signing-key"]
    second = contents(tmp_path)
    forced = secrets_cli(str(tmp_path), "--force")
    assert forced.exit_code == 0, forced.output
    assert forced.stdout.splitlines() == [f"made: {tmp_path / name}" for name in SECRET_FILES]
    replaced = contents(tmp_path)
    assert all(replaced[name] != second[name] for name in SECRET_FILES)
    assert all(mode(tmp_path / name) == 0o600 for name in SECRET_FILES)
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(SECRET_FILES)


def test_an_existing_folder_keeps_its_mode(tmp_path: Path) -> None:
    """A mounted volume's root (owner and mode from the image) is used as it is."""
    tmp_path.chmod(0o750)
    assert secrets_cli(str(tmp_path)).exit_code == 0
    assert mode(tmp_path) == 0o750


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("signing-key", "too-short\n", "a signing key must be at least 16 characters"),
        ("admin-token", "\n", "is empty"),
    ],
)
def test_a_kept_secret_the_services_could_not_use_is_a_one_line_error(
    tmp_path: Path, name: str, text: str, message: str
) -> None:
    assert secrets_cli(str(tmp_path)).exit_code == 0
    (tmp_path / name).write_text(text)
    result = secrets_cli(str(tmp_path))
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
    assert message in result.stderr and str(tmp_path / name) in result.stderr and "--force" in result.stderr
    assert (tmp_path / name).read_text() == text, "nothing replaced without --force"
    fixed = secrets_cli(str(tmp_path), "--force")
    assert fixed.exit_code == 0 and (tmp_path / name).read_text() != text


@pytest.mark.parametrize("where", ["a file", "below a file"])
def test_an_unwritable_folder_is_a_one_line_error(tmp_path: Path, where: str) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder\n")
    folder = blocker if where == "a file" else blocker / "secrets"
    result = secrets_cli(str(folder))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(f"error: cannot make the secrets folder {folder}: ")
    assert result.stderr.count("\n") == 1, result.stderr
    assert blocker.read_text() == "not a folder\n"


def test_a_folder_that_refuses_writes_is_a_one_line_error(tmp_path: Path) -> None:
    """A folder that exists but cannot take a file (here: a directory where the file goes, so the
    rename fails; as root, permission bits would not stop the write)."""
    (tmp_path / "admin-token").mkdir()
    result = secrets_cli(str(tmp_path), "--force")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: cannot write {tmp_path / 'admin-token'}: ")
    assert result.stderr.count("\n") == 1, result.stderr
    assert [path.name for path in tmp_path.iterdir()] == ["admin-token"], "no temporary file left"
