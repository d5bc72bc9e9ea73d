"""Start with the system: the XDG autostart entry is written, read back, removed, and its Exec line
is run by GLib's own desktop-entry launcher (``gio launch``), the code GNOME's session uses."""

from __future__ import annotations

import plistlib
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from desktop import autostart

pytestmark = pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="the XDG autostart folder")


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "config"


def test_enable_and_disable(config: Path) -> None:
    entry = config / "autostart" / "hipocampo.desktop"
    assert not autostart.is_enabled() and autostart.location() == str(entry)
    autostart.set_enabled(True)
    assert autostart.is_enabled()
    text = entry.read_text(encoding="utf-8")
    assert text.startswith("[Desktop Entry]\nType=Application\nName=Hipocampo\n")
    exec_line = next(line for line in text.splitlines() if line.startswith("Exec="))
    assert exec_line.endswith(" --tray")  # the app starts quietly in the tray at login
    assert autostart.app_command()[0] in exec_line
    autostart.set_enabled(False)
    assert not autostart.is_enabled() and not entry.exists()
    autostart.set_enabled(False)  # already off: nothing to do, no error


def test_the_exec_line_survives_a_real_launcher(config: Path, tmp_path: Path) -> None:
    gio = shutil.which("gio")
    if gio is None:
        pytest.skip("GLib's gio is not installed")
    out = tmp_path / "a folder" / 'out $HOME 100% "q" back\\slash.txt'
    out.parent.mkdir()
    script = "import sys, pathlib; pathlib.Path(sys.argv[1]).write_text(repr(sys.argv[2:]))"
    command = [sys.executable, "-c", script, str(out), "two words", "%f", "it's"]
    autostart.set_enabled(True, command)
    subprocess.run([gio, "launch", autostart.location()], check=True, timeout=60, capture_output=True)
    deadline = time.monotonic() + 30
    while not out.exists() and time.monotonic() < deadline:  # gio returns once the child is spawned
        time.sleep(0.05)
    assert out.read_text() == repr(["two words", "%f", "it's"])


def test_launch_agent_for_macos() -> None:
    agent = plistlib.loads(plistlib.dumps(autostart.launch_agent(["/Applications/Hipocampo.app/Contents/MacOS/"
                                                                  "Hipocampo", "--tray"])))
    assert agent == {"Label": "org.hipocampo.app", "RunAtLoad": True, "ProcessType": "Interactive",
                     "ProgramArguments": ["/Applications/Hipocampo.app/Contents/MacOS/Hipocampo", "--tray"]}
