"""Finding domains: every package under `envs/` that exposes `DOMAIN` is one."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

import taue.envs as envs_package
from taue.envs.runtime.domain import Domain


@cache
def domain_names() -> tuple[str, ...]:
    names = []
    for module in pkgutil.iter_modules(envs_package.__path__):
        if module.ispkg and module.name != "runtime":
            package = importlib.import_module(f"taue.envs.{module.name}")
            if isinstance(getattr(package, "DOMAIN", None), Domain):
                names.append(module.name)
    return tuple(sorted(names))


def get_domain(name: str) -> Domain:
    """The domain called `name`, or a `KeyError` listing the known ones."""
    if name not in domain_names():
        from taue.envs.task_sets.loader import find_task_set  # a task set is a domain too (lazy: no cycle)

        task_set = find_task_set(name)
        if task_set is not None:
            return task_set
        raise KeyError(f"unknown domain {name!r}; known domains: {', '.join(domain_names())}")
    return importlib.import_module(f"taue.envs.{name}").DOMAIN


def all_domains() -> list[Domain]:
    return [get_domain(name) for name in domain_names()]
