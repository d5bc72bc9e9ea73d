"""What the express lane spends on the answer path of open_nodes, and what it spends after the
answer is written (the read log), in CPU time of this process.

    .venv/bin/python bench/express_log_bench.py [--calls 600]

A 1,000-entity memory; ``--calls`` ``open_nodes`` calls of 5 names through ``Express.answer_line`` in
the 2026 era's envelope, then ``answered()`` as ``core/server/transports/pipes.py`` calls it; medians
of all but the first 100. On code without ``answered()`` the read is logged inside the answer path.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from core.memory import Memory
from core.server.fast.express import MODERN_VERSIONS, Express
from core.settings import Settings

ENVELOPE = {"io.modelcontextprotocol/protocolVersion": sorted(MODERN_VERSIONS)[0],
            "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {}}


def request(k: int) -> bytes:
    names = [f"E{(k * 5 + j) % 1000}" for j in range(5)]
    return json.dumps({"jsonrpc": "2.0", "id": k, "method": "tools/call",
                       "params": {"name": "open_nodes", "arguments": {"names": names}, "_meta": ENVELOPE}}).encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=600)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, Memory(Settings(db=Path(tmp) / "m.db", embeddings="none")) as m:
        m.create_entities([{"name": f"E{i}", "entityType": "T", "observations": [f"fact {i} a", f"fact {i} b"]}
                           for i in range(1000)])
        m.create_relations([{"from": f"E{i}", "to": f"E{(i + 1) % 1000}", "relationType": "r"} for i in range(1000)])
        lane = Express(m, {"name": "h", "version": "0"})
        answer: list[float] = []
        after: list[float] = []
        for k in range(args.calls):
            line = request(k)
            t0 = time.process_time_ns()
            served = lane.answer_line(line)
            t1 = time.process_time_ns()
            assert served is not None
            if hasattr(lane, "answered"):
                lane.answered()
            t2 = time.process_time_ns()
            if k >= 100:
                answer.append((t1 - t0) / 1000)
                after.append((t2 - t1) / 1000)
        logged = len(m.read_log(limit=10_000))
    print(f"open_nodes(5), CPU µs median: answer path {statistics.median(answer):.0f}, after the answer "
          f"{statistics.median(after):.0f}; reads logged {logged} of {args.calls}")


if __name__ == "__main__":
    main()
