"""The built-in model agent: a reference tool-calling agent over any OpenAI-compatible endpoint.

System prompt = the domain policy; tools = the episode's MCP `list_tools`, converted once per episode
to OpenAI function schemas. Each turn it asks the model, runs every requested tool call over MCP in
order, feeds the results back, and repeats until the model writes text for the user. More than
`max_tool_calls_per_turn` calls in one turn ends the episode as `agent_error`.

API key: `TAUE_AGENT_API_KEY`, else `OPENAI_API_KEY`, else a placeholder (local servers ignore it).
Every episode of a process uses one shared client per endpoint (`taue.contracts.model_clients`).
"""

from __future__ import annotations

import json
import os
import time
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from typing import Any
from urllib.parse import urlsplit

import mcp.types
import openai
from mcp import Client

from taue.contracts.model_clients import shared_model_client
from taue.runner.agents import AgentOptions
from taue.runner.agents.base import AgentError, EpisodeContext, McpServerInfo
from taue.runner.control import InfraError
from taue.runner.mcp_session import episode_session, list_all_tools, shared_listings
from taue.runner.pricing import cost_of

PLACEHOLDER_KEY = "not-needed"
MODEL_RETRIES = 2
TOOLS_TTL_S = 60.0
"""How long a server's tool list is reused: a redeployed server's new tools are seen within it."""
_TOOLS: dict[tuple[str, str], tuple[float, list[dict[str, Any]]]] = {}
"""(domain, MCP server host:port) -> (when listed, function schemas)."""


def api_key() -> str:
    return os.environ.get("TAUE_AGENT_API_KEY") or os.environ.get("OPENAI_API_KEY") or PLACEHOLDER_KEY


DOWN_STATUSES = frozenset({401, 403, 404, 429})
"""Answers that say the endpoint cannot serve this run (a key, a model name, a quota), not that the
model misbehaved."""


def endpoint_down(exc: openai.APIError) -> bool:
    """Whether a model call failed for the endpoint's sake (unreachable, timed out, 5xx or one of
    `DOWN_STATUSES` after the client's retries), not for the model's answer."""
    if isinstance(exc, openai.APIConnectionError):  # timeouts included
        return True
    status = getattr(exc, "status_code", None)
    return isinstance(status, int) and (status >= 500 or status in DOWN_STATUSES)


def function_schemas(tools: list[mcp.types.Tool]) -> list[dict[str, Any]]:
    """MCP tools as OpenAI `tools=[{"type": "function", ...}]` entries (the input schema unchanged)."""
    return [
        {
            "type": "function",
            "function": {
                "name": tool.name,
                "description": tool.description or "",
                "parameters": tool.input_schema,
            },
        }
        for tool in tools
    ]


def result_text(result: mcp.types.CallToolResult) -> str:
    """What the model reads back from a tool call; errors are marked so the model can recover."""
    text = "\n".join(block.text for block in result.content if isinstance(block, mcp.types.TextContent))
    if not text and result.structured_content is not None:
        text = json.dumps(result.structured_content, sort_keys=True)
    return f"Error: {text}" if result.is_error else text


class ModelAgent:
    """One episode of the built-in agent. `usage` holds tokens, calls and (if priced) cost."""

    def __init__(self, spec: str, options: AgentOptions) -> None:
        if not options.model or not options.base_url:
            raise ValueError("the model agent needs a model name and an OpenAI-compatible base URL")
        self.options = options
        self.model = options.model
        self.api_key = api_key()
        self.messages: list[dict[str, Any]] = []
        self.tools: list[dict[str, Any]] = []
        self.server: McpServerInfo | None = None
        self.context: EpisodeContext | None = None
        self.usage: dict[str, Any] = {
            "prompt_tokens": 0,
            "completion_tokens": 0,
            "model_calls": 0,
            "tool_calls": 0,
        }

    async def start(self, context: EpisodeContext) -> None:
        if not context.mcp_servers:
            raise AgentError("the episode offers no MCP server")
        self.context, self.server = context, context.mcp_servers[0]
        self.tools = await self._tools()
        self.messages = [{"role": "system", "content": context.policy}]

    async def _tools(self) -> list[dict[str, Any]]:
        """The server's tools as function schemas, listed once per server and TOOLS_TTL_S (a server
        serves the same tools to every episode of its domain: listing them per episode cost about a
        tenth of a run's CPU); the cached list is shared, never changed."""
        assert self.server is not None and self.context is not None
        key = (self.context.domain, urlsplit(self.server.url).netloc)
        listed = _TOOLS.get(key)
        if listed is None or time.monotonic() - listed[0] > TOOLS_TTL_S:
            async with self._session() as client:
                listed = _TOOLS[key] = (time.monotonic(), function_schemas(await list_all_tools(client)))
        return listed[1]

    async def respond(self, user_message: str) -> str:
        self.messages.append({"role": "user", "content": user_message})
        async with AsyncExitStack() as stack:
            outcome = await self._turn(stack)
        # Raised only once the MCP session is closed: inside it, anyio would wrap it in an ExceptionGroup.
        if isinstance(outcome, AgentError | InfraError):
            raise outcome
        return outcome

    async def _turn(self, stack: AsyncExitStack) -> str | AgentError | InfraError:
        """Model calls and tool calls until the model writes to the user; the MCP session opens lazily."""
        client: Client | None = None
        calls_this_turn = 0
        while True:
            try:
                message = await self._complete()
            except (AgentError, InfraError) as exc:
                return exc
            if not message.tool_calls:
                text = message.content or ""
                if not text.strip():
                    return AgentError("the model answered with neither text nor tool calls")
                self.messages.append({"role": "assistant", "content": text})
                return text
            calls_this_turn += len(message.tool_calls)
            if calls_this_turn > self.options.max_tool_calls_per_turn:
                cap = self.options.max_tool_calls_per_turn
                return AgentError(f"the model asked for more than {cap} tool calls in one turn")
            self.messages.append(_assistant_tool_message(message))
            if client is None:
                client = await stack.enter_async_context(self._session())
                await list_all_tools(client)  # the SDK validates results against the listed schemas
            for call in message.tool_calls:
                output = await self._call_tool(client, call.function.name, call.function.arguments)
                self.messages.append({"role": "tool", "tool_call_id": call.id, "content": output})

    async def close(self) -> None:
        """Nothing to release: the model client is shared by the run's episodes and closed by the run."""

    def _session(self) -> AbstractAsyncContextManager[Client]:
        assert self.server is not None and self.context is not None
        cache = shared_listings(self.context.domain, self.server.url, self.context.episode_id)
        return episode_session(self.server.url, self.server.headers, self.context.transport, cache=cache)

    def request(self) -> dict[str, Any]:
        """The chat-completions request body for the next model call."""
        body: dict[str, Any] = {
            "model": self.model,
            "messages": self.messages,
            "temperature": self.options.temperature,
        }
        if self.tools:
            body["tools"] = self.tools
        if self.options.seed is not None:
            body["seed"] = self.options.seed
        if self.options.enable_thinking is not None:
            body["chat_template_kwargs"] = {"enable_thinking": self.options.enable_thinking}
        return body

    async def _complete(self) -> Any:
        assert self.options.base_url is not None
        client = shared_model_client(
            self.options.base_url, self.api_key, max_retries=MODEL_RETRIES, timeout=self.options.turn_timeout
        )
        try:
            response = await client.chat_completion(self.request())
        except openai.APIError as exc:
            failure = f"model endpoint {self.options.base_url}: {type(exc).__name__}: {exc}"
            if endpoint_down(exc):  # the harness's model server, not the agent: the runner retries
                raise InfraError(failure) from exc
            raise AgentError(failure) from exc
        self._count(response.usage)
        if not response.choices:
            raise AgentError("the model endpoint returned no choices")
        return response.choices[0].message

    async def _call_tool(self, client: Client, name: str, arguments: str) -> str:
        self.usage["tool_calls"] += 1
        try:
            parsed = json.loads(arguments or "{}")
        except json.JSONDecodeError as exc:
            return f"Error: the arguments of {name} are not valid JSON ({exc.msg})"
        if not isinstance(parsed, dict):
            return f"Error: the arguments of {name} must be a JSON object"
        return result_text(await client.call_tool(name, parsed))

    def _count(self, usage: Any) -> None:
        self.usage["model_calls"] += 1
        if usage is None:
            return
        self.usage["prompt_tokens"] += usage.prompt_tokens or 0
        self.usage["completion_tokens"] += usage.completion_tokens or 0
        tokens = self.usage["prompt_tokens"], self.usage["completion_tokens"]
        cost = cost_of(*tokens, self.model, self.options.base_url, self.options.price_table)
        if cost is not None:
            self.usage["cost_usd"] = cost


def _assistant_tool_message(message: Any) -> dict[str, Any]:
    # llama.cpp's chat template (and some others) reject a tool-call message without "content".
    return {
        "role": "assistant",
        "content": message.content or "",
        "tool_calls": [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.function.name, "arguments": call.function.arguments},
            }
            for call in message.tool_calls
        ],
    }
