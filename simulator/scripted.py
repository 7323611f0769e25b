"""The scripted emotional user: deterministic, offline, explainable.

It speaks only from the task's structured scenario, confirms goals from the agent's messages,
and keeps the published patience account of `simulator.satisfaction`.
"""

from __future__ import annotations

from envs.runtime.tasks import Task
from simulator.phrasing import Voice
from simulator.satisfaction import NEUTRAL, Satisfaction, patience_budget
from simulator.session import STOP, UNSATISFIED, UserOptions, UserTurn
from simulator.understanding import contains_all, normalise, read_message


def _say_fact(name: str, value: str) -> str:
    return f"My {name.replace('_', ' ')} is {value}."


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
        family = emotion.family if emotion else "neutral"
        self.voice = Voice(family, politeness, urgency, trust, seed)
        self.satisfaction = Satisfaction(patience_budget(politeness, urgency, trust))
        self.fact_names = [*scenario.known_info, *scenario.discoverable, *scenario.unknown_info]
        self.given: set[str] = set(scenario.volunteered)
        self.confirmed: set[str] = set()
        self.requested = 1  # goals stated so far, in order
        self.agent_messages: set[str] = set()
        self.turn = 0

    async def first_message(self) -> str:
        return self.opening()

    async def respond(self, agent_message: str) -> UserTurn:
        return self.reply(agent_message)

    def opening(self) -> str:
        facts = " ".join(_say_fact(n, self.scenario.known_info[n]) for n in self.scenario.volunteered)
        body = f"{self.scenario.reason_for_call} {self.scenario.goals[0].request} {facts}".strip()
        return self.voice.opening(body)

    def reply(self, agent_message: str) -> UserTurn:
        self.turn += 1
        reading = read_message(agent_message, self.fact_names)
        parts: list[str] = []
        newly = self._confirm_goals(agent_message, reading.claims_completion)
        if self._all_confirmed():
            return self._end(f"{self.voice.thanks()} That's everything I needed. {STOP}", "user_stop")
        self._charge_for(agent_message, reading, progress=bool(newly))
        parts.extend(self._answers(reading.facts_asked))
        if reading.asks_confirmation:
            parts.append("Yes, please go ahead.")
        if newly:
            parts.append(self.voice.thanks())
        if self.satisfaction.exhausted:
            return self._end(f"{self.voice.leaving_unsatisfied()} {UNSATISFIED}", "user_unsatisfied")
        if not parts or newly:
            parts.append(self._next_request())
        return UserTurn(
            message=self.voice.reply(" ".join(p for p in parts if p)), done=False, **self._state()
        )

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

    def _charge_for(self, message: str, reading, progress: bool) -> None:
        key = normalise(message)
        if key in self.agent_messages:
            self.satisfaction.record(self.turn, "repeated_message")
        self.agent_messages.add(key)
        for name in reading.facts_asked:
            if name in self.scenario.discoverable:
                self.satisfaction.record(self.turn, "needless_question_discoverable")
            elif name in self.given:
                self.satisfaction.record(self.turn, "needless_question_answered")
        if reading.leaks_error:
            self.satisfaction.record(self.turn, "error_shown")
        if reading.acknowledges:
            self.satisfaction.record(self.turn, "acknowledgement")
        if not (progress or reading.questions or reading.asks_confirmation):
            self.satisfaction.record(self.turn, "stall")

    def _answers(self, facts: list[str]) -> list[str]:
        answers = []
        for name in facts:
            if name in self.scenario.discoverable:
                answers.append(f"I don't have my {name.replace('_', ' ')} at hand. Can't you look that up?")
            elif name in self.scenario.unknown_info:
                answers.append(f"I don't know my {name.replace('_', ' ')}.")
            elif name in self.given:
                answers.append(self.voice.already_said(_say_fact(name, self.scenario.known_info[name])))
            else:
                answers.append(_say_fact(name, self.scenario.known_info[name]))
                self.given.add(name)
        return answers

    def _next_request(self) -> str:
        for index, goal in enumerate(self.scenario.goals):
            if goal.id not in self.confirmed:
                self.requested = max(self.requested, index + 1)
                return goal.request
        return ""

    def _all_confirmed(self) -> bool:
        return len(self.confirmed) == len(self.scenario.goals)

    def _end(self, message: str, termination: str) -> UserTurn:
        return UserTurn(message=message, done=True, termination=termination, **self._state())

    def _state(self) -> dict:
        return {
            "patience": self.satisfaction.patience,
            "goals_confirmed": sorted(self.confirmed),
            "events": [event for _, event, _ in self.satisfaction.events],
            "reason": self.satisfaction.reason() if self.satisfaction.exhausted else None,
        }
