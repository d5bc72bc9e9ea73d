"""The Connect screen's Claude Code tab installs the session hooks too (core/hooks.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from core.hooks import is_our_hook
from desktop.dialogs.connect_client import ConnectClientPanel


def test_claude_code_gets_a_hooks_button_that_installs_them(qtbot, tmp_path: Path,  # noqa: ANN001
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude"))
    settings = tmp_path / "claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"theme": "dark"}))
    panel = ConnectClientPanel("claude-code", tmp_path / "memory.db")
    qtbot.addWidget(panel)
    panel.resize(640, 360)
    panel.show()
    assert panel.hooks_button is not None and ConnectClientPanel("cursor", tmp_path / "m.db").hooks_button is None
    with qtbot.waitSignal(panel.status_message) as said:
        panel.hooks_button.click()
    assert said.args[0].startswith("Session hooks added to ")
    assert "backup: settings.json.hipocampo-backup-" in said.args[0]
    assert panel.result.isVisible() and panel.result.text() == said.args[0]
    data = json.loads(settings.read_text())
    assert data["theme"] == "dark"
    assert all(any(is_our_hook(g) for g in data["hooks"][e]) for e in ("SessionStart", "PreCompact", "Stop"))
    folder = os.environ.get("HIPOCAMPO_SHOTS")
    if folder:
        panel.grab().save(str(Path(folder) / "connect-claude-code-hooks.png"))
    with qtbot.waitSignal(panel.status_message) as again:
        panel.hooks_button.click()
    assert again.args[0].startswith("Claude Code already runs Hipocampo's hooks")
    settings.write_text("{ broken")
    with qtbot.waitSignal(panel.status_message) as refused:
        panel.hooks_button.click()
    assert "not valid JSON" in refused.args[0] and settings.read_text() == "{ broken"
