"""The frozen app behaves like the installed one: its version, MCP over stdio with the bundled model
and sqlite-vec, the window, the connect snippet, and user data outside the bundle."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

import mcp_types as types
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from core.server.transports.endpoint import read_endpoint
from tests.packaging.conftest import ROOT, clean_env, executable_name, project_version

pytestmark = pytest.mark.slow
TIMEOUT_S = 120.0

ENTITIES = [
    {"name": "Lucía", "entityType": "Person",
     "observations": ["Le encanta escalar montañas los fines de semana", "Vive en Granada"]},
    {"name": "Quarterly budget", "entityType": "Document",
     "observations": ["Spreadsheet of invoices and tax payments for the accounting team"]},
    {"name": "Sourdough", "entityType": "Recipe",
     "observations": ["Bread leavened with a starter, baked in a cast iron pot"]},
]
# Shares no word with Lucía's text: only a search by meaning can find her.
QUERY = "rock climbing hobby"


def _files(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*") if p.is_file()}


def test_bundle_holds_the_resources_and_no_unused_qt(bundle: Path) -> None:
    internal = bundle / "_internal"
    resources = internal / "resources"
    for relative in ("models/multilingual-e5-small-int8/model.onnx", "models/multilingual-e5-small-int8/tokenizer.json",
                     "icons/hipocampo.svg", "icons/hipocampo.png", "icons/hipocampo.ico", "profiles/engrama.json"):
        assert (resources / relative).is_file(), relative
    assert list(internal.glob("sqlite_vec/vec0.*")), "sqlite-vec's loadable library"
    source_i18n = ROOT / "resources" / "i18n"
    assert {p.name for p in source_i18n.glob("*.qm")} == {p.name for p in (resources / "i18n").glob("*.*")}
    qt = internal / "PySide6" / "Qt"
    assert not (qt / "qml").exists() and not list(qt.glob("plugins/platformthemes/*gtk*"))
    assert {p.name for p in qt.glob("translations/*.qm")} <= {"qtbase_es.qm", "qtbase_en.qm"}
    # Links PyInstaller makes between copies all lead somewhere (none to a library left out).
    assert [p for p in bundle.rglob("*") if p.is_symlink() and not p.exists()] == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Qt brings its own ICU only on Linux")
def test_bundle_trims_what_no_code_path_loads_on_linux(bundle: Path) -> None:
    internal = bundle / "_internal"
    (icu_data,) = internal.glob("PySide6/Qt/lib/libicudata.so.*")
    assert icu_data.stat().st_size < 20e6, "Qt's ICU data is the trimmed one (packaging/trim_icu.py)"
    for orphan in ("libgio-2.0.so.0", "libmount.so.1", "libselinux.so.1", "libjpeg.so.62"):
        assert not (internal / orphan).exists(), orphan
    assert not (internal / "numpy" / "random").exists() and (internal / "numpy" / "ma").is_dir()
    assert list(internal.glob("_cffi_backend*")), "cryptography's C backend stays (the MCP server needs it)"


def test_version_is_the_projects(bundle: Path, tmp_path: Path) -> None:
    result = subprocess.run([str(bundle / executable_name()), "--version"], env=clean_env(tmp_path),
                            capture_output=True, text=True, timeout=TIMEOUT_S)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"hipocampo {project_version()}"


@pytest.mark.anyio
async def test_mcp_over_stdio_searches_by_meaning_with_the_bundled_model(bundle: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    before = _files(bundle)
    # No --db and no HIPOCAMPO_* variables: the memory goes to the user's data folder, the model is
    # found inside the bundle.
    params = StdioServerParameters(command=str(bundle / executable_name()), args=["mcp"], env=clean_env(home),
                                   cwd=str(tmp_path))
    with (tmp_path / "server.log").open("w") as errlog:
        transport = stdio_client(params, errlog=errlog)
        async with Client(transport, client_info=types.Implementation(name="frozen-test", version="1")) as client:
            tools = {t.name for t in (await client.list_tools()).tools}
            assert {"create_entities", "search_nodes", "search_semantic", "read_graph"} <= tools
            created = await client.call_tool("create_entities", {"entities": ENTITIES})
            assert not created.is_error, created.content
            # Tool calls pause the server's background embedding: watch it from another process.
            status = _status_when_embedded(bundle, home, len(ENTITIES))
            result = await client.call_tool("search_semantic", {"query": QUERY, "limit": 3, "explain": True})
            assert not result.is_error, result.content
    hits = result.structured_content["results"]
    assert hits[0]["name"] == "Lucía", hits
    assert hits[0]["distance"] is not None and hits[0]["distance"] < min(h["distance"] or 1 for h in hits[1:])
    text = " ".join([ENTITIES[0]["name"], *ENTITIES[0]["observations"]]).lower()
    assert not any(word in text for word in QUERY.split()), "the query must share no word with the match"
    assert status["sqlite_vec_version"].startswith("v0.")
    assert Path(status["embeddings"]["model_dir"]).is_relative_to(bundle), status["embeddings"]
    assert Path(status["path"]).is_relative_to(home), status["path"]
    assert _files(bundle) == before, "the frozen app wrote inside its bundle"


def _status_when_embedded(bundle: Path, home: Path, entities: int) -> dict:
    """``Hipocampo status --json`` (the frozen CLI, same user folders) once every entity has a vector."""
    deadline = time.monotonic() + TIMEOUT_S
    while True:
        result = subprocess.run([str(bundle / executable_name()), "status", "--json"], env=clean_env(home),
                                capture_output=True, text=True, timeout=TIMEOUT_S)
        assert result.returncode == 0, result.stderr
        status = json.loads(result.stdout)
        if status["embeddings"]["embedded"] == entities:
            return status
        assert status["embeddings"]["error"] is None, status["embeddings"]
        assert time.monotonic() < deadline, f"entities never got vectors: {status['embeddings']}"


def test_connect_snippet_runs_the_frozen_executable(bundle: Path, tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    result = subprocess.run([str(bundle / executable_name()), "config", "claude-desktop", "--db", str(db)],
                            env=clean_env(tmp_path), capture_output=True, text=True, timeout=TIMEOUT_S)
    assert result.returncode == 0, result.stderr
    snippet = json.loads(result.stdout[result.stdout.index("{"):])
    server = snippet["mcpServers"]["memory"]
    assert Path(server["command"]) == bundle / executable_name()
    assert server["args"] == ["--db", str(db), "mcp"]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals stop the app here")
def test_window_opens_offscreen_and_quits_cleanly(bundle: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    hub_file = tmp_path / "endpoint.json"
    before = _files(bundle)
    # The launcher opens the window when a display is announced; offscreen Qt never connects to it.
    env = clean_env(home, QT_QPA_PLATFORM="offscreen", DISPLAY=":0", HIPOCAMPO_ENDPOINT_FILE=str(hub_file))
    with (tmp_path / "app.log").open("w+") as log:
        process = subprocess.Popen([str(bundle / executable_name())], env=env, stdout=log, stderr=log)
        try:
            # The window paints first, then the memory opens and the hub it hosts writes its address.
            deadline = time.monotonic() + TIMEOUT_S
            while not read_endpoint(hub_file).get("url"):
                assert process.poll() is None, _tail(log)
                assert time.monotonic() < deadline, _tail(log)
                try:
                    process.wait(timeout=0.2)
                except subprocess.TimeoutExpired:
                    pass
            hub = read_endpoint(hub_file)
            assert hub["url"].startswith("http://127.0.0.1:") and hub["pid"] == process.pid
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=TIMEOUT_S) == 0, _tail(log)
        finally:
            if process.poll() is None:
                process.kill()
        assert "Traceback" not in _tail(log)
    assert (home / ".local" / "share" / "hipocampo" / "memory.db").is_file() or sys.platform != "linux"
    assert _files(bundle) == before, "the frozen app wrote inside its bundle"


def _tail(log: IO[str]) -> str:
    log.seek(0)
    return log.read()[-4000:]
