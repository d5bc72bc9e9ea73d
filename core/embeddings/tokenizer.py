"""The model's tokenizer, lean: ``tokenizer.json``'s own rules, SentencePiece's compact lattice.

``tokenizers`` holds a Unigram vocabulary in a trie of hash maps: XLM-R's 250,002 pieces
(8.8 MB on disk) take ~280 MB resident once loaded, more than the ONNX session and
onnxruntime together, and no loading option or trimmed configuration avoids it (the trie
is built from every piece, and every piece is reachable).  SentencePiece keeps the same
pieces in a double-array trie: ~55 MB.  So this tokenizer splits the work:

* ``tokenizers`` still runs the normaliser, the pre-tokeniser (Metaspace words) and the
  special-token template of ``tokenizer.json``, loaded with its vocabulary cut to one piece;
* SentencePiece segments each word with a Unigram model built in memory from the same
  pieces and scores (Viterbi over the same lattice, a run of unknown characters fused into
  one ``<unk>``), so the ids are the ones ``tokenizers`` gives, piece for piece.

The SentencePiece model is a ``ModelProto`` written here from the vocabulary (no protobuf
library needed: a few fields of the wire format), with an identity normaliser -- the text it
sees is already normalised.  ``tokenizer.json`` stays the model folder's one tokenizer file.
``tests/embeddings/test_tokenizer.py`` checks ids against ``tokenizers`` on every code point
and a large multilingual sample.
"""

from __future__ import annotations

import json
import re
import struct
from collections.abc import Sequence
from pathlib import Path
from typing import Any


class Encoding:
    """The ids of one encoded text (the part of ``tokenizers.Encoding`` Hipocampo uses)."""

    __slots__ = ("ids",)

    def __init__(self, ids: list[int]) -> None:
        self.ids = ids

    def __len__(self) -> int:
        return len(self.ids)


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        low, value = value & 0x7F, value >> 7
        if value:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def _bytes_field(number: int, data: bytes) -> bytes:
    return _varint(number << 3 | 2) + _varint(len(data)) + data


def _int_field(number: int, value: int) -> bytes:
    return _varint(number << 3) + _varint(value)


def sentencepiece_proto(vocab: Sequence[tuple[str, float]], unk_id: int) -> bytes:
    """A serialised SentencePiece Unigram ``ModelProto`` over ``vocab`` (ids kept as indices).

    Every piece is NORMAL, as every piece is in ``tokenizers``; the UNKNOWN piece SentencePiece
    requires is appended as id ``len(vocab)``.  Normaliser: identity, no dummy prefix, no
    whitespace handling (the caller passes words already normalised and pre-tokenised)."""
    out = bytearray()
    pack = struct.Struct("<f").pack
    for piece, score in vocab:
        body = _bytes_field(1, piece.encode("utf-8")) + b"\x15" + pack(score) + b"\x18\x01"
        out += b"\x0a" + _varint(len(body)) + body
    unknown = _bytes_field(1, f"\u2581{vocab[unk_id][0]}\u2581\u2581".encode()) + b"\x15" + pack(0.0) + b"\x18\x02"
    out += b"\x0a" + _varint(len(unknown)) + unknown
    # TrainerSpec: model_type=UNIGRAM(1), unk_id; bos/eos/pad absent (-1): the template adds them.
    trainer = (_int_field(3, 1) + _int_field(40, len(vocab))
               + _int_field(41, (1 << 64) - 1) + _int_field(42, (1 << 64) - 1) + _int_field(43, (1 << 64) - 1))
    # NormalizerSpec: name "identity", add_dummy_prefix, remove_extra_whitespaces, escape_whitespaces off.
    normalizer = _bytes_field(1, b"identity") + _int_field(3, 0) + _int_field(4, 0) + _int_field(5, 0)
    out += _bytes_field(2, trainer) + _bytes_field(3, normalizer)
    return bytes(out)


def repeats(longest: int) -> re.Pattern[str]:
    """Words where two segmentations can tie exactly: the same pieces in another order spell the
    same text only where the word repeats itself (a character three times running, or a square
    of two to ``longest`` characters: "′′′" = ′·′′ = ′′·′, "abab" = a·b·ab = ab·a·b). SentencePiece
    settles such ties the other way from ``tokenizers``, so these words are segmented by
    ``tokenizers`` itself over the few pieces they contain. Bounded by the longest piece, the
    search stays linear in the word (unbounded, a 32k-character CJK run took seconds)."""
    return re.compile(rf"(.)\1\1|(.{{2,{max(2, longest)}}})\2", re.DOTALL)


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


class UnigramTokenizer:
    """Encode texts as ``tokenizer.json`` (a Unigram model) would, in a fraction of the memory.

    ``max_tokens`` truncates every encoding to that many ids, specials included (the
    ``tokenizers`` default: the text is cut, the template kept).

    Raises:
        ValueError: ``tokenizer.json`` is not a Unigram tokenizer this class can reproduce.
    """

    def __init__(self, path: Path | str, max_tokens: int | None = None) -> None:
        import sentencepiece
        from tokenizers import Tokenizer

        config = json.loads(Path(path).read_bytes())
        model = config.get("model") or {}
        if model.get("type") != "Unigram" or model.get("byte_fallback") or config.get("added_tokens"):
            raise ValueError(f"{path}: only a plain Unigram tokenizer (no byte fallback, no added tokens) "
                             "is supported")
        vocab = [(str(piece), float(score)) for piece, score in model["vocab"]]
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
        self._unk_id, self._sp_unk = unk_id, len(vocab)
        self._longest = max(len(piece) for piece, _ in vocab)
        self._repeats = repeats(self._longest)
        lowest = min(score for i, (_, score) in enumerate(vocab) if i != unk_id)
        # Mini-vocabularies keep the unknown penalty (lowest score - 10) with this piece,
        # which no text can meet (pre-tokenised words hold "▁" only first).
        self._floor = ("\u2581\u2581\u2581", lowest)
        self._tokenizer_cls = Tokenizer
        proto = sentencepiece_proto(vocab, unk_id)
        del vocab  # the pieces live in SentencePiece from here on
        self._sp = sentencepiece.SentencePieceProcessor(model_proto=proto)
        self._room: int | None = None
        if max_tokens is not None:
            self._room = max(0, max_tokens - len(self._before) - len(self._after))

    def token_to_id(self, piece: str) -> int | None:
        """The id of ``piece``, or None if it is not in the vocabulary."""
        found = self._sp.piece_to_id(piece)
        return None if found == self._sp_unk else found  # SentencePiece answers its unknown id

    def _words(self, text: str) -> list[str]:
        return [word for word, _ in self._split(self._normalize(text))]

    def _segment(self, words: list[str]) -> list[list[int]]:
        """Piece ids of each word: SentencePiece, with repeating words settled as ``tokenizers`` does."""
        encoded = self._sp.encode(words) if words else []
        for i, word in enumerate(words):
            if self._repeats.search(word):
                encoded[i] = self._exact(word)
        return encoded

    def _exact(self, word: str) -> list[int]:
        """Segment ``word`` with ``tokenizers``' own Viterbi over the pieces found in it."""
        from tokenizers import models

        found: dict[int, None] = {}
        piece_to_id, sp_unk = self._sp.piece_to_id, self._sp_unk
        for start in range(len(word)):
            for end in range(start + 1, min(len(word), start + self._longest) + 1):
                piece_id = piece_to_id(word[start:end])
                if piece_id != sp_unk and piece_id != self._unk_id:
                    found[piece_id] = None
        ids = list(found)
        local = [(self._sp.id_to_piece(i), self._sp.get_score(i)) for i in ids]
        local += [(self._sp.id_to_piece(self._unk_id), 0.0), self._floor]
        unk_local = len(local) - 2
        mini = self._tokenizer_cls(models.Unigram(local, unk_id=unk_local, byte_fallback=False))
        out: list[int] = []
        for token in mini.model.tokenize(word):
            out.append(self._unk_id if token.id >= unk_local else ids[token.id])
        return out

    def _finish(self, ids: list[int]) -> Encoding:
        unk, sp_unk = self._unk_id, self._sp_unk
        if sp_unk in ids:
            ids = [unk if i == sp_unk else i for i in ids]
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
        """Encode several texts in one SentencePiece call."""
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
