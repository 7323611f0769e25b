"""The control port: the domain's card and tasks, episodes, state, tool log, health. Never handed to
the agent. Everything the runner and the scorer learn about the domain comes from here.

Every route but `GET /healthz` needs the admin token (`Authorization: Bearer <token>`); only a server
started with `--insecure-no-token` serves without one. `POST /episodes/{id}/finish` ends an episode
for good and answers with its signed observation (taue/contracts/integrity.py)."""

from __future__ import annotations

import hmac
import json
from collections.abc import Awaitable, Callable
from typing import Literal

from fastapi import APIRouter, Depends, FastAPI, Header, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel

from taue.contracts.domain import DomainCard, EpisodeCreated, ExpectedOutcome, TaskList
from taue.contracts.integrity import EpisodeEnd
from taue.contracts.tasks import Task
from taue.envs.runtime.catalog import domain_card
from taue.envs.runtime.control_routes import RUN_ID_PATTERN, CreateEpisode, HotRoutes, ToolLog
from taue.envs.runtime.episodes import Episode, EpisodeError, EpisodeRegistry
from taue.envs.runtime.http_guard import RequestGuard
from taue.envs.runtime.limits import ECHO_LIMIT, release_freed_memory


class ResetDone(BaseModel):
    episode_id: str
    reset_ms: float


class EpisodeStatus(BaseModel):
    episode_id: str
    task_id: str | None
    tool_calls: int
    ended: bool
    """True once a conversation-ending tool (a transfer to a human) ran."""


class EpisodeSummary(BaseModel):
    episode_id: str
    task_id: str | None
    run_id: str | None
    tool_calls: int
    ended: bool
    idle_s: float
    """Seconds since the episode's last MCP or control request; it expires after the server's TTL."""


class EpisodeList(BaseModel):
    episodes: list[EpisodeSummary]


class Deleted(BaseModel):
    deleted: int


def summary(episode: Episode) -> EpisodeSummary:
    return EpisodeSummary(
        episode_id=episode.id,
        task_id=episode.task_id,
        run_id=episode.run_id,
        tool_calls=len(episode.log),
        ended=episode.ended,
        idle_s=round(episode.idle_s(), 3),
    )


def problem(error: dict) -> str:
    """One validation problem, every part of it that comes from the request cut short."""
    where = ".".join(str(part)[:ECHO_LIMIT] for part in error["loc"])
    return f"{where}: {str(error['msg'])[:200]}"


def build_control_app(
    registry: EpisodeRegistry,
    public_mcp_url: str,
    admin_token: str | None = None,
    max_body_bytes: int | None = None,
    allowed_hosts: list[str] | None = None,
) -> FastAPI:
    """The control API of one domain server. `public_mcp_url` is the MCP port's base URL; without an
    `admin_token` it is open to anyone (`--insecure-no-token`); `allowed_hosts`: the Host headers it
    answers (None: any)."""
    # The API's document needs the token too; the interactive pages, which cannot send it, are off.
    app = FastAPI(
        title=f"taue {registry.domain.name} control",
        version="1",
        openapi_url=None,
        docs_url=None,
        redoc_url=None,
    )
    # The guard stays outermost (the last added); the hot routes sit behind it, in front of FastAPI.
    app.add_middleware(HotRoutes, registry=registry, public_mcp_url=public_mcp_url, admin_token=admin_token)
    app.add_middleware(RequestGuard, max_body_bytes=max_body_bytes, allowed_hosts=allowed_hosts)
    app.exception_handler(EpisodeError)(episode_error)
    app.exception_handler(RequestValidationError)(bad_request)
    admin = [Depends(admin_check(admin_token))]

    @app.get("/openapi.json", dependencies=admin, include_in_schema=False)
    async def openapi_document() -> JSONResponse:
        return JSONResponse(app.openapi())

    app.include_router(health_router(registry))
    app.include_router(card_router(registry), dependencies=admin)
    app.include_router(task_router(registry), dependencies=admin)
    app.include_router(episode_router(registry, public_mcp_url), dependencies=admin)
    return app


def admin_check(admin_token: str | None) -> Callable[..., Awaitable[None]]:
    """The dependency that refuses a request without `admin_token` (None: lets every request in)."""

    async def require_admin(authorization: str = Header(default="")) -> None:
        if admin_token is None:
            return
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(
            token.strip().encode(), admin_token.encode()
        ):
            raise HTTPException(401, "admin token required: send 'Authorization: Bearer <admin token>'")

    return require_admin


async def episode_error(_: Request, exc: EpisodeError) -> JSONResponse:
    return JSONResponse({"error": str(exc)}, status_code=exc.status)


async def bad_request(_: Request, exc: RequestValidationError) -> JSONResponse:
    problems = [problem(e) for e in exc.errors()[:20]]
    return JSONResponse({"error": "invalid request", "problems": problems}, status_code=422)


# ------------------------------------------------------------------------------------ the routers


def health_router(registry: EpisodeRegistry) -> APIRouter:
    """`GET /healthz`, the one route open without the token."""
    router = APIRouter()

    @router.get("/healthz")
    async def healthz() -> dict[str, object]:
        return {
            "status": "ok",
            "domain": registry.domain.name,
            "episodes": len(registry),
            "max_episodes": registry.max_episodes,
            "episode_ttl_s": registry.episode_ttl_s,
        }

    return router


def card_router(registry: EpisodeRegistry) -> APIRouter:
    """The domain's policy and card."""
    router = APIRouter()
    domain = registry.domain

    @router.get(
        "/policy",
        response_class=PlainTextResponse,
        responses={200: {"content": {"text/markdown": {"schema": {"type": "string"}}}}},
    )
    async def policy() -> PlainTextResponse:
        return PlainTextResponse(domain.policy, media_type="text/markdown")

    @router.get("/domain")
    async def card() -> DomainCard:
        """The policy, the tools with their write and conversation-ending flags, the task count."""
        return domain_card(domain, len(registry.tasks))

    return router


def task_router(registry: EpisodeRegistry) -> APIRouter:
    """The tasks, one task, and a task's expected outcome."""
    router = APIRouter()

    @router.get("/tasks")
    async def tasks(
        split: Literal["eval", "train"] = Query(
            default="eval", description="eval (the benchmark) or train (the training split)."
        ),
    ) -> TaskList:
        return TaskList(domain=registry.domain.name, tasks=list(registry.split(split).values()))

    @router.get("/tasks/{task_id}")
    async def task(task_id: str) -> Task:
        return registry.task(task_id)

    @router.get("/tasks/{task_id}/expected")
    async def expected(task_id: str) -> ExpectedOutcome:
        """Where the task's ground truth ends: the scorer compares an episode's end with this."""
        return await registry.expected.get(registry.task(task_id))

    return router


def episode_router(registry: EpisodeRegistry, public_mcp_url: str) -> APIRouter:
    """An episode's life: create, list, reset, finish and delete (its state from `state_router`)."""
    router = APIRouter()

    @router.post("/episodes", status_code=201)
    async def create_episode(body: CreateEpisode) -> EpisodeCreated:
        episode = await registry.create(body.task_id, body.seed, body.run_id, body.manifest_sha256)
        url = f"{public_mcp_url.rstrip('/')}/episodes/{episode.id}/mcp"
        return EpisodeCreated(episode_id=episode.id, mcp_url=url, token=episode.token, task_id=body.task_id)

    @router.get("/episodes")
    async def list_episodes(
        run_id: str | None = Query(default=None, pattern=RUN_ID_PATTERN, description="Only this run's."),
    ) -> EpisodeList:
        """Live episodes, with each one's idle time (listing does not count as using them)."""
        return EpisodeList(episodes=[summary(episode) for episode in registry.listed(run_id)])

    @router.delete("/episodes")
    async def delete_run_episodes(
        run_id: str = Query(pattern=RUN_ID_PATTERN, description="The run whose episodes to delete."),
    ) -> Deleted:
        """Delete every episode a run created (a runner cleaning up after itself); idempotent."""
        deleted = registry.delete_run(run_id)
        if deleted:
            release_freed_memory()
        return Deleted(deleted=deleted)

    @router.post("/episodes/{episode_id}/reset")
    async def reset_episode(episode_id: str) -> ResetDone:
        return ResetDone(episode_id=episode_id, reset_ms=round(await registry.reset(episode_id), 3))

    router.include_router(state_router(registry))

    @router.post("/episodes/{episode_id}/finish")
    async def finish_episode(episode_id: str) -> EpisodeEnd:
        """End the episode for good (later tool calls are refused) and answer with what the server
        observed: final state hash, tool log, the task's expected outcome and the signed observation."""
        return await registry.finish(episode_id)

    @router.delete("/episodes/{episode_id}", status_code=204)
    async def delete_episode(episode_id: str) -> Response:
        registry.delete(episode_id)
        return Response(status_code=204)

    return router


def state_router(registry: EpisodeRegistry) -> APIRouter:
    """What a live episode holds: its state and hash, its status, its tool log."""
    router = APIRouter()

    @router.get("/episodes/{episode_id}/state")
    async def state(episode_id: str, include_state: bool = True) -> Response:
        """Canonical state (every table in primary-key order, sorted keys) and the scorer's sha256.

        The sha256 is of the comparable state: the canonical state with created ids renamed by
        content (envs/runtime/comparable.py); the same text when the episode created nothing.
        """
        episode = registry.get(episode_id)
        async with episode.lock:
            if include_state:
                text, digest = episode.db.state_and_hash()
            else:
                text, digest = "", episode.db.state_hash()
        # The state is spliced in as canonical text; parsing it only to dump it again would double the cost.
        state_part = f',"state":{text}' if include_state else ""
        body = f'{{"episode_id":{json.dumps(episode_id)},"sha256":"{digest}"{state_part}}}'
        return Response(body, media_type="application/json")

    @router.get("/episodes/{episode_id}")
    async def episode_status(episode_id: str) -> EpisodeStatus:
        episode = registry.get(episode_id)
        return EpisodeStatus(
            episode_id=episode_id, task_id=episode.task_id, tool_calls=len(episode.log), ended=episode.ended
        )

    @router.get("/episodes/{episode_id}/tool-log")
    async def tool_log(episode_id: str, since: int = Query(default=0, ge=0)) -> ToolLog:
        """The server-side tool log, from call `since` on (the runner asks for each turn's calls)."""
        return ToolLog.of(episode_id, registry.get(episode_id), since)

    return router
