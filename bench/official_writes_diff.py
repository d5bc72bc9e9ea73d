"""The official writes on one tree, printed whole, to diff two trees' behaviour (not a test).

    PYTHONPATH=<tree> .venv/bin/python bench/official_writes_diff.py sqlite > <tree>.txt
    PYTHONPATH=<tree> .venv/bin/python bench/official_writes_diff.py falkordb <redis url> <graph suffix>

Runs batches with repeated names and observations, placeholders made and filled, unknown names,
a self-loop and the deletes on a fixed clock, then prints each result, the history and (SQLite)
every row of the tables they write. Two trees that behave the same print the same text.
"""

import itertools
import json
import pathlib
import sys
import tempfile
from datetime import UTC, datetime, timedelta

from core.memory import Memory
from core.settings import Settings

backend = sys.argv[1]
url = sys.argv[2] if len(sys.argv) > 2 else None
t0 = datetime(2026, 1, 1, tzinfo=UTC)
tick = itertools.count()


def clock() -> datetime:
    return t0 + timedelta(seconds=next(tick))


d = pathlib.Path(tempfile.mkdtemp())
extra = {"backend": backend, "graph_url": url, "graph_name": "diff" + sys.argv[3]} if url else {}
out = []
def rec(label, f):
    try:
        r = f()
        out.append([label, repr(r)])
    except Exception as e:
        out.append([label, "ERR " + type(e).__name__ + " " + str(e)])
with Memory(Settings(db=d / "x.db", **extra), clock=clock) as m:  # type: ignore[arg-type]
    rec("ce1", lambda: m.create_entities([{"name": "A", "entityType": "P", "observations": ["x", "y", "x"]},
                                          {"name": "B", "entityType": "P", "observations": ["ü"]},
                                          {"name": "A", "entityType": "Q", "observations": ["z"]}]))
    rec("cr1", lambda: m.create_relations([{"from": "A", "to": "B", "relationType": "k"},
                                           {"from": "A", "to": "G1", "relationType": "k"},
                                           {"from": "G2", "to": "G1", "relationType": "h"},
                                           {"from": "A", "to": "B", "relationType": "k"},
                                           {"from": "B", "to": "B", "relationType": "self"}]))
    rec("cr2", lambda: m.create_relations([{"from": "A", "to": "B", "relationType": "k"}]))
    rec("ce2", lambda: m.create_entities([{"name": "G1", "entityType": "Thing", "observations": ["g", "g"]},
                                          {"name": "B", "entityType": "P", "observations": ["ü", "new"]},
                                          {"name": "C", "entityType": "P"},
                                          {"name": "G2", "entityType": "T2"}]))
    rec("ao1", lambda: m.add_observations([{"entityName": "A", "contents": ["x", "w", "w"]},
                                           {"entityName": "C", "contents": ["c1"]},
                                           {"entityName": "A", "contents": ["v"]}]))
    rec("ao2", lambda: m.add_observations([{"entityName": "A", "contents": ["q"]},
                                           {"entityName": "Nope", "contents": ["c1"]}]))
    rec("do1", lambda: m.delete_observations([{"entityName": "A", "observations": ["x", "nope", "x"]},
                                              {"entityName": "Nope", "observations": ["x"]},
                                              {"entityName": "B", "observations": []},
                                              {"entityName": "A", "observations": ["y"]}]))
    rec("dr1", lambda: m.delete_relations([{"from": "A", "to": "B", "relationType": "k"},
                                           {"from": "A", "to": "B", "relationType": "k"},
                                           {"from": "X", "to": "B", "relationType": "k"},
                                           {"from": "G2", "to": "G1", "relationType": "h"}]))
    rec("mr", lambda: m.merge_relation("A", "USES", "C", {"since": 1}))
    rec("de1", lambda: m.delete_entities(["G1", "Nope", "B", "G1"]))
    rec("de2", lambda: m.delete_entities(["Nope"]))
    rec("graph", lambda: m.read_graph_dump())
    rec("hist", lambda: [(c.op, c.entity, c.before, c.after, c.actor) for c in reversed(m.history(limit=100))])
    rec("nodes", lambda: [(n.name, n.label, n.props, n.created_at, n.updated_at)
                          for n in m.graph.list_nodes(include_archived=True)])
    rec("pend", lambda: sorted(m.vectors.pending("never", 100).values()))
print(json.dumps(out, indent=1, ensure_ascii=False))
if not url:
    import sqlite3
    c = sqlite3.connect(d / "x.db")
    for t in ("entities", "observations", "relations", "change_log", "embedding_state", "entity_folded",
              "entity_name_tokens"):
        try:
            print(t, c.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall())
        except Exception as e:
            print(t, "ERR", e)
