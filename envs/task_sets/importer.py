"""`taue import tau-bench`: a published τ-bench-family domain split -> a task set.

PATH is either a τ-bench-family checkout (the domain under `*/envs/<domain>/` with `data/*.json`,
`wiki.md`, `tasks_<split>.py` and `tasks_<split>_no_emotion.py`) or a folder laid out like
τ-Emotion-Bench's published data (`<domain>/db/*.json`, `wiki.md`,
`tasks_<split>[_no_emotion].json`; PATH may be the domain folder or its parent).

Per task: ground-truth actions that the original could only fail on (a name that is no tool, an
argument the tool does not take, a missing required argument) are dropped — the original replays
them as no-ops — and the task is flagged; the emotion fields map to our `Emotion` (the leaf is kept,
its family is the taxonomy's, the published family is kept in the provenance when it differs); the
instruction's `Emotion Instruction:` paragraph becomes the emotion's instruction; the no-emotion
file's task with the same index becomes the neutral twin; a structured scenario for the scripted
user is derived (`envs.task_sets.scenario`). Finally every task's ground truth is replayed on the
imported database and tasks with a failing action are flagged.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import get_args

from taue.contracts.emotions import FAMILY_OF, Politeness, Trust, Urgency
from taue.contracts.tasks import Action, Emotion, Evaluation, Provenance, Task, neutral_twin
from taue.envs.runtime.discovery import domain_names, get_domain
from taue.envs.runtime.domain import Domain
from taue.envs.runtime.task_checks import output_problems, replay
from taue.envs.task_sets.loader import build_domain, read_table, table_models
from taue.envs.task_sets.published import PublishedAction, PublishedTask, read_json_tasks
from taue.envs.task_sets.pyparse import read_python_tasks
from taue.envs.task_sets.scenario import derive, read_policy
from taue.envs.task_sets.storage import (
    DB_FOLDER,
    POLICY_FILE,
    TASKS_FILE,
    FlaggedTask,
    TaskSetError,
    TaskSetInfo,
    check_name,
    task_sets_root,
    write_info,
)
from taue.envs.task_sets.task_list import read_task_list

SPLITS = ("train", "dev", "test")
EMOTION_LINE = re.compile(r"\s*\n\s*Emotion Instruction:\s*", re.IGNORECASE)
DIMENSIONS = {
    "dimension_politeness": get_args(Politeness),
    "dimension_urgency": get_args(Urgency),
    "dimension_trust_in_agent": get_args(Trust),
}


@dataclass
class Source:
    kind: str
    """checkout or folder"""
    root: Path
    db_files: dict[str, Path]
    policy: Path
    tasks: Path
    neutral: Path | None

    def relative(self, path: Path) -> str:
        """PATH-relative, or absolute for a file outside PATH (a `--tasks` file)."""
        return path.relative_to(self.root).as_posix() if path.is_relative_to(self.root) else str(path)

    def read_tasks(self, path: Path) -> list[PublishedTask]:
        return read_python_tasks(path) if path.suffix == ".py" else read_json_tasks(path)


def locate(path: Path, base: Domain, split: str, own_tasks: Path | None = None) -> Source:
    """Find the domain's files under PATH in either layout; `own_tasks` replaces the split's task file."""
    root = path.expanduser().resolve()
    if not root.is_dir():
        raise TaskSetError(f"{path}: not a folder")
    for folder in (root, root / base.name):
        if (folder / "db").is_dir():
            return _source("folder", root, folder, folder / "db", split, ".json", base, own_tasks)
    checkouts = sorted(
        p for p in [*root.glob(f"*/envs/{base.name}"), root / "envs" / base.name] if p.is_dir()
    )
    if len(checkouts) == 1:
        return _source("checkout", root, checkouts[0], checkouts[0] / "data", split, ".py", base, own_tasks)
    if len(checkouts) > 1:
        raise TaskSetError(f"{path}: several {base.name} domains found: {', '.join(map(str, checkouts))}")
    raise TaskSetError(
        f"{path}: no {base.name} domain found; expected <PATH>/*/envs/{base.name}/ (a checkout) or "
        f"<PATH>[/{base.name}]/db/ (the published JSON layout)"
    )


def _source(
    kind: str, root: Path, folder: Path, db: Path, split: str, ext: str, base: Domain, own: Path | None = None
) -> Source:
    tables = sorted(table_models(base))
    missing = [f"{name}.json" for name in tables if not (db / f"{name}.json").is_file()]
    if missing:
        raise TaskSetError(f"{db}: missing table files {missing} for the {base.name} domain")
    policy = folder / "wiki.md"
    if not policy.is_file():
        raise TaskSetError(f"{folder}: no wiki.md (the policy document)")
    if own is not None:  # `--tasks FILE`: the split's task files are not read (no neutral twins file)
        return Source(kind, root, {name: db / f"{name}.json" for name in tables}, policy, own, None)
    emotional, neutral = folder / f"tasks_{split}{ext}", folder / f"tasks_{split}_no_emotion{ext}"
    if not emotional.is_file() and not neutral.is_file():
        raise TaskSetError(f"{folder}: neither {emotional.name} nor {neutral.name} exists")
    return Source(
        kind=kind,
        root=root,
        db_files={name: db / f"{name}.json" for name in tables},
        policy=policy,
        tasks=emotional if emotional.is_file() else neutral,
        neutral=neutral if emotional.is_file() and neutral.is_file() else None,
    )


def convert_actions(base: Domain, actions: list[PublishedAction]) -> tuple[list[Action], list[str]]:
    """Our actions, without those the original could only fail on; a flag for each one dropped."""
    kept, flags = [], []
    for index, action in enumerate(actions):
        tool = base.mcp_tools.get(action.name)
        if tool is None:
            flags.append(
                f"action {index} {action.name!r} is not a {base.base} tool: dropped "
                "(the original replays it as a no-op)"
            )
            continue
        properties = set(tool.parameters.get("properties", {}))
        unknown = sorted(set(action.kwargs) - properties)
        missing = sorted(set(tool.parameters.get("required", [])) - set(action.kwargs))
        if unknown or missing:
            what = "; ".join(
                part
                for part in (
                    f"unknown arguments {unknown}" if unknown else "",
                    f"missing required arguments {missing}" if missing else "",
                )
                if part
            )
            flags.append(
                f"action {index} {action.name}: {what}: dropped "
                "(the original fails on it with a TypeError and changes nothing)"
            )
            continue
        kept.append(Action(name=action.name, arguments=action.kwargs))
    return kept, flags


def split_instruction(text: str) -> tuple[str, str | None]:
    """(instruction without the emotion paragraph, the emotion paragraph or None)."""
    matches = list(EMOTION_LINE.finditer(text))
    if not matches:
        return text, None
    last = matches[-1]
    return text[: last.start()], text[last.end() :].strip()


def map_emotion(task: PublishedTask, text: str | None) -> tuple[Emotion | None, str | None, list[str]]:
    """(our emotion or None, the published family where it differs, flags)."""
    leaf, published_family = task.emotion_leaf, task.emotion_family
    family = FAMILY_OF.get(leaf or "")
    bad = [
        f"{name}={getattr(task, name)!r}"
        for name, allowed in DIMENSIONS.items()
        if getattr(task, name) not in allowed
    ]
    if family is None or bad:
        reason = f"unknown emotion leaf {leaf!r}" if family is None else f"unknown {', '.join(bad)}"
        return None, None, [f"{reason}: imported without an emotion condition"]
    emotion = Emotion(
        family=family,
        emotion=leaf,
        politeness=task.dimension_politeness,
        urgency=task.dimension_urgency,
        trust=task.dimension_trust_in_agent,
        instruction=text
        or f"You feel {leaf}. Your tone is {task.dimension_politeness}, your urgency "
        f"{task.dimension_urgency}, and you are {task.dimension_trust_in_agent} toward the agent.",
    )
    return emotion, (published_family if published_family != family else None), []


def _twin_problem(task: PublishedTask, twin: PublishedTask | None, instruction: str) -> str | None:
    if twin is None:
        return "no task with this index in the no-emotion file"
    for field in ("user_id", "actions", "outputs"):
        if getattr(task, field) != getattr(twin, field):
            return f"the no-emotion file's task differs in {field}"
    if twin.has_emotion:
        return "the no-emotion file's task has emotion fields"
    if twin.instruction.strip() != instruction.strip():
        return "the no-emotion file's instruction differs beyond the emotion paragraph"
    return None


def convert(
    name: str,
    base: Domain,
    source: Source,
    primary: list[PublishedTask],
    neutral: list[PublishedTask] | None,
    twins: bool,
    indices: list[int] | None = None,
) -> list[Task]:
    """Our tasks (each emotional one followed by its neutral twin) from the published ones; `indices`:
    each task's original index (its id suffix and provenance), by default its position."""
    tasks: list[Task] = []
    primary_file = source.relative(source.tasks)
    for index, published in zip(indices or range(len(primary)), primary, strict=True):
        actions, flags = convert_actions(base, published.actions)
        instruction, emotion_text = split_instruction(published.instruction)
        emotion, original_family = None, None
        if published.has_emotion:
            emotion, original_family, emotion_flags = map_emotion(published, emotion_text)
            flags.extend(emotion_flags)
        twin_source = None
        if emotion is not None and twins and neutral is not None:
            twin = neutral[index] if index < len(neutral) else None
            problem = _twin_problem(published, twin, instruction)
            if problem is None and twin is not None and source.neutral is not None:
                twin_source, instruction = source.relative(source.neutral), twin.instruction
            else:
                flags.append(f"{problem}: neutral twin derived from this task instead")
        policy = read_policy(source.policy)
        derived = derive(base, published.user_id, instruction, actions, list(published.outputs), policy)
        task_id = f"{name}-{index:04d}"
        task = Task(
            id=task_id,
            domain=base.name,
            user_scenario=derived.scenario,
            instruction=instruction,
            emotion=emotion,
            evaluation=Evaluation(actions=actions, outputs=derived.outputs),
            twin=f"{task_id}-neutral" if emotion is not None and twins else None,
            provenance=Provenance(
                source=primary_file, index=index, original_family=original_family, flags=flags + derived.flags
            ),
        )
        task.provenance.flags += [f"{p}; kept as published" for p in output_problems(task)]
        tasks.append(task)
        if task.twin is not None:
            twin_task = neutral_twin(task, task.twin)
            twin_task.provenance = Provenance(
                source=twin_source or primary_file, index=index, flags=list(task.provenance.flags)
            )
            tasks.append(twin_task)
    return tasks


async def replay_failures(domain: Domain, tasks: list[Task]) -> dict[str, list[str]]:
    """Task id -> failing ground-truth actions, replayed on the task set's database."""
    failures: dict[str, list[str]] = {}
    db = domain.new_database()  # one database, reset per task: its engine keeps compiled statements
    try:
        for task in tasks:
            if task.neutral_twin_of is not None:
                continue
            db.reset()
            _, log = await replay(domain, task.initial_state + task.evaluation.actions, db)
            failed = [
                f"ground-truth action {c.seq} {c.name} fails on replay: {c.output}" for c in log if not c.ok
            ]
            if failed:
                failures[task.id] = failed
    finally:
        db.close()
    return failures


def _flag_failures(tasks: list[Task], failures: dict[str, list[str]]) -> None:
    for task in tasks:
        key = task.neutral_twin_of or task.id
        task.provenance.flags.extend(failures.get(key, []))


def _write_tasks(folder: Path, tasks: list[Task]) -> None:
    # One task per line: readable, diffable, and written by the fast (non-indenting) JSON encoder.
    lines = ",\n".join(json.dumps(task.model_dump(mode="json"), ensure_ascii=False) for task in tasks)
    (folder / TASKS_FILE).write_text(f"[\n{lines}\n]\n", encoding="utf-8")


def _check_target(name: str, base_name: str, replace: bool) -> Path:
    check_name(name)
    if name in domain_names():
        raise TaskSetError(f"{name!r} is the name of a built-in domain; choose another task set name")
    if base_name not in domain_names():
        raise TaskSetError(f"unknown domain {base_name!r}; installed domains: {', '.join(domain_names())}")
    target = task_sets_root() / name
    if target.exists() and not replace:
        raise TaskSetError(f"task set {name!r} already exists at {target}; pass --replace to overwrite it")
    return target


async def import_task_set(
    path: Path,
    domain: str,
    split: str,
    name: str,
    twins: bool = True,
    replace: bool = False,
    tasks_file: Path | None = None,
) -> TaskSetInfo:
    """Import one domain split from PATH as task set NAME; returns what `task_set.json` says.

    `tasks_file` (`--tasks`) replaces the split's task files: published tasks or recorded τ-bench
    trajectories (`envs.task_sets.task_list`), each task keeping its original index."""
    if split not in SPLITS:
        raise TaskSetError(f"unknown split {split!r}; expected one of {', '.join(SPLITS)}")
    target = _check_target(name, domain, replace)
    base = get_domain(domain)
    own = None if tasks_file is None else tasks_file.expanduser().resolve()
    indexed = None if own is None else read_task_list(own)
    source = locate(path, base, split, own)
    primary = source.read_tasks(source.tasks) if indexed is None else [task for _, task in indexed]
    neutral = source.read_tasks(source.neutral) if source.neutral is not None and twins else None
    models = table_models(base)
    layouts = {table: read_table(file, models[table])[1] for table, file in source.db_files.items()}
    indices = None if indexed is None else [index for index, _ in indexed]
    tasks = convert(name, base, source, primary, neutral, twins, indices)
    task_sets_root().mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=task_sets_root()))
    try:
        (staging / DB_FOLDER).mkdir()
        for table, file in source.db_files.items():
            shutil.copyfile(file, staging / DB_FOLDER / f"{table}.json")
        shutil.copyfile(source.policy, staging / POLICY_FILE)
        info = TaskSetInfo(
            name=name,
            base_domain=base.name,
            source=source.kind,
            split=split,
            created_from=str(source.root),
            task_files=[source.relative(source.tasks)]
            + ([source.relative(source.neutral)] if neutral is not None and source.neutral else []),
            tables=layouts,
            tasks=len(tasks),
            emotional=sum(1 for t in tasks if t.emotion is not None),
            neutral_twins=sum(1 for t in tasks if t.neutral_twin_of is not None),
        )
        failures = await _replay_in(staging, name, info, tasks)
        _flag_failures(tasks, failures)
        info.replay_failures = sorted(failures)
        info.flagged = [
            _flagged(task) for task in tasks if task.provenance.flags and task.neutral_twin_of is None
        ]
        _write_tasks(staging, tasks)
        write_info(staging, info)
        if target.exists():
            shutil.rmtree(target)
        staging.rename(target)
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    return info


def _flagged(task: Task) -> FlaggedTask:
    provenance = task.provenance
    return FlaggedTask(
        task_id=task.id, source=provenance.source, index=provenance.index or 0, flags=provenance.flags
    )


async def _replay_in(folder: Path, name: str, info: TaskSetInfo, tasks: list[Task]) -> dict[str, list[str]]:
    domain = build_domain(name, folder, info)
    try:
        _ = domain.seed_image
    except Exception as exc:  # the rows did not fit the tables (e.g. a missing field)
        raise TaskSetError(
            f"the database of task set {name!r} cannot be loaded: {type(exc).__name__}: {exc}"
        ) from None
    return await replay_failures(domain, tasks)
