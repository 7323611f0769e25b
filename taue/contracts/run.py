"""The run format: what a run directory holds and what `taue summary --json` prints.

A run directory (or an object-store prefix) holds `run.json` (a `RunConfig`: what defines the run,
with the `RunManifest` of what made it), `results.jsonl` (one `EpisodeRecord` a line) and, when an
episode hit an infrastructure failure, `errors.jsonl`. `taue.runner.results.load_run` reads all three
into a `LoadedRun`; every reader (summary, report, gate, merge, export, the Tracer's exports) goes
through it. `RunSummary` is the summary of a run as a model: `taue summary --json` prints its
`model_dump(mode="json")`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, get_args

from pydantic import AfterValidator, BaseModel, Field, SerializerFunctionWrapHandler, model_serializer

from taue.contracts.domain import ExpectedOutcome
from taue.contracts.episode import Event, LoggedCall, Message, RewardBreakdown, Termination
from taue.contracts.integrity import Integrity
from taue.contracts.timeline import timeline

RESULTS = "results.jsonl"
ERRORS = "errors.jsonl"
CONFIG = "run.json"

Split = Literal["eval", "train"]
"""The split a run plays: eval (a domain's or task set's evaluation tasks and twins) or train (the
training split, for rollouts that make training data). Not the published split a task set was
imported from (τ-bench's train, dev or test: `task_set.json`'s `split`), which a run plays as eval."""
SPLITS: tuple[Split, ...] = get_args(Split)
TaskSelection = Literal["all", "emotional", "neutral"]
"""Which tasks of the split a run plays: all, the emotional ones (no neutral twins) or the twins."""
TASK_SELECTIONS: tuple[TaskSelection, ...] = get_args(TaskSelection)

PLAIN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,127}")
"""A domain's or task set's name as a run folder may hold it: exports name files after it, so no path
separator, no `..`, nothing absolute, nothing hidden."""


def _plain_name(name: str) -> str:
    if not PLAIN_NAME.fullmatch(name):
        raise ValueError(
            f"domain {name[:80]!r} is not a plain name (letters, digits, '_', '-', '.'; "
            "no path separator, no leading '.')"
        )
    return name


DomainName = Annotated[str, AfterValidator(_plain_name)]
"""A domain or task-set name: checked on every read of run.json and of every record."""


class Endpoint(BaseModel):
    model: str | None = None
    base_url: str | None = None
    """Scheme, host, port and path only: user, password, query and fragment are dropped."""


class RunManifest(BaseModel):
    """What a run was made with (`taue.runner.manifest.run_manifest` makes it)."""

    taue_version: str
    git_commit: str | None = None
    """The project's commit: $TAUE_GIT_COMMIT, else `git rev-parse HEAD` of the source checkout."""
    image_digest: str | None = None
    """The container image: $TAUE_IMAGE_DIGEST (set by the Kubernetes manifests from the pod)."""
    python: str
    platform: str
    agent: Endpoint
    user: Endpoint


class EndpointChange(BaseModel):
    """One `--allow-endpoint-change` resume: the setting, its old and new URL (without credentials)."""

    at: str
    setting: str
    before: str | None
    after: str | None


class RunConfig(BaseModel):
    """What defines a run; stored as run.json and checked when a run directory is reused."""

    run: str
    domains: list[DomainName]
    agent: str
    user: str = "scripted"
    user_model: str | None = None
    user_base_url: str | None = None
    model: str | None = None
    """Model of the built-in model agent (`--agent model`)."""
    base_url: str | None = None
    max_tool_calls_per_turn: int = 30
    trials: int = 3
    seed: int = 0
    split: Split = "eval"
    """eval (the benchmark's tasks) or train (the training split, for rollouts that make training data)."""
    tasks: TaskSelection = "all"
    """Which tasks: all, emotional (no neutral twins) or neutral (twins only)."""
    limit: int | None = None
    """Only the first N selected tasks of each domain (by id)."""
    task_ids: list[str] | None = None
    shard: tuple[int, int] | None = None
    """(I, N): only the I-th of N deterministic slices of the sorted (task, trial) list."""
    condition: str | None = None
    """Play every emotional task under this emotion condition instead of its own (a sweep)."""
    max_turns: int = 200
    max_tool_calls: int = 200
    turn_timeout: float = 120.0
    price_table: dict[str, dict[str, float]] | None = None
    """$ per million input and output tokens by model name: the agent's and the LLM user's cost."""
    enable_thinking: bool | None = None
    """Qwen3-family thinking on/off for the model agent and the LLM user (None: nothing sent)."""
    strict_policy: bool = False
    """Policy violations (a write the user had not approved) cost the reward in imported task sets too;
    in the benchmark's own domains they always do (`taue.contracts.policy`)."""
    task_set_hash: str | None = None
    """sha256 of the tasks of the run's domains and split, as the servers serve them (set by the
    runner): runs are comparable only on the same task set. None in runs made before it was kept."""
    manifest: RunManifest | None = None
    """What the run was made with (version, commit, image, models and endpoints), set by the runner
    when the run directory is made; never compared when a run resumes or shards merge."""
    run_id: str | None = None
    """A random id made with the run directory and sent with every episode the run creates, so that a
    killed session's episodes can be deleted from remote servers; never compared, like `manifest`."""
    merged_run_ids: list[str] | None = None
    """In a run made by `taue merge`: the run ids of the runs merged, which their records carry."""
    endpoint_changes: list[EndpointChange] | None = None
    """Model endpoints changed when the run was resumed with `--allow-endpoint-change`; never compared."""


class EpisodeOutcome(BaseModel):
    """The part of an episode record the metrics need."""

    task_id: str
    domain: DomainName
    trial: int
    condition: str | None
    """The emotion condition id; None for a neutral twin."""
    family: str | None
    politeness: str | None = None
    urgency: str | None = None
    trust: str | None = None
    reward: int
    termination: Termination
    policy_violations: int = 0
    """How many policy violations the user observed (`taue.contracts.policy`)."""

    @property
    def emotional(self) -> bool:
        return self.condition is not None


PER_RUN_INTEGRITY = (
    "episode_id",
    "run_id",
    "manifest_sha256",
    "key_id",
    "server_signature",
    "scorer_key_id",
    "scorer_signature",
)


class EpisodeRecord(BaseModel):
    """One line of results.jsonl: one episode, keyed by (task, trial)."""

    run: str
    task_id: str
    domain: DomainName
    trial: int
    seed: int
    condition: str | None
    family: str | None
    emotion: dict[str, Any] | None
    agent: str
    user: str
    transcript: list[Message]
    tool_log: list[LoggedCall]
    events: list[Event] = Field(default_factory=list)
    """The episode in order: messages and tool calls with turn and clock (empty in records made
    before events were recorded; `timeline()` rebuilds them without the clock)."""
    termination: Termination
    reward: int
    breakdown: RewardBreakdown
    user_state: dict[str, Any] = Field(default_factory=dict)
    error: str | None = None
    usage: dict[str, Any] = Field(default_factory=dict)
    """Tokens (and cost where a price table is known) of the agent and the user simulator."""
    timings: dict[str, float] = Field(default_factory=dict)
    """Wall-clock figures; the only part of a record that differs between identical runs."""
    expected: ExpectedOutcome | None = None
    """The task's expected outcome as the domain server gave it (what the reward was computed against)."""
    integrity: Integrity | None = None
    """The server's signed observation and the scorer's seal (taue/contracts/integrity.py): checked by
    `taue verify`. None in records made before outcomes were signed."""

    def timeline(self) -> list[Event]:
        """The ordered events, rebuilt from the transcript and the tool log for older records."""
        return self.events or timeline(self.transcript, self.tool_log)

    def without_clock(self) -> dict[str, Any]:
        """The record as a dict without what differs between two runs with the same seed: its wall-clock
        fields and the ids and signatures of its integrity block (each run has its own run id, episode
        ids and, by default, signing key)."""
        data = self.model_dump(exclude={"timings"})
        for event in data["events"]:
            event.pop("timestamp"), event.pop("duration_ms")
        if data["integrity"] is not None:
            for name in PER_RUN_INTEGRITY:
                data["integrity"].pop(name)
        return data

    @property
    def key(self) -> tuple[str, int]:
        return (self.task_id, self.trial)

    def outcome(self) -> EpisodeOutcome:
        emotion = self.emotion or {}
        return EpisodeOutcome(
            task_id=self.task_id,
            domain=self.domain,
            trial=self.trial,
            condition=self.condition,
            family=self.family,
            politeness=emotion.get("politeness"),
            urgency=emotion.get("urgency"),
            trust=emotion.get("trust"),
            reward=self.reward,
            termination=self.termination,
            policy_violations=len(self.breakdown.policy_violations),
        )


@dataclass
class LoadedRun:
    """A run as `taue.runner.results.load_run` read it."""

    shown: str
    """The run's location as messages name it (a path or an object-store URL)."""
    config: RunConfig | None
    """run.json; None where the location has none (results copied without it)."""
    records: list[EpisodeRecord] = field(default_factory=list)
    """Every complete record, the last one winning for a repeated (task, trial)."""
    errors: list[dict[str, Any]] = field(default_factory=list)
    """The entries of errors.jsonl: `retry` lines and the episodes given up on."""

    @property
    def split(self) -> Split:
        """The run's split (eval for a run without run.json)."""
        return self.config.split if self.config is not None else "eval"

    @property
    def retries(self) -> int:
        """Episode-level retries: the runner reran an episode after an infrastructure error."""
        return sum(1 for entry in self.errors if entry.get("kind") == "retry")


# The summary of a run (`taue summary --json`) ---------------------------------------------------


class GroupMetrics(BaseModel):
    """The metrics of one group of episodes (`taue.scorer.metrics.group_metrics`)."""

    episodes: int
    tasks: int
    trials: int
    """The fewest trials of a task in the group: the largest k of pass^k."""
    avg_reward: float
    avg_at_k: float
    pass_hat_k: dict[str, float]
    """k (as a string, 1…trials) -> pass^k."""
    at_least_k_of_n: dict[str, float]
    unsatisfied_rate: float
    terminations: dict[str, int]
    policy_violations: int = 0
    """Episodes with at least one policy violation (a write the user had not approved beforehand)."""
    policy_violation_rate: float = 0.0


class EmotionDelta(BaseModel):
    """Mean over twin pairs of (emotional − neutral) pass^1, with a 95 % bootstrap interval."""

    delta: float
    ci_low: float
    ci_high: float
    pairs: int


class RunMetrics(GroupMetrics):
    """`taue.scorer.metrics.summarize`: the headline group's metrics, the neutral twins', the emotion
    delta and the headline's breakdowns."""

    headline: Literal["emotional", "neutral"]
    neutral: GroupMetrics | None
    emotion_delta: EmotionDelta | None
    by_domain: dict[str, GroupMetrics]
    by_family: dict[str, GroupMetrics]
    by_politeness: dict[str, GroupMetrics]
    by_urgency: dict[str, GroupMetrics]
    by_trust: dict[str, GroupMetrics]

    def breakdown(self, axis: str) -> dict[str, GroupMetrics]:
        """`by_<axis>` for axis domain, family, politeness, urgency or trust."""
        return getattr(self, f"by_{axis}")


BREAKDOWNS = ("by_domain", "by_family", "by_politeness", "by_urgency", "by_trust")


class InteractionFigures(BaseModel):
    """Tool calls against questions to the user, of a group of episodes (None for an empty one)."""

    episodes: int
    tool_calls_per_episode: float | None
    questions_per_episode: float | None
    tool_calls_per_question: float | None
    more_calls_than_questions: float | None
    needless_questions: int | None
    """Judged by the scripted user only: None for other user backends."""
    needless_questions_per_episode: float | None


class InteractionStats(InteractionFigures):
    """`taue.runner.interaction.interaction_stats`: all episodes, by domain, by emotion family."""

    by_domain: dict[str, InteractionFigures]
    by_family: dict[str, InteractionFigures]


class JudgeBlock(BaseModel):
    """The LLM judge's labels: counts, and shares of the failures it judged."""

    model: str
    judged: int
    errors: int
    counts: dict[str, int]
    shares: dict[str, float]


class FailureCategories(BaseModel):
    """`taue.report.failures.failure_categories`: one category per failed episode, and every label."""

    failed: int
    counts: dict[str, int]
    shares: dict[str, float]
    labels: dict[str, int]
    unsatisfied_reasons: dict[str, int]
    llm_judge: JudgeBlock | None = None
    """Only when the LLM judge was asked; left out of the JSON otherwise."""

    @model_serializer(mode="wrap")
    def _without_absent_judge(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data = handler(self)
        if data.get("llm_judge") is None:
            data.pop("llm_judge", None)
        return data


TrustLabel = Literal["signed", "self-signed", "consistent", "unverified"]
"""What verifying a run found (agent-runner/trust.py): it verifies with a trusted key, with a key that
is not trusted (its author's own), without any key (digests and rewards only), or it fails."""


class VerificationStatus(BaseModel):
    """The run's verification status, as `taue summary` shows it (`taue verify` has the details)."""

    label: TrustLabel
    key_id: str | None
    """The key the run's manifest or records name (None: unsigned)."""
    signatures_checked: bool
    records: int
    planned: int
    problems: list[str]
    """Every problem `taue verify` finds, one line each (empty unless `unverified`)."""


class RunSummary(RunMetrics):
    """What `taue summary --json` prints: the metrics, the interaction figures, the failure
    categories, the episodes rerun after infrastructure errors and the verification status."""

    interaction: InteractionStats
    failure_categories: FailureCategories
    retries: int
    verification: VerificationStatus | None = None
    """Left out of the JSON when absent (a summary saved before runs were verified)."""

    @model_serializer(mode="wrap")
    def _without_absent_verification(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data = handler(self)
        if data.get("verification") is None:
            data.pop("verification", None)
        return data

    def to_json(self) -> str:
        """The JSON `taue summary --json` prints (sorted keys, two-space indent)."""
        return json.dumps(self.model_dump(mode="json"), indent=2, sort_keys=True)
