"""Quit's first step: ``Memory.halt_background`` ends the background pass inside the model at its
next operator, without waiting, so the hub and the readers stop while it ends (the app then closes
the memory, which no longer waits for a batch). Real model, real database."""

from __future__ import annotations

from pathlib import Path

from core.memory import Memory
from core.settings import Settings
from tests.embeddings.test_yielding import LONG, _until


def test_halt_background_ends_the_pass_in_the_model_without_waiting(tmp_path: Path, model_dir: Path) -> None:
    memory = Memory(Settings(db=tmp_path / "m.db", embeddings="onnx", model_dir=model_dir))
    try:
        memory.create_entities([{"name": f"meeting {i}", "entityType": "note", "observations": [LONG, f"{i} {LONG}"]}
                                for i in range(300)])
        memory.load_embedder()
        memory.start_background()
        provider = memory.embedder
        assert _until(lambda: bool(provider._document_calls))  # a batch is inside the model
        thread = memory.indexer._thread
        memory.halt_background()  # returns at once …
        assert thread is not None and _until(lambda: not thread.is_alive())  # … and the pass ends by itself
        assert memory.embedding_status()["pending"] > 0  # abandoned, not finished: done again next time
    finally:
        memory.close()
    with Memory(Settings(db=tmp_path / "m.db", embeddings="none")) as again:  # nothing half-stored
        assert len(again.read_graph().entities) == 300
