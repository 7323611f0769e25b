"""What crosses the boundaries of one episode: the conversation, the server's tool log, how it
ended, the user's view of each turn and the reward breakdown (docs/architecture.md)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal, get_args

from pydantic import BaseModel, Field

STOP = "###STOP###"
UNSATISFIED = "###UNSATISFIED###"

Termination = Literal[
    "user_stop",
    "user_unsatisfied",
    "agent_transfer",
    "max_turns",
    "max_tool_calls",
    "timeout",
    "agent_error",
    "infra_error",
]
"""How an episode ended (docs/running.md)."""
TERMINATIONS: tuple[Termination, ...] = get_args(Termination)


def utc_now() -> str:
    """The current time as ISO-8601 UTC with milliseconds (the clock of events and logged calls)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Message(BaseModel):
    role: Literal["user", "agent"]
    content: str


class LoggedCall(BaseModel):
    """A tool call as the domain server logged it."""

    name: str
    arguments: dict[str, Any]
    ok: bool
    output: str = ""
    """The text the agent received: the result, or the error message."""
    writes: bool = False
    """True when the tool is a write tool and the call succeeded."""
    turn: int | None = None
    """Which agent turn made the call (0 = the agent's first reply), set by the runner; None in
    records made before turns were recorded. Puts the calls in order with the transcript."""


EventKind = Literal["user", "agent", "tool_call"]


class Event(BaseModel):
    """One step of an episode, in the order it happened: a user message, an agent message or a tool
    call. `timestamp` and `duration_ms` are wall-clock readings, the only fields of an event that
    differ between two runs with the same seed (docs/running.md)."""

    kind: EventKind
    turn: int | None
    """The agent turn the event belongs to: user message i opens turn i (the one agent reply i
    answers); the tool calls and the reply of agent turn i carry i. None only for the tool calls of
    records made before calls carried their turn."""
    timestamp: str | None = None
    """ISO-8601 UTC with milliseconds; None for events rebuilt from records made before events."""
    content: str = ""
    """The message text (user and agent events)."""
    name: str | None = None
    arguments: dict[str, Any] | None = None
    output: str | None = None
    """The text the agent received from the tool: the result, or the error message."""
    error: bool | None = None
    """True when the tool call failed (tool calls only)."""
    writes: bool | None = None
    duration_ms: float | None = None
    """How long the server took to run the call (tool calls only)."""


class TimedCall(LoggedCall):
    """A logged call with the server's clock: when it started (ISO-8601 UTC) and how long it took.
    What the control port's tool log serves; records keep the clock in their `events` only."""

    timestamp: str | None = None
    duration_ms: float | None = None

    def logged(self) -> LoggedCall:
        """The call without its clock (what a record's `tool_log` holds)."""
        return LoggedCall.model_validate(self.model_dump(include=set(LoggedCall.model_fields)))


class RewardBreakdown(BaseModel):
    reward: int
    termination: Termination
    db_match: bool | None = None
    outputs_found: dict[str, bool] = Field(default_factory=dict)
    diagnostics: dict[str, Any] = Field(default_factory=dict)
    policy_violations: list[str] = Field(default_factory=list)
    """What the user simulator observed against the domain policy (`taue.contracts.policy`), e.g.
    `write_without_approval:cancel_reservation`; empty in records made before they were observed."""
    policy_enforced: bool = False
    """The violations cost the reward (0): in the benchmark's own domains, and in imported task sets
    under `--strict-policy`."""


class Notification(BaseModel):
    """The service's confirmation of one successful write of the agent's last turn (what a real
    customer receives by e-mail or SMS): the tool, its arguments and its result, from the server's
    tool log."""

    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    output: str = ""
    """The write's result as the service returned it: the sums it moved (a refund's amount, a fare
    difference) are in it, as in a real confirmation."""

    def render(self) -> str:
        """The confirmation as the customer reads it."""
        details = ", ".join(f"{name.replace('_', ' ')}: {value}" for name, value in self.arguments.items())
        return f"[Confirmation] {self.tool.replace('_', ' ')} completed ({details})."


class AgentTurn(BaseModel):
    """What the user gets after one agent turn: the agent's message and the service's confirmations."""

    message: str
    notifications: list[Notification] = Field(default_factory=list)
    successful_calls: int = Field(default=0, description="Tool calls of the turn that succeeded (reads too).")


UserTermination = Literal["user_stop", "user_unsatisfied"]
"""How the user can end an episode."""


class UserTurn(BaseModel):
    """The user's next message, and the simulator's state after it."""

    message: str
    done: bool
    termination: UserTermination | None = None
    patience: float | None = None
    goals_confirmed: list[str] = Field(default_factory=list)
    events: list[str] = Field(default_factory=list)
    reason: str | None = None
    """Why the user left unsatisfied (the costly events), when it did."""
    policy_violations: list[str] = Field(default_factory=list)
    """Every policy violation the user observed so far (`taue.contracts.policy`): writes it had not
    approved beforehand."""
