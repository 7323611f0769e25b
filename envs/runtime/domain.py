"""What a domain is: tables, a seed generator, typed tools, a policy, tasks and its Tracer parts.

A domain package (`envs/<name>/`, or an outside package's module) exposes `DOMAIN = Domain(...)`;
`envs.runtime.discovery` finds it. The `Domain` is the one object a domain registers: everything the
project needs of it (serving, the Tracer, the report's policy check) is reached through it, never by
importing a module named after the domain. Tools are plain async functions whose first parameter is
the `Store`; their remaining typed, documented parameters become the MCP schema the agent reads.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcp.server.mcpserver.tools import Tool
from sqlmodel import SQLModel

from taue.contracts.tasks import Task, load_tasks
from taue.envs.runtime.database import EpisodeDatabase, SeedImage

if TYPE_CHECKING:
    from taue.envs.runtime.authoring import TracerSpec

ToolFunction = Callable[..., Awaitable[Any]]


def writes(fn: ToolFunction) -> ToolFunction:
    """Mark a tool as one that changes the database."""
    # attr-defined: a marker attribute on the function object (`Domain.write_tools` reads it)
    fn.__taue_writes__ = True  # type: ignore[attr-defined]
    return fn


def ends_conversation(fn: ToolFunction) -> ToolFunction:
    """Mark a tool after which the episode ends (e.g. a transfer to a human)."""
    # attr-defined: a marker attribute on the function object
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
    tracer: str | Callable[[], TracerSpec] | None = field(default=None, repr=False)
    """Its Tracer parts (grounders, seed view, policy check): `"module:attribute"` naming its
    `TracerSpec` (the attribute defaults to `TRACER`), or a function of no arguments returning it.
    Loaded on first use of `tracer_spec`, so serving the domain imports none of them; None: it has
    none. A task set keeps its base domain's."""

    def __post_init__(self) -> None:
        if not self.base:
            object.__setattr__(self, "base", self.name)

    @cached_property
    def policy(self) -> str:
        return (self.folder / "policy.md").read_text(encoding="utf-8")

    @cached_property
    def tracer_spec(self) -> TracerSpec | None:
        """The domain's `TracerSpec`, loaded once; None when it declares no Tracer parts."""
        return None if self.tracer is None else load_tracer(self.tracer, self.name)

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


def load_tracer(reference: str | Callable[[], TracerSpec], domain: str) -> TracerSpec:
    """The `TracerSpec` a `Domain.tracer` reference names; a `TypeError` naming the domain when none."""
    from taue.envs.runtime.authoring import TracerSpec

    if isinstance(reference, str):
        module, _, attribute = reference.partition(":")
        spec = getattr(importlib.import_module(module), attribute or "TRACER", None)
    else:
        spec = reference()
    if not isinstance(spec, TracerSpec):
        raise TypeError(f"domain {domain!r}: its tracer reference {reference!r} gives no TracerSpec")
    return spec


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

    # attr-defined: the MCP SDK reads the schema from `__signature__`, which callables lack statically
    bound.__signature__ = signature.replace(parameters=parameters[1:])  # type: ignore[attr-defined]
    bound.__doc__ = inspect.cleandoc(fn.__doc__ or "")
    del bound.__wrapped__
    return bound
