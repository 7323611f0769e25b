"""One episode, top to bottom (docs/architecture.md): create, converse, collect, score, record, delete.

The steps (`open_episode`, `agent_turn`, `score_episode`, `close_episode`) are the only episode
lifecycle: the runner's loop below and `taue episode new|say|score` (by hand) both use them.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import time
from collections.abc import Sequence
from dataclasses import dataclass

import httpx2

from taue.contracts.domain import EpisodeCreated
from taue.contracts.episode import (
    AgentTurn,
    Event,
    LoggedCall,
    Message,
    Notification,
    RewardBreakdown,
    Termination,
    TimedCall,
    utc_now,
)
from taue.contracts.integrity import EpisodeEnd, Integrity
from taue.contracts.policy import policy_enforced
from taue.contracts.run import EpisodeRecord
from taue.contracts.tasks import Task
from taue.contracts.timeline import timeline
from taue.runner.agents import NEEDS_GROUND_TRUTH, AgentError, AgentOptions, EpisodeContext, make_agent
from taue.runner.agents.base import Agent, McpServerInfo
from taue.runner.catalog import DomainCatalog
from taue.runner.control import ControlClient, InfraError
from taue.runner.pricing import priced
from taue.scorer.client import ScorerClient
from taue.scorer.scoring import ScoreRequest
from taue.simulator.client import SimulatorClient
from taue.simulator.session import UserOptions


@dataclass(frozen=True)
class Limits:
    max_turns: int = 200
    max_tool_calls: int = 200
    turn_timeout: float = 120.0


@dataclass
class Harness:
    """Everything an episode needs from its surroundings; shared by all episodes of a run."""

    run: str
    agent: str
    user: UserOptions
    agent_options: AgentOptions
    controls: dict[str, ControlClient]
    simulator: SimulatorClient
    scorer: ScorerClient
    limits: Limits
    transport: httpx2.AsyncBaseTransport | None = None
    run_id: str | None = None
    """Sent with every episode it creates, so that the run's leftovers can be deleted by run id."""
    manifest_sha256: str | None = None
    """The digest of the run's signed manifest, sent with every episode it creates (its observation
    and seal name it: agent-runner/run_seal.py)."""
    opening: asyncio.Semaphore | None = None
    """Episodes being opened at once, at most (`open_episode`). Opening is the CPU-heavy step (a
    database copy, a scripted user's first line): a burst of a thousand would queue the simulator's
    StartSession calls on a shared event loop past gRPC's 30 s limit for a call the server has not
    yet picked up."""
    strict_policy: bool = False
    """Policy violations cost the reward in imported task sets too (`--strict-policy`)."""


def episode_seed(run_seed: int, task_id: str, trial: int) -> int:
    """A stable per-episode seed: the same (seed, task, trial) always gives the same number."""
    digest = hashlib.sha256(f"{run_seed}:{task_id}:{trial}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


@dataclass(frozen=True)
class OpenedEpisode:
    created: EpisodeCreated
    session_id: str
    first_message: str


RunTag = tuple[str | None, str | None]
"""What an episode is created with: its run's id and the digest of the run's signed manifest."""

MODEL_USERS = frozenset({"llm"})
"""User backends whose first line is a model call: a wait, not work for the opening gate."""


async def open_episode(
    control: ControlClient,
    simulator: SimulatorClient,
    task: Task,
    seed: int,
    user: UserOptions,
    run_id: str | None = None,
    gate: asyncio.Semaphore | None = None,
    manifest_sha256: str | None = None,
) -> OpenedEpisode:
    """A fresh episode on the domain server and a user session on the simulator.

    `gate` bounds the episodes opening at once: it covers the database copy and a scripted user's
    first line (CPU), not a model user's first line, which waits on a model as an agent turn does
    (gating that wait would start a model run in batches of the gate's size); the database is copied
    while that model call runs."""
    if user.backend in MODEL_USERS:
        return await _open_at_once(control, simulator, task, seed, user, (run_id, manifest_sha256), gate)
    async with gate or contextlib.nullcontext():
        created = await _create_episode(control, task.id, seed, (run_id, manifest_sha256))
        return await _start_user(control, simulator, created, task, seed, user)


async def _open_at_once(
    control: ControlClient,
    simulator: SimulatorClient,
    task: Task,
    seed: int,
    user: UserOptions,
    tag: RunTag,
    gate: asyncio.Semaphore | None,
) -> OpenedEpisode:
    """The episode and the user's session at the same time; whichever was made is undone when the
    other fails (or the run is stopped meanwhile)."""

    async def create() -> EpisodeCreated:
        async with gate or contextlib.nullcontext():
            return await _create_episode(control, task.id, seed, tag)

    creating = asyncio.ensure_future(create())
    starting = asyncio.ensure_future(simulator.start(task, seed, user))
    try:
        created, (session_id, first_message) = await asyncio.gather(creating, starting)
    except BaseException:
        await asyncio.wait([creating, starting])
        if _made(creating):
            await close_episode(control, creating.result().episode_id)
        if _made(starting):
            with contextlib.suppress(Exception):  # best effort: the simulator expires idle sessions
                await simulator.end(starting.result()[0])
        raise
    return OpenedEpisode(created, session_id, first_message)


def _made(future: asyncio.Future) -> bool:
    return future.done() and not future.cancelled() and future.exception() is None


async def _start_user(
    control: ControlClient,
    simulator: SimulatorClient,
    created: EpisodeCreated,
    task: Task,
    seed: int,
    user: UserOptions,
) -> OpenedEpisode:
    """The user's session for the created episode; the episode is deleted when that fails."""
    try:
        session_id, first_message = await simulator.start(task, seed, user)
    except BaseException:
        await close_episode(control, created.episode_id)
        raise
    return OpenedEpisode(created, session_id, first_message)


async def _create_episode(control: ControlClient, task_id: str, seed: int, tag: RunTag) -> EpisodeCreated:
    """Create the episode; when cancelled meanwhile (a signal), wait for the server's answer and delete
    the episode it made, which would otherwise be left on the server with no one knowing its id."""
    creating = asyncio.ensure_future(control.create_episode(task_id, seed, *tag))
    try:
        return await asyncio.shield(creating)
    except asyncio.CancelledError:
        await asyncio.wait([creating])
        if not creating.cancelled() and creating.exception() is None:
            await close_episode(control, creating.result().episode_id)
        raise


@dataclass(frozen=True)
class ScoredEpisode:
    """An episode's reward with what it was computed from: the server's end of the episode (tool log,
    expected outcome) and the integrity block that signs both (None from an old scorer)."""

    breakdown: RewardBreakdown
    end: EpisodeEnd
    integrity: Integrity | None


@dataclass(frozen=True)
class PolicyCheck:
    """The policy violations the user simulator observed, and whether they cost the reward."""

    violations: Sequence[str] = ()
    enforced: bool = False


async def finish_episode(
    control: ControlClient, episode_id: str, termination: Termination
) -> tuple[EpisodeEnd, Termination]:
    """Finish the episode on its server (no tool call counts after this): its signed end, and the
    termination (a conversation-ending tool makes `max_turns` a transfer)."""
    end = await control.finish(episode_id)
    if end.ended and termination == "max_turns":
        termination = "agent_transfer"
    return end, termination


async def score_finished(
    scorer: ScorerClient,
    domain: str,
    task_id: str,
    episode_id: str,
    end: EpisodeEnd,
    transcript: list[Message],
    termination: Termination,
    policy: PolicyCheck | None = None,
) -> ScoredEpisode:
    """Score what the server observed (final state, tool log and the task's expected outcome, from one
    signed snapshot) with the policy violations the user observed."""
    policy = policy or PolicyCheck()
    request = ScoreRequest(
        domain=domain,
        task_id=task_id,
        final_hash=end.final_hash,
        transcript=transcript,
        tool_log=[call.logged() for call in end.tool_log],
        termination=termination,
        expected=end.expected,
        episode_id=episode_id,
        observation=end.observation,
        policy_violations=list(policy.violations),
        policy_enforced=policy.enforced,
    )
    scored = await scorer.score(request)
    return ScoredEpisode(scored.breakdown, end, scored.integrity)


async def score_episode(
    control: ControlClient,
    scorer: ScorerClient,
    domain: str,
    task_id: str,
    episode_id: str,
    transcript: list[Message],
    termination: Termination,
    policy: PolicyCheck | None = None,
) -> ScoredEpisode:
    """Finish the episode on its server and score it (`finish_episode`, `score_finished`)."""
    end, termination = await finish_episode(control, episode_id, termination)
    return await score_finished(scorer, domain, task_id, episode_id, end, transcript, termination, policy)


async def close_episode(control: ControlClient, episode_id: str) -> None:
    """Delete the episode, to the end even when the run is being stopped meanwhile; a failed delete is
    ignored (the server's idle TTL expires the episode, and the run deletes its leftovers by run id)."""
    deleting = asyncio.ensure_future(_delete_quietly(control, episode_id))
    try:
        await asyncio.shield(deleting)
    except asyncio.CancelledError:
        await asyncio.wait([deleting])
        raise


async def _delete_quietly(control: ControlClient, episode_id: str) -> None:
    with contextlib.suppress(InfraError, ValueError):
        await control.delete_episode(episode_id)


async def run_episode(
    harness: Harness, catalog: DomainCatalog, task: Task, trial: int, seed: int
) -> EpisodeRecord:
    """Run one episode. Raises `InfraError` when the harness failed (the caller retries)."""
    started = time.perf_counter()
    control = harness.controls[catalog.name]
    opened = await open_episode(
        control,
        harness.simulator,
        task,
        seed,
        harness.user,
        harness.run_id,
        harness.opening,
        harness.manifest_sha256,
    )
    session_id: str | None = opened.session_id
    try:
        conversation = Conversation(harness, catalog, task, opened)
        await conversation.run(opened.first_message)
        end, termination = await finish_episode(control, opened.created.episode_id, conversation.termination)
        ended = await harness.simulator.end(opened.session_id, conversation.unanswered(end.tool_log))
        session_id = None
        policy = PolicyCheck(ended.policy_violations, policy_enforced(catalog.card, harness.strict_policy))
        scored = await score_finished(
            harness.scorer,
            catalog.name,
            task.id,
            opened.created.episode_id,
            end,
            conversation.transcript,
            termination,
            policy,
        )
        user_usage = priced(
            ended.usage, harness.user.model, harness.agent_options.price_table, harness.user.base_url
        )
        breakdown = scored.breakdown
        tool_log = conversation.with_turns(scored.end.tool_log)
        events = conversation.events(tool_log)
    finally:
        try:
            if session_id is not None:
                with contextlib.suppress(Exception):  # best effort: the episode already failed
                    await harness.simulator.end(session_id)
        finally:  # even when a signal cancels the run just then
            await close_episode(control, opened.created.episode_id)
    return EpisodeRecord(
        run=harness.run,
        task_id=task.id,
        domain=catalog.name,
        trial=trial,
        seed=seed,
        condition=task.condition_id,
        family=task.emotion.family if task.emotion else None,
        emotion=task.emotion.model_dump(exclude={"instruction"}) if task.emotion else None,
        agent=harness.agent,
        user=harness.user.backend,
        transcript=conversation.transcript,
        tool_log=[call.logged() for call in tool_log],
        events=events,
        termination=breakdown.termination,
        reward=breakdown.reward,
        breakdown=breakdown,
        user_state=conversation.user_state,
        error=conversation.error,
        usage={**conversation.usage, "user": user_usage},
        timings={"episode_s": round(time.perf_counter() - started, 4)},
        expected=scored.end.expected,
        integrity=scored.integrity,
    )


class Conversation:
    """The user–agent loop of one episode, with the run's limits."""

    def __init__(self, harness: Harness, catalog: DomainCatalog, task: Task, opened: OpenedEpisode) -> None:
        self.harness, self.catalog, self.task = harness, catalog, task
        episode = opened.created
        self.session_id, self.episode_id = opened.session_id, episode.episode_id
        auth = {"Authorization": f"Bearer {episode.token}"}
        self.context = EpisodeContext(
            episode_id=episode.episode_id,
            domain=catalog.name,
            mcp_servers=[McpServerInfo(name=catalog.name, url=episode.mcp_url, headers=auth)],
            policy=catalog.card.policy,
            task=task if harness.agent in NEEDS_GROUND_TRUTH else None,
            transport=harness.transport,
        )
        self.transcript: list[Message] = []
        self.message_times: list[str] = []
        self.termination: Termination = "max_turns"
        self.user_state: dict = {}
        self.usage: dict = {}
        self.error: str | None = None
        self.calls_seen = 0
        self.calls_answered = 0
        """Tool-log entries whose turn the user answered (it saw that turn's writes)."""
        self.call_turns: list[int] = []

    async def run(self, first_message: str) -> None:
        agent = make_agent(self.harness.agent, self.catalog.card.write_tools, self.harness.agent_options)
        user_message = first_message
        self.say("user", user_message)
        try:
            await agent.start(self.context)
            for _ in range(self.harness.limits.max_turns):
                reply = await self._reply(agent, user_message)
                self.say("agent", reply)
                calls = await self._turn_calls()
                if calls is None:
                    return
                turn = await self.harness.simulator.respond(self.session_id, agent_turn(reply, calls))
                self.calls_answered = self.calls_seen
                user_message = turn.message
                self.say("user", user_message)
                self.user_state = turn.model_dump(exclude={"message", "done", "termination"})
                if turn.done:
                    self.termination = turn.termination or "user_stop"
                    return
        except TimeoutError:
            self.termination, self.error = (
                "timeout",
                f"agent gave no reply within {self.harness.limits.turn_timeout}s",
            )
        except AgentError as exc:
            self.termination, self.error = "agent_error", str(exc)
        finally:
            self.usage = {"agent": dict(getattr(agent, "usage", None) or {})}
            await agent.close()

    async def _reply(self, agent: Agent, message: str) -> str:
        """The agent's reply within the turn timeout, in this task (not wait_for's own): a signal's
        cancellation reaches the agent directly, and nothing it raises on the way is left unretrieved."""
        limit = asyncio.timeout(self.harness.limits.turn_timeout)
        try:
            async with limit:
                return await agent.respond(message)
        except Exception:
            if limit.expired():  # the agent turned the timeout's cancellation into an error of its own
                raise TimeoutError from None
            raise

    def say(self, role: str, content: str) -> None:
        self.transcript.append(Message(role=role, content=content))
        self.message_times.append(utc_now())

    async def _turn_calls(self) -> list[TimedCall] | None:
        """The tool calls of the agent's last turn; None when the tools ended the episode."""
        control = self.harness.controls[self.catalog.name]
        calls, ended = await control.tool_log_since(self.episode_id, self.calls_seen)
        self.calls_seen += len(calls)
        self.call_turns.extend([self.agent_turns - 1] * len(calls))
        if ended:
            self.termination = "agent_transfer"
            return None
        if self.calls_seen > self.harness.limits.max_tool_calls:
            self.termination = "max_tool_calls"
            self.error = f"more than {self.harness.limits.max_tool_calls} tool calls"
            return None
        return calls

    def unanswered(self, tool_log: Sequence[LoggedCall]) -> list[Notification]:
        """The confirmations of the writes the user never answered: the episode ended after them."""
        return notifications(tool_log[self.calls_answered :])

    @property
    def agent_turns(self) -> int:
        return sum(1 for message in self.transcript if message.role == "agent")

    def with_turns(self, tool_log: list[TimedCall]) -> list[TimedCall]:
        """The server's tool log with each call's agent turn; calls of a turn that never produced a
        reply (a timeout, an agent error) belong to the turn in progress."""
        turns = [*self.call_turns, *[self.agent_turns] * max(0, len(tool_log) - len(self.call_turns))]
        return [call.model_copy(update={"turn": turn}) for call, turn in zip(tool_log, turns, strict=False)]

    def events(self, tool_log: list[TimedCall]) -> list[Event]:
        """The episode in order, with the clock of every message and call (`tool_log` with turns)."""
        clocks = [(call.timestamp, call.duration_ms) for call in tool_log]
        return timeline(self.transcript, tool_log, self.message_times, clocks)


def agent_turn(message: str, calls: Sequence[LoggedCall]) -> AgentTurn:
    """The agent's message with the service's confirmations of the turn's successful writes."""
    return AgentTurn(
        message=message,
        notifications=notifications(calls),
        successful_calls=sum(1 for c in calls if c.ok),
    )


def notifications(calls: Sequence[LoggedCall]) -> list[Notification]:
    """The service's confirmations of the successful writes among `calls`."""
    return [
        Notification(tool=c.name, arguments=c.arguments, output=c.output) for c in calls if c.ok and c.writes
    ]
