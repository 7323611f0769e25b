"""Canonical state: primary-key order, sorted keys, int/float kept apart, one sha256; clone and reset."""

from __future__ import annotations

import json

import pytest
from sqlmodel import Field

from envs.runtime.database import JSONText, SeedImage, canonical_json, state_hash, table_base
from envs.runtime.registry import get_domain

Table = table_base("canonical-test")


class Item(Table, table=True):
    __tablename__ = "items"
    item_id: str = Field(primary_key=True)
    label: str
    amount: int | float = Field(sa_type=JSONText)
    extra: dict = Field(default_factory=dict, sa_type=JSONText)
    flag: bool = False


def seed(rows: list[Item]) -> SeedImage:
    return SeedImage([Item], rows)


def test_rows_in_primary_key_order_with_sorted_keys() -> None:
    db = seed(
        [
            Item(item_id="b", label="B", amount=2, extra={"z": 1, "a": [3, 1]}),
            Item(item_id="a", label="A", amount=1, flag=True),
        ]
    ).clone()
    text = db.canonical_state()
    state = json.loads(text)
    assert [row["item_id"] for row in state["items"]] == ["a", "b"]
    assert text == canonical_json(state)  # already canonical: sorted keys, compact separators
    assert state["items"][0]["flag"] is True and state["items"][1]["extra"] == {"a": [3, 1], "z": 1}


def test_insertion_order_and_dict_key_order_do_not_matter() -> None:
    one = seed(
        [
            Item(item_id="a", label="A", amount=1, extra={"x": 1, "y": 2}),
            Item(item_id="b", label="B", amount=2),
        ]
    ).clone()
    two = seed(
        [
            Item(item_id="b", label="B", amount=2),
            Item(item_id="a", label="A", amount=1, extra={"y": 2, "x": 1}),
        ]
    ).clone()
    assert state_hash(one.canonical_state()) == state_hash(two.canonical_state())


def test_int_and_float_values_hash_differently_and_list_order_matters() -> None:
    as_int = seed([Item(item_id="a", label="A", amount=5)]).clone()
    as_float = seed([Item(item_id="a", label="A", amount=5.0)]).clone()
    assert json.loads(as_float.canonical_state())["items"][0]["amount"] == 5.0
    assert state_hash(as_int.canonical_state()) != state_hash(as_float.canonical_state())
    forward = seed([Item(item_id="a", label="A", amount=1, extra={"l": [1, 2]})]).clone()
    backward = seed([Item(item_id="a", label="A", amount=1, extra={"l": [2, 1]})]).clone()
    assert state_hash(forward.canonical_state()) != state_hash(backward.canonical_state())


def test_failed_transaction_changes_nothing_and_episodes_are_isolated() -> None:
    image = seed([Item(item_id="a", label="A", amount=1)])
    first, second = image.clone(), image.clone()
    before = first.canonical_state()
    with pytest.raises(RuntimeError), first.transaction() as store:
        row = store.require(Item, "a", "missing")
        row.amount = 99
        row.extra["touched"] = True
        store.save(row)
        raise RuntimeError("tool failed after writing")
    assert first.canonical_state() == before
    with first.transaction() as store:
        row = store.require(Item, "a", "missing")
        row.extra["touched"] = True
        store.save(row)
    assert first.canonical_state() != before and second.canonical_state() == before
    first.reset()
    assert first.canonical_state() == before


@pytest.mark.parametrize("name", ["airline", "retail"])
def test_domain_seed_is_deterministic_and_canonical(name: str) -> None:
    domain = get_domain(name)
    text = domain.new_database().canonical_state()
    assert text == canonical_json(json.loads(text))
    assert set(json.loads(text)) == {model.__tablename__ for model in domain.tables}
    regenerated = SeedImage(domain.tables, domain.generate(domain.seed)).clone()
    assert regenerated.canonical_state() == text
    other_seed = SeedImage(domain.tables, domain.generate(domain.seed + 1)).clone()
    assert other_seed.canonical_state() != text


def full_render(db) -> str:
    """The state rendered from scratch, ignoring every cache."""
    tables = db.seed.texts.items()
    return (
        "{"
        + ",".join(
            canonical_json(name) + ":[" + ",".join(text.rows(db.connection).values()) + "]"
            for name, text in tables
        )
        + "}"
    )


@pytest.mark.parametrize("name", ["airline", "retail"])
async def test_cached_state_equals_full_render_after_every_task(name: str) -> None:
    from envs.runtime.task_checks import replay

    domain = get_domain(name)
    for task in domain.tasks:
        db, _ = await replay(domain, task.initial_state + task.evaluation.actions)
        assert db.canonical_state() == full_render(db), task.id
        db.reset()
        assert db.canonical_state() == full_render(db) == domain.new_database().canonical_state()


def test_inserted_and_deleted_rows_keep_primary_key_order() -> None:
    db = seed([Item(item_id="b", label="B", amount=1), Item(item_id="d", label="D", amount=1)]).clone()
    with db.transaction() as store:
        store.save(Item(item_id="c", label="C", amount=2))
        store.save(Item(item_id="a", label="A", amount=0))
        store.session.delete(store.require(Item, "d", "missing"))
    state = json.loads(db.canonical_state())
    assert [row["item_id"] for row in state["items"]] == ["a", "b", "c"]
    assert db.canonical_state() == full_render(db)
