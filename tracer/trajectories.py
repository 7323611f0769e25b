"""An episode record as the chat a model is trained on: system (the policy), user, assistant (with
tool calls), tool, in the order they happened.

This is the conversation the built-in model agent holds (`taue.runner.agents.model_agent`): the
policy as system prompt, the domain's MCP tools as OpenAI function schemas, one tool message per
call with the text the agent read back ("Error: …" for a failed call). Calls are placed by the
agent turn the runner recorded for each (`LoggedCall.turn`).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import mcp.types

from taue.contracts.run import EpisodeRecord
from taue.runner.agents.model_agent import function_schemas

Chat = list[dict[str, Any]]


class UnorderedRecord(ValueError):
    """The record's tool calls carry no agent turn (made before turns were recorded)."""


@cache
def domain_prompt(domain: str) -> tuple[str, str]:
    """(system prompt, tool schemas as a JSON string) of an installed domain, as its agents see them."""
    from taue.envs.runtime.discovery import get_domain

    found = get_domain(domain)
    tools = [
        mcp.types.Tool(name=tool.name, description=tool.description, input_schema=tool.parameters)
        for tool in found.mcp_tools.values()
    ]
    return found.policy, json.dumps(function_schemas(tools), sort_keys=True)


def chat_messages(record: EpisodeRecord, policy: str) -> Chat:
    """The episode as chat messages, ending with the agent's last reply (the user's closing line and
    calls of a turn that never got a reply are not the agent's to learn)."""
    if any(call.turn is None for call in record.tool_log):
        raise UnorderedRecord(f"{record.task_id} trial {record.trial}: tool calls without a turn")
    by_turn: dict[int, list[Any]] = {}
    for call in record.tool_log:
        if call.turn is not None:  # always: checked above
            by_turn.setdefault(call.turn, []).append(call)
    messages: Chat = [{"role": "system", "content": policy}]
    turn = 0
    for message in record.transcript:
        if message.role == "user":
            messages.append({"role": "user", "content": message.content})
            continue
        for index, call in enumerate(by_turn.get(turn, [])):
            messages.extend(_call_messages(call, f"call_{turn}_{index}"))
        messages.append({"role": "assistant", "content": message.content})
        turn += 1
    while messages and messages[-1]["role"] != "assistant":
        messages.pop()
    return messages


def _call_messages(call: Any, call_id: str) -> Chat:
    output = call.output if call.ok else f"Error: {call.output}"
    request = {
        "id": call_id,
        "type": "function",
        "function": {"name": call.name, "arguments": call.arguments},
    }
    return [
        {"role": "assistant", "content": "", "tool_calls": [request]},
        {"role": "tool", "tool_call_id": call_id, "name": call.name, "content": output},
    ]


def assistant_turns(messages: Chat) -> int:
    return sum(1 for message in messages if message["role"] == "assistant")


def shared_prefix(first: Chat, second: Chat) -> int:
    """Length of the longest common prefix of two chats that ends just before an assistant message
    of both (so both continuations start with the agent's move: the prompt of a preference pair)."""
    cut = 0
    for index, (a, b) in enumerate(zip(first, second, strict=False)):
        if a["role"] == "assistant" and b["role"] == "assistant":
            cut = index
        if a != b:
            break
    return cut
