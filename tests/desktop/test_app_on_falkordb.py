"""The whole app, unchanged, on a FalkorDB graph (settings alone choose it): it opens the graph,
draws the overview, searches, saves an edit from the editor, undoes it, and follows what another
process writes to the same graph."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
import qasync
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from PySide6.QtTest import QTest

from core.memory import Memory
from core.settings import Settings
from desktop.app import HipocampoApp
from desktop.editor.pane import EDITING
from tests.desktop.conftest import until


def seed(server: dict[str, Any], db: Path) -> None:
    with Memory(Settings(db=db, embeddings="none", **server)) as memory:
        memory.create_entities([
            {"name": "Ada Lovelace", "entityType": "Person", "observations": ["Wrote the first published algorithm"]},
            {"name": "Charles Babbage", "entityType": "Person", "observations": ["Designed the engine"]},
            {"name": "Analytical Engine", "entityType": "Machine"}], actor="claude-code")
        memory.create_relations([
            {"from": "Ada Lovelace", "to": "Charles Babbage", "relationType": "worked_with"},
            {"from": "Ada Lovelace", "to": "Analytical Engine", "relationType": "programmed"}], actor="claude-code")


async def write_from_another_process(server: dict[str, Any], tmp_path: Path) -> None:
    """A stdio server of its own on the same graph, as a second assistant would start."""
    env = {**os.environ, "HIPOCAMPO_ENDPOINT_FILE": str(tmp_path / "elsewhere.json"), "HIPOCAMPO_EMBEDDINGS": "none",
           **{f"HIPOCAMPO_{k.upper()}": str(v) for k, v in server.items()}}
    params = StdioServerParameters(command=sys.executable, args=["-m", "core.cli", "--db", str(tmp_path / "x.db"),
                                                                 "mcp"], env=env)
    async with Client(stdio_client(params), client_info=types.Implementation(name="cursor", version="1")) as client:
        result = await client.call_tool("create_entities", {"entities": [
            {"name": "Grace Hopper", "entityType": "Person", "observations": ["Found a moth"]}]})
        assert not result.is_error
        result = await client.call_tool("create_relations", {"relations": [
            {"from": "Grace Hopper", "to": "Ada Lovelace", "relationType": "admired"}]})
        assert not result.is_error


def test_the_app_works_unchanged_on_a_falkordb_graph(loop: qasync.QEventLoop, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     graph_settings: dict[str, Any]) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    server = dict(graph_settings)
    db = tmp_path / "memory.db"  # named by the settings, never created: the memory is the graph
    seed(server, db)
    app = HipocampoApp(Settings(db=db, embeddings="none", actor="gui", close_to_tray=False, **server),
                       hub_file=tmp_path / "endpoint.json", first_run=False)
    finished: list[bool] = []
    app.finished.connect(lambda: finished.append(True))
    people = {"Ada Lovelace", "Charles Babbage", "Analytical Engine"}

    async def scenario() -> None:
        app.start()
        await until(lambda: app.hub is not None and app.hub.running)
        window = app.window
        graph, search, editor, activity = (window.panes[p] for p in ("graph", "search", "editor", "activity"))

        # The overview (graph_overview on the server) is what the graph pane opens with.
        await until(lambda: graph.shown_names() == people)
        assert graph.snapshot is not None and graph.snapshot.total == 3

        # Search as the user types.
        QTest.keyClicks(search.box, "algorithm")
        await until(lambda: [search.model.hit(r).name for r in range(search.model.rowCount())] == ["Ada Lovelace"])

        # The editor: load, edit, Save (one atomic write on the server).
        window.open_entity("Ada Lovelace")
        await until(lambda: editor.stack.currentIndex() == EDITING and not editor.is_busy()
                    and editor.page.name_edit.text() == "Ada Lovelace")
        editor.page.type_edit.setText("Mathematician")
        editor.page.type_edit.textEdited.emit("Mathematician")
        editor.page.observations.add_observation("Wrote Note G")
        saved: list[str] = []
        editor.saved.connect(saved.append)
        editor.save()
        await until(lambda: saved == ["Ada Lovelace"] and not editor.is_dirty())
        await until(lambda: any(activity.model.row_at(i).op == "save_entity"
                                for i in range(activity.model.rowCount())))

        # Undo from the Edit menu takes the whole Save back.
        window.undo_action.trigger()
        await until(lambda: any(activity.model.row_at(i).op == "undo"
                                for i in range(activity.model.rowCount())))
        await until(lambda: editor.page.type_edit.text() == "Person")  # the clean editor follows

        # Live refresh: another process writes to the same graph; the panes follow.
        await write_from_another_process(server, tmp_path)
        await until(lambda: any(activity.model.row_at(i).entity == "Grace Hopper"
                                for i in range(activity.model.rowCount())))
        await until(lambda: "Grace Hopper" in graph.shown_names())
        app.quit(force=True)
        await until(lambda: finished)

    loop.run_until_complete(scenario())
    assert app.memory is None and not db.exists()
    with Memory(Settings(db=db, embeddings="none", **server)) as memory:
        ada = memory.require_node("Ada Lovelace")
        assert (ada.label, ada.observations) == ("Person", ["Wrote the first published algorithm"])
        ops = [(h.actor, h.op) for h in memory.history(limit=6)]
        assert ops[:2] == [("cursor", "create_relation"), ("cursor", "create_entity")]
        assert ("gui", "undo") in ops and ("gui", "save_entity") in ops
