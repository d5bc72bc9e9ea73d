"""The welcome screen: the memory's place, the endpoint, and connecting each assistant for real
(its configuration file is written in a home folder of the test's own)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from core.clients import CLIENTS, TITLES, config_path, server_command, snippet
from core.memory import Memory
from core.settings import Settings, user_settings
from desktop.dialogs.first_run import FirstRunDialog
from desktop.hub import Hub
from tests.desktop.conftest import until


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.setenv("HIPOCAMPO_SETTINGS_FILE", str(tmp_path / "settings.json"))
    monkeypatch.delenv("HIPOCAMPO_FIRST_RUN_DONE", raising=False)
    return home


@pytest.fixture
def dialog(qtbot, home: Path, tmp_path: Path) -> FirstRunDialog:  # noqa: ANN001
    settings = Settings(db=tmp_path / "data" / "memory.db", embeddings="none")
    dialog = FirstRunDialog(settings, endpoint={"url": "http://127.0.0.1:51234/mcp", "port": 51234})
    qtbot.addWidget(dialog)
    return dialog


def test_it_shows_the_memory_the_endpoint_and_every_client(dialog: FirstRunDialog, tmp_path: Path) -> None:
    assert dialog.path_label.text() == str(tmp_path / "data" / "memory.db")
    assert "Assistants connect to http://127.0.0.1:51234/mcp" in dialog.endpoint_label.text()
    assert [dialog.tabs.tabText(i) for i in range(dialog.tabs.count())] == [TITLES[c] for c in CLIENTS]
    for client, panel in dialog.panels.items():
        assert panel.snippet.toPlainText() == snippet(client, tmp_path / "data" / "memory.db")
        assert panel.snippet.isReadOnly() and panel.add_button.text() == f"Add to {TITLES[client]}"
    dialog.set_endpoint(None)
    assert "starts Hipocampo by itself" in dialog.endpoint_label.text()


def test_it_follows_the_hub_as_it_starts(qtbot, loop, home: Path, tmp_path: Path) -> None:  # noqa: ANN001, F811
    with Memory(Settings(db=tmp_path / "m.db", embeddings="none", actor="gui")) as memory:
        hub = Hub(memory, hub_file=tmp_path / "endpoint.json")
        dialog = FirstRunDialog(memory.settings, endpoint=hub)  # the app's hub itself, not yet serving
        qtbot.addWidget(dialog)
        assert "starts Hipocampo by itself" in dialog.endpoint_label.text()

        async def scenario() -> None:
            hub.start()
            await until(lambda: hub.running)
            assert f"Assistants connect to {hub.url}" in dialog.endpoint_label.text()
            await hub.stop_and_wait()

        loop.run_until_complete(scenario())
    assert "starts Hipocampo by itself" in dialog.endpoint_label.text()


def test_add_writes_the_clients_file_and_says_so(dialog: FirstRunDialog, home: Path, tmp_path: Path) -> None:
    path = config_path("claude-desktop")
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"mcpServers": {"filesystem": {"command": "npx", "args": ["-y", "fs"]}},
                                "theme": "dark"}), encoding="utf-8")
    panel = dialog.panels["claude-desktop"]
    with_result = []
    panel.installed.connect(with_result.append)
    panel.add_button.click()

    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["theme"] == "dark" and data["mcpServers"]["filesystem"] == {"command": "npx", "args": ["-y", "fs"]}
    entry = data["mcpServers"]["memory"]
    assert [entry["command"], *entry["args"]] == server_command(tmp_path / "data" / "memory.db")
    text = panel.result.text()
    assert text.startswith("Added to ~/.config/Claude/claude_desktop_config.json (backup: "
                           "claude_desktop_config.json.hipocampo-backup-")
    assert text.endswith("Restart Claude Desktop to use it.") and not panel.result.isHidden()
    assert with_result[0].backup.exists()

    panel.add_button.click()
    assert panel.result.text().startswith("Claude Desktop is already set up")


def test_a_damaged_file_is_reported_and_left_alone(dialog: FirstRunDialog, home: Path) -> None:
    path = config_path("cursor")
    path.parent.mkdir(parents=True)
    path.write_text('{"mcpServers": {', encoding="utf-8")
    panel = dialog.panels["cursor"]
    panel.add_button.click()
    assert "~/.cursor/mcp.json is not valid JSON" in panel.result.text()
    assert path.read_text(encoding="utf-8") == '{"mcpServers": {'
    assert sorted(p.name for p in path.parent.iterdir()) == ["mcp.json"]


def test_copy_puts_the_snippet_on_the_clipboard(dialog: FirstRunDialog) -> None:
    panel = dialog.panels["opencode"]
    panel.copy_button.click()
    assert QGuiApplication.clipboard().text() == panel.snippet.toPlainText()
    assert json.loads(QGuiApplication.clipboard().text())["mcp"]["memory"]["type"] == "local"
    assert panel.result.text() == "Copied to the clipboard."


def test_it_is_shown_once(dialog: FirstRunDialog, qtbot) -> None:  # noqa: ANN001
    assert FirstRunDialog.should_show(Settings())
    dialog.show()
    qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    assert dialog.result() == FirstRunDialog.DialogCode.Accepted
    assert user_settings()["first_run_done"] is True
    assert not FirstRunDialog.should_show(Settings())


def test_closing_it_any_way_counts_as_seen(qtbot, home: Path, tmp_path: Path) -> None:  # noqa: ANN001
    dialog = FirstRunDialog(Settings(db=tmp_path / "m.db"))
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.reject()  # Esc or the window's close button
    assert Settings().first_run_done
