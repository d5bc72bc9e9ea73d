"""``hipocampo brief`` and ``hipocampo pin`` as a person runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from core.memory import Memory
from core.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def cli(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "core.cli", "--db", str(db), *args], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), "HIPOCAMPO_EMBEDDINGS": "none"},
                          timeout=120)


def test_brief_and_pin_from_the_command_line(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with Memory(Settings(db=db, embeddings="none")) as memory:
        memory.create_entities([{"name": "Ada", "entityType": "Person", "observations": ["wrote the first program"]}])
    pinned = cli(db, "pin", "Ada", "wrote the first program")
    assert pinned.returncode == 0 and pinned.stdout == "Pinned 'wrote the first program' of Ada.\n"
    assert cli(db, "pin", "--list").stdout == "Ada: wrote the first program\n"
    shown = cli(db, "brief")
    assert shown.returncode == 0 and "## Pinned by the user\n- Ada (Person): wrote the first program" in shown.stdout
    assert shown.stderr.startswith("Hipocampo: brief ") and "1 of 1 entities" in shown.stderr
    as_json = json.loads(cli(db, "brief", "--json", "--max-tokens", "300").stdout)
    assert as_json["budget"] == 300 and as_json["sections"]["pinned"] == ["Ada"]


def test_bad_input_is_refused_with_a_reason_and_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with Memory(Settings(db=db, embeddings="none")) as memory:
        memory.create_entities([{"name": "Ada", "entityType": "Person", "observations": ["x"]}])
    missing = cli(db, "pin", "Bob")
    assert missing.returncode == 2 and "No entity named 'Bob'" in missing.stderr
    wrong_fact = cli(db, "pin", "Ada", "y")
    assert wrong_fact.returncode == 2 and "has no observation 'y'" in wrong_fact.stderr
    budget = cli(db, "brief", "--max-tokens", "5")
    assert budget.returncode == 2 and "max_tokens must be a whole number from 200" in budget.stderr
    nowhere = cli(tmp_path / "none.db", "brief")
    assert nowhere.returncode == 2 and "There is no memory at" in nowhere.stderr
    assert not (tmp_path / "none.db").exists()
    with Memory(Settings(db=db, embeddings="none")) as memory:
        assert memory.pins() == []
