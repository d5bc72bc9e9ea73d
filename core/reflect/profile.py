"""Schema profiles: Engrama's labels, relation types and reflect vocabulary, as data a user extends.

The bundled profile is ``resources/profiles/engrama.json``. Over it, in this order, are merged:
the user's ``profile.json`` in the platform config folder (``platformdirs.user_config_dir
("hipocampo")``), then the file named by ``HIPOCAMPO_PROFILE``. Merging adds labels (or overrides
a label's fields), adds relation types, and overrides individual ``reflect`` settings. A profile
describes; it does not restrict: labels and relation types outside it stay allowed everywhere.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from types import MappingProxyType
from typing import Any

import platformdirs

from core.errors import ConfigError
from core.reflect.model import ReflectRules

ENV_VAR = "HIPOCAMPO_PROFILE"
BUNDLED_NAME = "engrama.json"
USER_FILE = "profile.json"
KEY_FIELDS = ("name", "title")


@dataclass(frozen=True)
class LabelSpec:
    """One label: which property keys it (``name`` or ``title``) and which module it comes from."""

    name: str
    key: str = "name"
    module: str = "user"
    description: str = ""


@dataclass(frozen=True)
class Profile:
    """The merged profile. ``sources`` lists the files it was built from, bundled file first."""

    name: str
    labels: Mapping[str, LabelSpec]
    relations: tuple[str, ...]
    reflect: ReflectRules
    sources: tuple[str, ...] = ()

    def is_title_keyed(self, label: str) -> bool:
        """True when Engrama keys ``label`` by ``title`` (Decision, Problem …); unknown labels: False."""
        spec = self.labels.get(label)
        return spec is not None and spec.key == "title"

    def key_field(self, label: str) -> str:
        """``"title"`` or ``"name"``: the property that names a node of ``label``."""
        return "title" if self.is_title_keyed(label) else "name"

    @property
    def title_keyed_labels(self) -> frozenset[str]:
        return frozenset(n for n, s in self.labels.items() if s.key == "title")


def profile_dirs() -> Iterator[Path]:
    """Folders that may hold the bundled profiles, most specific first.

    ``resources/`` is not a Python package, so it is found beside the code: inside a PyInstaller
    bundle (``sys._MEIPASS``), in a source checkout or editable install (the repository root,
    two levels above ``core/``), or where a wheel's data files land (``<prefix>/share/hipocampo``).
    """
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        yield Path(bundle) / "resources" / "profiles"
    yield Path(__file__).resolve().parents[2] / "resources" / "profiles"
    yield Path(sys.prefix) / "share" / "hipocampo" / "resources" / "profiles"


def bundled_profile_path() -> Path:
    """The bundled ``engrama.json``; ``ConfigError`` naming every place looked in if it is missing."""
    tried = []
    for folder in profile_dirs():
        candidate = folder / BUNDLED_NAME
        if candidate.is_file():
            return candidate
        tried.append(str(candidate))
    raise ConfigError(
        f"The schema profile {BUNDLED_NAME} is missing from this installation (looked in: "
        f"{'; '.join(tried)}). Reinstall Hipocampo, or point {ENV_VAR} at a profile file."
    )


def user_profile_path() -> Path:
    """Where a user's own ``profile.json`` is read from (it need not exist)."""
    return Path(platformdirs.user_config_dir("hipocampo", appauthor=False)) / USER_FILE


def profile_sources() -> list[Path]:
    """The files to merge, in order: bundled, then the user's, then ``HIPOCAMPO_PROFILE``."""
    sources = [bundled_profile_path()]
    user = user_profile_path()
    if user.is_file():
        sources.append(user)
    from core.settings import Settings  # late: a profile read without settings never loads them

    override = Settings().profile
    if override is not None:
        path = override.expanduser()
        if not path.is_file():
            raise ConfigError(f"{ENV_VAR} names {path}, which is not a file. Fix or unset it.")
        sources.append(path)
    return sources


_cache: dict[tuple[tuple[str, int], ...], Profile] = {}


def load_profile(*paths: Path | str) -> Profile:
    """The merged profile. With ``paths``, exactly those files are merged in order (for tests and
    tools); otherwise the bundled file, the user's file and ``HIPOCAMPO_PROFILE``.

    Results are cached per (file, modification time), so an edited profile is picked up without
    a restart and an unchanged one costs a few ``stat`` calls.
    """
    sources = [Path(p) for p in paths] if paths else profile_sources()
    try:
        key = tuple((str(p), p.stat().st_mtime_ns) for p in sources)
    except OSError as exc:
        raise ConfigError(f"Cannot read the schema profile: {exc}") from exc
    cached = _cache.get(key)
    if cached is None:
        cached = _cache[key] = _build([(str(p), _read(p)) for p in sources])
    return cached


def is_title_keyed(label: str) -> bool:
    """True when the current profile keys ``label`` by ``title`` rather than ``name``."""
    return load_profile().is_title_keyed(label)


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"Cannot read the schema profile {path}: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise ConfigError(
            f"The schema profile {path} is not valid JSON (line {exc.lineno}, column {exc.colno}: "
            f"{exc.msg}). Fix the file or move it aside."
        ) from exc
    if not isinstance(data, dict):
        raise ConfigError(f"The schema profile {path} must hold a JSON object at the top level.")
    return data


_RULE_FIELDS = {f.name: f for f in fields(ReflectRules)}


def _build(layers: list[tuple[str, dict[str, Any]]]) -> Profile:
    name = "engrama"
    labels: dict[str, LabelSpec] = {}
    relations: dict[str, None] = {}
    rules: dict[str, Any] = {}
    for source, data in layers:
        unknown = sorted(k for k in data if not k.startswith("$") and k not in
                         ("name", "version", "labels", "relations", "reflect"))
        if unknown:
            raise ConfigError(f"{source}: unknown profile key(s) {', '.join(unknown)}.")
        name = str(data.get("name", name))
        for label, spec in _mapping(data.get("labels", {}), f"{source}: labels").items():
            spec = _mapping(spec, f"{source}: labels.{label}")
            base = labels.get(label, LabelSpec(name=label))
            key = spec.get("key", base.key)
            if key not in KEY_FIELDS:
                raise ConfigError(f"{source}: labels.{label}.key must be 'name' or 'title', got {key!r}.")
            labels[label] = LabelSpec(name=label, key=key, module=str(spec.get("module", base.module)),
                                      description=str(spec.get("description", base.description)))
        rels = data.get("relations", [])
        if not isinstance(rels, list) or not all(isinstance(r, str) and r for r in rels):
            raise ConfigError(f"{source}: relations must be a list of relation type names.")
        relations.update(dict.fromkeys(rels))
        for key, value in _mapping(data.get("reflect", {}), f"{source}: reflect").items():
            if key.startswith("$"):
                continue
            if key not in _RULE_FIELDS:
                raise ConfigError(f"{source}: unknown reflect setting {key!r}; known: "
                                  f"{', '.join(sorted(_RULE_FIELDS))}.")
            if key == "synonyms":  # each layer adds spellings to the ones before
                rules[key] = _merge_synonyms(rules.get(key, ()), value, source)
                continue
            rules[key] = _rule_value(key, value, source)
    return Profile(name=name, labels=MappingProxyType(labels), relations=tuple(relations),
                   reflect=ReflectRules(**rules), sources=tuple(s for s, _ in layers))


def _mapping(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ConfigError(f"{where} must be a JSON object.")
    return value


def _merge_synonyms(
    before: tuple[tuple[str, tuple[str, ...]], ...], value: Any, source: str
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``{"Technology": ["tech", …], "USES": ["built with", …]}`` added to ``before``."""
    merged = {c: list(a) for c, a in before}
    for canonical, aliases in _mapping(value, f"{source}: reflect.synonyms").items():
        if canonical.startswith("$"):
            continue
        if not isinstance(aliases, list) or not all(isinstance(a, str) and a.strip() for a in aliases):
            raise ConfigError(f"{source}: reflect.synonyms.{canonical} must be a list of words.")
        merged[canonical] = list(dict.fromkeys([*merged.get(canonical, []), *aliases]))
    return tuple(sorted((c, tuple(a)) for c, a in merged.items()))


def _rule_value(key: str, value: Any, source: str) -> Any:
    """Check one reflect setting against the type of its default (lists become tuples)."""
    default = getattr(ReflectRules(), key)
    where = f"{source}: reflect.{key}"
    if isinstance(default, tuple):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{where} must be a list of strings.")
        return tuple(value)
    if isinstance(default, str):
        if not isinstance(value, str) or not value:
            raise ConfigError(f"{where} must be a non-empty string.")
        return value
    least = _MINIMUMS.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < least:
        raise ConfigError(f"{where} must be a number of {least} or more.")
    return int(value) if isinstance(default, int) else float(value)


# A cap of 0 would silently empty the evidence (and so the insights) of some patterns.
_MINIMUMS = {"evidence_cap": 1, "min_cluster_size": 1}
