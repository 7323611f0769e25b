"""The oracle: replays the ground truth over MCP, one change at a time once the user has approved it,
and tells the user what was done.

It proves a task is solvable: with the scripted user it must score reward 1 on every task. It never
writes before the user said yes to the change (`asking.py`: the confirmation rule of every policy).
"""

from __future__ import annotations

from collections.abc import Sequence

from mcp import Client

from taue.contracts.tasks import Action, Goal, Task
from taue.runner.agents.asking import AskFirst
from taue.runner.agents.base import AgentError, EpisodeContext
from taue.runner.agents.wordings import refused_records
from taue.runner.mcp_session import episode_session, list_all_tools, shared_listings


def refused_goals(task: Task) -> list[Goal]:
    return [goal for goal in task.user_scenario.goals if goal.refusal_expected]


def refusal_message(goal: Goal) -> str:
    """Declining a goal the policy forbids, naming the record it is about and the policy's reasons.
    The customer's own request is not quoted back: its first-person clauses ("please use my card")
    would read as the agent's questions, and a customer would answer them instead of ending."""
    reasons = "; ".join(goal.refusal_reason)
    refused = f"I'm sorry, I cannot make the change you asked for{refused_records(goal)}"
    return f"{refused}: our policy does not allow it ({reasons})."


FOLLOW_UP = "Is there anything else I can help you with today?"


def describe(action: Action) -> str:
    arguments = "; ".join(f"{name} = {value}" for name, value in action.arguments.items())
    return f"{action.name} ({arguments})"


def completion_report(
    actions: list[Action],
    write_tools: frozenset[str] | None,
    outputs: list[str],
    refused: Sequence[Goal] = (),
) -> str:
    """One message that refuses what the policy forbids (with the reason), names every write
    performed and states every expected output."""
    writes = [a for a in actions if write_tools is None or a.name in write_tools]
    lines = [refusal_message(goal) for goal in refused]
    if writes:
        lines.append(
            "I have completed the following for you: " + " | ".join(describe(a) for a in writes) + "."
        )
    if outputs:
        lines.append("Here is the information you asked for: " + " | ".join(outputs) + ".")
    if not lines:
        lines.append("I have looked into everything you asked about and completed it.")
    return " ".join(lines)


class OracleAgent:
    def __init__(self, write_tools: frozenset[str]) -> None:
        self.write_tools = write_tools
        self.context: EpisodeContext | None = None
        self.asking: AskFirst | None = None
        self.replayed = False

    async def start(self, context: EpisodeContext) -> None:
        if context.task is None:
            raise AgentError("the oracle needs the task's ground truth")
        self.context = context
        self.asking = AskFirst(context.task, self.write_tools)

    async def respond(self, user_message: str) -> str:
        """Propose the next change; once the user said yes, make it and report it; after the last
        one, report every write and output in one message."""
        assert self.context is not None
        made, message = self.next_turn(user_message)
        if made:
            await replay_over_mcp(self.context, made)
        return message

    def next_turn(self, user_message: str) -> tuple[list[Action], str]:
        """The calls of this turn and the message that follows them (what `respond` does, without
        calling anything)."""
        assert self.context is not None and self.context.task is not None and self.asking is not None
        if self.replayed:
            return [], FOLLOW_UP
        made, question = self.asking.step(user_message)
        if question is not None:
            return made, question
        if not self.asking.finished:
            return made, completion_report(made, self.write_tools, [])
        self.replayed = True
        task = self.context.task
        return made, completion_report(
            task.evaluation.actions, self.write_tools, task.evaluation.outputs, refused_goals(task)
        )

    async def close(self) -> None:
        return None


async def replay_over_mcp(context: EpisodeContext, actions: list[Action]) -> None:
    """Call each action on the episode's MCP endpoint, in order; a failing gold action is an agent error."""
    server = context.mcp_servers[0]
    cache = shared_listings(context.domain, server.url, context.episode_id)
    async with episode_session(server.url, server.headers, context.transport, cache=cache) as client:
        await list_all_tools(client)  # from the shared cache: else the SDK lists them over HTTP to validate
        failure = await call_each(client, actions)
    # Raised outside the session: inside it, the SDK's task group would wrap it in an ExceptionGroup.
    if failure is not None:
        raise AgentError(failure)


async def call_each(
    client: Client, actions: list[Action], outputs: list[tuple[Action, str]] | None = None
) -> str | None:
    """Call each action in order on an open session; what failed, or None when every call succeeded.
    Each successful call's text goes to `outputs` when given."""
    for action in actions:
        result = await client.call_tool(action.name, dict(action.arguments))
        text = "".join(getattr(block, "text", "") for block in result.content)
        if result.is_error:
            return f"ground-truth action {action.name} failed: {text}"
        if outputs is not None:
            outputs.append((action, text))
    return None
