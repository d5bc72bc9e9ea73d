"""A real ``hipocampo mcp`` process spoken to in raw lines: what a client sends, byte for byte."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from tests.e2e.conftest import ROOT, server_env
from tests.jsonrpc import initialize_request


class RawStdio:
    """``hipocampo mcp`` with stdin and stdout as pipes; a thread collects every answer line."""

    def __init__(self, db: Path | None, hub_file: Path, *args: str, **env: str) -> None:
        """``hipocampo --db db mcp *args``; with ``db`` None, ``mcp-memory *args`` (the drop-in command)."""
        command = (["-m", "core.cli", "--db", str(db), "mcp"] if db is not None
                   else ["-m", "core.server.transports.stdio"])
        self.process = subprocess.Popen(
            [sys.executable, *command, *args],
            cwd=ROOT, env={**os.environ, **server_env(hub_file, **env)},
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        self.answers: queue.Queue[bytes] = queue.Queue()
        self._stderr: list[bytes] = []
        threading.Thread(target=self._collect, daemon=True).start()
        threading.Thread(target=lambda: self._stderr.extend(self.process.stderr), daemon=True).start()

    def _collect(self) -> None:
        for line in self.process.stdout:
            self.answers.put(line)
        self.answers.put(b"")  # the server closed stdout

    @property
    def stderr(self) -> str:
        return b"".join(self._stderr).decode("utf-8", "replace")

    def send(self, line: bytes) -> None:
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()

    def request(self, message: dict[str, Any]) -> None:
        self.send(json.dumps(message).encode())

    def next_answer(self, timeout: float) -> dict[str, Any]:
        """The next line the server writes, parsed; AssertionError if none comes or it exited."""
        try:
            line = self.answers.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no answer within {timeout} s") from None
        assert line, f"the server exited (rc {self.process.wait(5)}): {self.stderr[-2000:]}"
        return json.loads(line)

    def answers_until(self, request_id: str, timeout: float) -> list[dict[str, Any]]:
        """Every answer up to and including the one to ``request_id``."""
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            answer = self.next_answer(max(0.0, deadline - time.monotonic()))
            seen.append(answer)
            if answer.get("id") == request_id:
                return seen

    def answers_with(self, request_id: str, others: int, timeout: float) -> list[dict[str, Any]]:
        """The answer to ``request_id`` and ``others`` more (in any order: the SDK answers requests
        concurrently), or fewer if the server wrote nothing else within ``timeout``... then the caller's
        assertion says what was missing."""
        deadline = time.monotonic() + timeout
        seen: list[dict[str, Any]] = []
        marked = False
        while not marked or len(seen) < others:
            try:
                answer = self.next_answer(max(0.0, deadline - time.monotonic()))
            except AssertionError:
                if not marked:
                    raise
                break
            if answer.get("id") == request_id and not marked:
                marked = True
            else:
                seen.append(answer)
        return seen

    def handshake(self, client: str = "raw", timeout: float = 60.0) -> dict[str, Any]:
        self.request(initialize_request(client))
        answer = self.next_answer(timeout)
        self.request({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return answer

    def close(self) -> int:
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                return self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
        return self.process.wait(timeout=30)
