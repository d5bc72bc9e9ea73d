"""The lean tokenizer gives exactly the ids ``tokenizers`` gives from the same tokenizer.json."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from tokenizers import Tokenizer

from core.embeddings.tokenizer import UnigramTokenizer
from tests.embeddings.test_onnx_local import SAMPLE

MAX_TOKENS = 512
EDGES = ["", " ", "  ", "hello ", " hello", "a  b", "a \t b", "a\n\nb", "trail  ", "<s>", "</s>", "<pad>",
         "<mask> x", "<unk>", "x<unk>y", "▁", "▁▁x", "a▁b", "\x00", "\ufffd", "～", "ﬁ", "①", "Ａ", "\u3000x",
         "e\u0301", "\U0001F600", "\U0010FFFF", "\u061c\u061cab\U000E0001", "‴", "′′′′′", "AAAAAAA", "abababab",
         "hahaha jajaja", "mississippi banana", "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB"]
BLOCKS = [(0x20, 0x7F), (0xA0, 0x250), (0x300, 0x370), (0x370, 0x530), (0x590, 0x700), (0x900, 0x980),
          (0xE00, 0xE80), (0x2000, 0x2070), (0x3040, 0x3100), (0x4E00, 0x9FFF), (0xAC00, 0xD7A3),
          (0xFF00, 0xFFEF), (0x1F300, 0x1F6FF), (0xE0000, 0xE0080), (0x10000, 0x10100)]


def sample() -> list[str]:
    rng = random.Random(22)
    texts = list(EDGES) + list(SAMPLE)
    # Every code point, 48 to a text, in runs and with spaces around some.
    points = [chr(cp) for cp in range(0x110000) if not 0xD800 <= cp < 0xE000]
    for start in range(0, len(points), 48):
        chunk = points[start:start + 48]
        texts.append("".join(c + (" " if i % 5 == 0 else "") + (c if i % 7 == 0 else "")
                             for i, c in enumerate(chunk)))
    for _ in range(4000):  # random multilingual text with odd whitespace
        chars = [rng.choice(" \t\n\u00a0\u3000") if rng.random() < 0.15 else chr(rng.randrange(*rng.choice(BLOCKS)))
                 for _ in range(rng.randint(1, 60))]
        texts.append("".join(chars))
    for _ in range(3000):  # repeating text, where two segmentations can tie
        alphabet = rng.choice(["AB", "ab", "A", "xyz", "′", "ha", "12", "‴", "аб", "啊哈", "ABCDabcd0123+/"])
        texts.append("".join(rng.choice(alphabet) for _ in range(rng.randint(2, 40))))
    texts.append(" ".join(SAMPLE * 40))  # longer than the window: truncated alike
    # Single words as long as a text may be (512 tokens x 64 characters): a CJK run, a repeated
    # letter, base64, and a square-free word (the repeat check's worst case).
    thue_morse = [bin(i).count("1") % 2 for i in range(32_001)]
    texts.append("".join("abc"[thue_morse[i + 1] - thue_morse[i] + 1] for i in range(32_000)))
    texts.append("".join(chr(rng.randrange(0x4E00, 0x4E00 + 3000)) for _ in range(32_000)))
    texts.append("x" * 32_000)
    base64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/AAA"
    texts.append("data:image/png;base64," + "".join(rng.choice(base64) for _ in range(32_000)))
    return texts


@pytest.fixture(scope="module")
def tokenizers_pair(model_dir: Path) -> tuple[Tokenizer, UnigramTokenizer]:
    reference = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    reference.enable_truncation(max_length=MAX_TOKENS)
    return reference, UnigramTokenizer(model_dir / "tokenizer.json", MAX_TOKENS)


@pytest.mark.slow
def test_same_ids_as_tokenizers(tokenizers_pair: tuple[Tokenizer, UnigramTokenizer]) -> None:
    reference, lean = tokenizers_pair
    texts = [prefix + t for t in sample() for prefix in ("passage: ", "")]
    expected = [e.ids for e in reference.encode_batch(texts)]
    got = [e.ids for e in lean.encode_batch(texts)]
    wrong = [(t, e, g) for t, e, g in zip(texts, expected, got, strict=True) if e != g]
    assert not wrong, wrong[:3]
    assert max(len(g) for g in got) == MAX_TOKENS
    assert [lean.encode(t).ids for t in texts[:2000]] == expected[:2000]  # one at a time, too


def test_vocabulary_lookups(tokenizers_pair: tuple[Tokenizer, UnigramTokenizer]) -> None:
    reference, lean = tokenizers_pair
    for piece in ("<s>", "<pad>", "</s>", "<unk>", "<mask>", "▁hola", ",", "zzzqqqxxnot-a-piece"):
        assert lean.token_to_id(piece) == reference.token_to_id(piece), piece


def test_other_tokenizers_are_refused(tmp_path: Path) -> None:
    from tokenizers import models

    bpe = tmp_path / "bpe.json"
    Tokenizer(models.BPE()).save(str(bpe))
    with pytest.raises(ValueError, match="Unigram"):
        UnigramTokenizer(bpe)
