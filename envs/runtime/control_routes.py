"""The control port's per-episode routes served without FastAPI's per-request machinery.

Every episode of a run calls `POST /episodes`, `GET /episodes/{id}/tool-log` (once per agent turn),
`POST /episodes/{id}/finish` and `DELETE /episodes/{id}`. FastAPI's routing, dependency solving and
response validation cost more than the work behind them, so `HotRoutes` (an ASGI layer between the
request guard and FastAPI) answers these four itself when a request is plainly well formed: the admin
token matches, the body is JSON that validates, the query is empty (`since=<digits>` for the tool log).
Anything else (a missing or wrong token, a body to reject, any other query, an unknown route) goes on
to FastAPI unchanged, so every refusal is FastAPI's own answer, and a served answer is the bytes
FastAPI would send: the same models, dumped the same way, and `EpisodeError`s answered as the app's
handler answers them.
"""

from __future__ import annotations

import hmac
import json
import re
from collections.abc import Awaitable, Callable

from pydantic import BaseModel, Field, StrictInt, ValidationError
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from taue.contracts.domain import EpisodeCreated
from taue.envs.runtime.episodes import Episode, EpisodeError, EpisodeRegistry
from taue.envs.runtime.execution import ToolCall
from taue.envs.runtime.http_guard import header

RUN_ID_PATTERN = r"^[A-Za-z0-9_.:-]{1,128}$"
EPISODES = "/episodes"
EPISODE_PREFIX = "/episodes/"
SINCE_QUERY = re.compile(rb"since=([0-9]{1,9})")
JSON_TYPE = re.compile(r"application/(?:[^;\s]*\+)?json\s*(?:;.*)?", re.IGNORECASE)

Answer = Callable[[], Awaitable[Response]]


class CreateEpisode(BaseModel):
    task_id: str | None = Field(
        default=None, description="Task whose initial state to apply; none = seed DB."
    )
    seed: StrictInt = 0
    run_id: str | None = Field(
        default=None, pattern=RUN_ID_PATTERN, description="The creating run's id (to delete its leftovers)."
    )
    manifest_sha256: str | None = Field(
        default=None,
        pattern=r"^[0-9a-f]{64}$",
        description="The digest of the run's signed manifest: the episode's observation names it.",
    )


class ToolLog(BaseModel):
    episode_id: str
    calls: list[ToolCall]
    since: int = Field(default=0, description="Index of the first call returned.")
    total: int = Field(default=0, description="Calls logged so far.")
    ended: bool = False
    """True once a conversation-ending tool (a transfer to a human) ran."""
    dropped: int = Field(default=0, description="Calls refused, not logged: the log reached its bound.")

    @classmethod
    def of(cls, episode_id: str, episode: Episode, since: int) -> ToolLog:
        """An episode's log from call `since` on."""
        return cls(
            episode_id=episode_id,
            calls=list(episode.log[since:]),
            since=since,
            total=len(episode.log),
            ended=episode.ended,
            dropped=episode.dropped,
        )


class HotRoutes:
    """Serves the per-episode routes of `build_control_app`'s app (see the module's doc), passing every
    other request to `app`."""

    def __init__(
        self, app: ASGIApp, registry: EpisodeRegistry, public_mcp_url: str, admin_token: str | None
    ) -> None:
        self.app = app
        self.registry = registry
        self.mcp_base = public_mcp_url.rstrip("/")
        self.admin_token = None if admin_token is None else admin_token.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("root_path") or not self._authorized(scope):
            await self.app(scope, receive, send)
            return
        method, path = scope["method"], scope["path"]
        if method == "POST" and path == EPISODES and not scope["query_string"]:
            await self._create(scope, receive, send)
            return
        answer = self._episode_route(scope, method, path)
        if answer is None:
            await self.app(scope, receive, send)
            return
        await respond(answer, scope, receive, send)

    def _authorized(self, scope: Scope) -> bool:
        """The app's admin check, passed; a request that fails it goes to the app, which refuses it."""
        if self.admin_token is None:
            return True
        scheme, _, token = (header(scope, b"authorization") or "").partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(token.strip().encode(), self.admin_token)

    def _episode_route(self, scope: Scope, method: str, path: str) -> Answer | None:
        if not path.startswith(EPISODE_PREFIX):
            return None
        episode_id, _, action = path[len(EPISODE_PREFIX) :].partition("/")
        if not episode_id or "/" in action:
            return None
        if method == "GET" and action == "tool-log":
            since = since_of(scope["query_string"])
            return None if since is None else (lambda: self._tool_log(episode_id, since))
        if scope["query_string"]:
            return None
        if method == "DELETE" and not action and path.count("/") == 2:
            return lambda: self._delete(episode_id)
        if method == "POST" and action == "finish":
            return lambda: self._finish(episode_id)
        return None

    async def _create(self, scope: Scope, receive: Receive, send: Send) -> None:
        message = await whole_body(receive)
        body = self._create_body(scope, message.get("body", b""))
        if body is None:
            await self.app(scope, replay(message, receive), send)
            return
        await respond(lambda: self._created(body), scope, receive, send)

    def _create_body(self, scope: Scope, raw: bytes) -> CreateEpisode | None:
        """The validated body, or None when the app should answer (and refuse) it."""
        content_type = header(scope, b"content-type")
        if not raw or (content_type is not None and not JSON_TYPE.fullmatch(content_type)):
            return None
        try:
            return CreateEpisode.model_validate(json.loads(raw))
        except (ValueError, ValidationError):  # JSONDecodeError and UnicodeDecodeError are ValueErrors
            return None

    async def _created(self, body: CreateEpisode) -> Response:
        episode = await self.registry.create(body.task_id, body.seed, body.run_id, body.manifest_sha256)
        url = f"{self.mcp_base}/episodes/{episode.id}/mcp"
        created = EpisodeCreated(
            episode_id=episode.id, mcp_url=url, token=episode.token, task_id=body.task_id
        )
        return json_response(created.model_dump_json(by_alias=True), 201)

    async def _tool_log(self, episode_id: str, since: int) -> Response:
        log = ToolLog.of(episode_id, self.registry.get(episode_id), since)
        return json_response(log.model_dump_json(by_alias=True))

    async def _finish(self, episode_id: str) -> Response:
        end = await self.registry.finish(episode_id)
        return json_response(end.model_dump_json(by_alias=True))

    async def _delete(self, episode_id: str) -> Response:
        self.registry.delete(episode_id)
        return Response(status_code=204)


async def respond(answer: Answer, scope: Scope, receive: Receive, send: Send) -> None:
    """The route's answer, or the app's answer to the `EpisodeError` it raised."""
    try:
        response = await answer()
    except EpisodeError as exc:
        response = JSONResponse({"error": str(exc)}, status_code=exc.status)
    await response(scope, receive, send)


def json_response(body: str, status: int = 200) -> Response:
    return Response(body, status_code=status, media_type="application/json")


def since_of(query: bytes) -> int | None:
    """`since` from a query that is empty or exactly `since=<digits>`; None for anything else."""
    if not query:
        return 0
    match = SINCE_QUERY.fullmatch(query)
    return None if match is None else int(match.group(1))


async def whole_body(receive: Receive) -> Message:
    """The request's body as one message (the guard in front has it whole already), or the message
    that came instead of it (a disconnect)."""
    message = await receive()
    chunks = [message.get("body", b"")]
    while message["type"] == "http.request" and message.get("more_body", False):
        message = await receive()
        chunks.append(message.get("body", b""))
    if message["type"] != "http.request":
        return message
    return {"type": "http.request", "body": b"".join(chunks), "more_body": False}


def replay(message: Message, receive: Receive) -> Receive:
    """`receive` that gives the body read here once more, then the client's messages."""
    pending: list[Message] = [message]

    async def receive_again() -> Message:
        return pending.pop() if pending else await receive()

    return receive_again
