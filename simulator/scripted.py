"""The scripted emotional user (v1): deterministic, offline, explainable.

It speaks only from the task's structured scenario, confirms goals from the agent's messages, and
keeps the published patience account of `simulator.satisfaction`. One agent message is handled in
a fixed order (docs/simulator.md): read it, confirm goals, stop if every goal is confirmed, charge
costs then recoveries, leave if patience is below zero, otherwise answer.
"""

from __future__ import annotations

from envs.runtime.tasks import Task
from simulator.phrasing import Voice, dont_know, state_fact
from simulator.satisfaction import NEUTRAL, Event, Satisfaction, patience_budget, profile
from simulator.session import STOP, UNSATISFIED, UserOptions, UserTurn
from simulator.understanding import FactBook, Reading, comparable, contains_all, read_message

CONFIRM = "Yes, please go ahead."


class ScriptedUser:
    """One conversation of the scripted user."""

    def __init__(self, task: Task, seed: int, options: UserOptions | None = None) -> None:
        self.task = task
        scenario = task.user_scenario
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
            names=list(
                dict.fromkeys([*sorted(known), *sorted(scenario.discoverable), *scenario.unknown_info])
            ),
            values={**scenario.discoverable, **known},
            known=frozenset(known),
        )
        self.given: set[str] = set(scenario.volunteered)
        self.said_unknown: set[str] = set()
        self.confirmed: set[str] = set()
        self.times_requested: dict[str, int] = {}
        self.agent_messages: set[str] = set()
        self.turn = 0

    async def first_message(self) -> str:
        return self.opening()

    async def respond(self, agent_message: str) -> UserTurn:
        return self.reply(agent_message)

    def opening(self) -> str:
        """Feeling, the reason for the call, the first goal's request and the volunteered facts,
        coloured by the condition."""
        facts = " ".join(state_fact(n, self.scenario.known_info[n]) for n in self.scenario.volunteered)
        first = self.scenario.goals[0]
        self.times_requested[first.id] = 1
        reason = self.scenario.reason_for_call
        return self.voice.opening(" ".join(p for p in (reason, first.request, facts) if p))

    def reply(self, agent_message: str) -> UserTurn:
        self.turn += 1
        self.book.focus = self._current_goal_request()
        reading = read_message(agent_message, self.book)
        newly = self._confirm_goals(agent_message, reading.claims_completion)
        if len(self.confirmed) == len(self.scenario.goals):
            return self._end(f"{self.voice.goodbye()} {STOP}", "user_stop")
        distressed = self._charge(agent_message, reading, progress=bool(newly))
        if self.satisfaction.exhausted:
            complaint = self.voice.leaving_unsatisfied(self.satisfaction.main_complaint())
            return self._end(f"{complaint} {UNSATISFIED}", "user_unsatisfied")
        return UserTurn(
            message=self.voice.reply(self._compose(reading, bool(newly), distressed)),
            done=False,
            **self._state(),
        )

    def _compose(self, reading: Reading, progress: bool, distressed: bool) -> str:
        parts = [self.voice.thanks()] if progress else []
        answers = self._answers(reading)
        parts.extend(answers)
        if reading.asks_confirmation:
            parts.append(CONFIRM)
        if reading.claims_completion and not progress:
            parts.append(self.voice.ask_details())
        if reading.open_questions and not answers and not reading.asks_confirmation:
            parts.append(self.voice.not_sure())
        if distressed:
            parts.append(self.voice.reassurance_nudge())
        if progress or not (answers or reading.asks_confirmation):
            parts.append(self._next_request())
        return " ".join(p for p in parts if p)

    def _confirm_goals(self, message: str, claims_completion: bool) -> list[str]:
        newly = []
        for goal in self.scenario.goals:
            if goal.id in self.confirmed:
                continue
            if goal.kind == "action" and not claims_completion:
                continue
            if contains_all(message, goal.evidence):
                self.confirmed.add(goal.id)
                newly.append(goal.id)
                self.satisfaction.record(self.turn, "goal_confirmed")
        return newly

    def _charge(self, message: str, reading: Reading, progress: bool) -> bool:
        """Charge the message's costs, then its recoveries; True when distress was just ignored."""
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
        distressed = self.reassurance and self.turn == 1 and not (reading.acknowledges or progress)
        if distressed:
            self.satisfaction.record(self.turn, "distress_ignored")
        if not (progress or reading.questions):
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
        answers = []
        for name in reading.facts_asked:
            if name in self.scenario.known_info:
                statement = state_fact(name, self.scenario.known_info[name])
                answers.append(self.voice.already_said(statement) if name in self.given else statement)
                self.given.add(name)
            elif name in self.scenario.discoverable:
                answers.append(self.voice.not_at_hand(name))
            else:
                answers.append(dont_know(name))
                self.said_unknown.add(name)
        for name in reading.guessed:
            if name not in reading.facts_asked:
                answers.append(state_fact(name, self.scenario.known_info[name]))
                self.given.add(name)
        return answers

    def _current_goal_request(self) -> str:
        return next((g.request for g in self.scenario.goals if g.id not in self.confirmed), "")

    def _next_request(self) -> str:
        for goal in self.scenario.goals:
            if goal.id not in self.confirmed:
                times = self.times_requested.get(goal.id, 0)
                self.times_requested[goal.id] = times + 1
                return self.voice.restate(goal.request, times)
        return ""

    def _end(self, message: str, termination: str) -> UserTurn:
        return UserTurn(message=message, done=True, termination=termination, **self._state())

    def _state(self) -> dict:
        return {
            "patience": self.satisfaction.patience,
            "goals_confirmed": sorted(self.confirmed),
            "events": [event for _, event, _ in self.satisfaction.events],
            "reason": self.satisfaction.reason() if self.satisfaction.exhausted else None,
        }
