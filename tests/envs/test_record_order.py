"""Tool outputs are the same text in every process: a row's record lists its fields in declaration
order. (A table model's model_dump() follows SQLAlchemy's column set, whose order changes from one
process to the next, which made school and basketball results differ between identical runs.)"""

from __future__ import annotations

import pytest
from sqlmodel import select

from taue.envs.runtime.discovery import get_domain


@pytest.mark.parametrize(("name", "method"), [("school", "to_record"), ("basketball", "record")])
def test_records_list_fields_in_declaration_order(name: str, method: str) -> None:
    domain = get_domain(name)
    db = domain.new_database()
    try:
        checked = 0
        with db.transaction() as store:
            for model in db.seed.tables:
                row = store.session.exec(select(model)).first()
                if row is not None and hasattr(row, method):
                    fields = list(type(row).model_fields)  # then any derived keys (a camp's spots_left)
                    assert list(getattr(row, method)())[: len(fields)] == fields, model.__tablename__
                    checked += 1
        assert checked >= 3
    finally:
        db.close()
