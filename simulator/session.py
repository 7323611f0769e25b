"""The simulator's session API: what the runner (and later the gRPC service) talks to."""

from __future__ import annotations

import importlib
import secrets
from typing import Protocol

from pydantic import BaseModel

from taue.contracts.episode import AgentTurn, UserTurn
from taue.contracts.tasks import Task


class UserOptions(BaseModel):
    """How to simulate the user: the backend and, for `llm`, the model endpoint."""

    backend: str = "scripted"
    model: str | None = None
    base_url: str | None = None
    temperature: float = 0.0
    enable_thinking: bool | None = None
    """Sent as `chat_template_kwargs: {"enable_thinking": ...}` (Qwen3 templates); None sends nothing."""


class UserBackend(Protocol):
    """One simulated user. Backends may keep token counts in a `usage` dict attribute."""

    async def first_message(self) -> str: ...
    async def respond(self, turn: AgentTurn) -> UserTurn: ...


BACKENDS = {
    "scripted": ("taue.simulator.scripted", "ScriptedUser"),
    "llm": ("taue.simulator.llm", "LLMUser"),
}


def make_user(task: Task, seed: int, options: UserOptions) -> UserBackend:
    if options.backend not in BACKENDS:
        raise SimulatorError(f"unknown user backend {options.backend!r}; available: {', '.join(BACKENDS)}")
    module_name, class_name = BACKENDS[options.backend]
    try:
        backend = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as exc:
        raise SimulatorError(f"the {options.backend} user backend is not available: {exc}") from None
    return backend(task, seed, options)


class SimulatorError(LookupError):
    """A request the simulator cannot serve (unknown session or backend, bad task)."""


class SimulatorUnavailable(RuntimeError):
    """The user backend failed for reasons outside the agent's control (an LLM endpoint down, empty
    completions after retries): an infrastructure error, retried, never the agent's failure."""


class Simulator:
    """Live user sessions of one process, keyed by session id."""

    def __init__(self) -> None:
        self._sessions: dict[str, UserBackend] = {}

    async def start(self, task: Task, seed: int, options: UserOptions | None = None) -> tuple[str, str]:
        """Start a session; returns (session id, first user message)."""
        user = make_user(task, seed, options or UserOptions())
        first = await user.first_message()
        session_id = secrets.token_hex(8)
        self._sessions[session_id] = user
        return session_id, first

    async def respond(self, session_id: str, turn: AgentTurn) -> UserTurn:
        return await self._user(session_id).respond(turn)

    def usage(self, session_id: str) -> dict:
        return dict(getattr(self._user(session_id), "usage", None) or {})

    def _user(self, session_id: str) -> UserBackend:
        user = self._sessions.get(session_id)
        if user is None:
            raise SimulatorError(f"unknown simulator session {session_id!r}")
        return user

    def end(self, session_id: str) -> None:
        self._sessions.pop(session_id, None)
