"""What a domain is: tables, a seed generator, typed tools, a policy and tasks.

A domain package (`envs/<name>/`) exposes `DOMAIN = Domain(...)`; `envs.runtime.discovery` finds it.
Tools are plain async functions whose first parameter is the `Store`; their remaining typed,
documented parameters become the MCP schema the agent reads.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, wraps
from pathlib import Path
from typing import Any

from mcp.server.mcpserver.tools import Tool
from sqlmodel import SQLModel

from taue.contracts.tasks import Task, load_tasks
from taue.envs.runtime.database import EpisodeDatabase, SeedImage

ToolFunction = Callable[..., Awaitable[Any]]


def writes(fn: ToolFunction) -> ToolFunction:
    """Mark a tool as one that changes the database."""
    fn.__taue_writes__ = True  # type: ignore[attr-defined]
    return fn


def ends_conversation(fn: ToolFunction) -> ToolFunction:
    """Mark a tool after which the episode ends (e.g. a transfer to a human)."""
    fn.__taue_terminal__ = True  # type: ignore[attr-defined]
    return fn


@dataclass(frozen=True)
class Domain:
    name: str
    folder: Path
    tables: Sequence[type[SQLModel]]
    tools: Sequence[ToolFunction]
    generate: Callable[[int], list[SQLModel]] = field(repr=False)
    """Deterministic seed data: the rows of every table for a given seed."""
    clock: str = "2024-05-15T15:00:00"
    """The simulated "now" tools use for time-dependent values."""
    seed: int = 0
    base: str = ""
    """The domain whose tools and tables these are (a task set names its base domain); default: `name`."""

    def __post_init__(self) -> None:
        if not self.base:
            object.__setattr__(self, "base", self.name)

    @cached_property
    def policy(self) -> str:
        return (self.folder / "policy.md").read_text(encoding="utf-8")

    @cached_property
    def tasks(self) -> list[Task]:
        return load_tasks(self.folder / "tasks.json")

    @cached_property
    def train_tasks(self) -> list[Task]:
        """The Tracer's training split (`train.json`), empty when the domain has none."""
        path = self.folder / "train.json"
        return load_tasks(path) if path.exists() else []

    @cached_property
    def task_index(self) -> dict[str, Task]:
        return {task.id: task for task in self.tasks}

    @cached_property
    def seed_image(self) -> SeedImage:
        return SeedImage(self.tables, self.generate(self.seed))

    def new_database(self) -> EpisodeDatabase:
        return self.seed_image.clone(self.clock)

    @cached_property
    def replayed_states(self) -> dict[str, str]:
        """State hash at the end of a replayed list of actions, by the actions' JSON. Where a task's
        ground truth ends depends only on the domain and the actions, so every server and run of a
        process shares this cache (the judge matrix replays each task once, not once per agent)."""
        return {}

    @cached_property
    def write_tools(self) -> frozenset[str]:
        return frozenset(fn.__name__ for fn in self.tools if getattr(fn, "__taue_writes__", False))

    @cached_property
    def terminal_tools(self) -> frozenset[str]:
        return frozenset(fn.__name__ for fn in self.tools if getattr(fn, "__taue_terminal__", False))

    @cached_property
    def mcp_tools(self) -> dict[str, Tool]:
        """The MCP tool objects (schemas built once), bound to the per-call store."""
        return {fn.__name__: Tool.from_function(bind_store(fn)) for fn in self.tools}


def bind_store(fn: ToolFunction) -> ToolFunction:
    """Wrap `fn(store, **arguments)` as `fn(**arguments)` for MCP, taking the store from the call."""
    from taue.envs.runtime.execution import current_store

    signature = inspect.signature(fn, eval_str=True)
    parameters = list(signature.parameters.values())
    if not parameters or parameters[0].name != "db":
        raise TypeError(f"tool {fn.__name__} must take the store as its first parameter, named 'db'")

    @wraps(fn)
    async def bound(**arguments: Any) -> Any:
        return await fn(current_store(), **arguments)

    bound.__signature__ = signature.replace(parameters=parameters[1:])  # type: ignore[attr-defined]
    bound.__doc__ = inspect.cleandoc(fn.__doc__ or "")
    del bound.__wrapped__  # type: ignore[attr-defined]
    return bound
