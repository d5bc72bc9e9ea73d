"""The schema profile: bundled Engrama data, extended by the user's file and HIPOCAMPO_PROFILE."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from core.errors import ConfigError
from core.memory import Memory
from core.reflect import profile as profiles
from core.reflect.profile import bundled_profile_path, is_title_keyed, load_profile

BASE = {"Project", "Concept", "Decision", "Problem", "Technology", "Person", "Domain", "Client", "Insight"}
MODULES = {"Course", "Exercise", "Technique", "Tool", "Vulnerability", "Experiment", "Model", "Dataset"}


@pytest.fixture(autouse=True)
def no_user_profile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point the user config folder at an empty temp dir; clear HIPOCAMPO_PROFILE."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("HIPOCAMPO_PROFILE", raising=False)
    return tmp_path / "config" / "hipocampo" / "profile.json"


def test_the_bundled_profile_is_engramas() -> None:
    profile = load_profile()
    assert profile.name == "engrama"
    assert BASE | MODULES <= set(profile.labels)
    assert {name for name in BASE if profile.labels[name].module == "base"} == BASE
    assert profile.title_keyed_labels == {"Experiment", "Vulnerability", "Decision", "Problem", "Exercise",
                                          "Photo", "Insight"}
    assert {"SOLVED_BY", "USES", "COVERS", "IN_DOMAIN", "DERIVED_FROM"} <= set(profile.relations)
    assert profile.reflect.insight_evidence_relation in profile.relations
    assert profile.sources == (str(bundled_profile_path()),)
    assert bundled_profile_path().parent.parent.name == "resources"


def test_title_keyed_labels() -> None:
    assert is_title_keyed("Problem") and is_title_keyed("Decision") and is_title_keyed("Insight")
    assert not is_title_keyed("Project") and not is_title_keyed("Technology")
    assert not is_title_keyed("Recipe")  # labels outside the profile stay allowed, keyed by name
    assert load_profile().key_field("Vulnerability") == "title"


def test_labels_outside_the_profile_are_allowed(tmp_path: Path) -> None:
    with Memory.open(tmp_path / "m.db", embeddings="none") as m:
        assert m.merge_node("Recipe", "Tortilla", {}).label == "Recipe"
        assert m.schema_profile().labels.get("Recipe") is None


def test_user_profile_extends_and_overrides(no_user_profile: Path) -> None:
    no_user_profile.parent.mkdir(parents=True)
    no_user_profile.write_text(json.dumps({
        "labels": {"Recipe": {"key": "title", "module": "kitchen"}, "Project": {"description": "mine"}},
        "relations": ["COOKED_WITH"],
        "reflect": {"stale_after_days": 30, "uses_relations": ["USES", "DEPENDS_ON"]},
    }))
    profile = load_profile()
    assert profile.is_title_keyed("Recipe") and profile.labels["Recipe"].module == "kitchen"
    assert profile.labels["Project"].description == "mine" and profile.labels["Project"].key == "name"
    assert "COOKED_WITH" in profile.relations and "USES" in profile.relations
    assert profile.reflect.stale_after_days == 30.0
    assert profile.reflect.uses_relations == ("USES", "DEPENDS_ON")
    assert profile.reflect.low_confidence == 0.3  # untouched settings keep the bundled value
    assert profile.sources[-1] == str(no_user_profile)


def test_env_profile_goes_last(
    no_user_profile: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    no_user_profile.parent.mkdir(parents=True)
    no_user_profile.write_text(json.dumps({"reflect": {"evidence_cap": 5}}))
    extra = tmp_path / "extra.json"
    extra.write_text(json.dumps({"reflect": {"evidence_cap": 7}}))
    monkeypatch.setenv("HIPOCAMPO_PROFILE", str(extra))
    assert load_profile().reflect.evidence_cap == 7
    extra.write_text(json.dumps({"reflect": {"evidence_cap": 9}}))  # edits are picked up
    os.utime(extra, ns=(1, 10**18))  # a distinct modification time, however coarse the clock
    assert load_profile().reflect.evidence_cap == 9


@pytest.mark.parametrize(("content", "message"), [
    ("{not json", "not valid JSON"),
    ("[]", "JSON object"),
    ('{"labelz": {}}', "unknown profile key"),
    ('{"labels": {"X": {"key": "id"}}}', "must be 'name' or 'title'"),
    ('{"reflect": {"stale_days": 3}}', "unknown reflect setting 'stale_days'"),
    ('{"reflect": {"evidence_cap": "many"}}', "must be a number"),
    ('{"reflect": {"evidence_cap": 0}}', "must be a number of 1 or more"),
    ('{"reflect": {"low_confidence": -1}}', "must be a number of 0 or more"),
    ('{"reflect": {"uses_relations": "USES"}}', "list of strings"),
    ('{"relations": [1]}', "list of relation type names"),
])
def test_bad_profiles_say_what_is_wrong(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        content: str, message: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    monkeypatch.setenv("HIPOCAMPO_PROFILE", str(bad))
    with pytest.raises(ConfigError, match=message) as err:
        load_profile()
    assert str(bad) in str(err.value)


def test_missing_env_profile(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HIPOCAMPO_PROFILE", str(tmp_path / "nope.json"))
    with pytest.raises(ConfigError, match="not a file"):
        load_profile()


def test_a_bundle_is_looked_in_first(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    bundle = tmp_path / "bundle"
    (bundle / "resources" / "profiles").mkdir(parents=True)
    (bundle / "resources" / "profiles" / "engrama.json").write_text(json.dumps({"name": "bundled"}))
    monkeypatch.setattr(profiles.sys, "_MEIPASS", str(bundle), raising=False)
    assert load_profile().name == "bundled"


def test_a_missing_bundled_profile_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(profiles, "profile_dirs", lambda: iter([tmp_path / "nowhere"]))
    with pytest.raises(ConfigError, match="missing from this installation"):
        load_profile()


def test_reflect_follows_the_profile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    custom = tmp_path / "p.json"
    custom.write_text(json.dumps({"reflect": {"uses_relations": ["DEPENDS_ON"], "min_cluster_size": 2}}))
    monkeypatch.setenv("HIPOCAMPO_PROFILE", str(custom))
    with Memory.open(tmp_path / "m.db", embeddings="none") as m:
        for name, label in (("A", "Project"), ("B", "Project"), ("Rust", "Technology"), ("C", "Concept")):
            m.merge_node(label, name, {})
        m.create_relations([{"from": "A", "to": "Rust", "relationType": "DEPENDS_ON"},
                            {"from": "B", "to": "Rust", "relationType": "DEPENDS_ON"},
                            {"from": "A", "to": "C", "relationType": "RELATED_TO"},
                            {"from": "B", "to": "C", "relationType": "RELATED_TO"}])
        m.reflect()
        titles = {i["title"] for i in m.surface_insights(status="all")}
        assert {"Shared technology: Rust", "Concept cluster: C"} <= titles
