"""Databases for `taue db export`: a domain's or task set's seed, the state after a task's ground
truth replayed over MCP on an embedded server, or a live episode's state from a control port.

Domain code is imported in the functions that need it (the seed, the in-process replay), so that
importing this module loads none."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from taue.contracts.integrity import admin_token_from_env
from taue.contracts.tasks import Task
from taue.runner.control import ControlClient, InfraError, control_session
from taue.runner.embedded import embedded_domains
from taue.runner.mcp_session import episode_session

if TYPE_CHECKING:
    from taue.envs.runtime.domain import Domain


async def export_state(
    task_set: str | None, after: str | None, episode: str | None, control_url: str | None, domain: str | None
) -> tuple[Domain, dict[str, Any], list[str]]:
    from taue.envs.task_sets.exporter import seed_state

    if episode is not None and control_url is not None:
        target, state = await live_state(control_url, episode, domain)
        return target, state, []
    target = _domain(task_set or "")
    if after is None:
        return target, seed_state(target), []
    state, problems = await state_after(target, _task(target, after))
    return target, state, problems


def _domain(name: str) -> Domain:
    from taue.envs.runtime.discovery import get_domain
    from taue.envs.task_sets.loader import require_task_set

    try:
        return get_domain(name)
    except KeyError:
        return require_task_set(name)


def _task(domain: Domain, task_id: str) -> Task:
    from taue.envs.task_sets.storage import TaskSetError

    task = domain.task_index.get(task_id)
    if task is None:
        raise TaskSetError(
            f"no task {task_id!r} in {domain.name!r} (see taue tasks list --task-set {domain.name})"
        )
    return task


async def state_after(domain: Domain, task: Task) -> tuple[dict[str, Any], list[str]]:
    """The canonical state after the task's initial state and ground truth, called over MCP on an embedded
    server (conversation-ending tools skipped, as in the scorer's replay); failing calls are reported."""
    problems = []
    async with embedded_domains([domain.name]) as servers, control_session() as http:
        server = servers[domain.name]
        control = ControlClient(server.control_url, http, server.admin_token)
        created = await control.create_episode(task.id, 0)
        headers = {"Authorization": f"Bearer {created.token}"}
        async with episode_session(created.mcp_url, headers) as client:
            for index, action in enumerate(task.evaluation.actions):
                if action.name in domain.terminal_tools:
                    continue
                result = await client.call_tool(action.name, dict(action.arguments))
                if result.is_error:
                    text = "".join(getattr(block, "text", "") for block in result.content)
                    problems.append(f"ground-truth action {index} {action.name} failed: {text}")
        state = (await control.state(created.episode_id))["state"]
        await control.delete_episode(created.episode_id)
    return state, problems


async def live_state(control_url: str, episode_id: str, domain: str | None) -> tuple[Domain, dict[str, Any]]:
    """(the domain of the episode's tables, its canonical state) from a running server's control port."""
    from taue.envs.task_sets.storage import TaskSetError

    async with control_session() as http:
        control = ControlClient(control_url, http, admin_token_from_env())
        try:
            served = (await control.healthz())["domain"]
        except (InfraError, ValueError, KeyError) as exc:
            raise InfraError(
                f"{control_url}/healthz: not a taue domain server ({type(exc).__name__})"
            ) from None
        state = (await control.state(episode_id))["state"]
    name = domain or served
    try:
        return _domain(name), state
    except TaskSetError:
        raise TaskSetError(
            f"the server serves {served!r}, which is neither an installed domain nor a task set here; "
            "pass --domain with its base domain or task set"
        ) from None
