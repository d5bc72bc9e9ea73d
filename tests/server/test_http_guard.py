"""The HTTP hub's guard (Host, Origin, bearer token) and the hub file, without a real socket."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from core.memory import Memory
from core.server.transports import endpoint as hubfile
from core.server.transports.http import build_http_app, is_loopback_origin
from tests.jsonrpc import initialize_request

PORT = 8123
TOKEN = "t" * 43
INIT = initialize_request("guard-test")
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


@pytest.fixture
def http(mem: Memory) -> TestClient:
    app = build_http_app(mem, token=TOKEN, port=PORT)
    with TestClient(app, base_url=f"http://127.0.0.1:{PORT}") as client:
        yield client


def auth(**extra: str) -> dict[str, str]:
    return {**HEADERS, "Authorization": f"Bearer {TOKEN}", **extra}


def test_a_request_with_the_token_reaches_mcp(http: TestClient) -> None:
    response = http.post("/mcp", json=INIT, headers=auth())
    assert response.status_code == 200, response.text
    assert "hipocampo" in response.text


def test_health_answers_with_the_database(http: TestClient, mem: Memory) -> None:
    health = http.get("/health", headers=auth()).json()
    assert health["ok"] is True and health["db"] == str(mem.settings.db) and health["pid"] == os.getpid()


@pytest.mark.parametrize("header", [None, "Bearer wrong", f"Basic {TOKEN}", f"bearer {TOKEN}x"])
def test_no_or_wrong_token_is_401(http: TestClient, header: str | None) -> None:
    headers = dict(HEADERS) if header is None else {**HEADERS, "Authorization": header}
    response = http.post("/mcp", json=INIT, headers=headers)
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"
    assert http.get("/health", headers=headers).status_code == 401


@pytest.mark.parametrize(
    "host", ["evil.example:8123", "127.0.0.1:9999", "localhost", "192.168.1.2:8123", "[::1]:8123"]
)
def test_a_foreign_host_header_is_421(http: TestClient, host: str) -> None:
    assert http.post("/mcp", json=INIT, headers=auth(Host=host)).status_code == 421


def test_localhost_host_is_accepted(http: TestClient) -> None:
    assert http.get("/health", headers=auth(Host=f"localhost:{PORT}")).status_code == 200


@pytest.mark.parametrize(
    "origin",
    ["https://evil.example", "null", "http://127.0.0.1.evil.example", "file://", "http://10.0.0.1:8123"],
)
def test_a_foreign_origin_is_403_even_with_the_token(http: TestClient, origin: str) -> None:
    assert http.post("/mcp", json=INIT, headers=auth(Origin=origin)).status_code == 403


def test_loopback_origins_are_allowed(http: TestClient) -> None:
    response = http.post("/mcp", json=INIT, headers=auth(Origin="http://localhost:6274"))
    assert response.status_code == 200, response.text


def test_is_loopback_origin() -> None:
    assert is_loopback_origin("http://127.0.0.1:3000") and is_loopback_origin("https://localhost")
    assert is_loopback_origin("http://[::1]:80")
    assert not is_loopback_origin("http://localhost.evil.com") and not is_loopback_origin("ws://localhost")


# -- the hub file -----------------------------------------------------------------------------


def test_token_is_generated_once_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "cfg" / "endpoint.json"
    token = hubfile.ensure_token(path)
    assert len(token) >= 40 and hubfile.ensure_token(path) == token
    if sys.platform != "win32":
        assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_publish_and_withdraw_keep_the_token(tmp_path: Path) -> None:
    path = tmp_path / "endpoint.json"
    token = hubfile.ensure_token(path)
    data = hubfile.publish(4321, "/x/memory.db", path=path)
    assert data == {
        "token": token,
        "port": 4321,
        "pid": os.getpid(),
        "db": "/x/memory.db",
        "url": "http://127.0.0.1:4321/mcp",
    }
    assert json.loads(path.read_text()) == data
    if sys.platform != "win32":
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    hubfile.withdraw(path)
    assert hubfile.read_endpoint(path) == {"token": token}


def test_withdraw_leaves_another_processs_hub_alone(tmp_path: Path) -> None:
    path = tmp_path / "endpoint.json"
    path.write_text(json.dumps({"token": TOKEN, "port": 1, "pid": os.getpid() + 1}))
    hubfile.withdraw(path)
    assert hubfile.read_endpoint(path)["port"] == 1


def test_a_dead_or_missing_hub_is_not_live(tmp_path: Path) -> None:
    path = tmp_path / "endpoint.json"
    assert hubfile.live_hub("/x.db", path=path) is None  # no file
    path.write_text("not json")
    assert hubfile.read_endpoint(path) == {} and hubfile.live_hub("/x.db", path=path) is None
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        free = s.getsockname()[1]
    path.write_text(json.dumps({"token": TOKEN, "port": free}))
    assert hubfile.live_hub("/x.db", path=path) is None


def test_hello_proves_the_hub_knows_the_token_without_asking_for_it(http: TestClient) -> None:
    nonce = "n" * 64
    answer = http.get("/hello", params={"nonce": nonce}, headers=HEADERS)
    assert answer.status_code == 200
    assert answer.json()["proof"] == hubfile.hub_proof(TOKEN, nonce, PORT)
    assert answer.json()["proof"] != hubfile.hub_proof("another token" * 4, nonce, PORT)
    assert http.get("/hello", params={"nonce": "short"}, headers=HEADERS).status_code == 400
    assert http.get("/hello", params={"nonce": nonce}, headers={**HEADERS, "Host": "evil:8123"}).status_code == 421
    assert http.get("/hello", params={"nonce": nonce},
                    headers={**HEADERS, "Origin": "https://evil.example"}).status_code == 403


class Impostor:
    """Whatever else listens on a hub's old port: it answers like a hub and records what it is sent."""

    def __init__(self, proof: str | None) -> None:
        import http.server
        import threading

        self.seen: list[str] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
                outer.seen.append(self.headers.get("Authorization", ""))
                body = {"proof": proof} if self.path.startswith("/hello") else {"ok": True, "db": "/x.db"}
                self.send_response(200)
                self.end_headers()
                self.wfile.write(json.dumps(body).encode())

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.port = self.server.server_port


@pytest.mark.parametrize("proof", [None, "0" * 64, hubfile.hub_proof("a guessed token" * 3, "x" * 64, 1)])
def test_the_token_is_never_sent_to_a_listener_that_cannot_prove_it_is_the_hub(
        tmp_path: Path, proof: str | None) -> None:
    impostor = Impostor(proof)
    try:
        dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True)
        path = tmp_path / "endpoint.json"
        for pid in (int(dead.stdout), os.getpid()):  # the hub died, or its pid was reused
            path.write_text(json.dumps({"token": TOKEN, "port": impostor.port, "pid": pid}))
            assert hubfile.live_hub("/x.db", path=path) is None
            assert hubfile.probe(hubfile.read_endpoint(path)) is None
        assert all(TOKEN not in seen for seen in impostor.seen)
    finally:
        impostor.server.shutdown()


def test_env_var_moves_the_hub_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(hubfile.ENV_ENDPOINT_FILE, str(tmp_path / "elsewhere.json"))
    assert hubfile.endpoint_file() == tmp_path / "elsewhere.json"
