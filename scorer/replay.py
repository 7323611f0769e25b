"""Expected end states: replay a task's ground truth on a fresh episode database, once per task."""

from __future__ import annotations

from taue.contracts.tasks import Task
from taue.envs.runtime.domain import Domain
from taue.envs.runtime.task_checks import replay


class ExpectedStates:
    """sha256 of each task's expected comparable final state, computed on first use and cached."""

    def __init__(self) -> None:
        self._hashes: dict[tuple[str, str], str] = {}

    async def hash_for(self, domain: Domain, task: Task) -> str:
        key = (domain.name, task.id)
        if key not in self._hashes:
            actions = [
                a for a in task.initial_state + task.evaluation.actions if a.name not in domain.terminal_tools
            ]
            db, _ = await replay(domain, actions)
            self._hashes[key] = db.state_hash()  # the comparable state, as GET /episodes/{id}/state
            db.close()
        return self._hashes[key]
