"""A run as Inspect AI eval logs, one per domain, built from inspect-ai's own log types and written
by its writer, so that `inspect view` and `inspect_ai.log.read_eval_log` read them.

A sample is one episode: id = task id, epoch = trial + 1. Its messages are the episode in order:
the domain policy (system), then user messages, agent replies, and for each tool call an assistant
message carrying the call followed by the tool message with what the agent read back. The score is
the reward (1, 0, −1), explained by how the episode ended.

Logs are written as `.json`: inspect's `.eval` zip stamps each entry with the time of writing, the
JSON log holds only what the run holds, so exporting the same run twice gives the same bytes. The
name starts with the run's first event time, which `list_eval_logs` needs to list a `.json` log.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from taue.contracts.episode import Event
from taue.contracts.run import EpisodeRecord
from taue.report.exports.common import (
    ExportError,
    Run,
    Written,
    episode_clock,
    first_user_message,
    package_version,
    run_started,
)
from taue.scorer.metrics import group_metrics, summarize

if TYPE_CHECKING:
    from inspect_ai.log import EvalLog, EvalResults, EvalSample, EvalSpec
    from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage

TASK_PREFIX = "tau_emotion_bench"
SCORER = "reward"
INSTALL = 'pip install -e ".[inspect]"'


class InspectMissing(ExportError):
    """inspect-ai is not installed (it is the optional `inspect` extra)."""


def require_inspect() -> None:
    try:
        import inspect_ai.log  # noqa: F401
    except ImportError:
        raise InspectMissing(f"--format inspect needs the inspect-ai package: {INSTALL}") from None


def write_inspect_logs(run: Run, out: Path) -> list[Written]:
    """One eval log per domain of the run under `out`."""
    require_inspect()
    from inspect_ai.log import write_eval_log

    logs = {domain: domain_log(run, domain) for domain in run.domains}
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for domain, log in logs.items():
        path = out / log_file_name(log)
        write_eval_log(log, str(path), format="json")
        written.append(Written(domain=domain, episodes=len(log.samples or []), path=path))
    return written


def agent_model(run: Run) -> str:
    """The model name inspect shows: the model of the built-in model agent, else `taue/<agent>`."""
    config = run.config
    return config.model if config.agent == "model" and config.model else f"taue/{config.agent}"


def log_file_name(log: EvalLog) -> str:
    """`<created>_<task>_<task id>.json`, inspect's own naming (`_` separates the parts)."""
    created = datetime.fromisoformat(log.eval.created).strftime("%Y-%m-%dT%H-%M-%S-00-00")
    task = log.eval.task.replace("_", "-").replace("/", "-")
    return f"{created}_{task}_{log.eval.task_id}.json"


def domain_log(run: Run, domain: str) -> EvalLog:
    from inspect_ai.log import EvalLog, EvalPlan, EvalPlanStep, EvalStats

    records = run.records_of(domain)
    model = agent_model(run)
    created = run_started(run, records)
    ends = [end for _, end in map(episode_clock, records) if end]
    samples = [episode_sample(run, record, model) for record in records]
    usage = _total_usage([sample.model_usage.get(model) for sample in samples])
    user = {"user": run.config.user, "user_model": run.config.user_model}
    return EvalLog(
        status="success",
        eval=eval_spec(run, domain, records, model, created),
        plan=EvalPlan(steps=[EvalPlanStep(solver=run.config.agent, params=user)]),
        results=eval_results(run, domain, records),
        stats=EvalStats(
            started_at=created,
            completed_at=max(ends, default=created),
            model_usage={model: usage} if usage else {},
        ),
        samples=samples,
    )


def eval_spec(run: Run, domain: str, records: list[EpisodeRecord], model: str, created: str) -> EvalSpec:
    from inspect_ai import __version__ as inspect_version
    from inspect_ai.log import EvalConfig, EvalDataset, EvalSpec

    config = run.config
    task_ids = sorted({record.task_id for record in records})
    infra_errors = [f"{task} trial {trial}" for name, task, trial in run.infra_errors if name == domain]
    return EvalSpec(
        eval_id=run.stable_id(domain, "eval"),
        run_id=run.stable_id("run"),
        created=created,
        task=f"{TASK_PREFIX}/{domain}",
        task_id=run.stable_id(domain, "task"),
        task_display_name=f"τ-Emotion-Bench {domain}",
        task_args={
            "domain": domain,
            "split": config.split,
            "tasks": config.tasks,
            "condition": config.condition,
        },
        solver=config.agent,
        dataset=EvalDataset(name=f"{TASK_PREFIX}/{domain}", samples=len(task_ids), sample_ids=task_ids),
        model=model,
        model_base_url=config.base_url,
        config=EvalConfig(epochs=config.trials, limit=config.limit),
        packages={"tau-emotion-bench": package_version(), "inspect_ai": inspect_version},
        metadata={
            "run": config.model_dump(mode="json", exclude={"price_table"}),
            "infra_errors": infra_errors,
        },
    )


def eval_results(run: Run, domain: str, records: list[EpisodeRecord]) -> EvalResults:
    """The domain's metrics as inspect shows them (Avg@k first: the headline), and the full
    `taue summary` metrics of the domain in the metadata."""
    from inspect_ai.log import EvalMetric, EvalResults, EvalScore

    outcomes = [record.outcome() for record in records]
    metrics = group_metrics(outcomes)
    k = metrics["trials"]
    values = {
        "avg_at_k": metrics["avg_at_k"],
        "avg_reward": metrics["avg_reward"],
        "pass_hat_k": metrics["pass_hat_k"].get(str(k), 0.0),
        "unsatisfied_rate": metrics["unsatisfied_rate"],
    }
    params = {"pass_hat_k": {"k": k}, "avg_at_k": {"k": k}}
    score = EvalScore(
        name=SCORER,
        scorer=SCORER,
        scored_samples=len(records),
        unscored_samples=0,
        metrics={
            name: EvalMetric(name=name, value=value, params=params.get(name, {}))
            for name, value in values.items()
        },
    )
    failed_infra = sum(1 for name, _, _ in run.infra_errors if name == domain)
    return EvalResults(
        total_samples=len(records) + failed_infra,
        completed_samples=len(records),
        scores=[score],
        metadata={"summary": summarize(outcomes, run.config.seed).model_dump(mode="json")},
    )


def episode_sample(run: Run, record: EpisodeRecord, model: str) -> EvalSample:
    from inspect_ai.log import EvalSample
    from inspect_ai.scorer import Score

    task = run.tasks_of(record.domain).get(record.task_id)
    uuid = run.stable_id(record.domain, record.task_id, str(record.trial))
    messages = episode_messages(record, model, run.policy_of(record.domain), uuid)
    started, completed = episode_clock(record)
    usage = _usage(record.usage.get("agent") or {})
    user_usage = _usage(record.usage.get("user") or {})
    return EvalSample(
        id=record.task_id,
        epoch=record.trial + 1,
        input=first_user_message(record),
        target=list(task.evaluation.outputs) if task is not None and task.evaluation.outputs else "",
        messages=messages,
        output=final_output(messages, model, f"{uuid}-output"),
        scores={SCORER: Score(value=record.reward, explanation=record.termination)},
        metadata=sample_metadata(run, record),
        model_usage={model: usage} if usage else {},
        role_usage={"user": user_usage} if user_usage else {},
        started_at=started,
        completed_at=completed,
        total_time=record.timings.get("episode_s"),
        uuid=uuid,
    )


def sample_metadata(run: Run, record: EpisodeRecord) -> dict[str, Any]:
    """What the viewer can filter and group by: the emotion condition, how the episode ended and,
    for a failed one, its failure category (docs/reports.md)."""
    failure = run.failures.get(record.key)
    task = run.tasks_of(record.domain).get(record.task_id)
    metadata: dict[str, Any] = {
        "domain": record.domain,
        "trial": record.trial,
        "condition": record.condition,
        "family": record.family,
        "emotion": record.emotion,
        "termination": record.termination,
        "reward": record.reward,
        "breakdown": record.breakdown.model_dump(mode="json"),
        "failure_category": failure.category if failure else None,
        "failure_labels": failure.labels if failure else [],
        "failure_details": failure.details if failure else {},
        "user_state": record.user_state,
    }
    if task is not None:
        metadata["gold_actions"] = [action.model_dump(mode="json") for action in task.evaluation.actions]
    if record.error:
        metadata["error"] = record.error
    return metadata


def episode_messages(record: EpisodeRecord, model: str, policy: str | None, prefix: str) -> list[ChatMessage]:
    """The episode as chat messages in the order it happened; every id is derived from the sample
    (inspect gives new messages a random id), tool call ids count the episode's calls."""
    from inspect_ai.model import ChatMessageAssistant, ChatMessageSystem, ChatMessageTool, ChatMessageUser
    from inspect_ai.tool import ToolCall, ToolCallError

    messages: list[ChatMessage] = []

    def next_id() -> str:
        return f"{prefix}-{len(messages)}"

    if policy:
        messages.append(ChatMessageSystem(id=next_id(), content=policy, source="input"))
    calls = 0
    for event in record.timeline():
        about = _event_metadata(event)
        if event.kind == "user":
            messages.append(ChatMessageUser(id=next_id(), content=event.content, metadata=about))
        elif event.kind == "agent":
            messages.append(
                ChatMessageAssistant(
                    id=next_id(), content=event.content, model=model, source="generate", metadata=about
                )
            )
        else:
            call_id = f"call_{calls}"
            calls += 1
            call = ToolCall(id=call_id, function=event.name or "", arguments=event.arguments or {})
            request = ChatMessageAssistant(
                id=next_id(), content="", tool_calls=[call], model=model, source="generate", metadata=about
            )
            messages.append(request)
            error = ToolCallError(type="unknown", message=event.output or "") if event.error else None
            messages.append(
                ChatMessageTool(
                    id=next_id(),
                    content=event.output or "",
                    tool_call_id=call_id,
                    function=event.name,
                    error=error,
                    metadata=about,
                )
            )
    return messages


def final_output(messages: list[ChatMessage], model: str, message_id: str) -> ModelOutput:
    """The agent's last reply as the sample's output (what inspect shows as its answer)."""
    from inspect_ai.model import ChatCompletionChoice, ChatMessageAssistant, ModelOutput

    replies = [m for m in messages if m.role == "assistant" and not m.tool_calls]
    text = replies[-1].text if replies else ""
    reply = ChatMessageAssistant(id=message_id, content=text, model=model, source="generate")
    return ModelOutput(model=model, choices=[ChatCompletionChoice(message=reply, stop_reason="stop")])


def _event_metadata(event: Event) -> dict[str, Any]:
    fields: dict[str, Any] = {"turn": event.turn, "timestamp": event.timestamp}
    if event.kind == "tool_call":
        fields |= {"writes": event.writes, "duration_ms": event.duration_ms}
    return {name: value for name, value in fields.items() if value is not None}


def _usage(usage: dict[str, Any]) -> ModelUsage | None:
    """A record's token counts (and cost, where priced) as inspect's usage; None when there are none."""
    from inspect_ai.model import ModelUsage

    prompt, completion = usage.get("prompt_tokens") or 0, usage.get("completion_tokens") or 0
    cost = usage.get("cost_usd")
    if not prompt and not completion and cost is None:
        return None
    return ModelUsage(
        input_tokens=prompt, output_tokens=completion, total_tokens=prompt + completion, total_cost=cost
    )


def _total_usage(usages: list[ModelUsage | None]) -> ModelUsage | None:
    present = [usage for usage in usages if usage is not None]
    if not present:
        return None
    total = present[0]
    for usage in present[1:]:
        total = total + usage
    return total
