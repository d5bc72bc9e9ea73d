"""Start Hipocampo when the user logs in, the way each desktop expects it:

- Linux and other freedesktop systems: a ``.desktop`` file in ``$XDG_CONFIG_HOME/autostart``
  (the XDG Autostart specification), which GNOME, KDE, Xfce, Cinnamon and LXQt all honour;
- macOS: a LaunchAgent property list in ``~/Library/LaunchAgents`` with ``RunAtLoad``, loaded by
  launchd at the next login (nothing is started now);
- Windows: a value under ``HKEY_CURRENT_USER\\Software\\Microsoft\\Windows\\CurrentVersion\\Run``,
  written through ``QSettings``' native (registry) format.

Nothing here needs administrator rights, and turning it off removes exactly what was added.
"""

from __future__ import annotations

import contextlib
import os
import plistlib
import subprocess
import sys
from pathlib import Path

from core.clients import find_script

APP_ID = "hipocampo"
LAUNCH_AGENT_LABEL = "org.hipocampo.app"
WINDOWS_RUN_KEY = r"HKEY_CURRENT_USER\Software\Microsoft\Windows\CurrentVersion\Run"
WINDOWS_VALUE = "Hipocampo"


def app_command() -> list[str]:
    """The command that starts the desktop app: the bundle's executable when frozen, this
    installation's ``hipocampo-app`` script, else this Python running the launcher."""
    if getattr(sys, "frozen", False):
        return [str(Path(sys.executable).absolute())]
    script = find_script("hipocampo-app")
    if script is not None:
        return [str(script)]
    return [str(Path(sys.executable).absolute()), "-m", "desktop.launcher"]


def location() -> str:
    """Where the start-up entry lives on this system (a file path, or the registry key)."""
    if os.name == "nt":
        return f"{WINDOWS_RUN_KEY}\\{WINDOWS_VALUE}"
    return str(_entry_path())


def is_enabled() -> bool:
    """Whether Hipocampo is set to start when the user logs in."""
    if os.name == "nt":
        return _run_key().contains(WINDOWS_VALUE)
    return _entry_path().is_file()


def set_enabled(enabled: bool, command: list[str] | None = None) -> None:
    """Add (or refresh) or remove the start-up entry; by default it starts the app in the tray
    (``--tray``). Raises ``OSError`` when it cannot be written."""
    command = command or [*app_command(), "--tray"]
    if os.name == "nt":
        run = _run_key()
        if enabled:
            run.setValue(WINDOWS_VALUE, subprocess.list2cmdline(command))
        else:
            run.remove(WINDOWS_VALUE)
        run.sync()
        if run.status() != run.Status.NoError:
            raise OSError(f"Windows did not accept the change to {WINDOWS_RUN_KEY}.")
        return
    path = _entry_path()
    if not enabled:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    if sys.platform == "darwin":
        path.write_bytes(plistlib.dumps(launch_agent(command)))
    else:
        path.write_text(desktop_entry(command), encoding="utf-8")


def _entry_path() -> Path:
    if sys.platform == "darwin":
        return Path.home() / "Library" / "LaunchAgents" / f"{LAUNCH_AGENT_LABEL}.plist"
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "autostart" / f"{APP_ID}.desktop"


def _run_key():  # noqa: ANN202 - QSettings, imported only on Windows
    from PySide6.QtCore import QSettings

    return QSettings(WINDOWS_RUN_KEY, QSettings.Format.NativeFormat)


# -- file formats ---------------------------------------------------------------------------------


def desktop_entry(command: list[str]) -> str:
    """An XDG autostart entry that runs ``command``."""
    return (
        "[Desktop Entry]\n"
        "Type=Application\n"
        "Name=Hipocampo\n"
        "Comment=Local-first memory for AI assistants\n"
        f"Exec={exec_line(command)}\n"
        "Icon=hipocampo\n"
        "Terminal=false\n"
        "X-GNOME-Autostart-enabled=true\n"
    )


def exec_line(command: list[str]) -> str:
    """``command`` as a Desktop Entry ``Exec`` value: arguments with reserved characters in double
    quotes (``"``, `````, ``$`` and ``\\`` escaped inside), ``%`` doubled (field codes), and then
    backslashes doubled once more because ``Exec`` is itself an escaped string."""
    reserved = set(" \t\n\"'\\><~|&;$*?#()`")
    words = []
    for arg in command:
        arg = arg.replace("%", "%%")
        if any(c in reserved for c in arg) or not arg:
            arg = '"' + "".join("\\" + c if c in '"`$\\' else c for c in arg) + '"'
        words.append(arg)
    return " ".join(words).replace("\\", "\\\\")


def launch_agent(command: list[str]) -> dict[str, object]:
    """A LaunchAgent that runs ``command`` once at login, as an interactive app."""
    return {
        "Label": LAUNCH_AGENT_LABEL,
        "ProgramArguments": list(command),
        "RunAtLoad": True,
        "ProcessType": "Interactive",
    }
