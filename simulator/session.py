"""The simulator's session API: what the runner (and later the gRPC service) talks to."""

from __future__ import annotations

import importlib
import secrets
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field

from taue.envs.runtime.tasks import Task

STOP = "###STOP###"
UNSATISFIED = "###UNSATISFIED###"
Termination = Literal["user_stop", "user_unsatisfied"]


class Notification(BaseModel):
    """The service's confirmation of one successful write of the agent's last turn (what a real
    customer receives by e-mail or SMS): the tool and its arguments, from the server's tool log."""

    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)

    def render(self) -> str:
        """The confirmation as the customer reads it."""
        details = ", ".join(f"{name.replace('_', ' ')}: {value}" for name, value in self.arguments.items())
        return f"[Confirmation] {self.tool.replace('_', ' ')} completed ({details})."


class AgentTurn(BaseModel):
    """What the user gets after one agent turn: the agent's message and the service's confirmations."""

    message: str
    notifications: list[Notification] = Field(default_factory=list)
    successful_calls: int = Field(default=0, description="Tool calls of the turn that succeeded (reads too).")


class UserTurn(BaseModel):
    """The user's next message, and the simulator's state after it."""

    message: str
    done: bool
    termination: Termination | None = None
    patience: float | None = None
    goals_confirmed: list[str] = Field(default_factory=list)
    events: list[str] = Field(default_factory=list)
    reason: str | None = None
    """Why the user left unsatisfied (the costly events), when it did."""


class UserOptions(BaseModel):
    """How to simulate the user: the backend and, for `llm`, the model endpoint."""

    backend: str = "scripted"
    model: str | None = None
    base_url: str | None = None
    temperature: float = 0.0


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
