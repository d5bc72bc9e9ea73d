"""Render the app's window, every pane and the main dialogs to PNG, from a demo memory.

    .venv/bin/python scripts/screenshots.py              # → docs/screenshots/*.png (English, then Spanish)
    .venv/bin/python scripts/screenshots.py --out /tmp/shots --entities 2000 --lang es

Runs offscreen (no display needed): a demo memory is generated in a temporary folder, embedded
with the local model, opened in the real app, and driven the way a user would — an entity
opened, a search typed, an insight selected — before each picture is taken, in light and dark,
in English and in Spanish (``*-es.png``: the main window light and dark, the editor, the insights
and the first-run screen).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QTranslator  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication, QLineEdit, QWidget  # noqa: E402

from desktop.theme import apply_theme  # noqa: E402

SIZE = (1440, 900)


async def settle(seconds: float = 0.6, until: Callable[[], bool] | None = None) -> None:
    """Let the event loop run queued work and repaints (until ``until()`` holds, at most 30 s)."""
    deadline = time.monotonic() + 30
    end = time.monotonic() + seconds
    while time.monotonic() < end or (until is not None and not until() and time.monotonic() < deadline):
        await asyncio.sleep(0.02)


def save(widget: QWidget, out: Path, name: str) -> None:
    path = out / f"{name}.png"
    widget.grab().save(str(path))
    print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--entities", type=int, default=300)
    parser.add_argument("--lang", choices=["all", "en", "es"], default="all")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.lang == "all":  # one process per language: widgets take their words when they are built
        for lang in ("en", "es"):
            subprocess.run([sys.executable, __file__, "--out", str(args.out), "--entities", str(args.entities),
                            "--lang", lang], check=True)
        return 0

    with tempfile.TemporaryDirectory(prefix="hipocampo-demo-") as tmp:
        tmp_path = Path(tmp)
        os.environ["HIPOCAMPO_ENDPOINT_FILE"] = str(tmp_path / "endpoint.json")
        os.environ["XDG_CONFIG_HOME"] = str(tmp_path / "config")  # the first-run screen's config checks
        from PySide6.QtCore import QSettings

        # The window's remembered layout too: a layout the user (or another run) left never reaches a shot.
        for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
            QSettings.setPath(fmt, QSettings.Scope.UserScope, str(tmp_path / "config"))
        from core import clients
        from core.memory import Memory
        from core.settings import Settings
        from scripts.demo_memory import generate

        # The shots show the command of a typical installation, not the path of this checkout's virtualenv.
        clients.find_script = lambda name: Path("/usr/local/bin") / name

        db = generate(tmp_path / "memory.db", args.entities)
        with Memory(Settings(db=db)) as memory:
            memory.embed_pending()

        import qasync

        from desktop.app import HipocampoApp, make_qapplication

        app = make_qapplication()
        if args.lang == "es":
            from PySide6.QtCore import QLocale

            from desktop.app import install_translations

            for translator in app.findChildren(QTranslator):
                app.removeTranslator(translator)
            install_translations(app, QLocale("es_ES"))
            QLocale.setDefault(QLocale("es_ES"))
        loop = qasync.QEventLoop(app)
        asyncio.set_event_loop(loop)
        hipocampo = HipocampoApp(Settings(db=db, actor="gui", close_to_tray=False), hub_file=tmp_path / "endpoint.json",
                                 first_run=False)
        hipocampo.finished.connect(app.quit)
        window = hipocampo.window
        window.resize(*SIZE)

        async def scenario() -> None:
            hipocampo.start()
            while hipocampo.core is None or hipocampo.hub is None or not hipocampo.hub.running:
                await asyncio.sleep(0.05)
            await asyncio.sleep(1.5)
            await shoot_all(app, hipocampo, args.out, tmp_path, "-es" if args.lang == "es" else "")
            hipocampo.quit(force=True)

        asyncio.ensure_future(scenario())
        with loop:
            loop.run_forever()
    return 0


async def shoot_all(app: QApplication, hipocampo: object, out: Path, tmp_path: Path, lang: str = "") -> None:
    window = hipocampo.window  # type: ignore[attr-defined]
    panes = window.panes
    for theme, suffix in (("light", lang), ("dark", f"-dark{lang}")):
        apply_theme(app, theme)
        await settle(0.8)
        window.open_entity("Billing service")
        await settle(1.5)
        search = panes["search"]
        box = search.findChild(QLineEdit)
        if box is not None:
            box.clear()
            QTest.keyClicks(box, "facturas enviadas dos veces")
        await settle(2.0)
        save(window, out, f"main-window{suffix}")
        if theme == "dark":
            continue
        save(window.docks["editor"], out, f"editor{lang}")
        window.docks["insights"].raise_()
        await settle(0.5)
        pane = panes["insights"]
        pane.pending_view.setCurrentIndex(pane.pending_model.index(0, 0))
        await settle(0.8)
        pane.resize(900, 360)
        save(pane, out, f"insights{lang}")
        if lang:
            continue
        save(panes["graph"], out, "graph")
        save(window.docks["search"], out, "search")
        window.docks["activity"].raise_()
        await settle(0.5)
        panes["activity"].resize(900, 360)
        save(panes["activity"], out, "activity")
        panes["graph"].show_overview()
        await settle(2.0)
        save(panes["graph"], out, "graph-overview")

    apply_theme(app, "light")
    from desktop.dialogs.first_run import FirstRunDialog

    dialog = FirstRunDialog(hipocampo.settings, endpoint=hipocampo.hub.info)  # type: ignore[attr-defined]
    dialog.resize(860, 640)
    dialog.show()
    await settle(0.8)
    save(dialog, out, f"first-run{lang}")
    dialog.close()
    if lang:
        return

    from desktop.dialogs.settings_dialog import SettingsDialog

    settings_dialog = SettingsDialog(hipocampo.settings)  # type: ignore[attr-defined]
    settings_dialog.show()
    await settle(0.5)
    save(settings_dialog, out, "settings")
    settings_dialog.close()

    sample = tmp_path / "memory.jsonl"
    sample.write_text(
        '{"type":"entity","name":"Kafka","entityType":"technology","observations":["Event stream"]}\n'
        '{"type":"entity","name":"Lucía Gil","entityType":"person","observations":["Joined the data team"]}\n'
        '{"type":"relation","from":"Lucía Gil","to":"Kafka","relationType":"uses"}\n'
        '{"type":"entity","name": broken line\n', encoding="utf-8")
    from desktop.dialogs.import_dialog import ImportDialog

    importer = ImportDialog(hipocampo.core, [sample])  # type: ignore[attr-defined]
    importer.show()
    await settle(2.0)
    save(importer, out, "import-preview")
    importer.close()


if __name__ == "__main__":
    sys.exit(main())
