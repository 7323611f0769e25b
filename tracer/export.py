"""Rollout records -> a training dataset: SFT chats of +1 trajectories, or preference pairs.

Steps, each counted for the dataset card: read every record of the given run directories; keep the
trajectories that can be trained on (reward +1 for SFT and for the chosen side of a pair; the
rejected side scored 0 or −1); apply the tool-call-vs-question threshold; drop exact duplicates;
then shuffle with the seed and cap per family and per domain. The same inputs and options give the
same files, byte for byte: nothing depends on run names, paths, clocks or the order directories are
given in.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from taue.contracts.run import EpisodeRecord
from taue.runner.interaction import interaction_stats, questions_asked
from taue.runner.results import RESULTS, load_run
from taue.tracer.trajectories import Chat, UnorderedRecord, chat_messages, domain_prompt, shared_prefix

DATA_FILE = "train.jsonl"
STATS_FILE = "stats.json"


class ExportOptions(BaseModel):
    format: Literal["sft", "preference"] = "sft"
    max_per_domain: int | None = Field(default=None, ge=1)
    max_per_family: int | None = Field(default=None, ge=1)
    balance_families: bool = False
    """Cap every emotion family at the size of the smallest one (after --max-per-family)."""
    min_calls_per_question: float | None = Field(default=None, ge=0)
    """Keep a trajectory only when its tool calls >= this × its questions to the user."""
    dedup: bool = True
    seed: int = 0


class ExportError(ValueError):
    """Input that cannot be exported (a missing run directory, an unknown domain); one line."""


@dataclass
class Sample:
    """One row of the dataset, with the records it came from (for the card's statistics)."""

    row: dict[str, Any]
    records: list[EpisodeRecord]
    domain: str
    family: str

    @property
    def key(self) -> str:
        return self.row["id"]


@dataclass
class Export:
    rows: list[dict[str, Any]]
    stats: dict[str, Any]


def read_records(run_dirs: list[Path]) -> list[EpisodeRecord]:
    """Every record of the given run directories, in a fixed order whatever order they are given."""
    records: list[EpisodeRecord] = []
    for run_dir in run_dirs:
        if not (run_dir / RESULTS).is_file():
            raise ExportError(f"{run_dir} is not a run directory (no {RESULTS})")
        records.extend(load_run(run_dir).records)
    return sorted(records, key=_record_order)


def export_dataset(records: list[EpisodeRecord], options: ExportOptions) -> Export:
    steps: list[tuple[str, int]] = [("episodes read", len(records))]
    usable, unordered = _orderable(records)
    if unordered:
        steps.append(("with the turn of every tool call (older records lack it: rerun them)", len(usable)))
    good = [r for r in usable if r.reward == 1]
    steps.append(("reward +1", len(good)))
    if options.min_calls_per_question is not None:
        good = [r for r in good if _passes_threshold(r, options.min_calls_per_question)]
        steps.append((f"tool calls >= {options.min_calls_per_question:g} × questions", len(good)))
    if options.format == "sft":
        samples = [_sft_sample(record) for record in good]
    else:
        bad = [r for r in usable if r.reward <= 0]
        steps.append(("scored 0 or −1 (rejected candidates)", len(bad)))
        samples = _preference_samples(good, bad, random.Random(options.seed))
        steps.append(("pairs: a +1 trajectory of the same task, condition and opening", len(samples)))
    if options.dedup:
        samples = list({sample.key: sample for sample in samples}.values())
        steps.append(("after removing duplicates", len(samples)))
    samples = _capped(samples, options, steps)
    samples.sort(key=lambda sample: sample.key)
    kept_records = [record for sample in samples for record in sample.records[:1]]
    stats = {
        "format": options.format,
        "options": options.model_dump(mode="json"),
        "steps": [{"step": name, "count": count} for name, count in steps],
        "input": _input_counts(records),
        "output": _output_counts(samples),
        "interaction": {"input": interaction_stats(records), "kept": interaction_stats(kept_records)},
    }
    return Export(rows=[sample.row for sample in samples], stats=stats)


def write_dataset(export: Export, out: Path, card: str) -> None:
    """The dataset folder: train.jsonl, stats.json and README.md (written last: a folder with a card
    is complete)."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "README.md").unlink(missing_ok=True)
    lines = "".join(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n" for row in export.rows)
    (out / DATA_FILE).write_text(lines, encoding="utf-8")
    (out / STATS_FILE).write_text(json.dumps(export.stats, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    (out / "README.md").write_text(card, encoding="utf-8")


def _record_order(record: EpisodeRecord) -> tuple:
    return (
        record.domain,
        record.task_id,
        record.condition or "",
        record.trial,
        record.agent,
        _digest(record),
    )


def _digest(record: EpisodeRecord) -> str:
    """A content hash of what was said and done (never the run name or timings)."""
    content = [
        [m.model_dump() for m in record.transcript],
        [c.model_dump() for c in record.tool_log],
        record.reward,
    ]
    return hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()


def _orderable(records: list[EpisodeRecord]) -> tuple[list[EpisodeRecord], int]:
    usable = [r for r in records if all(call.turn is not None for call in r.tool_log)]
    return usable, len(records) - len(usable)


def _passes_threshold(record: EpisodeRecord, ratio: float) -> bool:
    return len(record.tool_log) >= ratio * questions_asked(record.transcript)


def _chat(record: EpisodeRecord) -> Chat:
    try:
        policy, _ = domain_prompt(record.domain)
    except KeyError:
        raise ExportError(
            f"domain {record.domain!r} is not installed here; exporting needs its policy and tools"
        ) from None
    try:
        return chat_messages(record, policy)
    except UnorderedRecord as exc:  # filtered out before; kept as a guard
        raise ExportError(str(exc)) from None


def _metadata(record: EpisodeRecord) -> dict[str, Any]:
    return {
        "domain": record.domain,
        "task_id": record.task_id,
        "condition": record.condition,
        "family": record.family or "neutral",
        "trial": record.trial,
        "agent": record.agent,
        "user": record.user,
    }


def _sft_sample(record: EpisodeRecord) -> Sample:
    messages = _chat(record)
    _, tools = domain_prompt(record.domain)
    key = hashlib.sha256(json.dumps(messages, sort_keys=True).encode()).hexdigest()[:16]
    row = {
        "id": f"{record.task_id}/{key}",
        "messages": messages,
        "tools": tools,
        **_metadata(record),
        "reward": record.reward,
        "num_tool_calls": len(record.tool_log),
        "num_questions": questions_asked(record.transcript),
    }
    return Sample(row, [record], record.domain, record.family or "neutral")


def _preference_samples(
    good: list[EpisodeRecord], bad: list[EpisodeRecord], rng: random.Random
) -> list[Sample]:
    """One pair per rejected trajectory that has a +1 trajectory of the same task and condition which
    opened the same way (the same first user message: the scripted user's wording follows the
    episode seed, so trial t of one agent pairs with trial t of another); drawn with the seed."""
    chosen_by_group: dict[tuple, list[tuple[EpisodeRecord, Chat]]] = defaultdict(list)
    for record in good:
        chosen_by_group[_group(record)].append((record, _chat(record)))
    samples = []
    for rejected in bad:
        worse = _chat(rejected)
        pool = [
            (record, chat)
            for record, chat in chosen_by_group.get(_group(rejected), [])
            if _opens_alike(chat, worse)
        ]
        if pool:
            record, better = rng.choice(pool)
            sample = _pair(record, better, rejected, worse)
            if sample is not None:
                samples.append(sample)
    return samples


def _group(record: EpisodeRecord) -> tuple:
    return (record.domain, record.task_id, record.condition)


def _opens_alike(first: Chat, second: Chat) -> bool:
    """The same system prompt and first user message: a prompt both continue from."""
    return shared_prefix(first, second) >= 2


def _pair(chosen: EpisodeRecord, better: Chat, rejected: EpisodeRecord, worse: Chat) -> Sample | None:
    cut = shared_prefix(better, worse)
    if better[cut:] == worse[cut:]:
        return None  # the same conversation scored differently: nothing to prefer
    _, tools = domain_prompt(chosen.domain)
    pair = {"prompt": better[:cut], "chosen": better[cut:], "rejected": worse[cut:]}
    key = hashlib.sha256(json.dumps(pair, sort_keys=True).encode()).hexdigest()[:16]
    row = {
        "id": f"{chosen.task_id}/{key}",
        **pair,
        "tools": tools,
        **_metadata(chosen),
        "chosen_agent": chosen.agent,
        "rejected_agent": rejected.agent,
        "chosen_reward": chosen.reward,
        "rejected_reward": rejected.reward,
        "rejected_termination": rejected.termination,
    }
    return Sample(row, [chosen, rejected], chosen.domain, chosen.family or "neutral")


def _capped(samples: list[Sample], options: ExportOptions, steps: list[tuple[str, int]]) -> list[Sample]:
    """Shuffle with the seed, then keep at most the caps, family first, then domain."""
    order = sorted(samples, key=lambda sample: sample.key)
    random.Random(options.seed).shuffle(order)
    family_cap = options.max_per_family
    if options.balance_families and order:
        smallest = min(Counter(sample.family for sample in order).values())
        family_cap = min(family_cap or smallest, smallest)
    if family_cap is not None:
        order = _first_per(order, lambda sample: sample.family, family_cap)
        steps.append((f"at most {family_cap} per emotion family", len(order)))
    if options.max_per_domain is not None:
        order = _first_per(order, lambda sample: sample.domain, options.max_per_domain)
        steps.append((f"at most {options.max_per_domain} per domain", len(order)))
    return order


def _first_per(samples: list[Sample], group: Any, cap: int) -> list[Sample]:
    seen: Counter[str] = Counter()
    kept = []
    for sample in samples:
        name = group(sample)
        if seen[name] < cap:
            seen[name] += 1
            kept.append(sample)
    return kept


def _input_counts(records: list[EpisodeRecord]) -> dict[str, Any]:
    by_agent: dict[str, Counter[str]] = defaultdict(Counter)
    for record in records:
        by_agent[record.agent][f"reward {record.reward:+d}"] += 1
        by_agent[record.agent][record.termination] += 1
    return {
        "episodes": len(records),
        "by_reward": _sorted_counts(f"{r.reward:+d}" for r in records),
        "by_termination": _sorted_counts(r.termination for r in records),
        "by_agent": {agent: dict(sorted(counts.items())) for agent, counts in sorted(by_agent.items())},
    }


def _output_counts(samples: list[Sample]) -> dict[str, Any]:
    rows = [sample.row for sample in samples]
    return {
        "rows": len(rows),
        "by_domain": _sorted_counts(row["domain"] for row in rows),
        "by_family": _sorted_counts(row["family"] for row in rows),
        "by_condition": _sorted_counts(row["condition"] or "neutral" for row in rows),
        "by_reward": _sorted_counts(_reward_label(row) for row in rows),
        "by_agent": _sorted_counts(_agent_label(row) for row in rows),
    }


def _reward_label(row: dict[str, Any]) -> str:
    """`+1` for an SFT row; `+1 vs -1` (chosen vs rejected) for a pair."""
    if "reward" in row:
        return f"{row['reward']:+d}"
    return f"{row['chosen_reward']:+d} vs {row['rejected_reward']:+d}"


def _agent_label(row: dict[str, Any]) -> str:
    if "rejected_agent" in row:
        return f"{row['chosen_agent']} vs {row['rejected_agent']}"
    return row["agent"]


def _sorted_counts(values: Any) -> dict[str, int]:
    return dict(sorted(Counter(values).items()))
