"""Local, offline text embeddings: multilingual-e5-small (int8) on onnxruntime.

The model folder is produced by ``packaging/build_model.py``.  Reading
``model.json`` is cheap and happens at construction; the onnxruntime session
(~80 MB model) and the tokenizer load lazily, on the first embed (or
:meth:`load`), once, even if several threads ask at the same time.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from core.embeddings.model_dir import MODEL_JSON, REQUIRED_FILES, default_model_dir, read_model_json
from core.errors import EmbeddingError, EmbeddingInterrupted
from core.processes import release_freed_memory

if TYPE_CHECKING:  # numpy loads with the model, not with the server
    import numpy as np

#: A text longer than this many characters per allowed token cannot fit in the
#: window anyway; cutting it first bounds tokenizer work on huge inputs.
log = logging.getLogger(__name__)
_CHARS_PER_TOKEN_CAP = 64
#: Padded tokens per forward pass: enough rows to keep both cores busy, and a pass short
#: enough (~0.2–0.4 s on 2 cores) that a foreground call interrupting it wastes little.
TOKENS_PER_PASS = 2048


def _open_session(model_path: Path, threads: int) -> Any:
    """Create the onnxruntime session (a seam tests can count or slow down)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    # Explicit thread counts: the default (one per core) fights the rest of the app.
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3  # errors only; quantised-graph notices are noise
    # Idle pool threads sleep instead of spinning: spinning burns the cores a tool call needs.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])


def _open_tokenizer(tokenizer_path: Path, max_tokens: int) -> Any:
    """Load ``tokenizer.json`` with truncation to ``max_tokens`` (specials included).

    A Unigram vocabulary (the model's) loads as :class:`UnigramTokenizer`: the same ids in
    ~17 MB instead of ~280 MB."""
    from core.embeddings.tokenizer import UnigramTokenizer

    try:
        tokenizer: Any = UnigramTokenizer(tokenizer_path, max_tokens)
    except ValueError:  # another kind of tokenizer: tokenizers itself
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(tokenizer_path))
        tokenizer.enable_truncation(max_length=max_tokens)
        tokenizer.no_padding()  # we pad per batch, to the longest text in it
    return tokenizer


def _clean(text: str, limit: int) -> str:
    """Cap the length and replace lone surrogates, which the tokenizer rejects."""
    if not isinstance(text, str):
        raise TypeError(f"texts must be str, got {type(text).__name__}")
    text = text[:limit]
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-8", "replace").decode("utf-8")
    return text


class _Call:
    """One interruptible embed_documents call: interrupted, and the pass it is running."""

    __slots__ = ("interrupted", "run")

    def __init__(self) -> None:
        self.interrupted = False
        self.run: Any = None  # onnxruntime.RunOptions of the pass in progress


class OnnxEmbeddingProvider:
    """Embed text with the local multilingual-e5-small int8 ONNX model.

    Vectors are float32, mean-pooled over the tokens and L2-normalised.
    Documents get the ``passage:`` prefix and queries the ``query:`` one, as
    e5 requires.  Texts longer than the model window (512 tokens) are
    truncated.  Safe to share between threads.

    Args:
        model_dir: folder with ``model.onnx`` (and the ``model.onnx.data`` of its weights, which
            onnxruntime maps instead of copying), ``tokenizer.json`` and ``model.json``; defaults
            to :func:`default_model_dir`.
        threads: onnxruntime intra-op threads; default ``min(4, cpu_count)``.
        batch_size: at most this many texts per forward pass; passes are also capped at
            ``tokens_per_pass`` padded tokens (texts are sorted by length, so padding is small).

    Raises:
        EmbeddingError: the folder is missing or its ``model.json`` is invalid.
    """

    def __init__(self, model_dir: Path | None = None, threads: int | None = None,
                 batch_size: int = 64, tokens_per_pass: int = TOKENS_PER_PASS) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        if threads is not None and threads < 1:
            raise ValueError("threads must be at least 1")
        self.model_dir = Path(model_dir) if model_dir is not None else default_model_dir()
        meta = self._read_meta(self.model_dir)
        self.model_id: str = meta["id"]
        self.dimensions: int = meta["dimensions"]
        self.max_tokens: int = meta["max_tokens"]
        self.query_prefix: str = meta["query_prefix"]
        self.passage_prefix: str = meta["passage_prefix"]
        self.threads: int = threads or min(4, os.cpu_count() or 1)
        self.batch_size = batch_size
        self.tokens_per_pass = tokens_per_pass
        self._lock = threading.Lock()
        self._runs_lock = threading.Lock()
        self._document_calls: set[_Call] = set()  # embed_documents calls in progress
        # Set by the background indexer (e.g. ``Foreground.busy``): a document pass about to start
        # while it says True is not started. interrupt() alone stops passes already registered; a call
        # that began while embed_documents was still tokenizing would otherwise go unnoticed.
        self.should_yield: Callable[[], bool] | None = None
        self._session: Any = None
        self._tokenizer: Any = None
        self._preloaded_tokenizer: Any = None  # read by warm_up, taken by the first load
        self._pad_id = 1

    # ------------------------------------------------------------ loading --

    @staticmethod
    def _read_meta(folder: Path) -> dict[str, Any]:
        """Read and validate ``model.json`` without touching the model itself."""
        hint = "build it with `python packaging/build_model.py` (or set HIPOCAMPO_MODEL_DIR)"
        if not folder.is_dir():
            raise EmbeddingError(f"Embedding model folder {folder} does not exist; {hint}.")
        try:
            meta = read_model_json(folder)
        except (OSError, ValueError) as exc:
            raise EmbeddingError(
                f"Embedding model folder {folder} has no valid {MODEL_JSON} ({exc}); {hint}.") from exc
        expected = {"id": str, "dimensions": int, "max_tokens": int, "query_prefix": str,
                    "passage_prefix": str, "pooling": str, "normalize": bool}
        wrong = [key for key, kind in expected.items() if not isinstance(meta.get(key), kind)]
        if wrong:
            raise EmbeddingError(f"{folder / MODEL_JSON} lacks or mistypes {', '.join(wrong)}; {hint}.")
        if meta["pooling"] != "mean" or not meta["normalize"]:
            raise EmbeddingError(f"{folder / MODEL_JSON}: only mean pooling with normalisation is supported.")
        if meta["dimensions"] < 1 or meta["max_tokens"] < 3:
            raise EmbeddingError(f"{folder / MODEL_JSON}: dimensions/max_tokens out of range.")
        sha256 = meta.get("sha256")
        listed: dict[str, Any] = sha256 if isinstance(sha256, dict) else {}
        missing = [name for name in dict.fromkeys([*REQUIRED_FILES, *listed]) if not (folder / name).is_file()]
        if missing:
            raise EmbeddingError(f"Embedding model folder {folder} lacks {', '.join(missing)}; {hint}.")
        return meta

    @property
    def loaded(self) -> bool:
        """True once the onnxruntime session and tokenizer are in memory."""
        return self._session is not None

    def load(self) -> None:
        """Load the session and tokenizer now (otherwise done on first use)."""
        self._ensure_loaded()

    def _ensure_loaded(self) -> tuple[Any, Any]:
        session, tokenizer = self._session, self._tokenizer
        if session is not None:
            return session, tokenizer
        with self._lock:  # double-checked: concurrent first calls load once
            if self._session is None:
                try:
                    session, tokenizer = self._load_both()
                except Exception as exc:  # onnxruntime/tokenizers raise their own types
                    raise EmbeddingError(
                        f"Could not load the embedding model in {self.model_dir}: {exc}") from exc
                self._check_output(session)
                pad = tokenizer.token_to_id("<pad>")
                self._pad_id = pad if pad is not None else 1
                self._tokenizer = tokenizer
                self._session = session  # published last: `loaded` implies both are set
            return self._session, self._tokenizer

    def warm_up(self) -> None:
        """Do now, at the calling thread's priority, the loading steps that hold the GIL (importing
        onnxruntime, reading tokenizer.json); the session itself is still opened by whoever first
        embeds. A niced thread holding the GIL on a busy machine stalls every other thread,
        signal handlers included (SIGTERM took 10-60 s at load 8)."""
        with self._lock:
            if self._session is None and self._preloaded_tokenizer is None:
                try:
                    import onnxruntime  # noqa: F401 - the import is the point

                    self._preloaded_tokenizer = _open_tokenizer(self.model_dir / "tokenizer.json", self.max_tokens)
                except Exception:  # reported by the first real load, which tries again
                    log.debug("model warm-up failed", exc_info=True)

    def _load_both(self) -> tuple[Any, Any]:
        """Open the tokenizer on a helper thread while the session opens here.

        Both take ~0.6 s and release the GIL for much of it, so overlapping
        them cuts the cold start by about a third.
        """
        box: dict[str, Any] = {}
        if self._preloaded_tokenizer is not None:  # warm_up read it already
            tokenizer, self._preloaded_tokenizer = self._preloaded_tokenizer, None
            return _open_session(self.model_dir / "model.onnx", self.threads), tokenizer

        def load_tokenizer() -> None:
            try:
                box["tokenizer"] = _open_tokenizer(self.model_dir / "tokenizer.json", self.max_tokens)
            except BaseException as exc:  # re-raised on the calling thread
                box["error"] = exc

        helper = threading.Thread(target=load_tokenizer, name="hipocampo-tokenizer-load", daemon=True)
        helper.start()
        try:
            session = _open_session(self.model_dir / "model.onnx", self.threads)
        finally:
            helper.join()
        if "error" in box:
            raise box["error"]
        release_freed_memory()  # what parsing the files went through (glibc keeps it otherwise)
        return session, box["tokenizer"]

    def _check_output(self, session: Any) -> None:
        names = {i.name for i in session.get_inputs()}
        if not {"input_ids", "attention_mask"} <= names:
            raise EmbeddingError(f"{self.model_dir / 'model.onnx'} lacks input_ids/attention_mask inputs.")
        width = session.get_outputs()[0].shape[-1]
        if isinstance(width, int) and width != self.dimensions:
            raise EmbeddingError(
                f"{self.model_dir / 'model.onnx'} outputs {width} dimensions but {MODEL_JSON} "
                f"says {self.dimensions}; rebuild the model folder.")

    def close(self) -> None:
        """Free the session and tokenizer; a later embed call loads them again."""
        with self._lock:
            self._session = None
            self._tokenizer = None

    def __enter__(self) -> OnnxEmbeddingProvider:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---------------------------------------------------------- embedding --

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Embed passages: float32 array ``(len(texts), dimensions)``, rows L2-normalised.

        Raises ``EmbeddingInterrupted`` if :meth:`interrupt` is called meanwhile."""
        if isinstance(texts, str):
            raise TypeError("embed_documents takes a sequence of texts, not one str")
        return self._embed([self.passage_prefix + _clean(t, self._char_cap) for t in texts], interruptible=True)

    def embed_query(self, text: str) -> np.ndarray:
        """Embed one search query: float32 array ``(dimensions,)``, L2-normalised."""
        return cast("np.ndarray", self._embed([self.query_prefix + _clean(text, self._char_cap)])[0])

    def interrupt(self) -> None:
        """Stop the document passes in progress at the next operator (queries are never stopped):
        a foreground call wants the cores."""
        with self._runs_lock:
            for call in self._document_calls:
                call.interrupted = True
                if call.run is not None:
                    call.run.terminate = True

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """Tokens each passage would take (prefix and special tokens included, after truncation)."""
        _, tokenizer = self._ensure_loaded()
        encoded = tokenizer.encode_batch([self.passage_prefix + _clean(t, self._char_cap) for t in texts])
        return [len(e.ids) for e in encoded]

    @property
    def _char_cap(self) -> int:
        return self.max_tokens * _CHARS_PER_TOKEN_CAP

    def _embed(self, texts: list[str], *, interruptible: bool = False) -> np.ndarray:
        import numpy as np

        out = np.empty((len(texts), self.dimensions), dtype=np.float32)
        if not texts:
            return out
        session, tokenizer = self._ensure_loaded()
        if len(texts) == 1:  # a query: skip the batch encoder's thread-pool round trip
            ids = [tokenizer.encode(texts[0], add_special_tokens=True).ids]
        else:
            ids = [enc.ids for enc in tokenizer.encode_batch(texts, add_special_tokens=True)]
        # Sorted by length, each pass pads little; rows go back to their slots.
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        call = _Call() if interruptible else None
        if call is not None:
            with self._runs_lock:
                self._document_calls.add(call)
        passes = self._passes(order, [len(i) for i in ids])
        try:
            for n, chunk in enumerate(passes):
                last = n == len(passes) - 1
                out[chunk] = self._forward(session, [ids[i] for i in chunk], call, shrink=last)
        finally:
            if call is not None:
                with self._runs_lock:
                    self._document_calls.discard(call)
        if interruptible:
            release_freed_memory()  # what the passes went through, now that the arena let it go
        return out

    def _passes(self, order: list[int], lengths: list[int]) -> list[list[int]]:
        """Cut ``order`` (ascending length) into passes of at most ``batch_size`` rows and
        ``tokens_per_pass`` padded tokens (one over-long text still gets its own pass)."""
        passes: list[list[int]] = []
        current: list[int] = []
        for i in order:
            if current and ((len(current) + 1) * lengths[i] > self.tokens_per_pass
                            or len(current) >= self.batch_size):
                passes.append(current)
                current = []
            current.append(i)
        if current:
            passes.append(current)
        return passes

    def _forward(self, session: Any, batch: list[list[int]], call: _Call | None = None, *,
                 shrink: bool = False) -> np.ndarray:
        """One padded forward pass -> mean-pooled, L2-normalised rows. ``shrink``: the call's last
        pass, after which onnxruntime's arena hands back what it grew by (a 2,048-token pass
        grows it by ~190 MB, which would otherwise stay resident for good)."""
        import numpy as np
        import onnxruntime as ort

        width = max(len(row) for row in batch)
        input_ids = np.full((len(batch), width), self._pad_id, dtype=np.int64)
        mask = np.zeros((len(batch), width), dtype=np.int64)
        for r, row in enumerate(batch):
            input_ids[r, :len(row)] = row
            mask[r, :len(row)] = 1
        run = ort.RunOptions()
        if shrink:
            run.add_run_config_entry("memory.enable_memory_arena_shrinkage", "cpu:0")
        if call is not None:
            with self._runs_lock:
                if call.interrupted or (self.should_yield is not None and self.should_yield()):
                    raise EmbeddingInterrupted("A foreground call interrupted the embedding.")
                call.run = run
        try:
            (hidden,) = session.run(["last_hidden_state"], {"input_ids": input_ids, "attention_mask": mask}, run)
        except Exception as exc:
            if run.terminate:
                raise EmbeddingInterrupted("A foreground call interrupted the embedding pass.") from exc
            raise EmbeddingError(f"The embedding model failed on a batch of {len(batch)}: {exc}") from exc
        finally:
            if call is not None:
                with self._runs_lock:
                    call.run = None
        if hidden.ndim != 3 or hidden.shape[-1] != self.dimensions:
            raise EmbeddingError(
                f"The embedding model returned shape {hidden.shape}, expected (*, *, {self.dimensions}); "
                "model.json and model.onnx disagree; rebuild the model folder.")
        weights = mask.astype(np.float32)
        pooled = np.einsum("bld,bl->bd", hidden, weights) / weights.sum(axis=1, keepdims=True)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return cast("np.ndarray", (pooled / np.maximum(norms, 1e-12)).astype(np.float32, copy=False))
