"""Running one tool call against one episode database: validation, transaction, log entry.

The MCP server and the scorer's ground-truth replay both call `execute`, so an agent's call and a
replayed gold action go through the same validation and the same transaction rules.
"""

from __future__ import annotations

import json
import time
from contextvars import ContextVar
from typing import Any

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent

from taue.contracts.episode import TimedCall, utc_now
from taue.envs.runtime.database import EpisodeDatabase, Store
from taue.envs.runtime.domain import Domain
from taue.envs.runtime.limits import bounded_error
from taue.envs.runtime.read_only import SeedIsReadOnly

_store: ContextVar[Store] = ContextVar("taue_store")
_OUTSIDE_REQUESTS: Context = Context()
"""The context of a call made outside an MCP request (the ground-truth replay); tools never read it."""


def current_store() -> Store:
    return _store.get()


class ToolCall(TimedCall):
    """One entry of an episode's server-side tool log: the contracts' `LoggedCall` (name, arguments,
    ok, output, writes) with the server's sequence number, start time and duration."""

    seq: int


async def execute(
    domain: Domain,
    db: EpisodeDatabase,
    name: str,
    arguments: dict[str, Any],
    context: Context | None = None,
) -> CallToolResult:
    """Validate and run one call in a transaction; errors come back as `is_error` results."""
    tool = domain.mcp_tools.get(name)
    if tool is None:
        raise ToolError(f"Unknown tool: {name}. Available tools: {', '.join(sorted(domain.mcp_tools))}")
    try:
        return await _run(tool, db, arguments, context, may_write=name in domain.write_tools)
    except SeedIsReadOnly:  # a tool not marked @writes wrote: its first run was rolled back
        return await _run(tool, db, arguments, context, may_write=True)


async def _run(
    tool: Any, db: EpisodeDatabase, arguments: dict[str, Any], context: Context | None, may_write: bool
) -> CallToolResult:
    with db.transaction(may_write) as store:
        token = _store.set(store)
        try:
            result = await tool.run(arguments, context or _OUTSIDE_REQUESTS, convert_result=True)
        finally:
            _store.reset(token)
    return result


def result_text(result: CallToolResult) -> str:
    return "".join(block.text for block in result.content if isinstance(block, TextContent))


async def execute_logged(
    domain: Domain,
    db: EpisodeDatabase,
    log: list[ToolCall],
    name: str,
    arguments: Any,
    context: Context | None,
) -> CallToolResult:
    """`execute`, recording the call (successful or not) in `log`. Never raises for a bad call."""
    started, timestamp = time.perf_counter(), utc_now()
    args = logged_arguments(arguments)
    if not utf8_encodable([name, args]):
        # JSON may carry lone surrogates (\ud800) that UTF-8 cannot: such a call is refused, and logged
        # with them replaced, so that the tool log (JSON in UTF-8) can still be served
        name, args = utf8_safe(name), utf8_safe(args)
        message = "invalid arguments: text with a lone UTF-16 surrogate (not valid Unicode)"
        log_call(domain, log, name, args, False, message, timestamp, started)
        return error_result(message)
    try:
        result = await execute(domain, db, name, args, context)
        ok, output = not result.is_error, result_text(result)
    except ToolError as exc:
        ok, output = False, str(exc)
        result = error_result(output)
    except Exception as exc:  # a bug in a tool: report it without the traceback, keep serving
        ok, output = False, f"Error executing tool {name}: internal error ({type(exc).__name__})"
        result = error_result(output)
    if not ok and (bounded := bounded_error(output)) != output:
        # an error may repeat what the agent sent (an id, a name): never more than a bounded echo
        output, result = bounded, error_result(bounded)
    log_call(domain, log, name, args, ok, output, timestamp, started)
    return result


def error_result(message: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=message)], is_error=True)


def utf8_encodable(value: Any) -> bool:
    try:
        json.dumps(value, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        return False
    except (TypeError, ValueError):  # not JSON at all: the tool's validation refuses it
        return True
    return True


def utf8_safe(value: Any) -> Any:
    """`value` with every string's lone surrogates replaced by `?`."""
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode()
    if isinstance(value, dict):
        return {utf8_safe(key): utf8_safe(item) for key, item in value.items()}
    if isinstance(value, list):
        return [utf8_safe(item) for item in value]
    return value


def logged_arguments(arguments: Any) -> dict[str, Any]:
    return arguments if isinstance(arguments, dict) else {"_raw": arguments}


def log_call(
    domain: Domain,
    log: list[ToolCall],
    name: str,
    arguments: dict[str, Any],
    ok: bool,
    output: str,
    timestamp: str,
    started: float,
) -> None:
    log.append(
        ToolCall(
            seq=len(log),
            name=name,
            arguments=arguments,
            ok=ok,
            output=output,
            writes=ok and name in domain.write_tools,
            timestamp=timestamp,
            duration_ms=round((time.perf_counter() - started) * 1000, 3),
        )
    )


def log_refused(domain: Domain, log: list[ToolCall], name: str, arguments: Any, message: str) -> None:
    """Record a call the server refused without running it (after a conversation-ending tool)."""
    args = utf8_safe(logged_arguments(arguments))
    log_call(domain, log, utf8_safe(name), args, False, message, utc_now(), time.perf_counter())
