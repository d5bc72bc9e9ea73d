"""Settings: the memory file, how meaning is computed, the hub's port, start at login, the tray.

What the user changes is saved in the user's settings file (``core.settings.save_user_settings``),
which every Hipocampo process reads below env vars and command-line flags. Only changed values are
written, so a database chosen with ``--db`` or ``HIPOCAMPO_DB`` for one run is never made permanent
by opening this dialog. ``changed`` tells the app what changed, so it can reopen the memory.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from core.clients import display_path
from core.embeddings.openai_compat import OpenAICompatibleProvider
from core.errors import HipocampoError
from core.settings import Settings, from_environment, save_user_settings, settings_file
from desktop import autostart
from desktop.dialogs.feedback import section_heading, show_feedback
from desktop.resources import app_icon

PROVIDERS = ("onnx", "openai", "none")
TEST_TIMEOUT_S = 15.0
SQLITE_HEADER = b"SQLite format 3\x00"


class SettingsDialog(QDialog):
    """Edit and save the user's settings, each checked as it is typed."""

    #: after Save: {setting name: new value} for what the user changed
    changed = Signal(dict)
    #: a connection test finished: (it worked, the sentence shown)
    tested = Signal(bool, str)

    def __init__(self, settings: Settings, parent: QWidget | None = None, *,
                 settings_path: Path | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.settings_path = settings_path
        self._saved: dict[str, Any] = {}
        self.setWindowTitle(self.tr("Hipocampo settings"))
        self.setWindowIcon(app_icon())

        # -- memory ----------------------------------------------------------------------------
        self.db_edit = QLineEdit(str(settings.db))
        self.db_edit.setObjectName("db")
        self.db_edit.setClearButtonEnabled(True)
        browse = QPushButton(self.tr("Browse…"))
        browse.clicked.connect(self.on_browse)
        db_row = QHBoxLayout()
        db_row.addWidget(self.db_edit, 1)
        db_row.addWidget(browse)
        self.db_note = QLabel()
        self.db_note.setWordWrap(True)
        self.db_edit.textChanged.connect(self.on_edited)

        # -- embeddings ------------------------------------------------------------------------
        self.provider_buttons = {
            "onnx": QRadioButton(self.tr("Local model: private, works offline (built in)")),
            "openai": QRadioButton(self.tr("OpenAI-compatible server: Ollama, LM Studio, vLLM, OpenAI…")),
            "none": QRadioButton(self.tr("None: search by words only")),
        }
        self.provider_group = QButtonGroup(self)
        for button in self.provider_buttons.values():
            self.provider_group.addButton(button)
        self.provider_buttons[settings.embeddings].setChecked(True)
        self.provider_group.buttonToggled.connect(self.on_edited)
        self.url_edit = QLineEdit(settings.openai_base_url)
        self.url_edit.setPlaceholderText("http://127.0.0.1:11434/v1")
        self.model_edit = QLineEdit(settings.openai_model)
        self.model_edit.setPlaceholderText("nomic-embed-text")
        self.key_edit = QLineEdit(settings.openai_api_key or "")
        self.key_edit.setEchoMode(QLineEdit.EchoMode.PasswordEchoOnEdit)
        self.key_edit.setPlaceholderText(self.tr("only if the server asks for one"))
        for edit in (self.url_edit, self.model_edit, self.key_edit):
            edit.textChanged.connect(self.on_edited)
        self.test_button = QPushButton(self.tr("Test connection"))
        self.test_button.clicked.connect(self.on_test)
        self.test_result = QLabel()
        self.test_result.setWordWrap(True)
        self.test_result.setVisible(False)
        self.tested.connect(self.on_tested)
        self.openai_box = QWidget()
        openai_form = QFormLayout(self.openai_box)
        openai_form.setContentsMargins(24, 0, 0, 0)
        openai_form.addRow(self.tr("Base URL"), self.url_edit)
        openai_form.addRow(self.tr("Model"), self.model_edit)
        openai_form.addRow(self.tr("API key"), self.key_edit)
        test_row = QHBoxLayout()
        test_row.addWidget(self.test_button)
        test_row.addStretch(1)
        openai_form.addRow("", test_row)
        openai_form.addRow(self.test_result)
        self.embed_note = QLabel()
        self.embed_note.setWordWrap(True)

        # -- hub and app -----------------------------------------------------------------------
        self.port_spin = QSpinBox()
        self.port_spin.setRange(0, 65535)
        self.port_spin.setSpecialValueText(self.tr("Automatic"))
        self.port_spin.setValue(settings.hub_port)
        self.port_spin.valueChanged.connect(self.on_edited)
        self.port_note = QLabel()
        self.port_note.setWordWrap(True)
        self.autostart_box = QCheckBox(self.tr("Start Hipocampo when I log in (in the tray)"))
        self.autostart_box.setChecked(autostart.is_enabled())
        self.tray_box = QCheckBox(self.tr("Keep serving assistants from the tray when the window is closed"))
        self.tray_box.setChecked(settings.close_to_tray)
        self.theme_combo = QComboBox()
        for key, label in (("system", self.tr("Like the system")), ("light", self.tr("Light")),
                           ("dark", self.tr("Dark"))):
            self.theme_combo.addItem(label, key)
        self.theme_combo.setCurrentIndex(max(0, self.theme_combo.findData(settings.theme)))
        self.theme_combo.currentIndexChanged.connect(self.on_edited)
        # -- what was recalled, and updates of facts (memory hygiene) -------------------------------
        self.read_log_box = QCheckBox(self.tr("Keep a log of what assistants recall (on this computer only)"))
        self.read_log_box.setToolTip(self.tr("Each search and read an assistant makes, with what it found, shown in "
                                             "Activity and in the editor; the oldest go past {n} reads").format(
            n=f"{settings.read_log_keep:,}"))
        self.read_log_box.setChecked(settings.read_log)
        self.auto_approve_box = QCheckBox(self.tr("Approve updated facts without asking me"))
        self.auto_approve_box.setToolTip(self.tr(
            "When reflect finds that a newer fact updates an older one, mark the older as superseded at once. "
            "It is never deleted; undo brings it back."))
        self.auto_approve_box.setChecked(settings.auto_approve_supersessions)
        self.env_note = QLabel()
        self.env_note.setWordWrap(True)
        self.app_error = QLabel()
        self.app_error.setWordWrap(True)
        self.app_error.setVisible(False)

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 16, 20, 14)
        layout.setSpacing(8)
        layout.addWidget(section_heading(self.tr("Memory file"), self))
        layout.addLayout(db_row)
        layout.addWidget(self.db_note)
        layout.addSpacing(6)
        layout.addWidget(section_heading(self.tr("Search by meaning"), self))
        for key in PROVIDERS:
            layout.addWidget(self.provider_buttons[key])
            if key == "openai":
                layout.addWidget(self.openai_box)
        layout.addWidget(self.embed_note)
        layout.addSpacing(6)
        layout.addWidget(section_heading(self.tr("Assistants and the app"), self))
        port_form = QFormLayout()
        port_form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
        self.port_spin.setMinimumWidth(160)
        port_form.addRow(self.tr("Port for assistants"), self.port_spin)
        port_form.addRow("", self.port_note)  # the port's own note, right under it (not under Appearance)
        port_form.addRow(self.tr("Appearance"), self.theme_combo)
        layout.addLayout(port_form)
        layout.addWidget(self.autostart_box)
        layout.addWidget(self.tray_box)
        layout.addWidget(self.read_log_box)
        layout.addWidget(self.auto_approve_box)
        layout.addWidget(self.env_note)
        layout.addWidget(self.app_error)
        layout.addStretch(1)
        layout.addWidget(self.buttons)
        self._show_overrides()
        self.on_edited()
        self.resize(640, self.sizeHint().height())

    # -- reading the form ----------------------------------------------------------------------

    def provider(self) -> str:
        """The embedding provider chosen: ``onnx``, ``openai`` or ``none``."""
        return next(k for k, b in self.provider_buttons.items() if b.isChecked())

    def values(self) -> dict[str, Any]:
        """Every setting as the form shows it."""
        return {
            "db": Path(self.db_edit.text().strip()).expanduser().absolute(),
            "embeddings": self.provider(),
            "openai_base_url": self.url_edit.text().strip(),
            "openai_model": self.model_edit.text().strip(),
            "openai_api_key": self.key_edit.text().strip() or None,
            "hub_port": self.port_spin.value(),
            "close_to_tray": self.tray_box.isChecked(),
            "start_with_system": self.autostart_box.isChecked(),
            "theme": self.theme_combo.currentData(),
            "read_log": self.read_log_box.isChecked(),
            "auto_approve_supersessions": self.auto_approve_box.isChecked(),
        }

    def changes(self) -> dict[str, Any]:
        """The settings that differ from what the dialog was opened with."""
        current = self.settings.model_dump()
        current["db"] = Path(current["db"]).expanduser().absolute()
        current["start_with_system"] = autostart.is_enabled()
        return {k: v for k, v in self.values().items() if current.get(k) != v}

    def result_settings(self) -> Settings:
        """The settings to use from now on: the ones opened with, plus what was changed."""
        return self.settings.model_copy(update=self._saved or self.changes())

    # -- checking as the user types -------------------------------------------------------------

    def on_edited(self, *_args: object) -> None:
        db_error = self._db_problem()
        if db_error:
            show_feedback(self.db_note, db_error, "error")
        elif self.values()["db"] != Path(self.settings.db).expanduser().absolute():
            show_feedback(self.db_note, self.tr("Hipocampo will close the memory it has open and open this one "
                                                "(a file that does not exist yet starts an empty memory)."), "info")
        else:
            show_feedback(self.db_note, self.tr("Everything your assistants remember is kept in this one file."),
                          "muted")

        openai = self.provider() == "openai"
        self.openai_box.setEnabled(openai)
        openai_error = self._openai_problem() if openai else ""
        if openai_error:
            show_feedback(self.embed_note, openai_error, "error")
        elif self.provider() != self.settings.embeddings:
            show_feedback(self.embed_note, self.tr("After saving, the meaning of every memory is computed again "
                                                   "in the background; search by words works meanwhile."), "info")
        else:
            show_feedback(self.embed_note, self.tr("Meaning lets a search for “holiday plans” find “a trip to "
                                                   "Lisbon in May”, in any language the model knows."), "muted")

        port = self.port_spin.value()
        port_error = ""
        if 0 < port < 1024:
            port_error = self.tr("Ports below 1024 need administrator rights: choose 1024 or above, or Automatic.")
            show_feedback(self.port_note, port_error, "error")
        else:
            show_feedback(self.port_note, self.tr("Only this computer can connect (127.0.0.1). Automatic picks a "
                                                  "free port each time; a fixed one suits clients set up with a URL."),
                          "muted")
        self.save_button.setEnabled(not (db_error or openai_error or port_error))
        self._grow()

    def _grow(self) -> None:
        """Make room for a sentence that got longer (never shrink under the user's hands)."""
        self.layout().activate()
        wanted = self.sizeHint().height()
        if self.isVisible() and wanted > self.height():
            self.resize(self.width(), wanted)

    def _db_problem(self) -> str:
        text = self.db_edit.text().strip()
        if not text:
            return self.tr("Choose the file that holds the memory.")
        path = Path(text).expanduser().absolute()
        if path.is_dir():
            return self.tr("{path} is a folder; choose a file inside it.").format(path=path)
        if path.is_file():
            try:
                with path.open("rb") as fh:
                    head = fh.read(len(SQLITE_HEADER))
            except OSError as exc:
                return self.tr("Hipocampo cannot read {path}: {reason}.").format(path=path, reason=exc.strerror)
            if head and head != SQLITE_HEADER:
                return self.tr("{name} is not a Hipocampo memory (it is not an SQLite database).").format(
                    name=path.name)
            return ""
        folder = path.parent
        while not folder.exists() and folder != folder.parent:
            folder = folder.parent
        if not os.access(folder, os.W_OK):
            return self.tr("Hipocampo cannot create files in {folder}.").format(folder=folder)
        return ""

    def _openai_problem(self) -> str:
        url = urlparse(self.url_edit.text().strip())
        if url.scheme not in ("http", "https") or not url.netloc:
            return self.tr("Enter the server's address, like http://127.0.0.1:11434/v1.")
        if not self.model_edit.text().strip():
            return self.tr("Enter the name of the embedding model, like nomic-embed-text.")
        return ""

    def _show_overrides(self) -> None:
        from_env = from_environment()
        present = [f"HIPOCAMPO_{k.upper()}" for k in ("db", "embeddings", "openai_base_url", "openai_model",
                                                      "openai_api_key", "hub_port", "close_to_tray")
                   if k in from_env]
        text = self.tr("Saved in {file}, which the assistants' Hipocampo reads too.").format(
            file=display_path(self.settings_path or settings_file()))
        if present:
            text += " " + self.tr("Set in the environment, so it wins over this dialog the next time Hipocampo "
                                  "starts: {names}.").format(names=", ".join(present))
        show_feedback(self.env_note, text, "muted")

    # -- actions -------------------------------------------------------------------------------

    def on_browse(self) -> None:
        current = Path(self.db_edit.text().strip() or str(self.settings.db)).expanduser()
        path, _ = QFileDialog.getSaveFileName(
            self, self.tr("Memory file"), str(current), self.tr("Hipocampo memory (*.db *.sqlite);;All files (*)"),
            options=QFileDialog.Option.DontConfirmOverwrite)  # choosing an existing memory opens it
        if path:
            self.db_edit.setText(path)

    def on_test(self) -> None:
        """Embed one short text with the endpoint as typed, on a thread of its own."""
        if self._openai_problem():
            return
        url, model = self.url_edit.text().strip(), self.model_edit.text().strip()
        key = self.key_edit.text().strip() or None
        self.test_button.setEnabled(False)
        show_feedback(self.test_result, self.tr("Testing {url}…").format(url=url), "muted")
        self._grow()

        def run() -> None:
            provider = OpenAICompatibleProvider(url, model, api_key=key, retries=0, timeout=TEST_TIMEOUT_S)
            try:
                dims = provider.dimensions
            except HipocampoError as exc:
                ok, text = False, str(exc)
            except Exception as exc:  # noqa: BLE001 - whatever the server does, say it in a sentence
                ok, text = False, self.tr("The test failed: {reason}").format(reason=exc)
            else:
                ok, text = True, self.tr("Connected: {model} answers with {dims}-dimensional vectors.").format(
                    model=model, dims=dims)
            finally:
                provider.close()
            try:
                self.tested.emit(ok, text)
            except RuntimeError:  # the dialog was closed meanwhile
                pass

        threading.Thread(target=run, name="hipocampo-test-embeddings", daemon=True).start()

    def on_tested(self, ok: bool, text: str) -> None:
        self.test_button.setEnabled(True)
        # the core's advice names an env var; here the radio buttons above are the way to turn it off
        text = text.replace(", or set HIPOCAMPO_EMBEDDINGS=none.", ".")
        show_feedback(self.test_result, text, "success" if ok else "error")
        self._grow()

    def accept(self) -> None:
        """Save what changed (start at login first: it is the one that can fail), then close."""
        changes = self.changes()
        try:
            if "start_with_system" in changes:
                autostart.set_enabled(changes["start_with_system"])
            save_user_settings(changes, self.settings_path)
        except (OSError, ValueError) as exc:
            show_feedback(self.app_error, self.tr("Could not save the settings: {reason}").format(reason=exc),
                          "error")
            return
        self._saved = changes
        super().accept()
        if changes:
            self.changed.emit(changes)
