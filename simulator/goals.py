"""Where each of the user's goals stands, judged from the service's confirmations.

A real customer learns that a change happened from the service's confirmation (an e-mail, an SMS),
not from the agent's wording. The runner passes the user the successful writes of each agent turn
as `Notification`s; an action goal is *notified* once each of its targets has been matched
structurally by one (tool and key arguments), and *done* once the agent has also told the user (a
completion claim at or after the notification). An information goal is done when an agent statement
contains its evidence. A refusal-expected goal is settled when the agent refuses it with one of its
policy reasons.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from taue.contracts.episode import Notification
from taue.contracts.tasks import Goal, Target, matches
from taue.contracts.text import contains, tokens
from taue.simulator.proposals import Candidate, key_values, proposed_goals
from taue.simulator.refusals import states_rule
from taue.simulator.sums import stated_numbers


class GoalTracker:
    """The state of every goal of one scenario."""

    def __init__(
        self,
        goals: list[Goal],
        known_values: Iterable[str] = (),
        descriptions: Mapping[str, str] | None = None,
    ) -> None:
        self.goals = goals
        self.known_values = [
            *known_values,
            *(str(v) for g in goals for t in g.targets for v in key_values(t)),
            *(e for g in goals for e in g.evidence),
        ]
        """Every value the task gives the user or its goals: an id outside them is another thing."""
        self.descriptions = dict(descriptions or {})
        self.confirmed: set[tuple[str, int]] = set()
        """(goal id, target index) of every target a notification matched."""
        self.sums: dict[tuple[str, int], frozenset[float]] = {}
        """The numbers each matched notification states (its arguments and its result): the sums a
        true report of that write may name."""
        self.notified: set[str] = set()
        self.done: set[str] = set()
        self.refused: set[str] = set()
        self.approved: set[str] = set()
        self.picked: set[str] = set()
        """Needs approved only by picking an option, not yet by a yes to their proposal."""

    # ----------------------------------------------------------------- what happened this turn

    def notify(self, notifications: Iterable[Notification]) -> list[tuple[str, int]]:
        """Targets a confirmation matches for the first time; completes `notified`."""
        newly: list[tuple[str, int]] = []
        for notification in notifications:
            for key, target in self._open_targets():
                if key not in newly and matches(target, notification.tool, notification.arguments):
                    newly.append(key)
                    self.sums[key] = stated_numbers(notification)
                    break
        self.confirmed.update(newly)
        for goal in self._open_actions():
            if all((goal.id, i) in self.confirmed for i in range(len(goal.targets))):
                self.notified.add(goal.id)
        return newly

    def tell(self) -> list[str]:
        """The agent claims completion: every notified goal it had not yet reported is done."""
        told = sorted(self.notified - self.done)
        self.done.update(told)
        return told

    def answer(self, statements: list[str]) -> list[str]:
        """Information goals whose evidence the agent's statements contain."""
        words = tokens(" ".join(statements))
        newly = [
            goal.id
            for goal in self.goals
            if goal.kind == "information"
            and goal.id not in self.done
            and all(contains(words, item) for item in goal.evidence)
        ]
        self.done.update(newly)
        return newly

    def accept_refusals(self, statements: list[str]) -> list[str]:
        """Refusal-expected goals the agent refused giving a policy reason the user accepts."""
        text = " ".join(statements)
        words = tokens(text)
        newly = [
            goal.id
            for goal in self._open_actions()
            if goal.refusal_expected
            and any(contains(words, reason) or states_rule(text, reason) for reason in goal.refusal_reason)
        ]
        self.refused.update(newly)
        return newly

    def pick(self, goals: list[Goal]) -> list[str]:
        """Record options picked for these needs: a yes to them, and their proposal still to come."""
        newly = [goal.id for goal in goals if goal.id not in self.approved]
        self.approved.update(newly)
        self.picked.update(newly)
        return newly

    def proposed(self, message: str) -> list[Goal]:
        """Open action goals the message proposes (`simulator/proposals.py`)."""
        by_id = {goal.id: goal for goal in self.goals}
        candidates = [Candidate(by_id[goal_id], target) for (goal_id, _), target in self._open_targets()]
        return proposed_goals(message, candidates, self.known_values, self.descriptions)

    def approve(self, goals: list[Goal]) -> list[str]:
        """Record the user's yes; returns the goals approved for the first time, or for the first time
        after a pick: an option picked from a list approves its need, and the proposal that follows
        it is answered yes again as progress, not as a stall."""
        newly = [goal.id for goal in goals if goal.id not in self.approved or goal.id in self.picked]
        self.approved.update(newly)
        self.picked.difference_update(newly)
        return newly

    def mentions_notified(self, message: str) -> bool:
        """The message talks about a goal the service already confirmed (a report, not a lie)."""
        words = tokens(message)
        return any(
            any(contains(words, value) for value in key_values(target))
            for (goal_id, _), target in self._all_targets()
            if (goal_id, _) in self.confirmed
        )

    # ----------------------------------------------------------------- the state

    def settled(self, goal: Goal) -> bool:
        return goal.id in self.done or goal.id in self.refused

    @property
    def all_settled(self) -> bool:
        return all(self.settled(goal) for goal in self.goals)

    @property
    def all_actions_notified(self) -> bool:
        return all(goal.id in self.notified for goal in self.goals if goal.kind == "action")

    @property
    def awaiting_report(self) -> bool:
        """Some write was confirmed by the service but the agent has not said so yet."""
        return bool(self.notified - self.done)

    def next_request(self) -> Goal | None:
        """The first goal nobody is working on yet: not settled, not approved, not confirmed."""
        return next(
            (
                goal
                for goal in self.goals
                if not self.settled(goal) and goal.id not in self.approved and goal.id not in self.notified
            ),
            None,
        )

    def first_open(self) -> Goal | None:
        return next((goal for goal in self.goals if not self.settled(goal)), None)

    def _open_actions(self) -> list[Goal]:
        return [
            g for g in self.goals if g.kind == "action" and not self.settled(g) and g.id not in self.notified
        ]

    def _all_targets(self) -> list[tuple[tuple[str, int], Target]]:
        return [((g.id, i), t) for g in self.goals for i, t in enumerate(g.targets)]

    def _open_targets(self) -> list[tuple[tuple[str, int], Target]]:
        open_goals = {g.id for g in self._open_actions()}
        return [
            (key, t) for key, t in self._all_targets() if key[0] in open_goals and key not in self.confirmed
        ]
