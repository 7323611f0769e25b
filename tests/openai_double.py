"""A scripted OpenAI-compatible chat-completions server on loopback, for tests of LLM code paths.

It stands in for an external model endpoint (vLLM, llama.cpp, a hosted API): tests give it the
completions to return and then assert on the exact requests our code sent.

    double = OpenAIDouble([{"content": "hello"}, {"tool_calls": [...]}])
    base_url = await double.start()          # "http://127.0.0.1:PORT/v1"
    ... point the code under test at base_url ...
    assert double.requests[0]["temperature"] == 0
    await double.stop()

A reply is a dict with `content` and/or `tool_calls` (OpenAI message fields), or `{"status": 500}`
to answer with that HTTP error, or a callable taking the request body and returning such a dict.
Replies are used in order; the last one repeats when the script runs out.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable
from typing import Any

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from taue.envs.runtime.server import PromptServer, bind_socket

Reply = dict[str, Any] | Callable[[dict[str, Any]], dict[str, Any]]


class OpenAIDouble:
    def __init__(self, replies: list[Reply], model: str = "double-model") -> None:
        if not replies:
            raise ValueError("give the double at least one reply")
        self.replies = replies
        self.model = model
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._ids = itertools.count(1)
        self._server: PromptServer | None = None
        self._task: asyncio.Task[None] | None = None
        self.base_url = ""

    def _next_reply(self, body: dict[str, Any]) -> dict[str, Any]:
        reply = self.replies[min(len(self.requests) - 1, len(self.replies) - 1)]
        return reply(body) if callable(reply) else reply

    def app(self) -> FastAPI:
        app = FastAPI()

        @app.post("/v1/chat/completions")
        async def chat(request: Request) -> JSONResponse:
            body = await request.json()
            self.requests.append(body)
            self.headers.append(dict(request.headers))
            reply = self._next_reply(body)
            if "status" in reply:
                return JSONResponse({"error": {"message": "scripted failure"}}, status_code=reply["status"])
            return JSONResponse(self._completion(reply))

        @app.get("/v1/models")
        async def models() -> dict[str, Any]:
            return {"object": "list", "data": [{"id": self.model, "object": "model", "owned_by": "tests"}]}

        return app

    def _completion(self, reply: dict[str, Any]) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": reply.get("content")}
        tool_calls = reply.get("tool_calls")
        if tool_calls:
            message["tool_calls"] = [
                {
                    "id": call.get("id", f"call_{next(self._ids)}"),
                    "type": "function",
                    "function": {
                        "name": call["name"],
                        "arguments": call["arguments"]
                        if isinstance(call["arguments"], str)
                        else json.dumps(call["arguments"]),
                    },
                }
                for call in tool_calls
            ]
        prompt_tokens, completion_tokens = reply.get("usage", (11, 7))
        return {
            "id": f"chatcmpl-{next(self._ids)}",
            "object": "chat.completion",
            "created": 0,
            "model": self.model,
            "choices": [
                {"index": 0, "message": message, "finish_reason": "tool_calls" if tool_calls else "stop"}
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }

    async def start(self) -> str:
        sock = bind_socket()
        config = uvicorn.Config(self.app(), log_level="warning", access_log=False, lifespan="off")
        self._server = PromptServer(config)
        self._server.install_signal_handlers = lambda: None  # type: ignore[method-assign]
        self._task = asyncio.create_task(self._server.serve(sockets=[sock]))
        while not self._server.started:
            if self._task.done():
                await self._task
            await asyncio.sleep(0.01)
        self.base_url = f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
        return self.base_url

    async def stop(self) -> None:
        if self._server is not None and self._task is not None:
            self._server.request_stop()
            await self._task

    async def __aenter__(self) -> OpenAIDouble:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
