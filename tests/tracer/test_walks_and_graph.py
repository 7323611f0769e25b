"""Tool graphs and the seeded walks over them."""

from __future__ import annotations

import itertools
import random

import pytest

from taue.envs.runtime.authoring import Intent
from taue.envs.runtime.discovery import domain_names, get_domain
from taue.tracer.graph import ToolGraph, infer_graph, load_graph, workflow_tools
from taue.tracer.walks import draw, walks_into

TOY = ToolGraph(
    domain="toy",
    nodes=["identify", "profile", "order", "product", "cancel"],
    edges=[
        ("identify", "profile"),
        ("profile", "order"),
        ("order", "product"),
        ("order", "cancel"),
        ("product", "order"),
    ],
)


def intent(**fields) -> Intent:
    defaults = {"name": "cancel", "terminal": "cancel", "ground": lambda *_: None, "topic": "cancelling"}
    return Intent(**{**defaults, **fields})


def test_walks_are_legal_paths_into_the_terminal() -> None:
    cancel = intent(reads=("order", "product"), required=("order",))
    walks = walks_into(TOY, "profile", cancel, 3)
    assert walks == [("order", "order", "cancel")]  # a read may repeat right away (another order)
    four = walks_into(TOY, "profile", cancel, 4)
    assert ("order", "product", "order", "cancel") not in four  # no revisit after another step
    assert ("order", "order", "order", "cancel") in four
    for walk in walks_into(TOY, "profile", cancel, 2) + walks + four:
        assert walk[-1] == "cancel" and "order" in walk
        steps = ("profile", *walk)
        assert all(a == b or (a, b) in TOY.edges for a, b in itertools.pairwise(steps))


def test_required_reads_and_allowed_reads_are_kept() -> None:
    assert walks_into(TOY, "profile", intent(reads=("product",)), 2) == []
    assert walks_into(TOY, "profile", intent(reads=("order",), required=("product",)), 3) == []
    assert walks_into(TOY, "profile", intent(reads=("order",)), 0) == []


def test_draw_follows_the_distribution_and_the_seed() -> None:
    rng = random.Random(1)
    values = [draw(rng, {2: 0.5, 3: 0.3, 4: 0.2}) for _ in range(4000)]
    assert abs(values.count(2) / 4000 - 0.5) < 0.03 and abs(values.count(4) / 4000 - 0.2) < 0.03
    assert [draw(random.Random(7), {1: 1, 2: 1}) for _ in range(3)] == [
        draw(random.Random(7), {1: 1, 2: 1}) for _ in range(3)
    ]


def test_density_counts_ordered_pairs() -> None:
    assert TOY.density == round(5 / 20, 3)
    assert TOY.has_edge("order", "order") and not TOY.has_edge("cancel", "order")


def test_inferred_retail_graph_feeds_ids_forward_and_skips_utilities() -> None:
    domain = get_domain("retail")
    graph = infer_graph(domain)
    assert set(graph.nodes) == set(workflow_tools(domain))
    assert not {"think", "calculate", "transfer_to_human_agents"} & set(graph.nodes)
    edges = set(graph.edges)
    assert ("get_user_details", "get_order_details") in edges  # the profile lists the order ids
    assert ("get_order_details", "get_product_details") in edges  # an order item names its product
    assert ("get_product_details", "modify_pending_order_items") in edges  # variants give new item ids
    assert not any(b.startswith("find_user_id") for _, b in edges)  # identification only comes first
    assert not any(a in domain.write_tools and b in domain.write_tools for a, b in edges)
    assert 0.25 <= graph.density <= 0.43


PUBLISHED_GRAPHS = {"restaurant": (9, 24), "bank": (17, 99)}
"""Tools and edges of the tool graphs the paper publishes."""


@pytest.mark.parametrize("name", domain_names())
def test_every_stored_graph_has_the_domains_workflow_tools(name: str) -> None:
    domain = get_domain(name)
    stored = load_graph(domain)
    assert set(stored.nodes) == set(workflow_tools(domain))
    assert all(a in stored.nodes and b in stored.nodes for a, b in stored.edges)
    assert len(set(map(tuple, stored.edges))) == len(stored.edges), "no edge twice"
    assert 0.25 <= stored.density <= 0.43
    if name in PUBLISHED_GRAPHS:
        assert (len(stored.nodes), len(stored.edges)) == PUBLISHED_GRAPHS[name]
