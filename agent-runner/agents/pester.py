"""Pester: a deliberately bad baseline that asks the user for every piece of information first.

For each argument of the ground-truth actions (nested ones included), in order, it asks the user,
one question per turn, including values the tools could have found. Then it acts like the oracle
(each change proposed and made once the user said yes). Impatient users leave.
"""

from __future__ import annotations

from taue.runner.agents.base import AgentError, EpisodeContext
from taue.runner.agents.oracle import OracleAgent

NOT_ASKED = frozenset({"summary", "thought", "expression", "reason"})


def argument_names(actions) -> list[str]:
    """Every argument name of the actions, nested ones too (e.g. each flight's flight_number), once."""
    names: list[str] = []

    def collect(arguments: dict) -> None:
        for name, value in arguments.items():
            if name not in NOT_ASKED and name not in names:
                names.append(name)
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, dict):
                    collect(item)

    for action in actions:
        collect(action.arguments)
    return names


class PesterAgent:
    def __init__(self, write_tools: frozenset[str]) -> None:
        self.oracle = OracleAgent(write_tools)
        self.questions: list[str] = []

    async def start(self, context: EpisodeContext) -> None:
        if context.task is None:
            raise AgentError("pester needs the task's ground truth")
        await self.oracle.start(context)
        self.questions = argument_names(context.task.evaluation.actions)

    async def respond(self, user_message: str) -> str:
        if self.questions:
            name = self.questions.pop(0)
            return f"Before I do anything, could you tell me your {name.replace('_', ' ')}?"
        return await self.oracle.respond(user_message)

    async def close(self) -> None:
        await self.oracle.close()
