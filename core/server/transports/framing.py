"""What a stdio server answers to a line that is not a well-formed JSON-RPC 2.0 message.

A client waits for the answer to each request it sends: a line the server cannot read must still
be answered, or the client hangs until its own timeout. JSON-RPC says how: ``-32700`` (parse
error) for a line that is not JSON, ``-32600`` (invalid request) for JSON that is not a request,
with the request's ``id`` when one can be read from it and ``null`` otherwise.

``refusal(line)`` is that answer (None for a well-formed message); the early answers
(``front.py``) and the pipes transport (``pipes.py``) both use it, so every transport refuses a
line the same way. Standard library only: ``front.py`` runs it before the MCP SDK has loaded.
"""

from __future__ import annotations

import json
from typing import Any

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INTERNAL_ERROR = -32603
BOM = b"\xef\xbb\xbf"
_MEMBERS = frozenset({"jsonrpc", "id", "method", "params", "result", "error"})


def without_bom(line: bytes) -> bytes:
    """``line`` without a leading UTF-8 byte-order mark (some Windows tools write one)."""
    return line[len(BOM):] if line.startswith(BOM) else line


def error_line(request_id: str | int | None, code: int, message: str) -> bytes:
    """One JSON-RPC error answer, as a line without its newline."""
    answer = {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}
    return json.dumps(answer, ensure_ascii=True, separators=(",", ":")).encode()


def refusal(line: bytes) -> bytes | None:
    """The error answering ``line`` when it is not one well-formed JSON-RPC 2.0 message (see the
    module docstring); None when it is one (a request for the server to answer, a notification
    or a response, which get no answer)."""
    problem = _problem(without_bom(line))
    return None if problem is None else error_line(*problem)


def _problem(line: bytes) -> tuple[str | int | None, int, str] | None:
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, PARSE_ERROR, f"Parse error: the line is not valid UTF-8 (byte {exc.start}). Send UTF-8 JSON."
    try:
        message = json.loads(text)
    except RecursionError:
        return None, PARSE_ERROR, "Parse error: the JSON is nested too deeply to be read."
    except ValueError as exc:
        return None, PARSE_ERROR, f"Parse error: not valid JSON ({_short(exc)})."
    if isinstance(message, list):
        return None, INVALID_REQUEST, ("Invalid request: batches (JSON arrays) are not supported; "
                                       "send each request on a line of its own.")
    if not isinstance(message, dict):
        return None, INVALID_REQUEST, "Invalid request: a JSON-RPC message is a JSON object."
    if "method" not in message and ("result" in message or "error" in message):
        return None  # a response (to a request of ours, e.g. a ping): never answered, even if odd
    raw_id = message.get("id")
    request_id = raw_id if isinstance(raw_id, (str, int)) and not isinstance(raw_id, bool) else None
    if "id" in message and request_id is None and "method" in message:
        return None, INVALID_REQUEST, "Invalid request: the id must be a string or an integer."
    if message.get("jsonrpc") != "2.0":
        return request_id, INVALID_REQUEST, 'Invalid request: "jsonrpc" must be "2.0".'
    if not _encodable(message):
        return request_id, PARSE_ERROR, ("Parse error: the request holds a lone UTF-16 surrogate (a \\ud800-\\udfff "
                                         "escape without its pair, e.g. a string cut inside an emoji). Send whole "
                                         "characters.")
    if not message.keys() <= _MEMBERS:
        extra = ", ".join(sorted(map(str, message.keys() - _MEMBERS)))[:100]
        return request_id, INVALID_REQUEST, f"Invalid request: unknown members ({extra})."
    if "method" in message:
        if "result" in message or "error" in message:
            return request_id, INVALID_REQUEST, 'Invalid request: a request has a "method" or a "result", not both.'
        if not isinstance(message["method"], str):
            return request_id, INVALID_REQUEST, 'Invalid request: "method" must be a string.'
        if message.get("params") is not None and not isinstance(message["params"], dict):
            return request_id, INVALID_REQUEST, 'Invalid request: "params" must be an object.'
        return None
    return request_id, INVALID_REQUEST, 'Invalid request: no "method", and not a response.'


def unreadable(line: bytes, reason: str) -> bytes | None:
    """The answer to a line the MCP SDK could not read (``reason``): ``refusal(line)``, or, for a
    line that looked well-formed here, an invalid-request error under its id; None for a
    notification or a response (nobody waits for an answer to those)."""
    answer = refusal(line)
    if answer is not None:
        return answer
    try:
        message = json.loads(without_bom(line))
    except (ValueError, RecursionError):  # refusal() answers these; kept for safety
        return error_line(None, PARSE_ERROR, "Parse error: the line could not be read.")
    request_id = message.get("id") if isinstance(message, dict) and "method" in message else None
    if request_id is None:
        return None
    if "Invalid JSON" in reason:  # read here, but not by the SDK's parser (e.g. nested past its limit)
        return error_line(request_id, PARSE_ERROR, f"Parse error: {_short(ValueError(reason))}")
    return error_line(request_id, INVALID_REQUEST, f"Invalid request: {_short(ValueError(reason))}")


def _encodable(message: Any) -> bool:
    try:
        json.dumps(message, ensure_ascii=False).encode("utf-8")
    except (UnicodeEncodeError, RecursionError):
        return False
    return True


def _short(exc: Exception) -> str:
    text = str(exc)
    return text if len(text) <= 120 else text[:117] + "…"
