"""Reading the SQLite graph: the whole graph or a page of it, nodes by name, id or type, counts
and the overview. Search lives in ``search.py``, neighbours in ``neighbours.py``, and the row
queries these are built from in ``reads.py``."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from core.model import Node
from core.storage.sqlite import overview, reads
from core.storage.sqlite.database import Database


class GraphReads:
    """The read half of ``SqliteGraphStore`` (which provides ``db`` and ``totals``)."""

    db: Database
    totals: reads.Totals

    def read_graph_dump(
        self, *, limit: int | None = None, offset: int = 0, names_only: bool = False
    ) -> dict[str, Any]:
        """``read_graph(...).dump()``: the whole graph in three table scans, or a page (with the totals)."""
        with self.db.locked() as conn:
            if limit is None and offset == 0 and not names_only:
                return reads.whole_graph(conn)
            total_e, total_r = self.totals(conn)
            ids = [r[0] for r in conn.execute("SELECT id FROM entities WHERE archived_at IS NULL ORDER BY id "
                                              "LIMIT ? OFFSET ?", (-1 if limit is None else limit, offset))]
            found = reads.entity_dicts(conn, ids, names_only=names_only)
            return {"entities": found, "relations": [] if names_only else reads.relations_from(conn, ids),
                    "total_entities": total_e, "total_relations": total_r}

    def _relations_page(self, after: int, size: int) -> list[tuple[int, str, str, str, dict[str, Any]]]:
        with self.db.locked() as conn:
            return [(i, f, t, rt, json.loads(p)) for i, f, t, rt, p in conn.execute(
                "SELECT r.id, f.name, t.name, r.relation_type, r.props FROM relations r "
                "JOIN entities f ON f.id = r.from_entity JOIN entities t ON t.id = r.to_entity "
                "WHERE r.id > ? AND r.ended_at IS NULL ORDER BY r.id LIMIT ?", (after, size))]

    def open_nodes_dump(self, names: Sequence[str]) -> dict[str, Any]:
        """``open_nodes(...).dump()``, built as plain dicts (what the MCP tool sends)."""
        with self.db.locked() as conn:
            return reads.answer_for_names(conn, names, self.db.beside)

    def get_node(self, name: str) -> Node | None:
        """The node called ``name``, archived or not; ``None`` if there is none."""
        with self.db.locked() as conn:
            ids = reads.ids_by_name(conn, [name])
            return reads.nodes(conn, [ids[name]])[0] if ids else None

    def list_nodes(
        self, *, label: str | None = None, include_archived: bool = False,
        limit: int | None = None, offset: int = 0,
    ) -> list[Node]:
        where = ["1"]
        args: list[Any] = []
        if label is not None:
            where.append("entity_type = ?")
            args.append(label)
        if not include_archived:
            where.append("archived_at IS NULL")
        args += [-1 if limit is None else limit, offset]
        with self.db.locked() as conn:
            ids = [r[0] for r in conn.execute(
                f"SELECT id FROM entities WHERE {' AND '.join(where)} ORDER BY id LIMIT ? OFFSET ?", args)]
            return reads.nodes(conn, ids)

    def fact_lists(self, min_facts: int = 2) -> list[tuple[int, str, dict[str, Any], list[str]]]:
        """Every live entity with at least ``min_facts`` observations: (id, type, props, facts
        oldest first). What memory hygiene reads (``core.hygiene.supersede``)."""
        with self.db.locked() as conn:
            rows = conn.execute(
                "SELECT e.id, e.entity_type, e.props, json_group_array(o.content ORDER BY o.id) "
                "FROM entities e JOIN observations o ON o.entity_id = e.id "
                "WHERE e.archived_at IS NULL AND e.id IN (SELECT entity_id FROM observations "
                "GROUP BY entity_id HAVING count(*) >= ?) GROUP BY e.id ORDER BY e.id", (min_facts,)).fetchall()
        return [(i, t, json.loads(p), json.loads(f)) for i, t, p, f in rows]

    def lookup_node_label(self, name: str) -> str | None:
        with self.db.locked() as conn:
            row = conn.execute("SELECT entity_type FROM entities WHERE name = ?", (name,)).fetchone()
            return row[0] if row else None

    def ids_for(self, names: Sequence[str]) -> dict[str, int]:
        with self.db.locked() as conn:
            return reads.ids_by_name(conn, names)

    def nodes_by_id(self, ids: Sequence[int]) -> list[Node]:
        with self.db.locked() as conn:
            return reads.nodes(conn, ids)

    def count_labels(self, *, include_archived: bool = True) -> dict[str, int]:
        live = "" if include_archived else " WHERE archived_at IS NULL"
        with self.db.locked() as conn:
            return dict(conn.execute(
                f"SELECT entity_type, count(*) FROM entities{live} GROUP BY entity_type ORDER BY 2 DESC, 1"))

    @contextmanager
    def _overview_source(self) -> Iterator[tuple[overview.Source, tuple[int, int]]]:
        """The overview's reads under the store's lock, and the data's version (``PRAGMA data_version``
        changes with another connection's commits, ``total_changes`` with this one's)."""
        with self.db.locked() as conn:
            yield overview.Source(conn, self.totals), (conn.execute("PRAGMA data_version").fetchone()[0],
                                                       conn.total_changes)
