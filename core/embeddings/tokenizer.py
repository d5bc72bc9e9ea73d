"""The model's tokenizer, lean: ``tokenizer.json``'s own rules, its Unigram lattice in ~8 MB.

``tokenizers`` holds a Unigram vocabulary in a trie of hash maps: XLM-R's 250,002 pieces
(8.8 MB on disk) take ~280 MB resident once loaded, more than the ONNX session and
onnxruntime together, and no loading option or trimmed configuration avoids it (the trie
is built from every piece, and every piece is reachable). SentencePiece's double-array trie
(built in memory from the same pieces) took ~34 MB. So this tokenizer splits the work:

* ``tokenizers`` still runs the normaliser, the pre-tokeniser (Metaspace words) and the
  special-token template of ``tokenizer.json``, loaded with its vocabulary cut to one piece;
* each word is segmented here, by ``tokenizers``' own Viterbi (``Unigram::encode_optimized``:
  the same lattice, the same float64 scores, the same order of visits so ties are settled
  alike, a run of unknown characters fused into one ``<unk>``), over :class:`Pieces` -- the
  vocabulary as flat arrays (~8 MB): each piece's 62-bit key (two polynomial hashes modulo
  primes), id, score and length, and the keys of every proper prefix of a piece. numpy hashes
  every substring of a batch's words a length at a time, growing a substring only while some
  piece starts with it, and finds them with ``searchsorted``; the best paths are then walked a
  character at a time in every word together. A wrong id would need a substring and a piece of
  the same length to collide in both hashes (the vocabulary's own keys are checked distinct).

``tokenizer.json`` stays the model folder's one tokenizer file.
``tests/embeddings/test_tokenizer.py`` checks ids against ``tokenizers`` on every code point
and a large multilingual sample.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

#: ``tokenizers``' penalty for an unknown character: the lowest score minus this.
UNK_PENALTY = 10.0


class Encoding:
    """The ids of one encoded text (the part of ``tokenizers.Encoding`` Hipocampo uses)."""

    __slots__ = ("ids",)

    def __init__(self, ids: list[int]) -> None:
        self.ids = ids

    def __len__(self) -> int:
        return len(self.ids)


def _template_ids(processor: dict[str, Any] | None) -> tuple[list[int], list[int]]:
    """The special ids a ``TemplateProcessing`` puts before and after a single sequence."""
    if not processor:
        return [], []
    if processor.get("type") != "TemplateProcessing":
        raise ValueError(f"unsupported post_processor {processor.get('type')!r}")
    specials = processor.get("special_tokens", {})
    before: list[int] = []
    after: list[int] = []
    seen_sequence = False
    for item in processor["single"]:
        if "Sequence" in item:
            seen_sequence = True
        else:
            ids = specials[item["SpecialToken"]["id"]]["ids"]
            (after if seen_sequence else before).extend(ids)
    return before, after


# Two polynomial string hashes modulo primes below 2**31 (products stay within int64), joined into
# one 62-bit key; computed with numpy a length at a time for every substring of a batch at once.
_P1, _P2 = 2_147_483_647, 2_147_483_629
_B1, _B2 = 1_000_003, 911_382_323


def _code_points(text: str) -> np.ndarray:
    import numpy as np

    points = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32).astype(np.int32)
    points += 1  # at most 0x110000; in place: one copy of the text at a time
    return points


class Pieces:
    """A Unigram vocabulary in flat arrays (~11 MB for XLM-R's 250,002 pieces): each piece's
    62-bit key (two polynomial hashes, sorted) with its id, score (float64, as ``tokenizers``
    reads them) and length; and the key of every proper prefix of a piece, which says when a
    longer piece may still start with a substring. A wrong id would need two different strings
    of one length to collide in both hashes (the vocabulary's own keys are checked distinct)."""

    def __init__(self, vocab: Sequence[Sequence[Any]]) -> None:
        import numpy as np

        count = len(vocab)
        lengths = np.fromiter((len(piece) for piece, _ in vocab), dtype=np.int64, count=count)
        if count == 0 or lengths.min() == 0:
            raise ValueError("a Unigram vocabulary without pieces, or with an empty one")
        self.scores = np.fromiter((score for _, score in vocab), dtype=np.float64, count=count)
        self.lengths = lengths.astype(np.int32)
        self.longest = int(lengths.max())
        self.min_score = float(self.scores.min())
        cp = _code_points("".join(piece for piece, _ in vocab))
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
        keys = np.zeros(count, dtype=np.int64)
        prefixes: list[np.ndarray] = []
        idx = np.arange(count)
        h1 = np.zeros(count, dtype=np.int64)
        h2 = np.zeros(count, dtype=np.int64)
        for length in range(1, self.longest + 1):
            keep = lengths[idx] >= length
            idx, h1, h2 = idx[keep], h1[keep], h2[keep]
            c = cp[starts[idx] + length - 1]
            h1 = (h1 * _B1 + c) % _P1
            h2 = (h2 * _B2 + c) % _P2
            key = (h1 << 31) | h2
            done = lengths[idx] == length
            keys[idx[done]] = key[done]
            prefixes.append(np.unique(key[~done]))
        del cp, starts
        order = np.argsort(keys, kind="stable")
        self._keys = keys[order]
        if len(np.unique(self._keys)) != count:
            raise ValueError("two pieces of the vocabulary share a key")
        self._ids = order.astype(np.int32)
        self._prefixes = np.unique(np.concatenate(prefixes))

    def __len__(self) -> int:
        return len(self.scores)

    def lookup(self, key: np.ndarray, length: int) -> tuple[np.ndarray, np.ndarray]:
        """For substrings of ``length`` characters with keys ``key``: each one's piece id or -1,
        and whether a longer piece starts with it."""
        import numpy as np

        at = np.minimum(np.searchsorted(self._keys, key), len(self._keys) - 1)
        ids = np.where(self._keys[at] == key, self._ids[at], -1)
        ids[(ids >= 0) & (self.lengths[np.maximum(ids, 0)] != length)] = -1
        at = np.minimum(np.searchsorted(self._prefixes, key), max(0, len(self._prefixes) - 1))
        grows = (self._prefixes[at] == key) if len(self._prefixes) else np.zeros(len(key), dtype=bool)
        return ids, grows

    def find(self, texts: list[str]) -> list[int]:
        """The id of each of ``texts``, or -1 where it is not a piece."""
        out = []
        for text in texts:
            if not text or len(text) > self.longest:
                out.append(-1)
                continue
            h1 = h2 = 0
            for c in _code_points(text).tolist():
                h1, h2 = (h1 * _B1 + c) % _P1, (h2 * _B2 + c) % _P2
            import numpy as np

            out.append(int(self.lookup(np.array([(h1 << 31) | h2], dtype=np.int64), len(text))[0][0]))
        return out


class UnigramTokenizer:
    """Encode texts as ``tokenizer.json`` (a Unigram model) would, in a fraction of the memory.

    ``max_tokens`` truncates every encoding to that many ids, specials included (the
    ``tokenizers`` default: the text is cut, the template kept).

    Raises:
        ValueError: ``tokenizer.json`` is not a Unigram tokenizer this class can reproduce.
    """

    def __init__(self, path: Path | str, max_tokens: int | None = None) -> None:
        from tokenizers import Tokenizer

        config = json.loads(Path(path).read_bytes())
        model = config.get("model") or {}
        if model.get("type") != "Unigram" or model.get("byte_fallback") or config.get("added_tokens"):
            raise ValueError(f"{path}: only a plain Unigram tokenizer (no byte fallback, no added tokens) "
                             "is supported")
        vocab: list[list[Any]] = model["vocab"]  # [piece, score] pairs, used as parsed (no copy)
        if not all(isinstance(piece, str) and isinstance(score, int | float) for piece, score in vocab):
            raise ValueError(f"{path}: a Unigram vocabulary of [piece, score] pairs was expected")
        unk_id = int(model["unk_id"])
        del model, config["model"]
        self._before, self._after = _template_ids(config.get("post_processor"))
        config["post_processor"] = None
        config["truncation"] = config["padding"] = None
        # The front end: the file's normaliser and pre-tokeniser, with a one-piece vocabulary.
        config["model"] = {"type": "Unigram", "unk_id": 0, "vocab": [[vocab[unk_id][0], 0.0]],
                           "byte_fallback": False}
        front = Tokenizer.from_str(json.dumps(config))
        self._normalize = front.normalizer.normalize_str if front.normalizer else (lambda text: text)
        self._split = front.pre_tokenizer.pre_tokenize_str if front.pre_tokenizer else (lambda t: [(t, None)])
        self._front = front
        self._unk_id = unk_id
        self._pieces = Pieces(vocab)
        del vocab
        self._unk_score = self._pieces.min_score - UNK_PENALTY
        self._room: int | None = None
        if max_tokens is not None:
            self._room = max(0, max_tokens - len(self._before) - len(self._after))

    def token_to_id(self, piece: str) -> int | None:
        """The id of ``piece``, or None if it is not in the vocabulary."""
        found = self._pieces.find([piece])[0]
        return None if found < 0 else found

    def _words(self, text: str) -> list[str]:
        return [word for word, _ in self._split(self._normalize(text))]

    def _segment(self, words: list[str]) -> list[list[int]]:
        """Piece ids of each word: ``tokenizers``' ``Unigram::encode_optimized`` for every word of
        the batch at once. The pieces found in the words, one length at a time (a substring grows
        while a longer piece starts with it); then the best path a character at a time in every
        word together: the candidates for each end visited in the same order (by start), the
        strictly better one kept, so ties go the same way; a character no piece covers is one
        ``<unk>`` (lowest score - 10), and a run of them fused into one."""
        import numpy as np

        lens = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
        total = int(lens.sum())
        if total == 0:
            return [[] for _ in words]
        pieces = self._pieces
        cp = _code_points("".join(words))
        word_start = np.concatenate([[0], np.cumsum(lens)[:-1]])
        word_of = np.repeat(np.arange(len(words)), lens)
        offset = np.arange(total) - word_start[word_of]
        room = lens[word_of] - offset
        hit_at: list[np.ndarray] = []
        hit_len: list[np.ndarray] = []
        hit_id: list[np.ndarray] = []
        idx = np.arange(total)
        h1 = np.zeros(total, dtype=np.int64)
        h2 = np.zeros(total, dtype=np.int64)
        for length in range(1, pieces.longest + 1):
            keep = room[idx] >= length
            idx, h1, h2 = idx[keep], h1[keep], h2[keep]
            if not len(idx):
                break
            c = cp[idx + length - 1]
            h1 = (h1 * _B1 + c) % _P1
            h2 = (h2 * _B2 + c) % _P2
            matched, grows = pieces.lookup((h1 << 31) | h2, length)
            found = matched >= 0
            hit_at.append(idx[found])
            hit_len.append(np.full(int(found.sum()), length, dtype=np.int64))
            hit_id.append(matched[found])
            idx, h1, h2 = idx[grows], h1[grows], h2[grows]
        at, length_of, id_of = np.concatenate(hit_at), np.concatenate(hit_len), np.concatenate(hit_id)
        single = np.zeros(total, dtype=bool)
        single[at[length_of == 1]] = True
        # Nodes: word w's position j (0..len) is node word_start[w] + w + j.
        node_of_char = np.arange(total) + word_of
        size = total + len(words)
        best = np.zeros(size, dtype=np.float64)
        back = np.full(size, -1, dtype=np.int64)
        chosen = np.zeros(size, dtype=np.int64)
        score_of = pieces.scores[id_of]
        hit_offset = offset[at]
        by_offset = np.argsort(hit_offset, kind="stable")
        hit_bounds = np.searchsorted(hit_offset[by_offset], np.arange(int(lens.max()) + 1))
        unk_chars = np.flatnonzero(~single)
        unk_by_offset = unk_chars[np.argsort(offset[unk_chars], kind="stable")]
        unk_bounds = np.searchsorted(offset[unk_by_offset], np.arange(int(lens.max()) + 1))
        unk_id, unk_score = self._unk_id, self._unk_score
        for step in range(int(lens.max())):
            sel = by_offset[hit_bounds[step]:hit_bounds[step + 1]]
            if len(sel):
                src = node_of_char[at[sel]]
                dst = src + length_of[sel]
                cand = score_of[sel] + best[src]
                better = (back[dst] < 0) | (cand > best[dst])
                dst, src = dst[better], src[better]
                best[dst], back[dst], chosen[dst] = cand[better], src, id_of[sel][better]
            chars = unk_by_offset[unk_bounds[step]:unk_bounds[step + 1]]
            if len(chars):
                src = node_of_char[chars]
                dst = src + 1
                cand = unk_score + best[src]
                better = (back[dst] < 0) | (cand > best[dst])
                dst, src = dst[better], src[better]
                best[dst], back[dst], chosen[dst] = cand[better], src, unk_id
        back_list, chosen_list = back.tolist(), chosen.tolist()
        out: list[list[int]] = []
        for w, first in enumerate((word_start + np.arange(len(words))).tolist()):
            node = first + int(lens[w])
            ids: list[int] = []
            fusing = False
            while node > first:
                pid = chosen_list[node]
                if pid == unk_id:  # a run of unknown characters (or "<unk>" itself) is one <unk>
                    if not fusing:
                        ids.append(unk_id)
                    fusing = True
                else:
                    ids.append(pid)
                    fusing = False
                node = back_list[node]
            ids.reverse()
            out.append(ids)
        return out

    def _finish(self, ids: list[int]) -> Encoding:
        if self._room is not None and len(ids) > self._room:
            del ids[self._room:]
        return Encoding(self._before + ids + self._after)

    def encode(self, text: str, add_special_tokens: bool = True) -> Encoding:
        """Encode one text (``add_special_tokens`` is accepted for ``tokenizers`` parity; always on)."""
        ids: list[int] = []
        for piece_ids in self._segment(self._words(text)):
            ids.extend(piece_ids)
        return self._finish(ids)

    def encode_batch(self, texts: Sequence[str], add_special_tokens: bool = True) -> list[Encoding]:
        """Encode several texts, their words' pieces looked up in one pass."""
        words: list[str] = []
        bounds = [0]
        for text in texts:
            words.extend(self._words(text))
            bounds.append(len(words))
        encoded = self._segment(words)
        out: list[Encoding] = []
        for start, end in zip(bounds, bounds[1:], strict=False):
            ids: list[int] = []
            for piece_ids in encoded[start:end]:
                ids.extend(piece_ids)
            out.append(self._finish(ids))
        return out
