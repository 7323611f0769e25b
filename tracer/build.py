"""The Tracer's builder: candidates through every stage into a domain's evaluation set (emotional
tasks and their neutral twins, `tasks.json`) and training split (`train.json`), from one seed.

Every candidate draws from its own random stream (`tracer:<domain>:<seed>:<split>:<index>`), so the
same seed gives the same files byte for byte, and a rejected candidate changes no later draw.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from taue.contracts.emotions import Condition
from taue.contracts.tasks import Provenance, Task, UserScenario, neutral_twin
from taue.envs.runtime.authoring import Intent, TracerSpec
from taue.envs.runtime.domain import Domain
from taue.simulator.anchors.fit import Contact, emotion_fits, intent_fit, task_contact, task_situation
from taue.tracer.compose import Draft, NeedFit, Rejected, draft_task
from taue.tracer.conditions import (
    Feasible,
    classified,
    emotion_for,
    emotion_text,
    feeling_text,
    split_conditions,
)
from taue.tracer.graph import ToolGraph, load_graph
from taue.tracer.lints import instruction_lints
from taue.tracer.mixes import Shape, planned_shape
from taue.tracer.prose import FrameQuota, instruction_text
from taue.tracer.refine import LlmRefiner, decided_arguments, evaluation_of, goal_ids, scenario_of
from taue.tracer.semantic_lints import semantic_lints
from taue.tracer.semantic_seed import SeedFacts, fees_paid
from taue.tracer.verify import careful_failures, duplicate_key, task_rejection

EVAL_FILE, TRAIN_FILE = "tasks.json", "train.json"
CHALLENGE_EVERY = 7
"""Every 7th position of a split (from the 4th) holds a policy challenge: 8 of 58, about 14 %; the
other positions hold none."""
MAX_CANDIDATES = {"eval": 300, "train": 45}
"""Candidates for one position with its planned number of intents; after these, one intent fewer is
planned (until one intent is left) and the count starts again. Needs drawn to fit the emotion ground
less often, so an evaluation position tries 300 before dropping a need: its intent-count mix is a
realism target (within 5 points of the declared one; 150 left restaurant's 5.7 points off)."""
ON_PLAN_SHARE = 0.5
"""The first half of an evaluation position's candidates must take exactly the planned workflow
lengths: drawing needs to fit the emotion favours intents with short workflows, and the evaluation
set's mixes are realism targets."""
FEELING_TRIES = 5
CAREFUL_ROUNDS = 4


def is_challenge_position(position: int) -> bool:
    return position % CHALLENGE_EVERY == 3


def accepts_alternative(position: int) -> bool:
    """Every second challenge position (the 2nd, 4th, … : positions 10, 24, 38, 52 of 58) has the
    customer accept the allowed alternative the policy tells the agent to offer (the gold makes it);
    at the others the customer declines it and the gold writes nothing for the challenge."""
    return is_challenge_position(position) and position // CHALLENGE_EVERY % 2 == 1


def position_fits(domain: str, intents: Sequence[Intent]) -> Feasible:
    """(position, condition) -> whether some need of the position's kind (a policy challenge, one
    with an alternative in the accept branch, else an ordinary need) fits the condition's emotion:
    the lead need of its task can then be drawn."""
    has_challenges = any(i.challenge for i in intents)

    def feasible(position: int, condition: Condition) -> bool:
        challenge = is_challenge_position(position) and has_challenges
        accept = challenge and accepts_alternative(position)
        return any(
            i.challenge == challenge
            and (i.alternative is not None or not accept)
            and emotion_fits(condition.emotion, intent_fit(domain, i.name).situation)
            for i in intents
        )

    return feasible


class BuildError(RuntimeError):
    """The domain cannot yield the requested tasks (too many rejections); the message says why."""


def tracer_spec(domain: Domain) -> TracerSpec:
    """The Tracer parts the domain registers (`Domain(tracer=...)`; a task set has its base's)."""
    spec = domain.tracer_spec
    if spec is None:
        raise BuildError(f"domain {domain.name!r} declares no Tracer parts (Domain(tracer=...))")
    return spec


@dataclass
class BuildResult:
    domain: str
    seed: int
    eval_tasks: list[Task] = field(default_factory=list)
    """Emotional tasks, each followed by its neutral twin."""
    train_tasks: list[Task] = field(default_factory=list)
    rejections: Counter[str] = field(default_factory=Counter)
    candidates: int = 0
    reduced: int = 0
    """Positions built with fewer intents than planned (every candidate of the planned shape failed)."""


Progress = Callable[[str, int, int], None]


class Builder:
    def __init__(
        self,
        domain: Domain,
        seed: int = 0,
        progress: Progress | None = None,
        refiner: LlmRefiner | None = None,
    ) -> None:
        self.domain, self.seed, self.refiner = domain, seed, refiner
        self.spec = tracer_spec(domain)
        self.view = self.spec.load(domain.seed)  # the database every episode starts from
        self.customers = list(self.spec.customers(self.view))
        self.graph: ToolGraph = load_graph(domain)
        self.result = BuildResult(domain.name, seed)
        self.progress = progress or (lambda stage, done, total: None)
        self._seen: set[str] = set()
        self._conditions: dict[str, list[Condition]] = {}
        self._fit_domain = domain.base or domain.name
        self.seed_facts = SeedFacts(self._fit_domain, given=self.view)
        self._frames = {"eval": FrameQuota(), "train": FrameQuota()}

    async def build(
        self, eval_count: int = 58, train_count: int = 700, verify_with_agent: bool = True
    ) -> BuildResult:
        emotional = await self._evaluation_set(eval_count, verify_with_agent)
        self.result.eval_tasks = [t for task in emotional for t in (task, neutral_twin(task))]
        taken = {e for task in emotional for e in task.provenance.stages["entities"]}
        self.result.train_tasks = await self._training_split(train_count, taken)
        return self.result

    async def _evaluation_set(self, count: int, verify_with_agent: bool) -> list[Task]:
        self._conditions["eval"] = self._split_conditions("eval", count)
        tasks: list[Task | None] = [None] * count
        used: set[str] = set()
        counter = iter(range(10**9))
        for position in range(count):
            tasks[position] = await self._accepted(position, "eval", used, counter, count)
            self.progress("evaluation", position + 1, count)
        for _ in range(CAREFUL_ROUNDS if verify_with_agent else 0):
            failed = await careful_failures(self.domain, self._with_twins(tasks), self.seed)
            failed_positions = [i for i, t in enumerate(tasks) if t is not None and t.id in failed]
            if not failed_positions:
                break
            self.result.rejections["careful agent fails"] += len(failed_positions)
            for position in failed_positions:
                tasks[position] = await self._accepted(position, "eval", used, counter, count)
        else:
            if verify_with_agent:
                raise BuildError(
                    f"{self.domain.name}: the careful agent still fails tasks after {CAREFUL_ROUNDS} rounds"
                )
        return [task for task in tasks if task is not None]

    async def _training_split(self, count: int, taken: set[str]) -> list[Task]:
        self._conditions["train"] = self._split_conditions("train", count)
        tasks = []
        counter = iter(range(10**9))
        for position in range(count):
            tasks.append(await self._accepted(position, "train", set(taken), counter, count))
            self.progress("training", position + 1, count)
        return tasks

    def _split_conditions(self, split: str, count: int) -> list[Condition]:
        feasible = position_fits(self._fit_domain, self.spec.intents)
        return split_conditions(self.domain.name, self.seed, split, count, feasible)

    def _with_twins(self, tasks: list[Task | None]) -> list[Task]:
        return [t for task in tasks if task is not None for t in (task, neutral_twin(task))]

    def _shape(self, split: str, position: int) -> Shape:
        spec = self.spec
        return planned_shape(
            spec.intent_counts, spec.walk_lengths, self.domain.name, self.seed, split, position
        )

    async def _accepted(self, position: int, split: str, used: set[str], counter, count: int) -> Task:
        """The next candidate that passes every stage, for this position of the split: of the planned
        shape, or with one intent fewer each time `MAX_CANDIDATES` candidates of a shape failed."""
        shape = self._shape(split, position)
        while True:
            for attempt in range(MAX_CANDIDATES[split]):
                index = next(counter)
                self.result.candidates += 1
                on_plan = split == "eval" and attempt < MAX_CANDIDATES[split] * ON_PLAN_SHARE
                try:
                    task = await self._candidate(position, split, index, used, shape, on_plan)
                except Rejected as rejected:
                    self.result.rejections[rejected.reason] += 1
                    continue
                used.update(task.provenance.stages["entities"])
                self._frames[split].commit()
                return task
            if shape.intents == 1:
                break
            self.result.reduced += 1
            shape = Shape(shape.lengths[:-1])
        raise BuildError(
            f"{self.domain.name}: no {split} task for position {position} of {count}; most common "
            f"rejections: {self.result.rejections.most_common(3)}"
        )

    async def _candidate(
        self, position: int, split: str, index: int, used: set[str], shape: Shape, on_plan: bool = False
    ) -> Task:
        rng = random.Random(f"tracer:{self.domain.name}:{self.seed}:{split}:{index}")
        challenge = is_challenge_position(position)
        accept = accepts_alternative(position) and any(i.alternative for i in self.spec.intents)
        pool = [c for c in self.customers if c.id not in used]
        fit = NeedFit(self._fit_domain, self._conditions[split][position].emotion)
        draft = draft_task(
            self.spec, self.view, self.domain, self.graph, pool, rng, shape, challenge, fit, accept
        )
        if draft.entities & used:
            raise Rejected("entities already used")
        if on_plan and sorted(draft.draws["walk_lengths"]) != sorted(shape.lengths):
            raise Rejected("workflow lengths off the plan")
        task = await self._task(draft, position, split, index, rng)
        lints = instruction_lints(task)
        if lints:
            raise Rejected("lint: " + lints[0].split(":")[0])
        faults = semantic_lints(task, self.seed_facts)
        if faults:
            # What the writer cannot rule out by itself (a need that names the place another hides,
            # two adds at the same hour, an item in two orders) makes another candidate.
            raise Rejected("semantic lint: " + next(iter(faults)))
        reason = await task_rejection(self.domain, task)
        if reason is not None:
            raise Rejected(reason)
        key = duplicate_key(task, self.domain.write_tools)
        if key in self._seen:
            raise Rejected("near-duplicate")
        self._seen.add(key)
        return task

    async def _task(self, draft: Draft, position: int, split: str, index: int, rng: random.Random) -> Task:
        name = self.domain.name
        task_id = f"{name}-{position + 1:03d}" if split == "eval" else f"{name}-train-{position + 1:04d}"
        condition = self._conditions[split][position]
        topics = [part.intent.topic for part in draft.needs]
        fits = [intent_fit(self._fit_domain, part.intent.name) for part in draft.needs]
        situation = task_situation(f.situation for f in fits)
        contact = task_contact(f.contact for f in fits)
        text, feeling = self._feeling(condition, situation, contact, topics, rng)
        stages = {
            "split": split,
            "candidate": index,
            "customer": draft.customer.id,
            "entities": sorted(draft.entities),
            "intents": [part.intent.name for part in draft.needs],
            "goals": goal_ids(draft),
            "paths": [list(part.walk) for part in draft.parts],
            "walk_lengths": draft.draws["walk_lengths"],
            "challenges": [part.intent.name for part in draft.parts if part.intent.challenge],
            "branch": draft.branch,
            "alternatives": [part.intent.name for part in draft.parts if part.offered],
            "broken_rules": [rule.id for part in draft.parts for rule in part.broken],
            "decided": decided_arguments(draft),
            "reasons": [part.grounded.reason for part in draft.needs],
            "preferences": [part.grounded.preference for part in draft.needs],
            "feeling": feeling,
            "condition": condition.id,
            "situations": [f.situation for f in fits],
            "situation": situation,
            "contact": contact,
        }
        scenario = scenario_of(draft, self.spec, self.domain.write_tools, rng)
        return Task(
            id=task_id,
            domain=name,
            user_scenario=scenario,
            instruction=await self._instruction(draft, scenario, rng, self._frames[split]),
            emotion=emotion_for(condition, text),
            evaluation=evaluation_of(draft),
            twin=f"{task_id}-neutral" if split == "eval" else None,
            provenance=Provenance(source="tracer", index=index, seed=self.seed, stages=stages),
        )

    async def _instruction(
        self, draft: Draft, scenario: UserScenario, rng: random.Random, quota: FrameQuota
    ) -> str:
        """The written instruction, rewritten by the refiner when one is given and it kept every fact."""
        fees = [fees_paid(self.seed_facts, part.calls) for part in draft.parts]
        text = instruction_text(draft, scenario, rng, fees, quota)
        if self.refiner is None:
            return text
        facts = [fact for fact in (draft.customer.name, *scenario.known_info.values()) if fact in text]
        refined = await self.refiner.refine(text, facts)
        if refined is None:
            self.result.rejections["refiner dropped a fact (template kept)"] += 1
            return text
        return refined

    def _feeling(
        self, condition: Condition, situation: str, contact: Contact, topics: list[str], rng: random.Random
    ) -> tuple[str, str]:
        """The task's one emotion text and the feeling written from it, which the classifier maps
        back to the condition."""
        for _ in range(FEELING_TRIES):
            text = emotion_text(condition, situation, contact, rng)
            feeling = feeling_text(topics, text)
            if classified(feeling) == condition.id:
                return text, feeling
            self.result.rejections["feeling classified as another condition"] += 1
        raise Rejected("no feeling maps to the designed condition")


def task_file_text(tasks: list[Task]) -> str:
    """The evaluation file: indented JSON, as every task file of the project."""
    return json.dumps([t.model_dump(mode="json") for t in tasks], indent=2, ensure_ascii=False) + "\n"


def train_file_text(tasks: list[Task]) -> str:
    """The training split: a JSON array with one task per line (small diffs, still one JSON value)."""
    lines = ",\n".join(json.dumps(t.model_dump(mode="json"), ensure_ascii=False) for t in tasks)
    return f"[\n{lines}\n]\n"


def write_result(result: BuildResult, folder: Path) -> list[Path]:
    """Write the evaluation set, the training split and the build report into `folder` (atomically)."""
    from taue.tracer.stats import REPORT_FILE, report_text

    counts = {"eval": len(result.eval_tasks), "train": len(result.train_tasks)}
    files = {
        EVAL_FILE: task_file_text(result.eval_tasks),
        TRAIN_FILE: train_file_text(result.train_tasks),
        REPORT_FILE: report_text(result.seed, result.candidates, result.rejections, counts, result.reduced),
    }
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in files.items():
        path = folder / name
        temporary = path.with_suffix(".tmp")
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(path)
        written.append(path)
    return written
