"""The simulator's session API: what the runner (and later the gRPC service) talks to."""

from __future__ import annotations

import importlib
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from pydantic import BaseModel

from taue.contracts.episode import AgentTurn, Notification, UserTurn
from taue.contracts.tasks import Task
from taue.contracts.text import shown


class UserOptions(BaseModel):
    """How to simulate the user: the backend and, for `llm`, the model endpoint."""

    backend: str = "scripted"
    model: str | None = None
    base_url: str | None = None
    temperature: float = 0.0
    enable_thinking: bool | None = None
    """Sent as `chat_template_kwargs: {"enable_thinking": ...}` (Qwen3 templates); None sends nothing."""


class UserBackend(Protocol):
    """One simulated user. Backends may keep token counts in a `usage` dict attribute, and judge the
    writes of an unanswered last agent turn with a `last_turn(notifications)` method returning every
    policy violation of the session (`simulator/approvals.py`)."""

    async def first_message(self) -> str: ...
    async def respond(self, turn: AgentTurn) -> UserTurn: ...


BACKENDS = {
    "scripted": ("taue.simulator.scripted", "ScriptedUser"),
    "llm": ("taue.simulator.llm", "LLMUser"),
}


def make_user(
    task: Task, seed: int, options: UserOptions, tools: Mapping[str, str] | None = None
) -> UserBackend:
    if options.backend not in BACKENDS:
        raise SimulatorError(f"unknown user backend {options.backend!r}; available: {', '.join(BACKENDS)}")
    module_name, class_name = BACKENDS[options.backend]
    try:
        backend = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as exc:
        raise SimulatorError(f"the {options.backend} user backend is not available: {exc}") from None
    if options.backend == "scripted":
        return backend(task, seed, options, tools=tools)  # how it reads proposals (docs/simulator.md)
    return backend(task, seed, options)


DEFAULT_SESSION_TTL_S = 900.0
"""Idle seconds (no request for the session) after which a user session expires."""
DEFAULT_MAX_SESSIONS = 10_000


class SimulatorError(LookupError):
    """A request the simulator cannot serve (unknown session or backend, bad task)."""


class UnknownSession(SimulatorError):
    """No live session of that id (never started, ended, or expired)."""


class SimulatorFull(SimulatorError):
    """As many sessions live as the simulator may hold."""


class SimulatorUnavailable(RuntimeError):
    """The user backend failed for reasons outside the agent's control (an LLM endpoint down, empty
    completions after retries): an infrastructure error, retried, never the agent's failure."""


@dataclass
class Session:
    user: UserBackend
    last_used: float = field(default_factory=time.monotonic)


class Simulator:
    """Live user sessions of one process, keyed by session id. A session idle for `session_ttl_s`
    expires (swept when sessions are started); at most `max_sessions` live at once."""

    def __init__(
        self, session_ttl_s: float = DEFAULT_SESSION_TTL_S, max_sessions: int = DEFAULT_MAX_SESSIONS
    ) -> None:
        self.session_ttl_s = session_ttl_s
        self.max_sessions = max_sessions
        self._sessions: dict[str, Session] = {}
        self._starting = 0
        self._next_sweep = 0.0

    def __len__(self) -> int:
        return len(self._sessions)

    async def start(
        self,
        task: Task,
        seed: int,
        options: UserOptions | None = None,
        tools: Mapping[str, str] | None = None,
    ) -> tuple[str, str]:
        """Start a session; returns (session id, first user message)."""
        self._sweep()
        if self._full():
            self._sweep(force=True)
        if self._full():
            raise SimulatorFull(
                f"too many live user sessions ({self.max_sessions}, the simulator's cap): end finished "
                f"ones, wait for idle ones to expire ({self.session_ttl_s:g} s) or raise --max-sessions"
            )
        self._starting += 1  # counted while the first message is made, so concurrent starts respect the cap
        try:
            user = make_user(task, seed, options or UserOptions(), tools)
            first = await user.first_message()
        finally:
            self._starting -= 1
        session_id = secrets.token_hex(8)
        self._sessions[session_id] = Session(user)
        return session_id, first

    def _full(self) -> bool:
        return len(self._sessions) + self._starting >= self.max_sessions

    async def respond(self, session_id: str, turn: AgentTurn) -> UserTurn:
        return await self._user(session_id).respond(turn)

    def usage(self, session_id: str) -> dict:
        return dict(getattr(self._user(session_id), "usage", None) or {})

    def policy_violations(self, session_id: str, notifications: Sequence[Notification] = ()) -> list[str]:
        """Every policy violation of the session, with `notifications` (the writes of an agent turn the
        user never answered) judged too; none for a backend that does not observe them."""
        last_turn = getattr(self._user(session_id), "last_turn", None)
        return list(last_turn(list(notifications))) if last_turn is not None else []

    def _user(self, session_id: str) -> UserBackend:
        session = self._sessions.get(session_id)
        if session is None:
            raise UnknownSession(f"unknown simulator session {shown(session_id)}")
        session.last_used = time.monotonic()
        return session.user

    def end(self, session_id: str) -> None:
        self._sessions.pop(session_id, None)

    def _sweep(self, force: bool = False) -> None:
        """Drop the sessions idle for longer than the TTL (unless forced, at most every quarter TTL and
        at least every 30 s while sessions start)."""
        now = time.monotonic()
        if now < self._next_sweep and not force:
            return
        self._next_sweep = now + min(30.0, self.session_ttl_s / 4)
        expired = [sid for sid, s in self._sessions.items() if now - s.last_used > self.session_ttl_s]
        for session_id in expired:
            del self._sessions[session_id]
