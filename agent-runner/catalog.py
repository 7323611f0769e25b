"""What the runner knows about a domain: its card (policy, tools and their flags) and its tasks.

A domain served elsewhere (`--env NAME=URL`) is read from its control port; the runner imports no
domain code for it. A domain the runner serves itself (the embedded default) is read from its
package with the same functions its server answers with.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from taue.contracts.domain import DomainCard
from taue.contracts.tasks import Task
from taue.runner.control import ControlClient
from taue.simulator.client import describe_tools


@dataclass(frozen=True)
class DomainCatalog:
    card: DomainCard
    tasks: list[Task]

    def __post_init__(self) -> None:
        # What the domain's writes do, for the scripted user's reading of proposals (sent with each
        # user session, so a remote simulator learns it too).
        describe_tools(self.card.name, {t.name: t.description for t in self.card.tools if t.writes})

    @property
    def name(self) -> str:
        return self.card.name

    @cached_property
    def task_index(self) -> dict[str, Task]:
        return {task.id: task for task in self.tasks}


async def fetch_catalog(control: ControlClient, name: str, split: str = "eval") -> DomainCatalog:
    """The catalog the server of domain `name` serves (GET /domain, GET /tasks?split=)."""
    card = await control.card()
    if card.name != name:
        raise ValueError(f"the server at {control.base_url} serves domain {card.name!r}, not {name!r}")
    return DomainCatalog(card=card, tasks=await control.tasks(split))


def local_catalog(name: str, split: str = "eval") -> DomainCatalog:
    """The catalog of a domain served in this process, as its server would answer."""
    from taue.envs.runtime.catalog import domain_card
    from taue.envs.runtime.discovery import get_domain

    domain = get_domain(name)
    tasks = domain.train_tasks if split == "train" else domain.tasks
    return DomainCatalog(card=domain_card(domain), tasks=list(tasks))
