"""Every reader of a run shows its verification status and refuses one that fails verification:
`taue summary` (a line, and `verification` in its JSON), `taue report` (a badge in the header),
`taue export` and `taue gate` (a line on stderr), each exiting 2 with one line naming the run unless
`--allow-unverified`. Real runs, made with the embedded default, whose key is in `$TAUE_HOME/keys`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any, get_args

import pytest
from typer.testing import CliRunner

from taue.cli import app
from taue.contracts.integrity import SigningKey

pytestmark = pytest.mark.xdist_group("verification-status")


class Honest:
    def __init__(self, run: Path, home: Path, key_file: Path) -> None:
        self.run, self.home, self.key_file = run, home, key_file
        self.key_id = SigningKey.from_file(key_file).id


def taue(*args: str | Path, home: Path) -> Any:
    """`taue ARGS` with `home` as $TAUE_HOME and no key or trusted key from the environment."""
    env = {"COLUMNS": "200", "TAUE_HOME": str(home), "TAUE_SIGNING_KEY": "", "TAUE_SIGNING_KEY_FILE": ""}
    return CliRunner().invoke(app, [str(arg) for arg in args], env={**env, "TAUE_TRUSTED_KEYS": ""})


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory) -> Honest:
    """A real run (airline, 2 tasks, 1 trial, the careful agent), its author's home and key file."""
    root = tmp_path_factory.mktemp("verification-status")
    home, run = root / "home", root / "run"
    args = ["run", "--domains", "airline", "--agent", "careful-readback", "--trials", "1", "--limit", "2"]
    result = taue(*args, "--quiet", "--out", run, home=home)
    assert result.exit_code == 0, result.output
    run_id = json.loads((run / "run.json").read_text())["run_id"]
    return Honest(run, home, home / "keys" / f"{run_id}.key")


@pytest.fixture
def tampered(honest: Honest, tmp_path: Path) -> Path:
    """A copy of the honest run with its first record's reward lowered by hand."""
    copy = tmp_path / "tampered"
    shutil.copytree(honest.run, copy)
    records = [json.loads(line) for line in (copy / "results.jsonl").read_text().splitlines()]
    assert records[0]["reward"] == 1
    records[0]["reward"] = 0
    (copy / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return copy


def summary(honest: Honest, *args: str | Path, home: Path | None = None) -> dict[str, Any]:
    result = taue("summary", honest.run, "--json", *args, home=home or honest.home)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["verification"]


def test_an_honest_run_is_consistent_self_signed_or_signed_by_the_keys_held(
    honest: Honest, tmp_path: Path
) -> None:
    stranger = tmp_path / "stranger-home"  # holds no key of the run
    assert summary(honest, home=stranger) | {"problems": None} == {
        "label": "consistent",
        "key_id": honest.key_id,
        "signatures_checked": False,
        "records": 2,
        "planned": 2,
        "problems": None,
    }
    own = summary(honest)  # the author's own key, found in $TAUE_HOME/keys: checked, not trusted
    assert (own["label"], own["key_id"], own["signatures_checked"], own["problems"]) == (
        "self-signed",
        honest.key_id,
        True,
        [],
    )
    assert summary(honest, "--key-file", honest.key_file, home=stranger)["label"] == "signed"
    assert summary(honest, "--trusted-keys", honest.key_id)["label"] == "signed"
    listed = tmp_path / "trusted.txt"
    listed.write_text(f"# the operator's keys\n{honest.key_id}  # the lab's runner\n")
    assert summary(honest, "--trusted-keys", listed)["label"] == "signed"
    assert summary(honest, "--trusted-keys", "0123456789abcdef")["label"] == "self-signed"


def test_the_summary_says_the_status_in_a_line(honest: Honest) -> None:
    text = taue("summary", honest.run, home=honest.home)
    assert text.exit_code == 0, text.output
    line = f"verification: self-signed (2 records, a key that is not trusted: {honest.key_id})"
    assert line in text.stdout.splitlines()
    signed = taue("summary", honest.run, "--key-file", honest.key_file, home=honest.home)
    assert f"verification: signed (2 records, a trusted key: {honest.key_id})" in signed.stdout


def test_the_report_header_has_a_badge_of_the_status(honest: Honest, tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    result = taue(
        "report", honest.run, "--key-file", honest.key_file, "--out", page, "--quiet", home=honest.home
    )
    assert result.exit_code == 0, result.output
    assert f"{honest.run}: verification: signed" in result.stderr
    header = page.read_text().split("<header>", 1)[1].split("</header>", 1)[0]
    assert 'data-verification="signed"' in header and ">signed</span>" in header
    assert f"signed with a trusted key ({honest.key_id})" in header


def commands(run: Path, honest: Honest, out: Path) -> dict[str, list[str | Path]]:
    """Each reader of `run`, writing (if it writes) under `out`."""
    return {
        "summary": ["summary", run],
        "report": ["report", run, "--out", out / "report.html", "--quiet"],
        "export": ["export", run, "--format", "tau2", "--out", out / "export"],
        "gate": ["gate", run, "--baseline", honest.run],
    }


def test_every_reader_refuses_a_tampered_run_in_one_line(
    honest: Honest, tampered: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    for name, args in commands(tampered, honest, out).items():
        result = taue(*args, home=honest.home)
        assert result.exit_code == 2, (name, result.output)
        lines = result.output.strip().splitlines()
        assert len(lines) == 1, (name, lines)
        assert lines[0].startswith(
            f"error: {tampered} fails verification: {tampered / 'results.jsonl'}, line 1"
        )
        assert f"(`taue verify {tampered}` lists them; --allow-unverified" in lines[0], lines
        assert "Traceback" not in result.output
        assert not out.exists(), name  # nothing written


def test_allow_unverified_reads_a_tampered_run_marked_unverified(
    honest: Honest, tampered: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    runs = commands(tampered, honest, out)
    results = {name: taue(*args, "--allow-unverified", home=honest.home) for name, args in runs.items()}
    for name, result in results.items():
        assert result.exit_code == (1 if name == "gate" else 0), (name, result.output)  # gate: a drop
        assert "verification: UNVERIFIED (2 problems; `taue verify` lists them)" in result.output, name
    assert results["summary"].stdout.startswith("verification: UNVERIFIED")
    assert f"{tampered}: verification: UNVERIFIED" in results["export"].stderr
    assert "-> " in results["export"].stdout and (out / "export" / "airline.json").is_file()
    assert f"run {tampered}: verification: UNVERIFIED" in results["gate"].stderr
    assert "FAIL: the drop +0.5000" in results["gate"].stdout
    assert f"baseline {honest.run}: verification: self-signed" in results["gate"].stderr
    header = (out / "report.html").read_text().split("</header>", 1)[0]
    assert 'data-verification="unverified"' in header and ">UNVERIFIED</span>" in header
    status = taue("summary", tampered, "--json", "--allow-unverified", home=honest.home)
    found = json.loads(status.stdout)["verification"]
    assert found["label"] == "unverified" and len(found["problems"]) == 2
    assert all(
        p.startswith(f"{tampered / 'results.jsonl'}, line 1: task airline-") for p in found["problems"]
    )


def test_a_folder_that_cannot_be_verified_is_refused_too(honest: Honest, tmp_path: Path) -> None:
    copy = tmp_path / "results-only"
    copy.mkdir()
    shutil.copy(honest.run / "results.jsonl", copy / "results.jsonl")  # no run.json
    result = taue("summary", copy, home=honest.home)
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output
    assert f"{copy} fails verification: {copy} is not a run directory (no run.json)" in result.output
    allowed = taue("summary", copy, "--allow-unverified", home=honest.home)
    assert allowed.exit_code == 0 and "verification: UNVERIFIED (1 problems" in allowed.stdout, allowed.output


def test_a_bad_trusted_key_is_one_line(honest: Honest) -> None:
    for command in ("summary", "export", "gate", "report"):
        args = {"export": ["--format", "tau2", "--out", "x"], "gate": ["--baseline", honest.run]}
        result = taue(command, honest.run, *args.get(command, []), "--trusted-keys", "nope", home=honest.home)
        assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output
        assert "--trusted-keys 'nope' is neither a file nor a key id" in result.output


def test_the_readers_document_the_flags_and_the_names_written_out_match() -> None:
    from taue.cli.trust_options import TRUSTED_KEYS_VARIABLE
    from taue.contracts.run import TrustLabel
    from taue.runner import trust

    assert TRUSTED_KEYS_VARIABLE == trust.TRUSTED_KEYS_VARIABLE
    assert get_args(TrustLabel) == get_args(trust.Label)
    for command in ("summary", "report", "export", "gate"):
        shown = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "200"})
        assert shown.exit_code == 0, shown.output
        for flag in ("--key-file", "--trusted-keys", "--allow-unverified"):
            assert flag in shown.output, (command, flag)
