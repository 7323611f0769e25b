"""`taue domains` reads its seed figures from taue/cli/seed_facts.json and its rows from
taue/cli/domain_rows.json, then the user cache: the committed figures are a real build's and current,
and the command builds no database (on a fresh clone it imports no domain at all)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from taue.cli import domain_facts
from taue.envs.runtime.discovery import NOT_DOMAINS, domain_names, get_domain

COMMITTED = json.loads(domain_facts.SEED_FACTS_PATH.read_text(encoding="utf-8"))

WITHOUT_COMMITTED_ROWS = """
from pathlib import Path
from taue.cli import domain_facts
domain_facts.ROWS_PATH = Path("/nonexistent/domain_rows.json")  # as if a domain had changed
"""

NO_SEED_BUILD = """
import sys
from taue.envs.runtime import database

def refuse(*args, **kwargs):
    raise AssertionError("taue domains built a seed database")

database.SeedImage.__init__ = refuse
from taue.cli import main
sys.argv = ["taue", "domains", "--json"]
main()
"""

NO_DOMAIN_IMPORT = """
import json, sys
sys.modules["taue.envs.runtime.discovery"] = None  # importing the registry (and so any domain) fails
from taue.cli import main
sys.argv = ["taue", "domains", "--json"]
try:
    main()
finally:
    heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("mcp", "sqlmodel", "sqlalchemy"))
    print(json.dumps(heavy), file=sys.stderr)
"""


def test_the_committed_seed_facts_are_current() -> None:
    stale = [
        name
        for name in domain_names()
        if domain_facts.seed_fingerprint(get_domain(name)) != COMMITTED.get(name, {}).get("fingerprint")
    ]
    assert not stale, f"seed facts out of date for {stale}: run python -m taue.cli.domain_facts"


@pytest.mark.parametrize("name", ["retail", "telecom"])
def test_the_committed_counts_equal_a_real_build(name: str) -> None:
    built = domain_facts.build_seed_facts(get_domain(name))
    assert built["db_tables"] == COMMITTED[name]["db_tables"] and sum(built["db_tables"].values()) > 1000
    assert built["db_size"] == COMMITTED[name]["db_size"]


def test_names_are_listed_without_the_registry() -> None:
    assert domain_facts.NOT_DOMAINS == NOT_DOMAINS
    assert domain_facts.folder_domain_names() == domain_names()


def _taue_domains(script: str, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {"TAUE_CACHE_DIR": str(cache), "PATH": "/usr/bin:/bin", "HOME": str(cache)}
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)


def test_the_committed_rows_are_current() -> None:
    from taue.cli.commands.domains import domain_facts as row_of

    committed = json.loads(domain_facts.ROWS_PATH.read_text(encoding="utf-8"))["domains"]
    stale = [
        name
        for name in domain_names()
        if committed.get(name, {}).get("fingerprint")
        != domain_facts.folder_fingerprint(domain_facts._envs_folder() / name)
    ]
    assert not stale, f"domain rows out of date for {stale}: run python -m taue.cli.domain_facts"
    for name in ("retail", "telecom"):
        assert committed[name]["facts"] == row_of(name)


def test_a_fresh_clone_lists_the_domains_importing_none(tmp_path: Path) -> None:
    listed = _taue_domains(NO_DOMAIN_IMPORT, tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert [row["name"] for row in json.loads(listed.stdout)] == list(domain_names())
    assert json.loads(listed.stderr.strip().splitlines()[-1]) == []
    assert not any(tmp_path.iterdir())  # nothing to remember: the committed rows were current


def test_domains_builds_no_database_and_then_imports_no_domain(tmp_path: Path) -> None:
    first = _taue_domains(WITHOUT_COMMITTED_ROWS + NO_SEED_BUILD, tmp_path)
    assert first.returncode == 0, first.stderr
    rows = {row["name"]: row for row in json.loads(first.stdout)}
    assert set(rows) == set(domain_names())
    assert rows["retail"]["db_tables"] == COMMITTED["retail"]["db_tables"]
    assert (tmp_path / "domains.json").is_file() and not (tmp_path / "seed_facts.json").exists()

    second = _taue_domains(WITHOUT_COMMITTED_ROWS + NO_DOMAIN_IMPORT, tmp_path)
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout) == json.loads(first.stdout)
    assert json.loads(second.stderr.strip().splitlines()[-1]) == []


def test_a_changed_domain_file_invalidates_its_cached_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAUE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(domain_facts, "ROWS_PATH", tmp_path / "no_committed_rows.json")
    rows = [{"name": name, "tools": 1} for name in domain_names()]
    domain_facts.remember_rows(rows)
    assert domain_facts.cached_rows() == rows
    stored = json.loads((tmp_path / "domains.json").read_text())
    stored["domains"]["retail"]["fingerprint"] = "0" * 32  # what an edited envs/retail/ file gives
    (tmp_path / "domains.json").write_text(json.dumps(stored))
    assert domain_facts.cached_rows() is None
