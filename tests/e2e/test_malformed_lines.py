"""Every line a client can send to ``hipocampo mcp`` gets an answer, and the server stays up.

A real process fed raw lines: before the handshake (the early answers, front.py), after it (the
pipes transport and the express lane), and forwarding to a hub (the bridge). Then hypothesis
throws generated lines at one process for a bounded number of examples.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.e2e.conftest import start_hub
from tests.e2e.raw import RawStdio

ANSWER_WAIT_S = 10.0  # a bound for a loaded machine; answers come in milliseconds
INIT_WAIT_S = 60.0


def _call(tool: str, arguments: Any, request_id: Any = 7) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                       "params": {"name": tool, "arguments": arguments}}).encode()


NESTED = _call("open_nodes", {"names": "NEST"}).replace(b'"NEST"', b"[" * 1000 + b"]" * 1000)
# (line, the id its answer must carry: None for a line whose id cannot be read)
MALFORMED: dict[str, tuple[bytes, Any]] = {
    "nested 1,000 deep": (NESTED, None),
    "deeply nested search": (
        _call("search_nodes", {"query": "x"}).replace(b'"x"', b'{"a":' * 600 + b"1" + b"}" * 600), 7),
    "lone surrogate": (_call("search_nodes", {"query": "PLACE"}).replace(b"PLACE", b"caf\\ud83d"), 7),
    "lone surrogate in initialize": (json.dumps({"jsonrpc": "2.0", "id": 8, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "PLACE", "version": "1"}}})
        .encode().replace(b"PLACE", b"\\udc00"), 8),
    "invalid UTF-8": (_call("search_nodes", {"query": "PLACE"}).replace(b"PLACE", b"\xff\xfe\xc3"), None),
    "jsonrpc 1.0": (b'{"jsonrpc":"1.0","id":9,"method":"tools/list"}', 9),
    "batch": (b'[{"jsonrpc":"2.0","id":10,"method":"tools/list"}]', None),
    "empty batch": (b"[]", None),
    "not JSON": (b"{nope", None),
    "a number": (b"42", None),
    "float id": (b'{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}', None),
    "null id": (b'{"jsonrpc":"2.0","id":null,"method":"tools/list"}', None),
    "params a string": (b'{"jsonrpc":"2.0","id":11,"method":"tools/list","params":"x"}', 11),
}


def _check_answered(server: RawStdio, line: bytes, expected_id: Any, marker: str) -> None:
    server.send(line)
    server.request({"jsonrpc": "2.0", "id": marker, "method": "ping"})
    answers = server.answers_with(marker, 1, ANSWER_WAIT_S)
    assert len(answers) == 1, answers  # the line's answer (and the ping's, taken out)
    answer = answers[0]
    assert answer["jsonrpc"] == "2.0" and answer["id"] == expected_id, answer
    assert "error" in answer and answer["error"]["code"] in (-32700, -32600, -32602), answer
    assert answer["error"]["message"]


def _every_case(server: RawStdio) -> None:
    for n, (name, (line, expected_id)) in enumerate(MALFORMED.items()):
        try:
            _check_answered(server, line, expected_id, f"after-{n}")
        except AssertionError as exc:
            raise AssertionError(f"{name}: {exc}") from exc
    assert server.process.poll() is None


@pytest.mark.parametrize("when", ["before the handshake", "after the handshake"])
def test_every_malformed_line_is_answered_and_the_server_stays_up(tmp_path: Path, hub_file: Path, when: str) -> None:
    server = RawStdio(tmp_path / "m.db", hub_file)
    try:
        if when == "after the handshake":
            assert "result" in server.handshake()
        _every_case(server)
        if when == "before the handshake":  # and the session still starts as usual
            assert "result" in server.handshake()
            server.request({"jsonrpc": "2.0", "id": "list", "method": "tools/list"})
            assert server.answers_until("list", INIT_WAIT_S)[-1]["result"]["tools"]
        BOM = b"\xef\xbb\xbf"
        server.send(BOM + _call("open_nodes", {"names": ["nobody"]}, "bom"))  # a BOM is skipped, not refused
        assert server.answers_until("bom", ANSWER_WAIT_S)[-1]["result"]["structuredContent"] == {
            "entities": [], "relations": []}
    finally:
        rc = server.close()
    assert rc == 0, server.stderr[-2000:]


def test_a_forwarding_server_answers_every_malformed_line(tmp_path: Path, hub_file: Path) -> None:
    hub = start_hub(tmp_path / "m.db", hub_file)
    server = RawStdio(tmp_path / "m.db", hub_file)
    try:
        assert "result" in server.handshake()
        _every_case(server)
    finally:
        rc = server.close()
        hub.stop()
    assert rc == 0, server.stderr[-2000:]


# -- fuzzing ---------------------------------------------------------------------------------

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
_ids = st.none() | st.integers(-10, 10**20) | st.text(max_size=6) | st.floats(allow_nan=False) | st.booleans()
_methods = st.sampled_from(["initialize", "tools/list", "tools/call", "ping", "resources/list", "prompts/list",
                            "server/discover", "notifications/initialized", "nope"]) | st.text(max_size=10)
_tools = st.sampled_from(["open_nodes", "search_nodes", "read_graph", "create_entities", "nope"])


@st.composite
def _messages(draw: st.DrawFn) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": draw(st.sampled_from(["2.0", "2.0", "2.0", "1.0", 2]))}
    if draw(st.booleans()):
        message["id"] = draw(_ids)
    method = draw(_methods)
    if draw(st.integers(0, 9)):
        message["method"] = method
    if method == "tools/call" and draw(st.booleans()):
        message["params"] = {"name": draw(_tools), "arguments": draw(_json)}
    elif draw(st.booleans()):
        message["params"] = draw(_json)
    if not draw(st.integers(0, 6)):
        message[draw(st.sampled_from(["result", "error", "extra"]))] = draw(_json)
    return message


def _surrogate(text: bytes, draw: st.DrawFn) -> bytes:
    escape = b"\\u%04x" % draw(st.integers(0xD800, 0xDFFF))
    return text.replace(b'"', b'"' + escape, 1) if b'"' in text else text


@st.composite
def _lines(draw: st.DrawFn) -> bytes:
    kind = draw(st.sampled_from(["message", "message", "message", "json", "bytes", "nested", "surrogate", "batch"]))
    if kind == "bytes":
        line = draw(st.binary(max_size=60))
    elif kind == "json":
        line = json.dumps(draw(_json)).encode()
    elif kind == "nested":
        depth = draw(st.integers(50, 3000))
        line = _call(draw(_tools), {"names": "N"}, draw(_ids)).replace(b'"N"', b"[" * depth + b"]" * depth)
    elif kind == "batch":
        line = json.dumps(draw(st.lists(_messages(), max_size=3))).encode()
    else:
        line = json.dumps(draw(_messages()), ensure_ascii=draw(st.booleans())).encode()
        if kind == "surrogate":
            line = _surrogate(line, draw)
    if draw(st.integers(0, 9)) == 0:
        line = b"\xef\xbb\xbf" + line
    return line.replace(b"\n", b" ").replace(b"\r", b" ")


def _expected(line: bytes) -> tuple[int, int, tuple[Any, ...]]:
    """(fewest answers, most answers, the ids they may carry) for ``line``: an oracle written
    apart from the server's own framing, from JSON-RPC's rules."""
    text = line.removeprefix(b"\xef\xbb\xbf")
    if not text.strip():
        return 0, 0, ()
    try:
        message = json.loads(text.decode("utf-8"))
    except (ValueError, RecursionError):
        return 1, 1, (None,)
    if not isinstance(message, dict):
        return 1, 1, (None,)
    request_id = message.get("id")
    valid_id = isinstance(request_id, (str, int)) and not isinstance(request_id, bool)
    if "method" not in message:
        if "result" in message or "error" in message:
            return 0, 0, ()  # a response: never answered
        return 1, 1, (request_id if valid_id else None, None)
    if "id" not in message:
        return 0, 1, (None,)  # a notification: never answered, unless it is refused as invalid
    return 1, 1, (request_id if valid_id else None, None)


def test_fuzzed_lines_are_each_answered_and_the_server_stays_up(tmp_path: Path, hub_file: Path) -> None:
    server = RawStdio(tmp_path / "fuzz.db", hub_file)
    counter = iter(range(10**9))
    try:
        assert "result" in server.handshake()

        @settings(max_examples=1000, deadline=None, database=None, phases=[Phase.explicit, Phase.generate],
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
        @given(line=_lines())
        def check(line: bytes) -> None:
            marker = f"probe-{next(counter)}"
            server.send(line)
            server.request({"jsonrpc": "2.0", "id": marker, "method": "ping"})
            fewest, most, ids = _expected(line)
            answers = server.answers_with(marker, fewest, ANSWER_WAIT_S)
            assert fewest <= len(answers) <= most, (line[:300], answers)
            for answer in answers:
                assert answer.get("jsonrpc") == "2.0" and answer["id"] in ids, (line[:300], answers)
                assert ("result" in answer) != ("error" in answer), (line[:300], answers)

        check()
        assert server.process.poll() is None
    finally:
        rc = server.close()
    assert rc == 0, server.stderr[-2000:]
