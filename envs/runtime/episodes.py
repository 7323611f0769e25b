"""Episodes of one domain server: creation, reset, tokens, tool logs, idle expiry, deletion."""

from __future__ import annotations

import asyncio
import hmac
import secrets
import time
from dataclasses import dataclass, field
from functools import cached_property

from taue.contracts.integrity import (
    EpisodeEnd,
    Observation,
    SigningKey,
    expected_digest,
    task_set_hash,
    tool_log_digest,
)
from taue.contracts.tasks import Action, Task
from taue.contracts.text import shown
from taue.envs.runtime.catalog import ExpectedOutcomes
from taue.envs.runtime.database import EpisodeDatabase
from taue.envs.runtime.discovery import unknown_task_message
from taue.envs.runtime.domain import Domain
from taue.envs.runtime.execution import ToolCall
from taue.envs.runtime.limits import DEFAULT_EPISODE_TTL_S, MAX_LOGGED_CALLS
from taue.envs.runtime.task_checks import replay


class EpisodeError(LookupError):
    """An episode request that cannot be served; `status` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 404) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Episode:
    id: str
    token: str
    task_id: str | None
    seed: int
    initial_state: list[Action]
    db: EpisodeDatabase
    run_id: str | None = None
    """The run that created the episode (a runner deletes its leftovers by it)."""
    manifest_sha256: str | None = None
    """The digest of the creating run's signed manifest, named by the episode's observation."""
    log: list[ToolCall] = field(default_factory=list)
    dropped: int = 0
    """Calls refused, not logged, because the log reached its bound."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    ended: bool = False
    """Set once a conversation-ending tool ran; later calls are refused."""
    finished: bool = False
    """Set when the runner asked for the episode's end (`finish`): its observation is final, so every
    later tool call is refused."""
    last_used: float = field(default_factory=time.monotonic)
    open_streams: int = 0
    """MCP GET (server-sent events) streams open on this episode."""
    streams_closed: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when the episode ends, is deleted or expires: its GET streams close."""

    def token_matches(self, presented: str) -> bool:
        return hmac.compare_digest(self.token.encode(), presented.encode())

    def touch(self) -> None:
        self.last_used = time.monotonic()

    def idle_s(self, now: float | None = None) -> float:
        return (time.monotonic() if now is None else now) - self.last_used

    def end(self) -> None:
        self.ended = True
        self.streams_closed.set()


class EpisodeRegistry:
    """All live episodes of one domain, each with a private database."""

    def __init__(
        self,
        domain: Domain,
        tasks: dict[str, Task] | None = None,
        max_episodes: int = 4096,
        episode_ttl_s: float = DEFAULT_EPISODE_TTL_S,
        signing_key: SigningKey | None = None,
    ) -> None:
        self.domain = domain
        self.signing_key = signing_key
        """Signs every finished episode's observation; None: observations go unsigned."""
        self.tasks = tasks if tasks is not None else domain.task_index
        self.serves_train_split = tasks is None
        """A server given its own task list (the Tracer's verification) serves no training split."""
        self.max_episodes = max_episodes
        self.episode_ttl_s = episode_ttl_s
        self.max_logged_calls = MAX_LOGGED_CALLS
        self.expected = ExpectedOutcomes(domain)
        self._episodes: dict[str, Episode] = {}
        self._task_set_hashes: dict[str, str] = {}

    def __len__(self) -> int:
        return len(self._episodes)

    @cached_property
    def train_tasks(self) -> dict[str, Task]:
        """The training split, loaded on first use (rollouts for training data play these)."""
        if not self.serves_train_split:
            return {}
        return {task.id: task for task in self.domain.train_tasks}

    def task_set_hash(self, split: str) -> str:
        """The split's task-set hash (as a run computes it over this one domain), made on first use."""
        if split not in self._task_set_hashes:
            tasks = self.split(split).values()
            self._task_set_hashes[split] = task_set_hash({self.domain.name: tasks})
        return self._task_set_hashes[split]

    def split_of(self, task_id: str) -> str:
        return "eval" if task_id in self.tasks else "train"

    def split(self, name: str) -> dict[str, Task]:
        if name == "eval":
            return self.tasks
        if name == "train":
            return self.train_tasks
        raise EpisodeError(f"unknown split {shown(name)}; splits: eval, train", status=422)

    def task(self, task_id: str) -> Task:
        """A task of either split (their ids never collide: training ids carry `-train-`)."""
        task = self.tasks.get(task_id) or self.train_tasks.get(task_id)
        if task is None:
            raise EpisodeError(unknown_task_message(task_id, self.domain.name), status=404)
        return task

    async def create(
        self,
        task_id: str | None,
        seed: int = 0,
        run_id: str | None = None,
        manifest_sha256: str | None = None,
    ) -> Episode:
        if task_id is not None:
            self.task(task_id)
        if len(self._episodes) >= self.max_episodes:
            raise EpisodeError(
                f"too many live episodes ({self.max_episodes}, the server's cap): delete finished ones, "
                f"wait for idle ones to expire ({self.episode_ttl_s:g} s) or raise --max-episodes",
                429,
            )
        initial = list(self.task(task_id).initial_state) if task_id is not None else []
        episode = Episode(
            id=secrets.token_hex(12),
            token=secrets.token_urlsafe(24),
            task_id=task_id,
            seed=seed,
            initial_state=initial,
            db=self.domain.new_database(),
            run_id=run_id,
            manifest_sha256=manifest_sha256,
        )
        try:
            await self._apply_initial_state(episode)
        except BaseException:
            episode.db.close()
            raise
        self._episodes[episode.id] = episode
        return episode

    async def _apply_initial_state(self, episode: Episode) -> None:
        if not episode.initial_state:
            return
        _, log = await replay(self.domain, episode.initial_state, episode.db)
        failed = [call for call in log if not call.ok]
        if failed:
            raise EpisodeError(f"initial state of task {episode.task_id!r} fails: {failed[0].output}", 500)

    def get(self, episode_id: str) -> Episode:
        """The episode, marked as used now (its idle time starts again)."""
        episode = self._episodes.get(episode_id)
        if episode is None:
            raise EpisodeError(f"unknown episode {shown(episode_id)}")
        episode.touch()
        return episode

    def listed(self, run_id: str | None = None) -> list[Episode]:
        """Live episodes (of one run, if given), without touching them."""
        return [e for e in self._episodes.values() if run_id is None or e.run_id == run_id]

    def authorize(self, episode_id: str, token: str) -> Episode:
        """The episode, if `token` is its bearer token; otherwise an `EpisodeError` (404 or 401)."""
        episode = self.get(episode_id)
        if not episode.token_matches(token):
            raise EpisodeError("invalid bearer token for this episode", status=401)
        return episode

    async def reset(self, episode_id: str) -> float:
        """Back to the task's initial state with an empty tool log; returns the time taken in ms."""
        episode = self.get(episode_id)
        async with episode.lock:
            started = time.perf_counter()
            episode.db.reset()
            episode.log.clear()
            episode.dropped = 0
            episode.ended = False
            episode.finished = False
            if episode.streams_closed.is_set():
                episode.streams_closed = asyncio.Event()
            await self._apply_initial_state(episode)
            return (time.perf_counter() - started) * 1000

    async def finish(self, episode_id: str) -> EpisodeEnd:
        """End the episode for good (later tool calls are refused) and say what the server observed:
        the final state hash, the tool log and the task's expected outcome, with the signed
        observation over them. Asking again gives the same answer."""
        episode = self.get(episode_id)
        if episode.task_id is None:
            raise EpisodeError("this episode plays no task: there is no outcome to finish", status=409)
        async with episode.lock:
            episode.finished = True
            episode.streams_closed.set()
            final_hash = episode.db.state_hash()
            log = list(episode.log)
        task = self.task(episode.task_id)
        expected = await self.expected.get(task)
        observation = Observation(
            domain=self.domain.name,
            episode_id=episode.id,
            task_id=task.id,
            run_id=episode.run_id,
            seed=episode.seed,
            task_set_hash=self.task_set_hash(self.split_of(task.id)),
            final_hash=final_hash,
            ended=episode.ended,
            tool_log_sha256=tool_log_digest(log),
            expected_sha256=expected_digest(expected),
            manifest_sha256=episode.manifest_sha256,
        ).signed_by(self.signing_key)
        return EpisodeEnd(
            episode_id=episode.id,
            final_hash=final_hash,
            ended=episode.ended,
            tool_log=log,
            dropped=episode.dropped,
            expected=expected,
            observation=observation,
        )

    def delete(self, episode_id: str) -> None:
        episode = self._episodes.pop(episode_id, None)
        if episode is None:
            raise EpisodeError(f"unknown episode {shown(episode_id)}")
        episode.streams_closed.set()
        episode.db.close()

    def delete_run(self, run_id: str) -> int:
        """Delete every episode of a run; returns how many there were."""
        doomed = [episode.id for episode in self.listed(run_id)]
        for episode_id in doomed:
            self.delete(episode_id)
        return len(doomed)

    def expire_idle(self) -> int:
        """Delete the episodes idle for longer than the TTL (none in the middle of a call)."""
        now = time.monotonic()
        doomed = [
            episode.id
            for episode in self._episodes.values()
            if episode.idle_s(now) > self.episode_ttl_s and not episode.lock.locked()
        ]
        for episode_id in doomed:
            self.delete(episode_id)
        return len(doomed)

    def close_streams(self) -> None:
        for episode in self._episodes.values():
            episode.streams_closed.set()

    def close(self) -> None:
        for episode_id in list(self._episodes):
            self.delete(episode_id)
