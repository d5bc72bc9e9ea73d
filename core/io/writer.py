"""Writing imported records through ``Memory`` in batches, isolating the bad ones.

Records go to Memory a batch at a time (fast); if Memory refuses a batch (one bad name, a missing
endpoint …) the batch is retried record by record, so only the bad records are skipped and each is
reported with where it came from. Callers run this inside ``memory.transaction()``: a refused call
is rolled back to its savepoint and the rest of the file is unaffected.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from core.errors import InvalidInput, NotFound
from core.io.report import ImportReport
from core.memory import Memory

BATCH = 250  # records per call: one short transaction, so a waiting writer never waits long


@dataclass
class Pending:
    """One queued record; ``where`` names it in errors (``line 12``, ``notes/ada.md``)."""

    where: str
    record: dict[str, Any]
    props: dict[str, Any] = field(default_factory=dict)
    archived: bool = False


class BatchWriter:
    """Buffers entities and relations; relations go last, so they may reference any entity."""

    def __init__(self, memory: Memory, report: ImportReport, actor: str) -> None:
        self.memory = memory
        self.report = report
        self.actor = actor
        self._entities: list[Pending] = []
        self._relations: list[Pending] = []

    def entity(
        self,
        where: str,
        record: dict[str, Any],
        *,
        props: dict[str, Any] | None = None,
        archived: bool = False,
    ) -> None:
        """Queue ``{name, entityType, observations}``, with properties and archived state if any."""
        self._entities.append(Pending(where, record, dict(props or {}), archived))
        if len(self._entities) >= BATCH:
            self.flush_entities()

    def relation(self, where: str, record: dict[str, Any], *, props: dict[str, Any] | None = None) -> None:
        """Queue ``{from, to, relationType}``; written by ``finish``, after every entity."""
        self._relations.append(Pending(where, record, dict(props or {})))

    def finish(self) -> None:
        """Write everything still queued."""
        self.flush_entities()
        for start in range(0, len(self._relations), BATCH):
            self._write_relations(self._relations[start : start + BATCH])
        self._relations.clear()

    def flush_entities(self) -> None:
        if self._entities:
            self._write_entities(self._entities)
            self._entities = []

    # -- entities ---------------------------------------------------------------------------

    def _write_entities(self, items: Sequence[Pending]) -> None:
        chunks = _by_size(items, self.memory.settings.max_request_bytes)
        if len(chunks) > 1:  # big records: each call stays under the request limit
            for chunk in chunks:
                self._write_entities(chunk)
            return
        try:
            result = self.memory.create_entities([p.record for p in items], actor=self.actor)
        except (InvalidInput, NotFound) as exc:
            if len(items) == 1:
                self.report.error(items[0].where, _reason(exc))
                return
            for item in items:
                self._write_entities([item])
            return
        created = {e.name for e in result.entities}
        merged = {m.entityName for m in result.merged}
        counted: set[str] = set()
        for item in items:
            name = item.record["name"]
            changed = self._apply_extras(item, name in created) if item.props or item.archived else False
            if name in counted:  # the same entity twice in one batch: count it once
                self.report.skipped += 1
                continue
            counted.add(name)
            if name in created:
                self.report.entities_imported += 1
            elif name in merged or changed:
                self.report.entities_merged += 1
                self.report.merged(item.where, f"{name!r} was already there; new facts were added to it")
            else:
                self.report.skipped += 1

    def _apply_extras(self, item: Pending, created: bool) -> bool:
        """Set the label/properties and archived state; True if an existing entity changed."""
        name, label = item.record["name"], item.record.get("entityType", "Generic")
        node = self.memory.get_node(name)
        if node is not None and not created and node.label.casefold() == str(label).casefold():
            label = node.label  # `technology` stays `technology` when a file says `Technology`
        changed = False
        try:
            if (
                node is not None
                and item.props
                and (node.label != label or any(node.props.get(k) != v for k, v in item.props.items()))
            ):
                self.memory.merge_node(label, name, item.props, actor=self.actor)
                changed = True
            if item.archived and node is not None and node.archived_at is None:
                self.memory.archive_node(name, actor=self.actor)
                changed = True
        except (InvalidInput, NotFound) as exc:
            self.report.error(item.where, _reason(exc))
        return changed and not created

    # -- relations --------------------------------------------------------------------------

    def _write_relations(self, items: Sequence[Pending]) -> None:
        try:
            created = self.memory.create_relations([p.record for p in items], actor=self.actor)
        except (InvalidInput, NotFound) as exc:
            if len(items) == 1:
                self.report.error(items[0].where, _reason(exc))
                return
            for item in items:
                self._write_relations([item])
            return
        self.report.relations_imported += len(created)
        self.report.skipped += len(items) - len(created)
        for item in items:
            if item.props:
                r = item.record
                self.memory.merge_relation(
                    r["from"], r["relationType"], r["to"], item.props, actor=self.actor
                )


def _size(item: Pending) -> int:
    r = item.record
    texts = [r.get("name"), r.get("entityType"), *(r.get("observations") or [])]
    return sum(len(t.encode("utf-8")) for t in texts if isinstance(t, str))


def _by_size(items: Sequence[Pending], limit: int) -> list[Sequence[Pending]]:
    """``items`` cut into runs whose text fits one request (a record bigger than that stands alone)."""
    chunks: list[Sequence[Pending]] = []
    start, total = 0, 0
    for i, item in enumerate(items):
        size = _size(item)
        if i > start and total + size > limit:
            chunks.append(items[start:i])
            start, total = i, 0
        total += size
    chunks.append(items[start:])
    return chunks


def _reason(exc: Exception) -> str:
    # Memory's messages end with advice for an interactive caller; an import report needs the fact.
    return str(exc).replace(" Nothing was changed.", "").replace(" No relations were created.", "")
