"""Telehealth record writes: prescription supplier switches and record notes, and that a failed call
writes nothing."""

from __future__ import annotations

import json
from collections.abc import Callable

from taue.envs.telehealth.models import MedicalRecord
from tests.envs.telehealth_helpers import (
    RECORDS,
    TOOLS,
    Record,
    call,
    fails,
    ok,
    state,
)

db = TOOLS.database_fixture()


# ----------------------------------------------------------------------------------- prescriptions


def record_with(predicate: Callable[[list[Record]], bool]) -> Record:
    return next(
        r for _, r in sorted(RECORDS.items()) if r.get("prescriptions") and predicate(r["prescriptions"])
    )


async def test_supplier_switch_replaces_supplier_and_pharmacy_only(db):
    record = record_with(
        lambda rx: any(isinstance(p.get("supplier"), dict) and "country" in p["supplier"] for p in rx)
    )
    index = next(i for i, p in enumerate(record["prescriptions"]) if isinstance(p.get("supplier"), dict))
    medication = record["prescriptions"][index]["medication"]
    output = json.loads(
        await ok(
            db,
            "update_prescription_supplier",
            record_id=record["record_id"],
            medication=f"  {medication.upper()} ",
            supplier_company="Acme Rx",
            brand_name="Acmelin",
            price_usd=3,
        )
    )
    stored = state(db)["medical_records"][record["record_id"]]
    expected = [dict(p) for p in record["prescriptions"]]
    expected[index].update(
        pharmacy="Acme Rx (Acmelin)",
        supplier={"company": "Acme Rx", "brand_name": "Acmelin", "price_usd": 3.0, "currency": "USD"},
    )
    assert stored["prescriptions"] == expected and isinstance(
        stored["prescriptions"][index]["supplier"]["price_usd"], float
    )
    assert output == MedicalRecord(**stored).to_record()
    assert {k: v for k, v in stored.items() if k != "prescriptions"} == {
        k: v for k, v in state(db)["medical_records"][record["record_id"]].items() if k != "prescriptions"
    }
    assert db.written == {"medical_records": {record["record_id"]}}


async def test_supplier_matching_by_prefix_either_way(db):
    record = record_with(lambda rx: rx[0]["medication"] == "Metoprolol Succinate" or len(rx) >= 2)
    first = record["prescriptions"][0]["medication"]
    await ok(
        db,
        "update_prescription_supplier",
        record_id=record["record_id"],
        medication=f"{first} 50mg",
        supplier_company="Longer Name Co",
        brand_name="B1",
        price_usd=1.5,
        currency="EUR",
    )
    assert (
        state(db)["medical_records"][record["record_id"]]["prescriptions"][0]["supplier"]["currency"] == "EUR"
    )
    await ok(
        db,
        "update_prescription_supplier",
        record_id=record["record_id"],
        medication="",
        supplier_company="Empty Match Co",
        brand_name="B2",
        price_usd=2.5,
    )
    assert (
        state(db)["medical_records"][record["record_id"]]["prescriptions"][0]["pharmacy"]
        == "Empty Match Co (B2)"
    )
    second = record["prescriptions"][1]["medication"] if len(record["prescriptions"]) > 1 else first
    await ok(
        db,
        "update_prescription_supplier",
        record_id=record["record_id"],
        medication=second[:4],
        supplier_company="Short Co",
        brand_name="B3",
        price_usd=4.0,
    )
    rx = state(db)["medical_records"][record["record_id"]]["prescriptions"]
    target = next(p for p in rx if p["medication"].lower().startswith(second[:4].lower()))
    assert target["pharmacy"] == "Short Co (B3)"


async def test_supplier_switch_on_duplicate_names_updates_the_later_prescription(db):
    record = record_with(lambda rx: len(rx) >= 2)
    duplicated = [dict(p) for p in record["prescriptions"]]
    duplicated[1]["medication"] = duplicated[0]["medication"].lower()
    with db.transaction() as store:
        row = store.get(MedicalRecord, record["record_id"])
        row.prescriptions = duplicated
        store.save(row)
    await ok(
        db,
        "update_prescription_supplier",
        record_id=record["record_id"],
        medication=duplicated[0]["medication"],
        supplier_company="Later Co",
        brand_name="L",
        price_usd=1.0,
    )
    rx = state(db)["medical_records"][record["record_id"]]["prescriptions"]
    assert rx[1]["pharmacy"] == "Later Co (L)" and rx[0] == duplicated[0]


async def test_supplier_switch_errors_write_nothing(db):
    without = next(k for k, r in sorted(RECORDS.items()) if r.get("prescriptions") is None)
    record = record_with(lambda rx: True)
    args = {"supplier_company": "X", "brand_name": "Y", "price_usd": 1.0}
    await fails(
        db,
        "update_prescription_supplier",
        "medical record not found",
        record_id="REC999",
        medication="A",
        **args,
    )
    await fails(
        db,
        "update_prescription_supplier",
        "medical record has no prescriptions",
        record_id=without,
        medication="A",
        **args,
    )
    await fails(
        db,
        "update_prescription_supplier",
        f"medication Zzz not found in record {record['record_id']}",
        record_id=record["record_id"],
        medication="Zzz",
        **args,
    )
    result = await call(
        db,
        "update_prescription_supplier",
        record_id=record["record_id"],
        medication="A",
        supplier_company="X",
        brand_name="Y",
        price_usd="cheap",
    )
    assert not result.ok


async def test_empty_prescription_list_counts_as_none(db):
    record = record_with(lambda rx: True)
    with db.transaction() as store:
        row = store.get(MedicalRecord, record["record_id"])
        row.prescriptions = []
        store.save(row)
    await fails(
        db,
        "update_prescription_supplier",
        "medical record has no prescriptions",
        record_id=record["record_id"],
        medication="A",
        supplier_company="X",
        brand_name="Y",
        price_usd=1.0,
    )


# ------------------------------------------------------------------------------------------ notes


async def test_note_is_appended_and_notes_created_when_absent(db):
    with_notes = next(k for k, r in sorted(RECORDS.items()) if r.get("notes") == [])
    without = next(k for k, r in sorted(RECORDS.items()) if "notes" not in r)
    await ok(db, "update_medical_record_note", record_id=with_notes, note="first")
    output = json.loads(await ok(db, "update_medical_record_note", record_id=with_notes, note="second"))
    assert output["notes"] == [{"note": "first"}, {"note": "second"}]
    await ok(db, "update_medical_record_note", record_id=without, note="only")
    stored = state(db)["medical_records"]
    assert stored[with_notes]["notes"] == [{"note": "first"}, {"note": "second"}]
    assert stored[without]["notes"] == [{"note": "only"}]
    await fails(
        db, "update_medical_record_note", "medical record REC999 not found", record_id="REC999", note="x"
    )
    await fails(db, "update_medical_record_note", "medical record  not found", record_id="", note="x")
