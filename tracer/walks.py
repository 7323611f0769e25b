"""Path sampling: seeded walks over the tool graph into legal multi-step workflows.

An intent's workflow is a walk that starts after the last call so far (identification, or the
previous intent's workflow), passes only through the intent's allowed reads, includes its required
reads and ends in its terminal tool; each step is an edge of the graph, and a read may repeat right
away (the careful agent reads several orders until the right one). The walk's length is drawn
from the domain's distribution; every walk of that length is enumerated and one is picked.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from taue.envs.runtime.authoring import Intent
from taue.tracer.graph import ToolGraph


def draw(rng: random.Random, distribution: Mapping[int, float]) -> int:
    """One value of a discrete distribution {value: weight}, in a stable order."""
    values = sorted(distribution)
    return rng.choices(values, weights=[distribution[v] for v in values])[0]


def walks_into(graph: ToolGraph, start: str, intent: Intent, length: int) -> list[tuple[str, ...]]:
    """Every workflow of `length` calls from `start` into the intent's terminal, in a stable order."""
    if length < 1:
        return []
    allowed = [tool for tool in intent.reads if tool in graph.nodes]
    found: list[tuple[str, ...]] = []

    def extend(path: tuple[str, ...], last: str) -> None:
        if len(path) == length - 1:
            if graph.has_edge(last, intent.terminal) and set(intent.required) <= set(path):
                found.append((*path, intent.terminal))
            return
        for tool in allowed:
            fresh = tool not in path or path[-1] == tool  # a read may repeat right away (another order)
            if fresh and graph.has_edge(last, tool):
                extend((*path, tool), tool)

    extend((), start)
    return found
