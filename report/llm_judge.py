"""The optional LLM judge: two yes/no questions about each failed episode, asked of any
OpenAI-compatible chat model (vLLM, llama.cpp's server, a hosted API).

- `intent_misread`: the agent acted on, or answered, another request than the one the user made;
- `emotion_ignored`: the user's expressed emotion or urgency was ignored in a way that contributed
  to the failure.

The model sees the task's goal, the scripted emotion, the automatic attribution
(`taue.report.failures`) and the episode in order, and answers in JSON with one sentence of evidence
per question. The labels join the failure's labels as secondary ones: they never become its category.
Requests run at temperature 0 with a fixed seed. Every answer is appended to `RUN_DIR/llm_judge.jsonl`
as it arrives, so a rerun asks only about episodes not judged yet by that model, and the same run and
model give the same labels. An answer that does not parse is kept as a `judge_error` for its episode.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import openai
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from taue.contracts.episode import Event
from taue.contracts.model_clients import ModelClient
from taue.contracts.tasks import Task
from taue.report.failures import CATEGORIES, SECONDARY, Failure, find_task
from taue.runner.results import EpisodeRecord, append_line, drop_torn_line

JUDGE_FILE = "llm_judge.jsonl"
JUDGE_LABELS = ("intent_misread", "emotion_ignored")
API_KEY_VARIABLES = ("TAUE_JUDGE_API_KEY", "OPENAI_API_KEY")
LOCAL_API_KEY = "EMPTY"
"""Sent when neither variable is set: local servers (vLLM, llama.cpp) accept any key."""
SEED = 0
MAX_TOKENS = 1024
REQUEST_TIMEOUT = 120.0
RETRIES = 2
CONCURRENCY = 8
MESSAGE_CHARS = 1200
ARGUMENT_CHARS = 600
OUTPUT_CHARS = 300
TIMELINE_CHARS = 24_000
"""About 6k tokens: the head and the tail of a longer episode are kept."""

SYSTEM_PROMPT = """\
You review one failed conversation from a customer-service benchmark. A simulated customer, scripted \
to feel a given emotion, talked to an AI agent that can call tools; the episode failed. Answer two \
yes/no questions about the agent, each with one sentence of evidence that points to the turn showing it.

1. intent_misread: did the agent act on, or answer, a different request than the one the customer \
made? Yes when it changed, booked, cancelled or looked up something other than what was asked, or \
answered another question. No when it understood the request and failed in another way (a wrong \
value, a missed step, a policy mistake, silence, running out of turns).
2. emotion_ignored: was the customer's expressed emotion or urgency ignored in a way that contributed \
to the failure? Yes when the customer's frustration, anxiety, urgency or distrust went unacknowledged \
or unaddressed and that helped the customer give up or the task go wrong. No when the emotion was \
handled, or had nothing to do with the failure.

Reply with one JSON object and nothing else:
{"intent_misread": {"answer": true or false, "evidence": "one sentence"}, \
"emotion_ignored": {"answer": true or false, "evidence": "one sentence"}}"""


class Verdict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    answer: bool
    evidence: str = Field(min_length=1)


class JudgeAnswer(BaseModel):
    """The judge's reply, parsed strictly: both questions, JSON booleans, nothing else."""

    model_config = ConfigDict(extra="forbid", strict=True)
    intent_misread: Verdict
    emotion_ignored: Verdict


class JudgeEntry(BaseModel):
    """One line of llm_judge.jsonl: the answer about one episode, or why it could not be read."""

    task_id: str
    trial: int
    model: str
    prompt_sha256: str
    """The prompt the answer is about: a changed record or prompt is asked again."""
    answer: JudgeAnswer | None = None
    error: str | None = None
    reply: str | None = None
    """The raw reply, kept only when it did not parse."""


class JudgeSettings(BaseModel):
    model: str
    base_url: str
    api_key: str = LOCAL_API_KEY

    @classmethod
    def from_env(cls, model: str, base_url: str) -> JudgeSettings:
        """The settings with the key from TAUE_JUDGE_API_KEY, else OPENAI_API_KEY, else a placeholder."""
        key = next((os.environ[v] for v in API_KEY_VARIABLES if os.environ.get(v)), LOCAL_API_KEY)
        return cls(model=model, base_url=base_url, api_key=key)


class JudgeResult(BaseModel):
    model: str
    failures: list[Failure]
    """The failures given, with the judge's labels added and its answer (or error) in `details`."""
    judged: int
    errors: int
    asked: int
    """Requests sent this time; the other answers came from llm_judge.jsonl."""

    def block(self) -> dict[str, Any]:
        """The `llm_judge` object of `failure_categories`: shares are of the judged failures."""
        counts = {label: sum(label in f.labels for f in self.failures) for label in JUDGE_LABELS}
        return {
            "model": self.model,
            "judged": self.judged,
            "errors": self.errors,
            "counts": counts,
            "shares": {label: _share(n, self.judged) for label, n in counts.items()},
        }


def _share(count: int, total: int) -> float:
    return round(count / total, 4) if total else 0.0


class JudgeUnavailable(Exception):
    """The endpoint failed (unreachable, HTTP error, timeout): no verdict can be had now."""


def judge_failures(
    run_dir: Path,
    records: Sequence[EpisodeRecord],
    failures: Sequence[Failure],
    settings: JudgeSettings,
    split: str = "eval",
    concurrency: int = CONCURRENCY,
) -> JudgeResult:
    """`judge_failures_async` on a fresh event loop (for callers without one)."""
    return asyncio.run(judge_failures_async(run_dir, records, failures, settings, split, concurrency))


async def judge_failures_async(
    run_dir: Path,
    records: Sequence[EpisodeRecord],
    failures: Sequence[Failure],
    settings: JudgeSettings,
    split: str = "eval",
    concurrency: int = CONCURRENCY,
) -> JudgeResult:
    """The failures with the judge's labels; asks the model only about episodes whose answer is not
    in RUN_DIR/llm_judge.jsonl yet. Raises `JudgeUnavailable` when the endpoint fails, after storing
    the answers received until then."""
    by_key = {record.key: record for record in records}
    prompts = {
        (f.task_id, f.trial): episode_prompt(record, f, find_task(record.domain, record.task_id, split))
        for f in failures
        if (record := by_key.get((f.task_id, f.trial))) is not None
    }
    cache = JudgeCache(run_dir)
    entries = cache.load(settings.model)
    missing = {
        key: prompt
        for key, prompt in prompts.items()
        if key not in entries or entries[key].prompt_sha256 != prompt_digest(prompt)
    }
    if missing:
        entries.update(await _ask_all(missing, settings, cache, concurrency))
    judged = [_with_verdict(f, entries.get((f.task_id, f.trial))) for f in failures]
    errors = sum("judge_error" in f.details for f in judged)
    labelled = sum("llm_judge" in f.details for f in judged)
    return JudgeResult(
        model=settings.model, failures=judged, judged=labelled, errors=errors, asked=len(missing)
    )


async def _ask_all(
    prompts: dict[tuple[str, int], str], settings: JudgeSettings, cache: JudgeCache, concurrency: int
) -> dict[tuple[str, int], JudgeEntry]:
    gate = asyncio.Semaphore(concurrency)
    cache.repair()
    async with ModelClient(
        settings.base_url, settings.api_key, max_retries=RETRIES, timeout=REQUEST_TIMEOUT
    ) as client:
        tasks = {
            key: asyncio.create_task(_ask_one(client, settings.model, key, prompt, gate, cache))
            for key, prompt in sorted(prompts.items())
        }
        try:
            await asyncio.gather(*tasks.values())
        except openai.APIError as exc:
            for task in tasks.values():
                task.cancel()
            await asyncio.gather(*tasks.values(), return_exceptions=True)
            failure = f"the judge endpoint {settings.base_url} failed: {_describe(exc)}"
            raise JudgeUnavailable(failure) from None
    return {key: task.result() for key, task in tasks.items()}


async def _ask_one(
    client: ModelClient,
    model: str,
    key: tuple[str, int],
    prompt: str,
    gate: asyncio.Semaphore,
    cache: JudgeCache,
) -> JudgeEntry:
    async with gate:
        completion = await client.chat_completion(
            {
                "model": model,
                "messages": [
                    {"role": "system", "content": SYSTEM_PROMPT},
                    {"role": "user", "content": prompt},
                ],
                "temperature": 0,
                "seed": SEED,
                "max_tokens": MAX_TOKENS,
                "response_format": {"type": "json_object"},
            }
        )
    content = completion.choices[0].message.content if completion.choices else None
    entry = read_answer(content, key, model, prompt_digest(prompt))
    cache.append(entry)
    return entry


def read_answer(content: str | None, key: tuple[str, int], model: str, digest: str) -> JudgeEntry:
    """The cache entry for one reply: the parsed answer, or the reason it does not parse."""
    entry = JudgeEntry(task_id=key[0], trial=key[1], model=model, prompt_sha256=digest)
    if not content or not content.strip():
        return entry.model_copy(update={"error": "empty reply", "reply": content})
    try:
        answer = JudgeAnswer.model_validate_json(_json_text(content))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "reply"
        reason = f"unparseable answer ({where}: {first['msg']})"
        return entry.model_copy(update={"error": reason, "reply": _clip(content, 2000)})
    return entry.model_copy(update={"answer": answer})


_THINKING = re.compile(r"<think>.*?</think>", re.DOTALL)
_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL)


def _json_text(content: str) -> str:
    """The reply without a reasoning model's <think> block or a Markdown code fence around the JSON."""
    text = _THINKING.sub("", content).strip()
    fenced = _FENCE.match(text)
    return fenced.group(1) if fenced else text


def _describe(exc: openai.APIError) -> str:
    if isinstance(exc, openai.APIStatusError):
        body = exc.body
        said = body.get("message") if isinstance(body, dict) else body
        return f"HTTP {exc.status_code}" + (f" ({_clip(' '.join(str(said).split()), 200)})" if said else "")
    if isinstance(exc, openai.APITimeoutError):
        return f"no answer within {REQUEST_TIMEOUT:.0f} s"
    if isinstance(exc, openai.APIConnectionError):
        return "cannot connect"
    return type(exc).__name__


def _with_verdict(failure: Failure, entry: JudgeEntry | None) -> Failure:
    """The failure with the judge's yes-labels (secondary, in SECONDARY's order) and its answer."""
    if entry is None:
        return failure
    labels = [label for label in failure.labels if label not in JUDGE_LABELS]
    details = {k: v for k, v in failure.details.items() if k not in ("llm_judge", "judge_error")}
    if entry.answer is None:
        details["judge_error"] = entry.error
    else:
        details["llm_judge"] = entry.answer.model_dump()
        labels += [label for label in JUDGE_LABELS if getattr(entry.answer, label).answer]
    ordered = [label for label in (*CATEGORIES, *SECONDARY) if label in labels]
    return failure.model_copy(update={"labels": ordered, "details": details})


class JudgeCache:
    """RUN_DIR/llm_judge.jsonl: one line per (task, trial, model), each written with a single
    `write` on a file opened for appending; the last line for a key wins."""

    def __init__(self, run_dir: Path) -> None:
        self.path = run_dir / JUDGE_FILE

    def load(self, model: str) -> dict[tuple[str, int], JudgeEntry]:
        if not self.path.exists():
            return {}
        entries = {}
        for line in self.path.read_text(encoding="utf-8").splitlines():
            try:
                entry = JudgeEntry.model_validate_json(line)
            except ValidationError:
                continue  # a torn line from an interrupted write
            if entry.model == model:
                entries[(entry.task_id, entry.trial)] = entry
        return entries

    def repair(self) -> None:
        drop_torn_line(self.path)

    def append(self, entry: JudgeEntry) -> None:
        append_line(self.path, entry.model_dump_json(exclude_none=True))


def prompt_digest(prompt: str) -> str:
    return hashlib.sha256(f"{SYSTEM_PROMPT}\n{prompt}".encode()).hexdigest()


def episode_prompt(record: EpisodeRecord, failure: Failure, task: Task | None) -> str:
    """What the judge reads about one failed episode."""
    return "\n\n".join(
        [
            "# What the customer wanted\n" + _goal_text(task),
            "# The customer's scripted emotion\n" + _emotion_text(record.emotion),
            "# How the episode failed (automatic attribution)\n" + _attribution_text(record, failure),
            "# The conversation, in order\n" + render_timeline(record.timeline()),
        ]
    )


def _goal_text(task: Task | None) -> str:
    if task is None:
        return "(The task is not installed here: judge the request from the conversation.)"
    requests = "\n".join(f"- {goal.request}" for goal in task.user_scenario.goals)
    return f"{task.instruction}\nThe customer's requests:\n{requests}"


def _emotion_text(emotion: dict[str, Any] | None) -> str:
    if not emotion:
        return "None: a neutral customer."
    return ", ".join(f"{key} {value}" for key, value in emotion.items() if value)


def _attribution_text(record: EpisodeRecord, failure: Failure) -> str:
    labels = [label for label in failure.labels if label not in JUDGE_LABELS]
    details = {k: v for k, v in failure.details.items() if k not in ("llm_judge", "judge_error")}
    lines = [
        f"Reward {record.reward}; the episode ended with {record.termination}.",
        f"Category: {failure.category}. Labels: {', '.join(labels)}.",
    ]
    if details:
        lines.append("Details: " + _clip(json.dumps(details, ensure_ascii=False, sort_keys=True), 800))
    return "\n".join(lines)


def render_timeline(events: Sequence[Event]) -> str:
    """One line per event; a long episode keeps its head and its tail within TIMELINE_CHARS."""
    lines = [_event_line(event) for event in events]
    if sum(len(line) + 1 for line in lines) <= TIMELINE_CHARS:
        return "\n".join(lines)
    head = _within(lines, TIMELINE_CHARS // 2)
    tail = _within(lines[len(head) :][::-1], TIMELINE_CHARS // 2)[::-1]
    left_out = len(lines) - len(head) - len(tail)
    return "\n".join([*head, f"[... {left_out} events left out ...]", *tail])


def _within(lines: Sequence[str], budget: int) -> list[str]:
    kept: list[str] = []
    for line in lines:
        budget -= len(line) + 1
        if budget < 0:
            break
        kept.append(line)
    return kept


def _event_line(event: Event) -> str:
    turn = "-" if event.turn is None else event.turn
    if event.kind == "user":
        return f"[turn {turn}] CUSTOMER: {_clip(event.content, MESSAGE_CHARS)}"
    if event.kind == "agent":
        return f"[turn {turn}] AGENT: {_clip(event.content, MESSAGE_CHARS)}"
    arguments = _clip(json.dumps(event.arguments or {}, ensure_ascii=False), ARGUMENT_CHARS)
    result = "ERROR " if event.error else ""
    output = _clip(" ".join((event.output or "").split()), OUTPUT_CHARS)
    kind = "write" if event.writes else "read"
    return f"[turn {turn}] AGENT CALLS ({kind}) {event.name}({arguments}) -> {result}{output}"


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
