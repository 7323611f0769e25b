"""Asking before writing: the reference agents get the customer's yes for each change first.

Every domain policy requires the customer's explicit yes before a change, and the user simulator
records a write it had not approved as a policy violation (`taue.contracts.policy`). The oracle and
pester therefore cut the ground truth, in its order, into changes — each one the calls up to a write
that carries out (part of) an action goal — and for each change read it back with the write's action
and its values ("Here is the change I would make: cancel reservation (reservation id: M5L4DR). Shall I
go ahead?"), wait for the user's yes, make it and report it with the next proposal. The calls after
the last change (reads, a hand-over) are made with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from taue.contracts.tasks import Action, Target, Task, matches
from taue.runner.agents.wordings import plain

APPROVAL = re.compile(r"\byes\b", re.IGNORECASE)
"""The user's yes (the scripted user approves a proposal with "Yes, please go ahead …")."""


@dataclass
class Change:
    """Ground-truth calls in their order, ending with a write that carries out a goal's target."""

    actions: list[Action] = field(default_factory=list)
    target: Target | None = None


def changes(task: Task, write_tools: frozenset[str]) -> tuple[list[Change], list[Action]]:
    """The ground truth cut into changes, and the calls after the last one (every call when no write
    carries out a goal the policy allows)."""
    targets = [t for g in task.user_scenario.goals if not g.refusal_expected for t in g.targets]
    cut, current = [], Change()
    for action in task.evaluation.actions:
        current.actions.append(action)
        if action.name not in write_tools:
            continue
        current.target = next((t for t in targets if matches(t, action.name, action.arguments)), None)
        if current.target is not None:
            cut.append(current)
            current = Change()
    return cut, current.actions


def proposal(target: Target) -> str:
    """The change read back by what it does and the values that identify it (the goal's target:
    'cancel reservation (reservation id: M5L4DR)'), and the question for the user's approval."""
    details = "; ".join(
        f"{name.replace('_', ' ')}: {plain(value)}" for name, value in target.arguments.items()
    )
    return f"Here is the change I would make: {target.tool.replace('_', ' ')} ({details}). Shall I go ahead?"


class AskFirst:
    """Which calls to make and what to say, turn by turn: propose a change, make it once the user
    said yes (asking again until then), report it, propose the next."""

    def __init__(self, task: Task, write_tools: frozenset[str]) -> None:
        self.changes, self.rest = changes(task, write_tools)
        self.index = 0
        self.waiting = False
        self.finished = False
        """Every change is made, and the calls after the last one."""

    def step(self, user_message: str) -> tuple[list[Action], str | None]:
        """The calls to make now and the proposal to ask: a proposal alone, or calls alone (a change
        the user approved, with the calls after it when it is the last one: report them)."""
        if self.waiting:
            change = self.changes[self.index]
            assert change.target is not None
            if not APPROVAL.search(user_message):
                return [], proposal(change.target)
            self.index += 1
            self.waiting = False
            self.finished = self.index >= len(self.changes)
            return [*change.actions, *(self.rest if self.finished else [])], None
        if self.index < len(self.changes):
            self.waiting = True
            target = self.changes[self.index].target
            assert target is not None
            return [], proposal(target)
        self.finished = True
        return self.rest, None


class ApprovalRound:
    """Asks for each change in turn, again until the user says yes, and is done once every change has
    its yes (an agent that makes all its changes at once afterwards: the one-shot judge agents)."""

    def __init__(self, proposals: list[str]) -> None:
        self.proposals = proposals
        self.index = 0
        self.waiting = False

    def question(self, user_message: str) -> str | None:
        """What to ask next, given the user's last message; None once every change is approved."""
        if self.waiting and APPROVAL.search(user_message):
            self.index += 1
        self.waiting = self.index < len(self.proposals)
        return self.proposals[self.index] if self.waiting else None
