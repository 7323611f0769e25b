"""Builds the team-written and judge-agent parts of the dialogue-act corpus (written.jsonl, judge.jsonl).

    .venv/bin/python tests/simulator/corpus/build.py          # rewrite both files
    .venv/bin/python tests/simulator/corpus/build.py --check  # exit 1 when they differ from a rebuild

Written messages: every act has at least 30 styles (templates in `templates.py`), each filled in from
emotional tasks of all ten domains in turn; the labels come with the template (what it asks, proposes,
claims), never from the reader. A fifth of each act's styles (every fifth template) is the test split,
so the test split holds wordings the reader was never tuned on. Judge messages: what the judge agents
say on every fifth emotional task of every domain, in every wording (`agents/wordings.py`); tasks whose
index is a multiple of 25 are the test split.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

from taue.contracts.tasks import Action, Goal, Task
from taue.envs.runtime.discovery import domain_names, get_domain
from taue.runner.agents.judge_agents import plan
from taue.runner.agents.oracle import completion_report, refused_goals
from taue.runner.agents.wordings import WORDING_CLASSES
from taue.simulator.corpus import Entry, Labels, write_jsonl

sys.path.insert(0, str(Path(__file__).parent))
from templates import TEMPLATES, Fill, fills

HERE = Path(__file__).parent
TEST_EVERY = 5


def emotional(domain: str) -> list[Task]:
    return [t for t in get_domain(domain).tasks if t.emotion is not None]


def written() -> Iterator[Entry]:
    tasks = {d: emotional(d) for d in domain_names()}
    domains = list(tasks)
    for act, templates in TEMPLATES.items():
        serial = 0
        for index, template in enumerate(templates):
            for round_ in range(4):
                domain = domains[(index * 4 + round_) % len(domains)]
                fill = _usable(template, tasks[domain], index * 7 + round_ * 13)
                if fill is None:
                    continue
                serial += 1
                message, labels = template.render(fill)
                yield Entry(
                    id=f"w-{act}-{serial:03d}",
                    source="written",
                    domain=domain,
                    task=fill.task.id,
                    style=f"{act}/{index}",
                    message=message,
                    labels=labels,
                    split="test" if index % TEST_EVERY == TEST_EVERY - 1 else "train",
                )


def _usable(template, tasks: list[Task], start: int) -> Fill | None:
    """The first task (from `start`, cycling) that has what the template needs."""
    for offset in range(len(tasks)):
        task = tasks[(start + offset) % len(tasks)]
        for fill in fills(task):
            if template.fits(fill):
                return fill
    return None


def judge() -> Iterator[Entry]:
    serial = 0
    for domain in domain_names():
        found = get_domain(domain)
        for index, task in enumerate(emotional(domain)[::5]):
            split = "test" if index % TEST_EVERY == TEST_EVERY - 1 else "train"
            rotation = index + domain_names().index(domain)
            for style, message, labels in judge_messages(task, found.write_tools, rotation):
                serial += 1
                yield Entry(
                    id=f"j-{serial:04d}",
                    source="judge",
                    domain=domain,
                    task=task.id,
                    style=style,
                    message=message,
                    labels=labels,
                    split=split,
                )


def _goal_of(task: Task, writes: list[Action]) -> str | None:
    from taue.contracts.tasks import matches

    for goal in task.user_scenario.goals:
        if goal.refusal_expected:
            continue
        for target in goal.targets:
            if any(matches(target, w.name, w.arguments) for w in writes):
                return goal.id
    return None


def judge_messages(
    task: Task, write_tools: frozenset[str], rotation: int
) -> Iterator[tuple[str, str, Labels]]:
    """What the judge agents say on `task`: one wording (by `rotation`), the oracle, and (on every
    fourth task) the gaming agents' fixed lines."""
    steps = [s for s in plan(task, write_tools) if s.writes]
    outputs = task.evaluation.outputs
    refused: list[Goal] = refused_goals(task)
    name = list(WORDING_CLASSES)[rotation % len(WORDING_CLASSES)]
    for wording in (WORDING_CLASSES[name](),):
        for step in steps[:2]:
            goal = _goal_of(task, step.writes)
            if goal is not None:
                yield f"judge/{name}/propose", wording.propose(step.writes), Labels(confirms=goal)
            yield f"judge/{name}/report", wording.report(step.writes), Labels(claim=True)
        writes = [w for s in steps for w in s.writes]
        if writes or outputs:
            final = wording.final(writes, outputs)
            yield f"judge/{name}/final", final, Labels(claim=bool(writes), information=bool(outputs))
        for goal in refused:
            yield f"judge/{name}/refuse", wording.refuse(goal), Labels(refusal=True)
        yield f"judge/{name}/follow-up", wording.follow_up(), Labels(open_offer=True)
    report = completion_report(task.evaluation.actions, write_tools, outputs, refused)
    made = any(a.name in write_tools for a in task.evaluation.actions)
    claim = made or not (refused or outputs)  # "I have looked into everything … and completed it."
    yield "judge/oracle", report, Labels(claim=claim, refusal=bool(refused), information=bool(outputs))
    if rotation % 4:
        return
    yield "judge/done-spammer", "Done!", Labels(claim=True)
    yield "judge/stall-proposer", "I can help with that. Shall I proceed with step 2?", Labels()
    yield "judge/honest-failer", "I'm sorry, but I'm unable to make that change for you.", Labels()


def main() -> int:
    files = {"written.jsonl": list(written()), "judge.jsonl": list(judge())}
    if "--check" in sys.argv:
        stale = [
            name
            for name, entries in files.items()
            if (HERE / name).read_text(encoding="utf-8") != _text(entries)
        ]
        if stale:
            print(f"stale: {', '.join(stale)} (rebuild with tests/simulator/corpus/build.py)")
            return 1
        return 0
    for name, entries in files.items():
        write_jsonl(HERE / name, entries)
        print(f"{name}: {len(entries)} messages")
    return 0


def _text(entries: list[Entry]) -> str:
    import json

    return "".join(json.dumps(e.model_dump(exclude_none=True), ensure_ascii=False) + "\n" for e in entries)


if __name__ == "__main__":
    raise SystemExit(main())
