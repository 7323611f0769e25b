"""`taue import tau-bench` from a τ-bench-family checkout: Python task files read safely.

The checkout is built here: our own airline seed exported in the published layout, and task files
written in the published `Task(...)` / `Action(...)` form from our own airline tasks.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from typer.testing import CliRunner

from taue.cli import app
from taue.contracts.run import RunConfig
from taue.contracts.tasks import Task, twin_mismatches
from taue.envs.runtime.discovery import get_domain
from taue.envs.runtime.task_checks import task_problems
from taue.envs.task_sets import pyparse
from taue.envs.task_sets.exporter import published_tables, seed_state, write_tables
from taue.envs.task_sets.importer import import_task_set
from taue.envs.task_sets.pyparse import read_python_tasks
from taue.envs.task_sets.storage import TaskSetError
from taue.runner.results import ResultsFile
from taue.runner.runner import execute_run
from taue.runner.verify import verify_run

pytestmark = pytest.mark.xdist_group("import-python")  # module-scoped fixtures: built once, on one worker

HEADER = '"""Tasks (test copy)."""\nfrom tau_bench.types import Action, Task\n\n'


def task_call(fields: dict[str, Any], instruction_source: str | None = None) -> str:
    """One task in the published `Task(...)` form; `instruction_source` replaces the instruction literal."""
    actions = ", ".join(f"Action(name={a['name']!r}, kwargs={a['kwargs']!r})" for a in fields["actions"])
    parts = [f"{k}={v!r}" for k, v in fields.items() if k not in ("actions", "instruction")]
    parts.append(f"instruction={instruction_source or repr(fields['instruction'])}")
    return f"Task({', '.join(parts)}, actions=[{actions}])"


def task_file(calls: list[str], variable: str = "TASKS") -> str:
    return HEADER + f"{variable} = [\n" + "".join(f"    {call},\n" for call in calls) + "]\n"


def published(task: Task, emotion: bool) -> dict[str, Any]:
    known = task.user_scenario.known_info
    fields: dict[str, Any] = {
        "user_id": known.get("user_id") or known["email"],
        "instruction": task.instruction,
        "actions": [{"name": a.name, "kwargs": a.arguments} for a in task.evaluation.actions],
        "outputs": list(task.evaluation.outputs),
    }
    if emotion and task.emotion is not None:
        fields["instruction"] += f"\nEmotion Instruction: {task.emotion.instruction}"
        fields.update(
            emotion_family=task.emotion.family,
            emotion_leaf=task.emotion.emotion,
            dimension_politeness=task.emotion.politeness,
            dimension_urgency=task.emotion.urgency,
            dimension_trust_in_agent=task.emotion.trust,
        )
    return fields


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("taue-home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TAUE_TASK_SETS_DIR", str(folder))
        yield folder


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A τ-bench-family checkout of the airline domain holding our own seed and tasks."""
    root = tmp_path_factory.mktemp("checkout")
    domain_dir = root / "tau_emotion_bench" / "envs" / "airline"
    airline = get_domain("airline")
    write_tables(domain_dir / "data", published_tables(airline, seed_state(airline)))
    (domain_dir / "data" / "__init__.py").write_text("raise SystemExit('never imported')\n")
    (domain_dir / "wiki.md").write_text("# Airline policy (test copy)\n\nBe helpful.\n")
    emotional = [t for t in airline.tasks if t.emotion is not None][:5]
    first, second, third, fourth, fifth = (published(t, emotion=True) for t in emotional)
    first["emotion_family"] = (
        "anger" if first["emotion_family"] != "anger" else "fear"
    )  # a leaf off its family
    third["actions"].insert(0, {"name": "BookReservation", "kwargs": {}})
    third["actions"].insert(1, {"name": "get_user_details", "kwargs": {"user": "nobody"}})
    head, tail = second["instruction"][:20], second["instruction"][20:]
    calls = [
        task_call(first),
        task_call(second, instruction_source=f"''.join(({head!r}, {tail!r}))"),
        task_call(third),
        task_call(fourth),
        task_call(fifth),
    ]
    (domain_dir / "tasks_train.py").write_text(task_file(calls))
    neutral = [published(t, emotion=False) for t in emotional]
    neutral[2]["actions"] = third["actions"]
    neutral[3]["outputs"] = ["not the same"]  # a twin that does not match: flagged, twin derived
    (domain_dir / "tasks_train_no_emotion.py").write_text(task_file([task_call(n) for n in neutral]))
    (domain_dir / "tasks_dev.py").write_text(task_file([task_call(neutral[0])], "TASKS_DEV"))
    return root


@pytest.fixture(scope="module")
async def imported(home: Path, checkout: Path) -> list[Task]:
    info = await import_task_set(checkout, "airline", "train", "py-airline")
    assert info.source == "checkout" and info.tasks == 10 and info.emotional == 5 and info.neutral_twins == 5
    assert info.task_files == [
        "tau_emotion_bench/envs/airline/tasks_train.py",
        "tau_emotion_bench/envs/airline/tasks_train_no_emotion.py",
    ]
    return get_domain("py-airline").tasks


def test_tasks_keep_order_provenance_and_twins(imported: list[Task]) -> None:
    ids = [t.id for t in imported]
    assert ids[:4] == [
        "py-airline-0000",
        "py-airline-0000-neutral",
        "py-airline-0001",
        "py-airline-0001-neutral",
    ]
    assert [t.provenance.index for t in imported] == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    assert imported[0].provenance.source == "tau_emotion_bench/envs/airline/tasks_train.py"
    assert imported[1].provenance.source == "tau_emotion_bench/envs/airline/tasks_train_no_emotion.py"
    assert imported[1].neutral_twin_of == imported[0].id and imported[0].twin == imported[1].id
    assert twin_mismatches(imported) == []
    assert all(t.domain == "airline" for t in imported)


def test_emotion_fields_map_to_our_taxonomy(imported: list[Task]) -> None:
    source = [t for t in get_domain("airline").tasks if t.emotion is not None][:5]
    first = imported[0]
    assert first.emotion is not None and first.emotion.emotion == source[0].emotion.emotion
    assert first.emotion.family == source[0].emotion.family  # the taxonomy's family of the leaf
    assert first.provenance.original_family in ("anger", "fear")  # the published one, kept
    assert first.emotion.instruction == source[0].emotion.instruction
    assert "Emotion Instruction" not in first.instruction and first.instruction == source[0].instruction


def test_join_pattern_builds_the_instruction(imported: list[Task]) -> None:
    source = [t for t in get_domain("airline").tasks if t.emotion is not None][1]
    assert imported[2].instruction == source.instruction


def test_actions_the_original_cannot_run_are_dropped_and_flagged(imported: list[Task]) -> None:
    flagged = imported[4]
    source = [t for t in get_domain("airline").tasks if t.emotion is not None][2]
    assert flagged.evaluation.actions == source.evaluation.actions
    flags = " | ".join(flagged.provenance.flags)
    assert "action 0 'BookReservation' is not a airline tool: dropped" in flags
    assert (
        "action 1 get_user_details: unknown arguments ['user']; missing required arguments ['user_id']"
        in flags
    )


def test_mismatched_twin_is_flagged_and_derived(imported: list[Task]) -> None:
    task, twin = imported[6], imported[7]
    assert any("differs in outputs" in flag for flag in task.provenance.flags)
    assert twin.provenance.source.endswith("tasks_train.py") and twin.evaluation == task.evaluation


async def test_every_imported_task_validates(imported: list[Task]) -> None:
    domain = get_domain("py-airline")
    for task in imported:
        assert await task_problems(domain, task) == [], task.id


def test_derived_scenario_has_facts_and_goals(imported: list[Task]) -> None:
    source = next(t for t in get_domain("airline").tasks if t.emotion is not None)
    scenario = imported[0].user_scenario
    assert scenario.known_info["user_id"] == source.user_scenario.known_info["user_id"]
    assert scenario.volunteered == ["user_id"]
    writes = [a for a in source.evaluation.actions if a.name in get_domain("airline").write_tools]
    action_goals = [g for g in scenario.goals if g.kind == "action"]
    assert len(action_goals) == len(writes)
    assert [g.evidence for g in scenario.goals if g.kind == "information"] == [
        [o] for o in source.evaluation.outputs
    ]
    assert not set(scenario.known_info) & set(scenario.discoverable)


async def test_oracle_with_scripted_user_scores_one(imported: list[Task], tmp_path: Path) -> None:
    config = RunConfig(run="py", domains=["py-airline"], agent="oracle", trials=1)
    report = await execute_run(config, tmp_path / "run", {}, concurrency=8)
    assert report.failed == 0 and len(report.records) == len(imported)
    assert all(r.reward == 1 and r.termination == "user_stop" for r in report.records), [
        (r.task_id, r.termination) for r in report.records if r.reward != 1
    ]


def test_an_imported_set_keeps_its_scoring_unless_strict_policy(imported: list[Task], tmp_path: Path) -> None:
    """The right writes made without the user's yes: recorded as policy violations in an imported
    τ-family set, where they cost nothing, unless the run is made with `--strict-policy`; `taue
    verify` recomputes the reward the same way both times."""
    args = ["--task-set", "py-airline", "--agent", "acts-without-asking", "--trials", "1"]
    records = {}
    for flags in ([], ["--strict-policy"]):
        out = tmp_path / ("strict" if flags else "lenient")
        run = taue("run", *args, "--task-id", "py-airline-0001", *flags, "--out", str(out), "--quiet")
        assert run.exit_code == 0, run.output
        (records[bool(flags)],) = ResultsFile(out).load()
        assert json.loads((out / "run.json").read_text())["strict_policy"] is bool(flags)
        assert verify_run(out).ok
    lenient, strict = records[False], records[True]
    assert (lenient.reward, lenient.termination, lenient.breakdown.policy_enforced) == (1, "user_stop", False)
    assert (strict.reward, strict.breakdown.policy_enforced) == (0, True)
    assert strict.breakdown.policy_violations == lenient.breakdown.policy_violations != []


def taue(*args: str) -> Result:
    """The `taue` command line, in process (TAUE_TASK_SETS_DIR comes from the `home` fixture)."""
    return CliRunner().invoke(app, list(args))


def test_cli_lists_provenance_and_runs_the_task_set(imported: list[Task], tmp_path: Path) -> None:
    listed = taue("tasks", "list", "--task-set", "py-airline", "--json")
    assert listed.exit_code == 0, listed.output
    rows = json.loads(listed.stdout)
    assert [r["provenance"]["index"] for r in rows] == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    assert rows[4]["provenance"]["flags"] and rows[0]["provenance"]["source"].endswith("tasks_train.py")
    out = tmp_path / "cli-run"
    run = taue(
        "run",
        "--task-set",
        "py-airline",
        "--trials",
        "1",
        "--task-id",
        "py-airline-0001",
        "--out",
        str(out),
        "--quiet",
    )
    assert run.exit_code == 0, run.output
    records = ResultsFile(out).load()
    assert [(r.task_id, r.domain, r.reward) for r in records] == [("py-airline-0001", "py-airline", 1)]
    unknown = taue("run", "--task-set", "no-such-set", "--quiet")
    assert unknown.exit_code == 2 and "unknown domain(s) ['no-such-set']" in unknown.stderr


def test_cli_import_reports_and_refuses_an_existing_name(imported: list[Task], checkout: Path) -> None:
    args = [
        "import",
        "tau-bench",
        str(checkout),
        "--domain",
        "airline",
        "--split",
        "dev",
        "--task-set",
        "py-dev",
    ]
    first = taue(*args)
    assert first.exit_code == 0, first.output
    assert "1 tasks: 0 emotional, 0 neutral twins, 1 neutral without twin" in first.stdout
    again = taue(*args)
    assert again.exit_code == 2 and "already exists" in again.stderr
    assert isinstance(again.exception, SystemExit)
    replaced = taue(*args, "--replace", "--json")
    assert replaced.exit_code == 0 and json.loads(replaced.stdout)["name"] == "py-dev"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--domain", "nowhere", "--split", "train", "--task-set", "x"], "unknown domain 'nowhere'"),
        (["--domain", "airline", "--split", "final", "--task-set", "x"], "--split must be one of"),
        (["--domain", "airline", "--split", "train", "--task-set", "airline"], "name of a built-in domain"),
        (["--domain", "airline", "--split", "train", "--task-set", "Bad Name"], "invalid task set name"),
        (["--domain", "retail", "--split", "train", "--task-set", "x"], "no retail domain found"),
        (["--domain", "airline", "--split", "test", "--task-set", "x"], "neither tasks_test.py nor"),
    ],
)
def test_cli_import_rejects_bad_input(home: Path, checkout: Path, args: list[str], message: str) -> None:
    result = taue("import", "tau-bench", str(checkout), *args)
    assert result.exit_code == 2 and message in result.stderr, result.output
    assert isinstance(result.exception, SystemExit)  # a clean exit, no traceback


# ------------------------------------------------------------------------------- malicious task files

VALID = "Task(user_id='u', instruction='i', actions=[], outputs=[])"


def with_user_id(source: str) -> str:
    return f"TASKS = [Task(user_id={source}, instruction='i', actions=[])]\n"


def with_kwargs(source: str) -> str:
    return f"TASKS = [Task(user_id='u', instruction='i', actions=[Action(name='x', kwargs={source})])]\n"


def malicious_cases(marker: Path) -> dict[str, tuple[str, str]]:
    """name -> (file text, what the error must say)."""
    touch = f"open({str(marker)!r}, 'w')"
    return {
        "code in a default argument": (
            f"def f(x={touch}):\n    pass\n\nTASKS = [{VALID}]\n",
            "line 1: found a definition of 'f' at the top level",
        ),
        "__import__ call in a value": (
            with_user_id(f"__import__('os').system('touch {marker}')"),
            "line 1: found a call to \"__import__('os').system\"",
        ),
        "__import__ statement": (
            f"__import__('os').remove({str(marker)!r})\nTASKS = []\n",
            "line 1: found a call to",
        ),
        "huge string literal": (
            with_user_id(repr("x" * (pyparse.MAX_STRING_CHARS + 1))),
            f"line 1: a string of {pyparse.MAX_STRING_CHARS + 1} characters",
        ),
        "huge integer literal": (
            with_kwargs(f"{{'n': {'9' * 40}}}"),
            "an integer with more than 30 digits",
        ),
        "arithmetic building a huge value": (
            "TASKS = [Task(user_id='u', instruction='x' * 10**9, actions=[])]\n",
            "line 1: found an expression \"'x' * 10 ** 9\"",
        ),
        "attribute access": (
            "import os\nTASKS = [Task(user_id=os.environ, instruction='i', actions=[])]\n",
            "line 2: found attribute access 'os.environ'",
        ),
        "lambda": (
            "TASKS = [Task(user_id=lambda: 0, instruction='i', actions=[])]\n",
            "line 1: found a lambda",
        ),
        "called lambda": (
            f"TASKS = [Task(user_id=(lambda: {touch})(), instruction='i', actions=[])]\n",
            "found a call to",
        ),
        "f-string": ("TASKS = [Task(user_id=f'{1}', instruction='i', actions=[])]\n", "found an f-string"),
        "a name": ("X = 'u'\nTASKS = [Task(user_id=X, instruction='i', actions=[])]\n", "line 1: found"),
        "deep nesting": (
            with_kwargs(f"{{'a': {'[' * 40}{']' * 40}}}"),
            "nested more than 32 levels deep",
        ),
        "positional argument": (
            "TASKS = [Task('u', instruction='i', actions=[])]\n",
            "keyword arguments only",
        ),
        "mapping unpacking": ("TASKS = [Task(**{'user_id': 'u'})]\n", "may not unpack a mapping"),
        "unknown field": (
            "TASKS = [Task(user_id='u', instruction='i', actions=[], run='x')]\n",
            "has no field 'run'",
        ),
        "element that is not a Task": (
            "TASKS = [dict(user_id='u')]\n",
            "expected a Task(...) call, found a call to 'dict'",
        ),
        "two task lists": (
            f"A = [{VALID}]\nB = [{VALID}]\n",
            "exactly one top-level list assignment, found 2",
        ),
        "syntax error": ("TASKS = [Task(\n", "not valid Python"),
        "missing field": ("TASKS = [Task(user_id='u', actions=[])]\n", "task 0: instruction: Field required"),
    }


CASES = list(malicious_cases(Path("/tmp/x")))


@pytest.mark.parametrize("case", CASES)
def test_malicious_task_files_are_rejected_and_run_nothing(tmp_path: Path, case: str) -> None:
    marker = tmp_path / "ran"
    text, message = malicious_cases(marker)[case]
    path = tmp_path / "tasks_train.py"
    path.write_text(text)
    with pytest.raises(TaskSetError) as error:
        read_python_tasks(path)
    assert str(path) in str(error.value) and message in str(error.value), str(error.value)
    assert not marker.exists()


def test_file_over_the_size_limit_is_rejected(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "tasks_train.py"
    path.write_text(f"TASKS = [{VALID}]\n")
    monkeypatch.setattr(pyparse, "MAX_TASK_FILE_BYTES", 10)
    with pytest.raises(TaskSetError, match="more than the limit of 10 bytes"):
        read_python_tasks(path)


def test_accepted_forms(tmp_path: Path) -> None:
    path = tmp_path / "tasks.py"
    path.write_text(
        HEADER + "TASKS: list = [\n"
        "    Task(annotator='0', user_id='u', instruction=' '.join(('a', 'b')),\n"
        "         actions=[Action(name='t',\n"
        "                         kwargs={'n': -1, 'f': 2.5, 'ok': True, 'no': None, 'l': (1, 2)})],\n"
        "         outputs=['x'], emotion_leaf='pride')\n"
        "]\n"
    )
    [task] = read_python_tasks(path)
    assert task.instruction == "a b" and task.outputs == ["x"] and task.emotion_leaf == "pride"
    assert task.actions[0].kwargs == {"n": -1, "f": 2.5, "ok": True, "no": None, "l": [1, 2]}


async def test_a_malicious_checkout_imports_nothing(home: Path, checkout: Path, tmp_path: Path) -> None:
    bad = tmp_path / "repo"
    domain_dir = bad / "pkg" / "envs" / "airline"
    domain_dir.mkdir(parents=True)
    (domain_dir / "data").symlink_to(checkout / "tau_emotion_bench" / "envs" / "airline" / "data")
    (domain_dir / "wiki.md").write_text("policy\n")
    marker = tmp_path / "ran"
    (domain_dir / "tasks_train.py").write_text(malicious_cases(marker)["code in a default argument"][0])
    with pytest.raises(TaskSetError, match="definition of 'f'"):
        await import_task_set(bad, "airline", "train", "evil")
    assert not marker.exists() and not (home / "evil").exists()


async def test_json_layout_and_no_emotion_twins(home: Path, checkout: Path, tmp_path: Path) -> None:
    """The published JSON layout (PATH = the parent of the domain folder), without a no-emotion file:
    twins are derived; with --no-emotion-twins there are none."""
    folder = tmp_path / "published" / "airline"
    folder.mkdir(parents=True)
    (folder / "db").symlink_to(checkout / "tau_emotion_bench" / "envs" / "airline" / "data")
    (folder / "wiki.md").write_text("policy\n")
    source = [t for t in get_domain("airline").tasks if t.emotion is not None][:2]
    (folder / "tasks_train.json").write_text(json.dumps([published(t, emotion=True) for t in source]))
    info = await import_task_set(tmp_path / "published", "airline", "train", "json-airline")
    assert (info.source, info.tasks, info.emotional, info.neutral_twins) == ("folder", 4, 2, 2)
    assert info.task_files == ["airline/tasks_train.json"] and info.replay_failures == []
    tasks = get_domain("json-airline").tasks
    assert twin_mismatches(tasks) == [] and tasks[1].provenance.source == "airline/tasks_train.json"
    alone = await import_task_set(
        tmp_path / "published" / "airline", "airline", "train", "json-alone", twins=False
    )
    assert (alone.tasks, alone.emotional, alone.neutral_twins) == (2, 2, 0)
    assert all(t.twin is None for t in get_domain("json-alone").tasks)
