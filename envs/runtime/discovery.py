"""Finding domains. A domain is one package exposing `DOMAIN = Domain(...)`, found in one of two ways:

- **a folder** `envs/<name>/` of this project (nothing else to edit: packages are discovered too;
  listing the names imports nothing, so one broken domain breaks only what loads it);
- **an entry point** in the group `taue.domains` of any installed distribution, so an outside package
  can add a domain: `[project.entry-points."taue.domains"] school = "my_package.school"` (a module
  exposing `DOMAIN`, or `module:attribute` naming the `Domain` itself).

A name both ways is the project's own folder. Task sets imported with `taue task-sets import` are
found by `get_domain` too (they are domains over a base domain's tools).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from functools import cache, partial
from importlib.metadata import EntryPoint, entry_points

import taue.envs as envs_package
from taue.contracts.text import ECHO_LIMIT, shown
from taue.envs.runtime.domain import Domain

ENTRY_POINT_GROUP = "taue.domains"
NOT_DOMAINS = ("runtime", "task_sets")
"""The packages under `envs/` that are not domains: the shared runtime and the task-set importer."""


class DomainRegistrationError(Exception):
    """A registered domain that cannot be loaded: the message names the registration."""


@cache
def _registry() -> dict[str, Callable[[], Domain]]:
    found: dict[str, Callable[[], Domain]] = {}
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        found[entry.name] = partial(_load_entry_point, entry)
    for module in pkgutil.iter_modules(envs_package.__path__):
        if module.ispkg and module.name not in NOT_DOMAINS:
            found[module.name] = partial(_load_folder, module.name)
    return found


def _load_entry_point(entry: EntryPoint) -> Domain:
    return _domain_of(entry.load(), f"entry point {entry.value!r} (group {ENTRY_POINT_GROUP})")


def _load_folder(name: str) -> Domain:
    return _domain_of(importlib.import_module(f"taue.envs.{name}"), f"folder envs/{name}")


def _domain_of(loaded: object, where: str) -> Domain:
    domain = loaded if isinstance(loaded, Domain) else getattr(loaded, "DOMAIN", None)
    if not isinstance(domain, Domain):
        raise DomainRegistrationError(f"{where} exposes no DOMAIN = Domain(...)")
    return domain


def domain_names() -> tuple[str, ...]:
    return tuple(sorted(_registry()))


def home_domain(task_id: str) -> str | None:
    """The registered domain a task id names by its prefix (`retail-004`, `retail-train-0001`: retail)."""
    names = sorted(domain_names(), key=len, reverse=True)
    return next((name for name in names if task_id.startswith(f"{name}-")), None)


def a_task_of(domain: str) -> str:
    """`a retail task`, `an airline task`."""
    return f"{'an' if domain[:1] in 'aeiou' else 'a'} {domain} task"


def unknown_task_message(task_id: str, domain: str) -> str:
    """Why `task_id` is not a task of `domain`: another domain's task, or none at all."""
    home = home_domain(task_id)
    if home is not None and home != domain and len(task_id) <= ECHO_LIMIT and task_id.isprintable():
        return f"{task_id} is {a_task_of(home)}, not {domain}"
    return f"unknown task {shown(task_id)} for domain {domain!r}"


@cache
def _load(name: str) -> Domain:
    domain = _registry()[name]()
    if domain.name != name:
        raise DomainRegistrationError(f"domain registered as {name!r} calls itself {domain.name!r}")
    return domain


def get_domain(name: str) -> Domain:
    """The domain called `name`, or a `KeyError` listing the known ones."""
    if name not in _registry():
        from taue.envs.task_sets.loader import find_task_set  # a task set is a domain too (lazy: no cycle)

        task_set = find_task_set(name)
        if task_set is not None:
            return task_set
        raise KeyError(f"unknown domain {name!r}; known domains: {', '.join(domain_names())}")
    return _load(name)


def all_domains() -> list[Domain]:
    return [get_domain(name) for name in domain_names()]
