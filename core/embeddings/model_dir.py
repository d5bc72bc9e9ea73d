"""Where the local embedding model lives, and whether a folder holds one.

A model folder contains ``model.onnx``, ``tokenizer.json`` and ``model.json``
(written by ``packaging/build_model.py``), and since recipe 3 ``model.onnx.data``, the weights
that ``model.onnx`` refers to (every file ``model.json`` lists must be there).  This module imports nothing heavy:
it is safe to call from setup code, the CLI and the desktop app alike.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

MODEL_NAME = "multilingual-e5-small-int8"
ENV_VAR = "HIPOCAMPO_MODEL_DIR"
MODEL_JSON = "model.json"
REQUIRED_FILES = ("model.onnx", "tokenizer.json")


def default_model_dir() -> Path:
    """Return the folder the local embedding model is loaded from by default.

    Resolution order (first match wins):

    1. ``$HIPOCAMPO_MODEL_DIR`` if set (used as is, whether or not it exists);
    2. inside a PyInstaller bundle, ``sys._MEIPASS/resources/models/<MODEL_NAME>``
       if that folder exists;
    3. in a source checkout, ``<repo>/resources/models/<MODEL_NAME>`` if that
       folder exists (git-ignored; ``python packaging/build_model.py`` writes
       it there by default, and setup runs that);
    4. otherwise the user cache folder,
       ``platformdirs.user_cache_dir("hipocampo")/models/<MODEL_NAME>``
       (appauthor disabled, as for the data folder) -- which may not exist
       yet; build into it with ``build_model.py --out``.

    Folders are only checked for existence here; use :func:`model_is_present`
    to know whether one actually holds a model.
    """
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        candidate = Path(bundle) / "resources" / "models" / MODEL_NAME
        if candidate.is_dir():
            return candidate
    # this file is <repo>/core/embeddings/model_dir.py
    checkout = Path(__file__).resolve().parents[2] / "resources" / "models" / MODEL_NAME
    if checkout.is_dir():
        return checkout
    import platformdirs  # imported late: only needed for the fallback

    return Path(platformdirs.user_cache_dir("hipocampo", appauthor=False)) / "models" / MODEL_NAME


def read_model_json(path: Path) -> dict[str, Any]:
    """Parse ``path/model.json``; raise ``OSError`` or ``ValueError`` if unreadable or not an object."""
    with (Path(path) / MODEL_JSON).open("r", encoding="utf-8") as fh:
        meta = json.load(fh)
    if not isinstance(meta, dict):
        raise ValueError(f"{MODEL_JSON} is not a JSON object")
    return meta


def model_is_present(path: Path | str, *, check_hashes: bool = False) -> bool:
    """True if ``path`` holds a complete model folder.

    Cheap by default: ``model.json`` parses and names the dimensions, and the
    model and tokenizer files exist and are not empty.  With
    ``check_hashes=True`` every file listed in ``model.json["sha256"]`` is
    also hashed and compared (reads ~120 MB).
    """
    folder = Path(path)
    try:
        meta = read_model_json(folder)
        if not isinstance(meta.get("dimensions"), int):
            return False
        sha256 = meta.get("sha256")
        listed: dict[str, Any] = sha256 if isinstance(sha256, dict) else {}
        for name in dict.fromkeys([*REQUIRED_FILES, *listed]):
            if (folder / name).stat().st_size == 0:
                return False
        if check_hashes:
            hashes = meta.get("sha256")
            if not isinstance(hashes, dict) or not set(REQUIRED_FILES) <= set(hashes):
                return False
            return all(_sha256(folder / name) == digest for name, digest in hashes.items())
    except (OSError, ValueError):
        return False
    return True


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()
