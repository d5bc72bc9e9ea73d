"""Line readers take no line longer than ``max_request_bytes``: the stdio server and file imports."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from core.io.lines import json_lines
from core.io.report import ImportReport, no_progress
from tests.e2e.conftest import ROOT, START_TIMEOUT_S, read_line, server_env
from tests.jsonrpc import initialize_request


def test_stdio_drops_an_oversized_line_and_answers_the_next(tmp_path: Path) -> None:
    env = {**os.environ, **server_env(tmp_path / "endpoint.json", HIPOCAMPO_MAX_REQUEST_BYTES="65536")}
    proc = subprocess.Popen([sys.executable, "-m", "core.cli", "--db", str(tmp_path / "m.db"), "mcp"], cwd=ROOT,
                            env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdin is not None
        send = proc.stdin.write
        send((json.dumps(initialize_request("limits")) + "\n").encode())
        proc.stdin.flush()
        assert b'"result"' in read_line(proc.stdout, START_TIMEOUT_S)
        huge = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                "params": {"name": "create_entities", "arguments": {"entities": [{"name": "x" * (4 << 20)}]}}}
        send((json.dumps(huge) + "\n").encode())
        send((json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n").encode())
        send((json.dumps({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}) + "\n").encode())
        proc.stdin.flush()
        answers = []
        while not any(a.get("id") == 3 for a in answers):
            answers.append(json.loads(read_line(proc.stdout, START_TIMEOUT_S)))
        assert not any(a.get("id") == 2 and "result" in a for a in answers)  # never read, never run
        refused = [a for a in answers if a.get("id") == 2]  # but answered, so its client stops waiting
        assert len(refused) == 1 and "HIPOCAMPO_MAX_REQUEST_BYTES" in refused[0]["error"]["message"]
        assert any(a.get("id") == 3 and a["result"]["tools"] for a in answers)
    finally:
        proc.kill()
        proc.wait()
    from core.memory import Memory

    with Memory.open(tmp_path / "m.db", embeddings="none") as m:
        assert m.health_check()["counts"]["entities"] == 0


def test_an_oversized_import_line_is_one_error(tmp_path: Path) -> None:
    source = tmp_path / "big.jsonl"
    with source.open("wb") as fh:
        fh.write(b'{"type": "entity", "name": "before"}\n')
        fh.write(b'{"type": "entity", "name": "' + b"y" * 300_000 + b'"}\n')
        fh.write(b'{"type": "entity", "name": "after"}\n')
    report = ImportReport(source=str(source), format="jsonl")
    lines = list(json_lines(source, report, no_progress, max_line=100_000))
    assert [(n, o["name"]) for n, o in lines] == [(1, "before"), (3, "after")]
    assert report.errors == 1 and "line 2" in report.error_details[0] and "longer than" in report.error_details[0]
