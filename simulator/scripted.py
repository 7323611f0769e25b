"""The scripted emotional user (v1): deterministic, offline, explainable.

It speaks only from the task's structured scenario, confirms goals from the agent's messages, and
keeps the published patience account of `simulator.satisfaction`. One agent message is handled in
a fixed order (docs/simulator.md): read it, confirm goals, stop if every goal is confirmed, charge
costs then recoveries, leave if patience is below zero, otherwise answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from taue.contracts.episode import STOP, UNSATISFIED, AgentTurn, Notification, UserTermination, UserTurn
from taue.contracts.policy import FALSE_REPORT
from taue.contracts.tasks import Goal, Task
from taue.simulator.approvals import GoalApprovals
from taue.simulator.choices import Pick, pick
from taue.simulator.claims import Claim
from taue.simulator.disclosure import briefs
from taue.simulator.facts import IDENTITY_FACTS, best_guess, fact_names
from taue.simulator.goals import GoalTracker
from taue.simulator.needs import REASON, for_need, other_payment, with_policy_facts
from taue.simulator.overclaims import overclaims
from taue.simulator.phrasing import Voice, state_fact
from taue.simulator.satisfaction import COSTS, NEUTRAL, Event, Satisfaction, patience_budget, profile
from taue.simulator.session import UserOptions
from taue.simulator.understanding import FactBook, Reading, comparable, read_message

RIGHT = "Yes, that's right."
ALL_DONE = "That's everything I needed."
NOTHING_MORE = "No, thank you, that's all I need."
PLURAL_PICK = re.compile(r"\(s\)|\b(?:which|what) \w+s\b|\b(?:ones|all|each|any of them)\b", re.IGNORECASE)
"""A pick question that asks for several ("which reservation(s)", "which bookings")."""
FALSE_CLAIM_LIMIT = 2
"""The user leaves at the second claim of completion that no confirmation backs."""


FIRST_PERSON = re.compile(r"\b(i|i'm|i've|i'd|my|me|we|our|us)\b", re.IGNORECASE)


def _in_own_words(reason: str) -> bool:
    """A reason a customer would say ("I want to change my trip."), not a list of intent titles
    ("Cancel an order. Exchange an item.")."""
    return bool(FIRST_PERSON.search(reason))


@dataclass
class Outcome:
    """What one agent turn did to the goals."""

    notified: list[tuple[str, int]] = field(default_factory=list)
    """(goal, target) confirmations this turn."""
    told: list[str] = field(default_factory=list)
    answered: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    proposed: list[Goal] = field(default_factory=list)
    approved: list[str] = field(default_factory=list)
    mispaid: list[str] = field(default_factory=list)
    """The payment facts of proposed needs whose proposal names another need's payment."""
    picks: list[Pick] = field(default_factory=list)
    """The options the user picks from the agent's lists (`simulator/choices.py`)."""
    false_claim: bool = False
    unjustified_refusal: bool = False

    @property
    def goal_advanced(self) -> bool:
        return bool(self.notified or self.told or self.answered or self.refused)

    @property
    def progress(self) -> bool:
        return self.goal_advanced or bool(self.approved)


class ScriptedUser:
    """One conversation of the scripted user."""

    def __init__(
        self,
        task: Task,
        seed: int,
        options: UserOptions | None = None,
        tools: Mapping[str, str] | None = None,
    ) -> None:
        self.task = task
        scenario = with_policy_facts(task.user_scenario)
        self.scenario = scenario
        emotion = task.emotion
        politeness, urgency, trust = (
            (emotion.politeness, emotion.urgency, emotion.trust) if emotion else NEUTRAL
        )
        name = emotion.emotion if emotion else None
        self.reassurance = profile(name).reassurance
        self.voice = Voice(
            emotion.family if emotion else "neutral",
            politeness,
            urgency,
            trust,
            seed,
            emotion=name,
            reassurance=self.reassurance,
        )
        self.satisfaction = Satisfaction(patience_budget(politeness, urgency, trust, name))
        known = scenario.known_info
        # Sorted: fact maps cross the gRPC boundary as protobuf maps, whose order varies per process.
        self.book = FactBook(
            names=fact_names(scenario),
            values={**scenario.discoverable, **known},
            known=frozenset(known),
        )
        self.given: set[str] = set(scenario.volunteered)
        self.said_unknown: set[str] = set()
        self.briefs = briefs(scenario.goals, dict(sorted(known.items())))
        """Each need as first said: its payment clause waits until the agent asks for it."""
        self.goals = GoalTracker(
            scenario.goals, [*known.values(), *scenario.discoverable.values()], descriptions=tools
        )
        self.approvals = GoalApprovals(self.goals)
        self.false_claims = 0
        self.verified: set[str] = set()
        self.times_requested: dict[str, int] = {}
        self.agent_messages: set[str] = set()
        self.turn = 0
        self.last_reading: Reading | None = None
        self.last_outcome: Outcome | None = None
        self.unplaced = False
        """The last reply came from the fallback for a question the user could not place."""

    async def first_message(self) -> str:
        return self.opening()

    async def respond(self, turn: AgentTurn) -> UserTurn:
        return self.reply(turn.message, turn.notifications, turn.successful_calls)

    def opening(self) -> str:
        """Feeling, the first goal's request in brief, the reason for the call (when the scenario
        gives it in the customer's words) and the volunteered facts, coloured by the condition."""
        facts = " ".join(state_fact(n, self.scenario.known_info[n]) for n in self.scenario.volunteered)
        first = self.scenario.goals[0]
        self.times_requested[first.id] = 1
        reason = self.scenario.reason_for_call if _in_own_words(self.scenario.reason_for_call) else ""
        return self.voice.opening(" ".join(p for p in (self.briefs[first.id].text, reason, facts) if p))

    def reply(
        self, agent_message: str, notifications: Iterable[Notification] = (), successful_calls: int = 0
    ) -> UserTurn:
        self.turn += 1
        self.book.focus = self._current_goal_request()
        reading = self._about_working_need(read_message(agent_message, self.book))
        outcome = self._judge(agent_message, reading, list(notifications))
        self.last_reading, self.last_outcome, self.unplaced = reading, outcome, False
        if self.goals.all_settled and not reading.asks_anything:
            return self._end(f"{self.voice.goodbye()} {STOP}", "user_stop")
        if outcome.false_claim and self.false_claims >= FALSE_CLAIM_LIMIT:
            return self._end(
                f"{self.voice.not_confirmed()} {self.voice.leaving_unsatisfied()} {UNSATISFIED}",
                "user_unsatisfied",
            )
        # A question the user cannot place (or an offer to look something up, or a question about who
        # the user is) is an attempt to learn something: it costs nothing, not even a stall.
        asks = self._asks_needed_fact(reading) or bool(
            reading.open_questions
            or reading.lookup_offers
            or reading.identity_questions
            or reading.wish_questions
            or reading.unheld
            or reading.offers_choice
        )
        progress = outcome.progress or successful_calls > 0 or asks
        distressed = self._charge(agent_message, reading, outcome, progress)
        if self.satisfaction.exhausted:
            complaint = self.voice.leaving_unsatisfied(self.satisfaction.main_complaint())
            return self._end(f"{complaint} {UNSATISFIED}", "user_unsatisfied")
        return UserTurn(
            message=self.voice.reply(self._compose(reading, outcome, distressed)),
            done=False,
            **self._state(),
        )

    def _judge(self, message: str, reading: Reading, notifications: list[Notification]) -> Outcome:
        """What the message and the turn's confirmations did to the goals."""
        goals = self.goals
        outcome = Outcome(notified=goals.notify(notifications))
        self.approvals.check(outcome.notified)
        outcome.answered = goals.answer(reading.statements)
        outcome.refused = goals.accept_refusals(reading.statements) if reading.refuses else []
        # Any confirmation this turn backs a report of it, a write no goal asked for included.
        backed = bool(outcome.notified or outcome.answered or goals.awaiting_report or notifications)
        if reading.claims_completion:
            outcome.told = goals.tell()
            backed = backed or goals.all_actions_notified or goals.mentions_notified(message)
            # Only a plain claim of a change can be a lie; a report in words the user is unsure of
            # ("I've noted it") reports what was confirmed and accuses nobody.
            outcome.false_claim = (not backed and reading.claim is Claim.STRONG) or overclaims(
                reading.statements, goals
            )
        if reading.asks_confirmation:
            proposed = goals.proposed(message)
            known = self.scenario.known_info
            outcome.mispaid = [n for g in proposed if (n := other_payment(g, message, known))]
            outcome.proposed = [] if outcome.mispaid else proposed
            outcome.approved = goals.approve(outcome.proposed)
        if reading.offers_choice:
            outcome.picks = self._pick(reading)
            outcome.approved += goals.pick([p.goal for p in outcome.picks if p.goal is not None])
        outcome.unjustified_refusal = (
            reading.refuses and not outcome.refused and self._refusal_unjustified(reading)
        )
        for _ in [*outcome.told, *outcome.answered, *outcome.refused]:
            self.satisfaction.record(self.turn, "goal_confirmed")
        if outcome.false_claim:
            self.false_claims += 1
            self.approvals.violations.append(FALSE_REPORT)
        return outcome

    def _refusal_unjustified(self, reading: Reading) -> bool:
        """A refusal while goals are open, unless it gives a reason for a goal the policy forbids."""
        open_goals = [g for g in self.goals.goals if not self.goals.settled(g)]
        if not open_goals:
            return False
        return not (reading.refusal_reasoned and any(g.refusal_expected for g in open_goals))

    def _asks_needed_fact(self, reading: Reading) -> bool:
        """A question that is not needless: a fact the user has not given (or said it lacks) yet."""
        known = self.scenario.known_info
        chosen = [*reading.guessed, *(name for _, name in reading.choices)]
        new_checks = [name for name in reading.verified if name not in self.verified]
        self.verified.update(reading.verified)
        return (
            bool(new_checks)
            or any(self._needless(names) is None for names in reading.asked_by_question)
            or any(name in known and name not in self.given for name in chosen)
        )

    def _compose(self, reading: Reading, outcome: Outcome, distressed: bool) -> str:
        parts = [self.voice.thanks()] if outcome.goal_advanced else []
        if outcome.false_claim:
            parts.append(self.voice.not_confirmed())
        answers = self._answers(reading)
        parts.extend(answers)
        if reading.verifies:
            parts.append(RIGHT)
        parts.append(self._offer_reply(reading, outcome))
        if reading.offers_choice:
            parts.append(self._choice_reply(outcome))
        replied = bool(answers or reading.asks_confirmation or reading.verifies or outcome.picks)
        if reading.unheld and not replied:
            parts.append(self.voice.not_at_hand())
            replied = True
        if reading.open_questions and not replied:
            self.unplaced = True
            parts.append(self._held_back() or self.voice.which_details())
        if distressed:
            parts.append(self.voice.reassurance_nudge())
        parts.append(self._closing(reading, outcome, replied))
        return " ".join(p for p in parts if p)

    def _offer_reply(self, reading: Reading, outcome: Outcome) -> str:
        """The answer to what the agent offers or asks leave for: a proposal, a lookup, a handover."""
        if reading.asks_confirmation:
            if outcome.mispaid:
                return " ".join([self.voice.decline(), *(self._say(n) for n in outcome.mispaid)])
            return self._answer_proposal(outcome.proposed)
        if reading.lookup_offers:
            return self.voice.yes_look()
        if reading.handover_offers and not self.goals.all_settled:
            return self.voice.stay()
        return ""

    def _closing(self, reading: Reading, outcome: Outcome, replied: bool) -> str:
        """How the message ends: all done, a request for the outcome, or the next request."""
        if self.goals.all_settled:
            return ALL_DONE
        if self.goals.awaiting_report and not reading.claims_completion:
            return self.voice.ask_outcome()
        if outcome.goal_advanced or not replied:
            return self._next_request()
        return ""

    def _pick(self, reading: Reading) -> list[Pick]:
        """The options the open needs want; one need's only (the one being worked on, else the
        first) when the question asks for one ("Which one should we start with?")."""
        open_actions = [g for g in self.goals.goals if g.kind == "action" and not self.goals.settled(g)]
        picks = pick(reading.options, open_actions, self.scenario.known_info.values())
        if len({p.goal.id for p in picks if p.goal}) <= 1 or any(
            PLURAL_PICK.search(q) for q in reading.questions
        ):
            return picks
        working = self._working_goal()
        own = [p for p in picks if p.goal is working]
        return own or [p for p in picks if p.goal is picks[0].goal]

    def _choice_reply(self, outcome: Outcome) -> str:
        """The picked options, or (none fits) what the user wants instead: the closing says it."""
        if outcome.picks:
            return self.voice.choose([p.option.label for p in outcome.picks])
        return self.voice.none_fits()

    def _answer_proposal(self, proposed: list[Goal]) -> str:
        if proposed:
            return self.voice.approve(proposed[0].request)
        if self.goals.all_settled:
            return NOTHING_MORE
        return " ".join(p for p in (self.voice.decline(), self._held_back()) if p)

    def _held_back(self) -> str:
        """The current need's details its brief left out and the user has not given yet."""
        goal = self._working_goal()
        if goal is None:
            return ""
        names = [n for n in self.briefs[goal.id].held_back if n not in self.given]
        return " ".join(self._say(name) for name in names)

    def _charge(self, message: str, reading: Reading, outcome: Outcome, progress: bool) -> bool:
        """Charge the message's costs, then its recoveries; True when distress was just ignored."""
        before = len(self.satisfaction.events)
        key = comparable(message)
        if key in self.agent_messages:
            self.satisfaction.record(self.turn, "repeated_message")
        self.agent_messages.add(key)
        for names in reading.asked_by_question:
            event = self._needless(names)
            if event is not None:
                self.satisfaction.record(self.turn, event)
        if reading.leaks_error:
            self.satisfaction.record(self.turn, "error_shown")
        if outcome.false_claim:
            self.satisfaction.record(self.turn, "unconfirmed_claim")
        if outcome.unjustified_refusal:
            self.satisfaction.record(self.turn, "unjustified_refusal")
        distressed = (
            self.reassurance and self.turn == 1 and not (reading.acknowledges or outcome.goal_advanced)
        )
        if distressed:
            self.satisfaction.record(self.turn, "distress_ignored")
        charged = any(COSTS[e] > 0 for _, e, _ in self.satisfaction.events[before:])
        if not (progress or charged):
            self.satisfaction.record(self.turn, "stall")
        if reading.acknowledges:
            self.satisfaction.record(self.turn, "acknowledgement")
        return distressed

    def _needless(self, names: list[str]) -> Event | None:
        """The cost of one question for these facts: None when it asks for something new to the user."""
        known = self.scenario.known_info
        if any(n in known and n not in self.given for n in names):
            return None
        if any(n in self.scenario.discoverable and n not in known for n in names):
            return "needless_question_discoverable"
        if any(n in self.given or n in self.said_unknown for n in names):
            return "needless_question_answered"
        return None

    def _answers(self, reading: Reading) -> list[str]:
        answers: list[str] = []
        lacking = False
        for name in reading.facts_asked:
            if name == REASON and name not in self.scenario.known_info:
                answers.append(self.voice.no_reason())
                self.said_unknown.add(name)
            elif name in self.scenario.known_info:
                answers.append(self._say(name, again=name in self.given))
            elif name in self.scenario.discoverable:
                answers.append(self.voice.not_at_hand())
                lacking = True
            else:
                answers.append(self.voice.dont_know())
                self.said_unknown.add(name)
                lacking = True
        answers = list(dict.fromkeys(answers))
        for name in reading.guessed:
            if name not in reading.facts_asked:
                answers.append(self._say(name))
        for option, name in reading.choices:
            answers.append(f"{option[:1].upper()}{option[1:]}, please.")
            self.given.add(name)
        if reading.identity_questions and not reading.facts_asked:
            answers.extend(self._say(name) for name in self._identity())
        elif lacking and not any(n in self.scenario.known_info for n in reading.facts_asked):
            answers.append(self.voice.can_tell([self._say(n) for n in self._instead(reading)]))
        return [a for a in answers if a]

    def _say(self, name: str, again: bool = False) -> str:
        statement = state_fact(name, self.scenario.known_info[name])
        self.given.add(name)
        return self.voice.already_said(statement) if again else statement

    def _identity(self) -> list[str]:
        """The known facts that identify the user, those not yet given first."""
        known = [n for n in IDENTITY_FACTS if n in self.scenario.known_info]
        fresh = [n for n in known if n not in self.given]
        return fresh or known[:1]

    def _instead(self, reading: Reading) -> list[str]:
        """What the user knows in place of a fact it lacks: the known fact the question (or, failing
        that, the current request) most likely means, else how to identify the user."""
        for text in [*reading.questions, self.book.focus]:
            guess = best_guess(text, self.book)
            if guess is not None and guess not in self.given:
                return [guess]
        return [n for n in self._identity() if n not in self.given]

    def _about_working_need(self, reading: Reading) -> Reading:
        """Payment questions are about the need the agent is working on (`simulator/needs.py`)."""
        goal, known = self._working_goal(), self.scenario.known_info
        reading.asked_by_question = [
            list(dict.fromkeys(for_need(n, goal, known) for n in names))
            for names in reading.asked_by_question
        ]
        reading.facts_asked = list(dict.fromkeys(n for names in reading.asked_by_question for n in names))
        return reading

    def _working_goal(self) -> Goal | None:
        """The need the agent is working on: the open one the user brought up last."""
        brought_up = [
            g for g in self.goals.goals if g.id in self.times_requested and not self.goals.settled(g)
        ]
        return brought_up[-1] if brought_up else self.goals.first_open()

    def _current_goal_request(self) -> str:
        goal = self.goals.first_open()
        return goal.request if goal else ""

    def _next_request(self) -> str:
        goal = self.goals.next_request()
        if goal is None:
            return ""
        times = self.times_requested.get(goal.id, 0)
        self.times_requested[goal.id] = times + 1
        # Said in brief the first time; asked again, the user says all of it.
        return self.voice.restate(goal.request if times else self.briefs[goal.id].text, times)

    def _end(self, message: str, termination: UserTermination) -> UserTurn:
        return UserTurn(message=message, done=True, termination=termination, **self._state())

    def _state(self) -> dict:
        return {
            "patience": self.satisfaction.patience,
            "goals_confirmed": sorted(self.goals.done | self.goals.refused),
            "events": [event for _, event, _ in self.satisfaction.events],
            "reason": self.satisfaction.reason() if self.satisfaction.exhausted else None,
            "policy_violations": list(self.approvals.violations),
        }

    def last_turn(self, notifications: list[Notification]) -> list[str]:
        """The episode's policy violations, with the writes of an agent turn the user never answered."""
        return self.approvals.last_turn(notifications)
