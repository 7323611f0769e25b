"""What the domain server tells others about its domain: the card and each task's expected outcome.

The runner and the scorer never import a domain's code; they read these from the control port
(`GET /domain`, `GET /tasks/{id}/expected`), so the server that owns the code computes them.
"""

from __future__ import annotations

import asyncio
import json

from taue.contracts.domain import DomainCard, ExpectedOutcome, GoldCall, ToolInfo
from taue.contracts.tasks import Task
from taue.envs.runtime.domain import Domain
from taue.envs.runtime.task_checks import replay


def domain_card(domain: Domain, task_count: int | None = None) -> DomainCard:
    tools = [
        ToolInfo(
            name=fn.__name__,
            writes=fn.__name__ in domain.write_tools,
            ends_conversation=fn.__name__ in domain.terminal_tools,
            description=(fn.__doc__ or "").strip().split("\n\n")[0],
        )
        for fn in domain.tools
    ]
    count = len(domain.tasks) if task_count is None else task_count
    return DomainCard(name=domain.name, base=domain.base, policy=domain.policy, tools=tools, tasks=count)


async def expected_outcome(domain: Domain, task: Task) -> ExpectedOutcome:
    """Replay the task's ground truth on a fresh episode database and describe where it ends."""
    actions = [a for a in task.initial_state + task.evaluation.actions if a.name not in domain.terminal_tools]
    key = json.dumps([action.model_dump(mode="json") for action in actions], sort_keys=True)
    state_hash = domain.replayed_states.get(key)
    if state_hash is None:
        db, _ = await replay(domain, actions)
        try:
            state_hash = db.state_hash()  # the comparable state, as GET /episodes/{id}/state hashes it
        finally:
            db.close()
        domain.replayed_states[key] = state_hash
    return ExpectedOutcome(
        task_id=task.id,
        state_hash=state_hash,
        outputs=list(task.evaluation.outputs),
        gold=[
            GoldCall(name=a.name, arguments=dict(a.arguments), writes=a.name in domain.write_tools)
            for a in task.evaluation.actions
        ],
        transfer_expected=any(a.name in domain.terminal_tools for a in task.evaluation.actions),
    )


class ExpectedOutcomes:
    """Each task's expected outcome, computed once (concurrent requests for one task share the work)."""

    def __init__(self, domain: Domain) -> None:
        self.domain = domain
        self._pending: dict[str, asyncio.Task[ExpectedOutcome]] = {}

    async def get(self, task: Task) -> ExpectedOutcome:
        pending = self._pending.get(task.id)
        if pending is None or (pending.done() and pending.exception() is not None):
            pending = asyncio.ensure_future(expected_outcome(self.domain, task))
            self._pending[task.id] = pending
        return await asyncio.shield(pending)
