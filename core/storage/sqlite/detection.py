"""One reflect's consistent reading of the graph: the detectors' reads (``Detection``) over the
named SQL in ``reflect_queries``, and the reads reflect makes beside them (the graph's
fingerprint, the last run's token, the insights already stored, the titles it may not take)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from core.reflect.model import DETECTOR_LABELS, ReflectRules, StoredInsight, detector_vocabulary
from core.storage.sqlite import reads
from core.storage.sqlite.connection import Connection
from core.storage.sqlite.reflect_queries import (
    CONCEPT_DOMAINS,
    CONCEPT_LINKS,
    CONCEPT_MEMBERS,
    COURSES,
    IN_DOMAIN,
    ISSUE_LINKS,
    LINKED_IDS,
    LINKS_BETWEEN,
    NAMES,
    NODE_FACTS,
    PREPARE,
    PROBLEMS,
    REAL_DEGREES,
    TECHNIQUE_CONCEPTS,
    TECHNOLOGY_MEMBERS,
    TECHNOLOGY_USERS,
    TEMP_TABLES,
    UNDER_CONNECTED,
    localize,
)

TOKEN_KEY = "reflect_fingerprint"
_CHUNK = 2000  # anchors per statement

FINGERPRINT = """
SELECT (SELECT coalesce(max(id), 0) FROM change_log),
       (SELECT count(*) FROM entities), (SELECT coalesce(max(id), 0) FROM entities),
       (SELECT count(*) FROM relations), (SELECT coalesce(max(id), 0) FROM relations)
"""

_STORED = """
SELECT i.entity_id, e.name, i.pattern, i.status, i.stale, i.base_confidence, i.evidence,
       coalesce(json_extract(e.props, '$.summary'), '')
  FROM insights i JOIN entities e ON e.id = i.entity_id
"""

# Titles reflect may not create: the name belongs to another entity, or a person dismissed an
# insight of that title before (its entity may since have been deleted; the log remembers).
_BLOCKED = """
SELECT t.value FROM json_each(:titles) t
 WHERE EXISTS (SELECT 1 FROM entities WHERE name = t.value)
    OR EXISTS (SELECT 1 FROM change_log c WHERE c.entity = t.value AND c.op = 'decide_insight'
                  AND json_extract(c.after, '$.status') = 'dismissed')
"""


def graph_fingerprint(conn: Connection) -> str:
    """What the structural patterns depend on, in a few index lookups: every logged write moves
    change_log's last id; the counts and last ids also catch writes that bypass the log."""
    return ":".join(str(v) for v in conn.execute(FINGERPRINT).fetchone())


def read_token(conn: Connection) -> str:
    row = conn.execute("SELECT value FROM db_metadata WHERE key = ?", (TOKEN_KEY,)).fetchone()
    return row[0] if row else ""


def stored_insights(conn: Connection) -> dict[str, StoredInsight]:
    """Every insight, by title."""
    return {row[1]: StoredInsight.read(*row) for row in conn.execute(_STORED)}


def blocked_titles(conn: Connection, titles: Sequence[str]) -> set[str]:
    """The titles in ``titles`` reflect may not create (see ``_BLOCKED``)."""
    return {r[0] for r in conn.execute(_BLOCKED, {"titles": json.dumps(list(titles))})}



class DetectionSession:
    """One reflect's reading of the graph: the working TEMP tables and the reads over them.

    Opened by ``SqliteInsightStore.detection`` inside a read transaction, so every detector sees
    the same snapshot; the TEMP tables are private to this connection and dropped on close.
    """

    def __init__(self, conn: Connection, rules: ReflectRules, *, now: str, cutoff: str) -> None:
        self._conn = conn
        self.rules = rules
        self.now = now
        self.cutoff = cutoff
        self.fingerprint = ""
        self._params: dict[str, Any] = {"cutoff": cutoff}
        self._built: set[str] = set()
        self._labels: dict[str, list[str]] = {}

    def open(self) -> None:
        self._drop()
        self.fingerprint = graph_fingerprint(self._conn)
        self._learn_spellings()

    def _learn_spellings(self) -> None:
        """Which labels and relation types in this graph mean the ones the detectors name: an
        official-style graph writes ``technology`` and ``uses`` where Engrama writes ``Technology``
        and ``USES`` (see ``ReflectRules.spellings``)."""
        self._labels, params = detector_vocabulary(
            self.rules, [r[0] for r in self._conn.execute("SELECT DISTINCT entity_type FROM entities")],
            [r[0] for r in self._conn.execute("SELECT DISTINCT relation_type FROM relations")])
        # Lists go to SQLite as JSON text (read with json_each).
        self._params.update({k: json.dumps(v) if isinstance(v, list) else v for k, v in params.items()})

    def _sql(self, sql: str) -> str:
        """``sql`` with each detector label widened to its spellings in this graph."""
        return localize(sql, self._labels)

    def close(self) -> None:
        self._drop()

    def _drop(self) -> None:
        for table in TEMP_TABLES:
            self._conn.execute(f"DROP TABLE IF EXISTS temp.{table}")
        self._built.clear()

    def last_token(self) -> str:
        """What the last reflect recorded about the graph (see ``insights.apply``)."""
        return read_token(self._conn)

    def stored(self) -> dict[str, StoredInsight]:
        return stored_insights(self._conn)

    def blocked(self, titles: Sequence[str]) -> set[str]:
        return blocked_titles(self._conn, titles)

    def names(self, ids: Sequence[int]) -> dict[int, tuple[str, str]]:
        """``{id: (name, label)}`` for the entities in ``ids`` that exist."""
        out: dict[int, tuple[str, str]] = {}
        for chunk in reads.id_chunks(list(dict.fromkeys(ids))):
            out.update((i, (n, t)) for i, n, t in self._conn.execute(NAMES, (chunk,)))
        return out

    # -- the detectors' reads (``core.reflect.reading.Detection``) --------------------------------

    def _build(self, *sets: str, **extra: Any) -> None:
        """The working TEMP tables ``sets`` (``PREPARE``), once per reflect."""
        for name in sets:
            if name not in self._built:
                for sql in PREPARE[name]:
                    self._conn.execute(self._sql(sql), {**self._params, **extra})
                self._built.add(name)

    def _rows(self, sql: str, **extra: Any) -> list[tuple[Any, ...]]:
        rows: list[tuple[Any, ...]] = self._conn.execute(self._sql(sql), {**self._params, **extra}).fetchall()
        return rows

    def technology_users(self) -> list[tuple[Any, ...]]:
        return self._rows(TECHNOLOGY_USERS)

    def concept_links(self) -> list[tuple[Any, ...]]:
        return self._rows(CONCEPT_LINKS)

    def real_degrees(self, ids: Sequence[int]) -> dict[int, int]:
        return dict(self._rows(REAL_DEGREES, ids=json.dumps(list(ids))))

    def under_connected(self, below: int) -> list[tuple[Any, ...]]:
        self._build("under", below=below)
        return self._rows(UNDER_CONNECTED)

    def problems(self) -> list[tuple[Any, ...]]:
        return self._rows(PROBLEMS)

    def live_ids(self, label: str) -> list[int]:
        return [r[0] for r in self._rows(f"SELECT id FROM entities WHERE {_labelled(label)}")]

    def statuses(self, label: str) -> list[tuple[Any, ...]]:
        return self._rows("SELECT id, lower(coalesce(json_extract(props, '$.status'), '')) FROM entities "
                          f"WHERE {_labelled(label)}")

    def linked_ids(self, ids: Sequence[int]) -> list[tuple[Any, ...]]:
        return self._rows(LINKED_IDS, ids=json.dumps(list(ids)))

    def node_facts(self, ids: Sequence[int]) -> list[tuple[Any, ...]]:
        return self._rows(NODE_FACTS, ids=json.dumps(list(ids)))

    def links_between(self, pairs: Sequence[tuple[int, int]]) -> list[tuple[Any, ...]]:
        return self._rows(LINKS_BETWEEN, pairs=json.dumps([list(p) for p in pairs]))

    def technology_members(self, ids: Sequence[int], most: int) -> dict[int, list[list[Any]]]:
        return self._members(TECHNOLOGY_MEMBERS, ids, most)

    def concept_members(self, ids: Sequence[int], most: int) -> dict[int, list[list[Any]]]:
        return self._members(CONCEPT_MEMBERS, ids, most)

    def _members(self, sql: str, ids: Sequence[int], most: int) -> dict[int, list[list[Any]]]:
        out: dict[int, list[list[Any]]] = {}
        for start in range(0, len(ids), _CHUNK):
            for hub, members in self._rows(sql, ids=json.dumps(list(ids[start : start + _CHUNK])), most=most):
                out[hub] = json.loads(members) if members else []
        return out

    def issue_links(self, label: str) -> list[tuple[Any, ...]]:
        self._build("issue_link")
        return self._rows(ISSUE_LINKS[label])

    def courses(self, most: int) -> list[tuple[Any, ...]]:
        self._build("course", cap=most)
        return self._rows(COURSES)

    def in_domain(self) -> list[tuple[Any, ...]]:
        self._build("in_domain")
        return self._rows(IN_DOMAIN)

    def technique_concepts(self) -> list[tuple[Any, ...]]:
        self._build("in_domain", "technique")
        return self._rows(TECHNIQUE_CONCEPTS)

    def concept_domains(self) -> list[tuple[Any, ...]]:
        self._build("in_domain", "technique")
        return self._rows(CONCEPT_DOMAINS)


def _labelled(label: str) -> str:
    """The live nodes of a detector label (``localize`` widens it to its spellings)."""
    if label not in DETECTOR_LABELS:
        raise ValueError(f"not a detector label: {label!r}")
    return f"entity_type = '{label}' AND archived_at IS NULL"
