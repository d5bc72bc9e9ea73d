"""The kinds whose approval leaves the insight archived (``core.reflect.lifecycle.CARRIED_OUT_KINDS``)
are named once: they are exactly the hygiene kinds approved through ``approve_in``, and SQLite's
migration 011, which archives the ones approved before, names the same list."""

from __future__ import annotations

import re

from core.hygiene import supersede, supersede_relations, tidy
from core.reflect.lifecycle import CARRIED_OUT_KINDS
from core.storage.sqlite.migrations import read_sql


def test_the_kinds_are_the_ones_approved_through_approve_in() -> None:
    through_tidy = {pattern for pattern, kind in tidy.KINDS.items() if kind.approve is not None}
    marked = {supersede.SUPERSEDED, supersede_relations.PATTERN}  # approval.approve_marking
    assert set(CARRIED_OUT_KINDS) == through_tidy | marked
    assert len(CARRIED_OUT_KINDS) == len(set(CARRIED_OUT_KINDS))


def test_the_migration_names_the_same_kinds() -> None:
    found = re.search(r"pattern IN \(([^)]*)\)", read_sql("011_archived_records.sql"))
    assert found is not None
    assert tuple(re.findall(r"'([^']*)'", found.group(1))) == CARRIED_OUT_KINDS
