"""The simulator's session API: what the runner (and later the gRPC service) talks to."""

from __future__ import annotations

import secrets
from typing import Literal, Protocol

from pydantic import BaseModel, Field

from envs.runtime.tasks import Task

STOP = "###STOP###"
UNSATISFIED = "###UNSATISFIED###"
Termination = Literal["user_stop", "user_unsatisfied"]


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


class UserBackend(Protocol):
    def first_message(self) -> str: ...
    def respond(self, agent_message: str) -> UserTurn: ...


class SimulatorError(LookupError):
    pass


class Simulator:
    """Live user sessions of one process, keyed by session id."""

    def __init__(self) -> None:
        self._sessions: dict[str, UserBackend] = {}

    def start(self, task: Task, seed: int, backend: str = "scripted") -> tuple[str, str]:
        """Start a session; returns (session id, first user message)."""
        if backend != "scripted":
            raise SimulatorError(f"unknown user backend {backend!r}; available: scripted")
        from simulator.scripted import ScriptedUser

        user = ScriptedUser(task, seed)
        session_id = secrets.token_hex(8)
        self._sessions[session_id] = user
        return session_id, user.first_message()

    def respond(self, session_id: str, agent_message: str) -> UserTurn:
        user = self._sessions.get(session_id)
        if user is None:
            raise SimulatorError(f"unknown simulator session {session_id!r}")
        return user.respond(agent_message)

    def end(self, session_id: str) -> None:
        self._sessions.pop(session_id, None)
