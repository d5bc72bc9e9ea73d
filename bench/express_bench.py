"""The stdio fast path's own cost: ``Express.answer_line`` for each tool it serves, in process.

The lane's answer is the tool's own ``CallToolResult`` written the SDK's way; this measures the
whole line in, line out (parse, guard, the tool body, the memory's read, the JSON) with no pipes, so
a change to the lane shows up undiluted. Median of ``--repeat`` calls per request, in µs.

    .venv/bin/python bench/express_bench.py                     # 1,000 entities
    .venv/bin/python bench/express_bench.py --entities 10000 --repeat 300
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.memory import Memory  # noqa: E402
from core.server.fast.express import Express  # noqa: E402

ENVELOPE = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {}}


def line(tool: str, arguments: dict[str, object]) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                       "params": {"name": tool, "arguments": arguments, "_meta": ENVELOPE}}).encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entities", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, Memory.open(Path(folder) / "bench.db", embeddings="none") as memory:
        memory.create_entities([{"name": f"entity-{i:05d}", "entityType": f"Type{i % 10}",
                                 "observations": [f"fact {j} of entity {i}, a few shared words" for j in range(3)]}
                                for i in range(args.entities)])
        memory.create_relations([{"from": f"entity-{i:05d}", "to": f"entity-{(i + 1) % args.entities:05d}",
                                  "relationType": "next"} for i in range(args.entities)])
        express = Express(memory, {"name": "hipocampo", "version": "bench"})
        requests = {
            "open_nodes (5)": line("open_nodes", {"names": [f"entity-{i:05d}" for i in range(0, 500, 100)]}),
            "search_nodes (1 hit)": line("search_nodes", {"query": "entity-00042"}),
            "read_graph (limit 20)": line("read_graph", {"limit": 20}),
        }
        print(f"| request ({args.entities:,} entities) | median µs | answered |")
        print("|---|---|---|")
        for name, request in requests.items():
            times = []
            answered = express.answer_line(request) is not None
            for _ in range(args.repeat):
                start = time.perf_counter()
                express.answer_line(request)
                times.append((time.perf_counter() - start) * 1e6)
            print(f"| {name} | {statistics.median(times):.0f} | {answered} |")


if __name__ == "__main__":
    main()
