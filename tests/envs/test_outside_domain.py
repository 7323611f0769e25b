"""A domain from outside the project: a throwaway package in a temp folder registers itself in the
`taue.domains` entry-point group, and `taue` lists it, serves it, runs it and scores it with no file of
the project touched."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

from tests.paths import ROOT

PACKAGE = '''
"""A library's loans: the smallest domain there is."""

from datetime import date, timedelta
from pathlib import Path
from typing import Annotated

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field
from sqlmodel import Field as Column

from sqlalchemy.orm import registry

from taue.envs.runtime.database import DomainTable, Store
from taue.envs.runtime.domain import Domain, ends_conversation, writes



class Table(DomainTable, registry=registry()):
    """The library's tables: their own metadata."""


class Loan(Table, table=True):
    __tablename__ = "loans"
    loan_id: str = Column(primary_key=True)
    email: str
    title: str
    due: str
    renewals: int


def generate(seed: int) -> list[Loan]:
    titles = ["Dune", "Emma", "Ulysses", "Beloved", "Middlemarch"]
    return [
        Loan(loan_id=f"L-{i:04d}", email=f"member{i % 7}@example.com", title=titles[(i + seed) % 5],
             due=str(date(2024, 5, 20) + timedelta(days=i % 9)), renewals=i % 3)
        for i in range(40)
    ]


async def find_loans(db: Store, email: Annotated[str, Field(description="The member's email.")]) -> str:
    """The member's loans: id, title, due date and renewals so far."""
    loans = [loan.model_dump() for loan in db.scan(Loan) if loan.email == email]
    if not loans:
        raise ToolError("no loans for this email")
    return json.dumps(loans, sort_keys=True)


@writes
async def renew_loan(db: Store, loan_id: Annotated[str, Field(description="The loan's id.")]) -> str:
    """Renew a loan for 14 days; at most two renewals."""
    loan = db.require(Loan, loan_id, "loan not found")
    if loan.renewals >= 2:
        raise ToolError("this loan has been renewed twice already")
    loan.due = str(date.fromisoformat(loan.due) + timedelta(days=14))
    loan.renewals += 1
    db.save(loan)
    return json.dumps(loan.model_dump(), sort_keys=True)


@ends_conversation
async def transfer_to_human_agents(db: Store, summary: Annotated[str, Field(description="Why.")]) -> str:
    """Hand the member over to a librarian."""
    return "Transfer successful"


DOMAIN = Domain(
    name="library", folder=Path(__file__).parent, tables=[Loan],
    tools=[find_loans, renew_loan, transfer_to_human_agents], generate=generate,
)
'''

POLICY = "# Library desk\n\nFind the member's loans by email; renew a loan (at most twice) when asked.\n" * 12


def library_tasks() -> list[dict]:
    """One emotional task and its twin: renew member1's loan L-0001 (no renewals yet)."""
    [emotional] = [
        t for t in json.loads((ROOT / "envs/retail/tasks.json").read_text()) if t["emotion"] is not None
    ][:1]
    scenario = {
        "persona": "Ada Moss, a member who reads on the train.",
        "reason_for_call": "Renew a loan.",
        "known_info": {"email": "member1@example.com", "book": "the loan of Emma"},
        "volunteered": ["email"],
        "unknown_info": ["loan id"],
        "discoverable": {"loan_id": "L-0001"},
        "goals": [
            {
                "id": "renew",
                "kind": "action",
                "request": "Please renew my loan of Emma.",
                "evidence": ["L-0001"],
                "targets": [{"tool": "renew_loan", "arguments": {"loan_id": "L-0001"}}],
                "refusal_expected": False,
                "refusal_reason": [],
            }
        ],
        "preferences": [],
    }
    task = {
        "id": "library-000",
        "domain": "library",
        "user_scenario": scenario,
        "instruction": "You are Ada Moss (email member1@example.com). You want your loan of Emma renewed.",
        "emotion": emotional["emotion"],
        "initial_state": [],
        "evaluation": {
            "actions": [
                {"name": "find_loans", "arguments": {"email": "member1@example.com"}},
                {"name": "renew_loan", "arguments": {"loan_id": "L-0001"}},
            ],
            "outputs": [],
            "policy_assertions": [],
        },
        "twin": "library-000-neutral",
    }
    twin = {**task, "id": "library-000-neutral", "emotion": None, "twin": "library-000"}
    return [task, {**twin, "neutral_twin_of": "library-000"}]


def make_outside_package(site: Path) -> None:
    package = site / "taue_library_domain"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("import json\n" + PACKAGE)
    (package / "policy.md").write_text(POLICY)
    (package / "tasks.json").write_text(json.dumps(library_tasks(), indent=1))
    info = site / "taue_library_domain-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: taue-library-domain\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[taue.domains]\nlibrary = taue_library_domain\n")


def project_state() -> str:
    return subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT, capture_output=True, text=True
    ).stdout


def taue(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "taue", *args],
        env=env,
        cwd=env["HOME_DIR"],
        capture_output=True,
        text=True,
        timeout=240,
    )


async def test_an_outside_package_adds_a_domain_that_is_served_run_and_scored(tmp_path: Path) -> None:
    before = project_state()
    make_outside_package(tmp_path / "site")
    env = {
        **os.environ,
        "PYTHONPATH": str(tmp_path / "site"),
        "TAUE_HOME": str(tmp_path / "home"),
        "HOME_DIR": str(tmp_path),
        "COLUMNS": "200",
    }
    listed = taue(env, "domains", "--json")
    assert listed.returncode == 0, listed.stderr
    [library] = [d for d in json.loads(listed.stdout) if d["name"] == "library"]
    assert library["tasks"] == 2 and library["all_tools"] == 3 and library["db_rows"] == 40

    out = f"--out={tmp_path / 'a'}"
    embedded = taue(env, "run", "--domains=library", "--agent=oracle", "--trials=2", out)
    assert embedded.returncode == 0, embedded.stderr
    assert _rewards(tmp_path / "a") == [1, 1, 1, 1]

    server = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "taue",
        "serve",
        "env",
        "library",
        "--mcp-port",
        "0",
        "--control-port",
        "0",
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        line = (await asyncio.wait_for(server.stdout.readline(), 60)).decode()
        assert "control http://" in line, line
        control = line.split("control ")[1].split()[0]
        remote = await asyncio.to_thread(
            taue,
            env,
            "run",
            "--domains=library",
            "--agent=oracle",
            "--trials=1",
            f"--env=library={control}",
            f"--out={tmp_path / 'b'}",
        )
        assert remote.returncode == 0, remote.stderr
        assert _rewards(tmp_path / "b") == [1, 1]
    finally:
        server.terminate()
        await server.wait()
    assert project_state() == before, "the project's files must not change"


def _rewards(out: Path) -> list[int]:
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines() if line.strip()]
    return sorted(record["reward"] for record in records)
