"""Canonical state: primary-key order, sorted keys, int/float kept apart, one sha256; clone and reset;
the comparable state, where independent creations commute."""

from __future__ import annotations

import json

import pytest
from sqlalchemy.orm import registry
from sqlmodel import Field

from taue.contracts.tasks import Action
from taue.envs.runtime.database import (
    DomainTable,
    EpisodeDatabase,
    JSONText,
    SeedImage,
    canonical_json,
    state_hash,
)
from taue.envs.runtime.discovery import get_domain
from taue.envs.runtime.domain import Domain
from taue.envs.runtime.task_checks import replay


class Table(DomainTable, registry=registry()):
    pass


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


def test_next_id_counts_numerically_within_its_prefix() -> None:
    rows = [Item(item_id=key, label="x", amount=1) for key in ("AB9", "AB10", "AB0012", "ZZ99", "a")]
    with seed(rows).clone().transaction() as store:
        assert store.next_id(Item, "AB") == "AB13"  # 12 > 10 > 9 as numbers, not as text
        assert store.next_id(Item, "ZZ", width=5) == "ZZ00100"
        assert store.next_id(Item, "Q-", first=500, width=4) == "Q-0500"  # no row yet: the first
        store.save(Item(item_id=store.next_id(Item, "AB"), label="new", amount=2))
        assert store.next_id(Item, "AB") == "AB14"


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


@pytest.mark.slow
@pytest.mark.parametrize("name", ["airline", "retail"])
async def test_cached_state_equals_full_render_after_every_task(name: str) -> None:
    domain = get_domain(name)
    for task in [t for t in domain.tasks if t.emotion is not None]:  # a twin has the same actions
        db, _ = await replay(domain, task.initial_state + task.evaluation.actions)
        assert db.canonical_state() == full_render(db), task.id
        assert db.state_hash() == state_hash(db.comparable_state()) == db.state_and_hash()[1], task.id
        db.reset()
        assert db.canonical_state() == full_render(db) == domain.new_database().canonical_state()
        assert db.state_hash() == state_hash(db.canonical_state())


def test_inserted_and_deleted_rows_keep_primary_key_order() -> None:
    db = seed([Item(item_id="b", label="B", amount=1), Item(item_id="d", label="D", amount=1)]).clone()
    with db.transaction() as store:
        store.save(Item(item_id="c", label="C", amount=2))
        store.save(Item(item_id="a", label="A", amount=0))
        store.session.delete(store.require(Item, "d", "missing"))
    state = json.loads(db.canonical_state())
    assert [row["item_id"] for row in state["items"]] == ["a", "b", "c"]
    assert db.canonical_state() == full_render(db)


# Comparable state: ids of created rows renamed by content, so independent creations commute.

BOOKING = {
    "user_id": "freya_jovanovic_7500", "origin": "CLT", "destination": "EWR", "flight_type": "one_way",
    "cabin": "economy", "flights": [{"flight_number": "HAT002", "date": "2024-05-26"}],
    "passengers": [{"first_name": "Freya", "last_name": "Jovanovic", "dob": "1964-02-18"}],
    "payment_methods": [{"payment_id": "credit_card_9172339", "amount": 220}],
    "total_baggages": 2, "nonfree_baggages": 0, "insurance": "yes",
}  # fmt: skip


def booked(bags: int) -> Action:
    """The booking above with `bags` paid bags (50 each on the same credit card)."""
    payment = [{"payment_id": "credit_card_9172339", "amount": 220 + 50 * bags}]
    return Action(
        name="book_reservation", arguments={**BOOKING, "nonfree_baggages": bags, "payment_methods": payment}
    )


def appointment(patient: str, provider: str, date: str, time: str, kind: str) -> Action:
    arguments = {"patient_id": patient, "provider_id": provider, "date": date, "time": time}
    return Action(name="schedule_appointment", arguments={**arguments, "appointment_type": kind})


def ticket(customer: str, category: str, priority: str) -> Action:
    arguments = {"customer_id": customer, "category": category, "priority": priority}
    return Action(name="create_support_ticket", arguments=arguments)


def certificate(amount: int, user: str = "anders_mendoza_7181") -> Action:
    return Action(name="send_certificate", arguments={"user_id": user, "amount": amount})


# (domain, first creation, second creation, a third one unlike the first two)
CREATIONS = {
    "airline reservations": ("airline", booked(0), booked(1), booked(2)),
    "airline certificates": ("airline", certificate(100), certificate(250), certificate(300)),
    "telecom tickets": (
        "telecom",
        ticket("marisol_hallstrom_2080", "mobile", "high"),
        ticket("tova_drummond_4398", "security", "low"),
        ticket("gemma_rinaldi_2638", "billing", "medium"),
    ),
    "telehealth appointments": (
        "telehealth",
        appointment(
            "anselm_moreau_7289",
            "celeste_cardenas_pediatrics_tracer_0001",
            "2026-01-01",
            "09:00",
            "routine_checkup",
        ),
        appointment(
            "anselm_castellanos_7708",
            "anselm_albright_cardiology_tracer_0001",
            "2025-12-02",
            "07:30",
            "follow_up",
        ),
        appointment(
            "arjun_ostrowski_tracer_0001",
            "darius_beaumont_device_coaching_tracer_0001",
            "2025-12-01",
            "13:30",
            "device_coaching",
        ),
    ),
}


async def replayed(domain: Domain, actions: list[Action]) -> EpisodeDatabase:
    db, log = await replay(domain, actions)
    assert all(call.ok for call in log), [call.output for call in log if not call.ok]
    return db


@pytest.mark.parametrize("case", sorted(CREATIONS))
async def test_independent_creations_hash_the_same_in_either_order(case: str) -> None:
    name, first, second, other = CREATIONS[case]
    domain = get_domain(name)
    forward = await replayed(domain, [first, second])
    backward = await replayed(domain, [second, first])
    assert forward.canonical_state() != backward.canonical_state()  # the generated ids did swap
    assert forward.comparable_state() == backward.comparable_state()
    assert forward.state_hash() == backward.state_hash()
    different = await replayed(domain, [first, other])
    assert different.state_hash() != forward.state_hash()
    assert (await replayed(domain, [first])).state_hash() != forward.state_hash()
    assert "@created:" in forward.comparable_state()


async def test_created_ids_are_renamed_in_references_and_derived_strings() -> None:
    domain = get_domain("telehealth")
    _, first, second, _ = CREATIONS["telehealth appointments"]
    db = await replayed(domain, [first, second])
    created = json.loads(db.canonical_state())["appointments"]
    new = [row for row in created if row["appointment_id"] not in domain.seed_image.row_texts["appointments"]]
    assert len(new) == 2 and all(row["insurance_authorization"] for row in new)
    comparable = db.comparable_state()
    for row in new:  # the key, the meeting link's tail and the authorization number all renamed
        assert row["appointment_id"] not in comparable and row["insurance_authorization"] not in comparable
    airline = get_domain("airline")
    both = json.loads((await replayed(airline, [booked(1), booked(0)])).comparable_state())
    user = next(row for row in both["users"] if row["user_id"] == BOOKING["user_id"])
    assert user["reservations"][-2:] == ["@created:reservations:0001", "@created:reservations:0002"]


async def test_certificate_ids_are_scoped_to_their_user() -> None:
    """Each user's certificates are numbered from `certificate_3221322`: renamed within the user."""
    domain = get_domain("airline")
    other = [certificate(50, "emeka_lindqvist_8656"), certificate(75, "emeka_lindqvist_8656")]
    forward = await replayed(domain, [certificate(100), *other, certificate(250)])
    backward = await replayed(domain, [certificate(250), *other, certificate(100)])
    assert forward.canonical_state() != backward.canonical_state()
    assert forward.state_hash() == backward.state_hash()
    swapped = await replayed(domain, [certificate(100), *reversed(other), certificate(250)])
    assert swapped.state_hash() == forward.state_hash()
    moved = await replayed(domain, [certificate(100), other[0], certificate(75), certificate(250)])
    assert moved.state_hash() != forward.state_hash()  # a certificate given to another user


async def test_comparable_state_is_the_canonical_state_when_nothing_was_created() -> None:
    domain = get_domain("retail")
    task = next(t for t in domain.tasks if any(a.name in domain.write_tools for a in t.evaluation.actions))
    db = await replayed(domain, task.initial_state + task.evaluation.actions)
    assert db.comparable_state() == db.canonical_state()
    assert db.state_and_hash() == (db.canonical_state(), state_hash(db.canonical_state()))
