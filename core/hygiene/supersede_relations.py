"""Superseded relations: within one entity, a newer relation of a single-valued kind (or a newer
fact saying the same) replaces an older one; reflect proposes it, a person approves, nothing is
deleted.

* **Which kinds.** Only relations one entity has one of at a time: an employer, a home, a
  manager, a place, a host, an owner, an assignee, a spouse (``FAMILIES``: one small list,
  English and Spanish names, folded for case, accents and separators, so ``WORKS_AT``,
  ``worksAt``, ``works at`` and ``trabaja_en`` are the same kind). Many-valued ones
  (``knows``, ``uses``, ``likes``, ``member_of`` …) are never replaced by a newer relation; nor is a
  single-valued kind that the graph shows held many at once (``many_at_once``: at least 5 of its
  holders, and a fifth of them, hold several targets now); a fact saying it changed still may.
* **Proposing.** ``find_rows`` reads only the entities that could have a finding
  (``HygieneStore.single_valued``: two current relations of those kinds, or facts written since
  the oldest of them), with just those relations and facts. Reflect's ``Detector`` does that on
  its first run in a process and keeps each entity's findings; later runs read again only the
  entities written since (``core.hygiene.written``, the change log) and their neighbours (a
  renamed target changes the relations pointing at it), through ``HygieneStore.relations_of``;
  a deletion, merge or undo, or thousands of writes, and it reads everything again. Two relations of one kind from one
  entity to different targets: the older is superseded by the newer. A fact newer than a relation
  that names another target ("now works at Nubia", "se mudó a Sevilla") or says it ended ("no
  longer works at Acme", "left Acme in May", "dejó Indra"): the relation is superseded by the
  fact. A target said longer is the same one ("Acme Corp", "Acme's Madrid office"). Same moment and no word saying
  which is newer: nothing is proposed.
* **The mark.** Approving writes, on the entity, the property ``superseded_relations`` =
  ``{"TYPE → target": {"relationType", "to", "by", "ended_at", "insight"}}`` in the same change as
  the approval (``approval.approve_marking``): one undo takes both back. The relation itself is
  untouched, so ``read_graph``, ``open_nodes`` and ``search_nodes`` return it exactly as the
  official server would, and as-of reads and history keep it; the entity's embedding text leaves
  it out (``core.hygiene.store.current_relation``) and ``search_semantic``'s explain lists it.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.errors import ConfigError, Conflict, NotFound
from core.hygiene import approval, written
from core.hygiene.store import SUPERSEDED_RELATIONS, relation_key
from core.reflect import lifecycle, patterns
from core.reflect.model import Candidate, InsightDraft, ReflectRules
from core.reflect.patterns import Names, Reading, Row, Spec, clip
from core.search.folding import fold
from core.storage.factory import hygiene_store

PATTERN = "superseded_relations"
_I = re.IGNORECASE
_UPDATE_WORDS = re.compile(r"\b(?:now|currently|no longer|anymore|moved|joined|new|recently|ahora|actualmente|ya no|"
                           r"se mud[oó]|se ha mudado|nuev[oa]|reci[eé]n)\b", _I)
_NEGATION = re.compile(r"\b(?:no longer|not anymore|ya no|dej[oó] de|left|quit|dej[oó]|ha dejado|se fue de|"
                       r"sali[oó] de)\b", _I)
# Not about the entity now: someone else's ("her husband works at …"), the past, or a wish.
_NOT_NOW = re.compile(
    r"\b(?:his|her|their|its|wife|husband|brother|sister|mother|father|son|daughter|friend|colleague|partner|"
    r"sus?|esposa|esposo|marido|mujer|herman[oa]|madre|padre|hij[oa]|amig[oa]|compa[nñ]er[oa]|"
    r"used to|formerly|previously|before|once|antes|sol[ií]a|anteriormente|"
    r"wants? to|would like to|plans? to|planning to|might|(?-i:may)|could|hopes? to|considering|if|"
    r"quiere|quisiera|planea|piensa|podr[ií]a|le gustar[ií]a|espera|si)\b", _I)
# What may follow a name and not be part of another one: a qualifier of time or place, a suffix.
_AFTER_NAME = frozenset("in on at since last this after before to for from until as and with corp corporation "
                        "inc ltd llc gmbh plc sa sl group grupo el la en para desde hasta tras hace este esta y con"
                        .split())
_ARTICLE = re.compile(r"^(?:the|a|an|el|la|los|las)\s+", _I)  # "moved to the Platform team"
# "switched from Heroku to Fly.io": what it left, which must be the relation's own target.
_FROM_PART = re.compile(r"\b(?:from|de)\s+(?P<old>\S+(?:\s+\S+){0,2}?)\s+(?:to|a)\s+\S", _I)
_CUT = re.compile(r"\s*(?:[,.;:()!?]|\b(?:since|from|until|as|and|with|desde|hasta|como|y|con|pero|but)\b).*$", _I)

# Single-valued kinds: folded relation type names, and how a fact says the same (the target follows).
FAMILIES: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {
    "employer": (frozenset({
        "works_at", "works_for", "work_at", "work_for", "employed_at", "employed_by", "employer", "job_at",
        "trabaja_en", "trabaja_para", "empleado_en", "empleada_en", "empleado_de", "empleada_de", "empresa"}),
        (r"\b(?:works?|working|employed|trabaja|trabajando|empleado|empleada)\s+(?:now\s+|ahora\s+)?"
         r"(?:at|for|by|en|para|de)\s+", r"\b(?:left|quit|dej[oó]|ha dejado|se fue de|sali[oó] de)\s+",
         r"\b(?:joined|se uni[oó] a|se ha unido a|se incorpor[oó] a|se ha incorporado a|fich[oó] por|"
         r"entr[oó] en)\s+")),
    "home": (frozenset({"lives_in", "live_in", "resides_in", "lives_at", "home", "vive_en", "reside_en"}),
             (r"\b(?:lives|living|resides|vive|reside)\s+(?:now\s+|ahora\s+)?(?:in|at|en)\s+",
              r"\b(?:moved|relocated|se mud[oó]|se ha mudado|se trasl[aá]d[oó]|se muda)\s+(?:to|a)\s+")),
    "manager": (frozenset({"reports_to", "managed_by", "manager", "boss", "reporta_a", "jefe", "jefa"}),
                (r"\b(?:reports|reporta)\s+(?:now\s+|ahora\s+)?(?:to|a)\s+",
                 r"\b(?:new manager is|nuev[oa] jef[ea] es)\s+")),
    "place": (frozenset({"located_in", "based_in", "headquartered_in", "located_at", "ubicado_en", "ubicada_en",
                         "situado_en", "situada_en", "sede_en", "con_sede_en"}),
              (r"\b(?:located|based|headquartered|ubicad[oa]|situad[oa]|con sede)\s+(?:now\s+|ahora\s+)?"
               r"(?:in|at|en)\s+", r"\b(?:moved|relocated|se trasl[aá]d[oó]|se mud[oó])\s+(?:to|a)\s+")),
    "host": (frozenset({"hosted_on", "hosted_at", "hosted_by", "host", "alojado_en", "alojada_en"}),
             (r"\b(?:hosted|alojad[oa])\s+(?:now\s+|ahora\s+)?(?:on|at|by|en)\s+",
              r"\b(?:moved|migrated|switched|se movi[oó]|se migr[oó]|migrad[oa]|se cambi[oó])\s+"
              r"(?:from\s+\S+(?:\s+\S+){0,2}?\s+|de\s+\S+(?:\s+\S+){0,2}?\s+)?(?:to|a)\s+")),
    "owner": (frozenset({"owned_by", "owner", "owner_team", "propiedad_de", "pertenece_a", "duenio", "dueno"}),
              (r"\b(?:owned|maintained)\s+(?:now\s+)?by\s+|\bownership\s+(?:moved|passed|went|was transferred)\s+to\s+",
               r"\b(?:pertenece|es propiedad de)\s+(?:ahora\s+)?a?\s*")),
    "assignee": (frozenset({"assigned_to", "assignee", "asignado_a", "asignada_a"}),
                 (r"\b(?:(?:re)?assigned|asignad[oa]|reasignad[oa])\s+(?:now\s+|ahora\s+)?(?:to|a)\s+",)),
    "spouse": (frozenset({"married_to", "spouse", "spouse_of", "wife_of", "husband_of", "casado_con",
                          "casada_con", "conyuge", "conyuge_de", "esposa_de", "esposo_de"}),
               (r"\b(?:married|casad[oa]|se cas[oó])\s+(?:to|with|con)\s+",)),
}
_KIND = {name: family for family, (names, _) in FAMILIES.items() for name in names}
# The graph's own evidence that a kind holds many at once: of the entities holding it, at least
# this many, and this share of them, hold several targets at the same time (two jobs are common in
# this memory, say): a newer relation of it then replaces nothing.
MANY_AT_ONCE = 5
MANY_SHARE = 0.2
Evidence = Mapping[str, tuple[int, int]]  # a kind (family) → (entities holding it, those holding several)
_SAYS = {family: [re.compile(p, _I) for p in phrases] for family, (_, phrases) in FAMILIES.items()}


def fold_type(rtype: str) -> str:
    """A relation type folded for comparing kinds: ``WORKS_AT``, ``worksAt``, ``works-at`` → ``works_at``."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", rtype)
    return re.sub(r"[^0-9a-z]+", "_", fold(spaced)).strip("_")


@functools.lru_cache(maxsize=4096)  # a graph has few relation types; each is looked up once per row
def kind_of(rtype: str) -> str | None:
    """The single-valued kind of ``rtype`` (``employer``, ``home`` …), None for any other."""
    return _KIND.get(fold_type(rtype))


def _same_target(said: str, target: str) -> bool:
    """One name, maybe said longer: the same words and then a qualifier, a company suffix or a
    possessive (``Acme`` / ``Acme Corp``, ``Acme in May``, ``Acme's Madrid office``), never
    another word that begins alike (``Ana`` / ``Anabel``) or a thing named after it (``the Acme
    Slack channel``)."""
    a, b = fold(said).strip(), fold(target).strip()
    if not a or not b:
        return False
    short, long_ = sorted((a, b), key=len)
    if short == long_ or long_.startswith((short + "'s", short + "’s")):
        return True
    rest = long_[len(short):].split() if long_.startswith(short + " ") else []
    return bool(rest) and rest[0].strip(",.") in _AFTER_NAME


def fact_says(family: str, fact: str) -> tuple[str, bool] | None:
    """What ``fact`` says about the entity's own relation of ``family`` now: (the target it names,
    folded; whether it says the relation ended), or None when it is not about one (another
    person's, the past, a wish, or no name after the words)."""
    said = _said(family, fact)
    return None if said is None else said[:2]


def _said(family: str, fact: str) -> tuple[str, bool, str] | None:
    """``fact_says``, and the folded words before the verb (who or what the fact is about)."""
    for phrase in _SAYS[family]:
        found = phrase.search(fact)
        if found:
            ended = bool(_NEGATION.search(fact[: found.end()]))
            target = _ARTICLE.sub("", _CUT.sub("", fact[found.end():]).strip())
            if _NOT_NOW.search(fact[: found.start()]) or not target or not (target[0].isupper() or target[0].isdigit()):
                return None
            return fold(target), ended, fold(fact[: found.start()])
    return None


def many_at_once(family: str, evidence: Evidence) -> bool:
    """Whether the graph's ``evidence`` says ``family`` holds many targets at once (``MANY_AT_ONCE``)."""
    holders, several = evidence.get(family, (0, 0))
    return several >= MANY_AT_ONCE and several >= MANY_SHARE * holders


Several = dict[int, dict[str, int]]  # entity id → kind → how many targets of it it holds now (two or more)


def several_of(held: Sequence[tuple[str, str, str]]) -> dict[str, int]:
    """The single-valued kinds of which ``held`` (one entity's current relations) names two targets
    or more, and how many."""
    targets: dict[str, set[str]] = {}
    for rtype, to, _ in held:
        family = kind_of(rtype)
        if family is not None:
            targets.setdefault(family, set()).add(fold(to).strip())
    return {f: len(ts) for f, ts in targets.items() if len(ts) > 1}


def evidence_of(counts: Mapping[str, int], several: Mapping[int, Mapping[str, int]]) -> dict[str, tuple[int, int]]:
    """Per single-valued kind: (entities holding it, those holding several targets of it at once),
    from the graph's relation counts by type and ``several`` (``several_of`` of each entity
    holding two or more)."""
    relations: dict[str, int] = {}
    for rtype, n in counts.items():
        family = kind_of(rtype)
        if family is not None:
            relations[family] = relations.get(family, 0) + n
    holding: dict[str, int] = {}
    extra: dict[str, int] = {}  # relations beyond each holder's first
    for kinds in several.values():
        for family, n in kinds.items():
            holding[family] = holding.get(family, 0) + 1
            extra[family] = extra.get(family, 0) + n - 1
    return {f: (max(n - extra.get(f, 0), holding.get(f, 0)), holding.get(f, 0)) for f, n in relations.items()}


def judge(relations: Sequence[tuple[str, str, str]], facts: Sequence[tuple[str, str]],
          done: Mapping[str, Any] = {}, evidence: Evidence = {}  # noqa: B006 - read only
          ) -> list[tuple[str, str, dict[str, str], str, float]]:
    """Within one entity: which of its current ``relations`` (type, target, created_at; oldest
    first) of single-valued kinds are superseded, by a newer one of the same kind or by a newer
    fact (``facts``: (text, created_at), oldest first); a kind the graph's ``evidence`` shows held
    many at once (``many_at_once``) only by a fact. ``done``: relation keys marked already.
    Returns (type, target, successor, reason, confidence)."""
    kinds: dict[str, list[tuple[str, str, str]]] = {}
    for rel in relations:
        family = kind_of(rel[0])
        if family is not None:
            kinds.setdefault(family, []).append(rel)
    out: list[tuple[str, str, dict[str, str], str, float]] = []
    for family, found in kinds.items():
        found = sorted(found, key=lambda r: r[2])
        newest = found[-1]
        for rtype, to, created in ([] if many_at_once(family, evidence) else found[:-1]):
            if created < newest[2] and not _same_target(newest[1], to) and relation_key(rtype, to) not in done:
                out.append((rtype, to, {"relationType": newest[0], "to": newest[1]}, f"a newer {family} relation",
                            0.85))
        rtype, to, created = newest  # only the current one of its kind can be replaced by a fact
        if relation_key(rtype, to) in done:
            continue
        for fact, at in reversed(facts):  # the newest fact about it decides
            said = _said(family, fact)
            # "Marta reports to Luis" on an entity that reports to Marta is about Marta, not about it.
            if said is None or at < created or (fold(to).strip() and fold(to).strip() in said[2]):
                continue
            target, ended, _ = said
            left = _FROM_PART.search(fact)
            if left and not _same_target(_ARTICLE.sub("", left.group("old")), to):
                break  # "switched from REST to GraphQL": it left something else
            marked = bool(_UPDATE_WORDS.search(fact))
            if ended and _same_target(target, to):
                out.append((rtype, to, {"fact": fact}, "a newer fact says it ended", 0.9))
            elif not ended and not _same_target(target, to) and (at > created or marked):
                out.append((rtype, to, {"fact": fact}, f"a newer fact names another {family}", 0.9 if marked else 0.8))
            break
    return out


# -- proposing ---------------------------------------------------------------------------------

def find_rows(graph: Any) -> list[Row]:
    """Candidate rows, best first: ``(entity id, older type, older target, successor, reason,
    confidence)``; the successor is ``{"relationType", "to"}`` or ``{"fact"}``. Reads only the
    entities with two current relations of single-valued kinds, or with facts newer than one."""
    return _best_first([r for found in _read_all(graph)[0].values() for r in found])


def _best_first(rows: list[Row]) -> list[Row]:
    rows.sort(key=lambda r: (-r[5], -r[0], r[1], r[2]))
    return rows


def _entity_rows(eid: int, raw: str | None, held: Sequence[tuple[str, str, str]],
                 facts: Sequence[tuple[str, str]], evidence: Evidence) -> list[Row]:
    # Most entities have no marks: no JSON to decode.
    done = (json.loads(raw or "{}").get(SUPERSEDED_RELATIONS) or {}) if SUPERSEDED_RELATIONS in (raw or "") else {}
    return [(eid, *found) for found in judge(held, facts, done, evidence)]


def _read_all(graph: Any) -> tuple[dict[int, list[Row]], Several, dict[str, tuple[int, int]]]:
    """Every entity's findings (those with none left out), by entity id; and which entities hold
    several targets of a single-valued kind (``several_of``), and the graph's evidence (``evidence_of``)."""
    counts = graph.relation_type_counts()
    types = [t for t in counts if kind_of(t) is not None]
    rows = hygiene_store(graph).single_valued(types)
    several = {eid: kinds for eid, _, held, _ in rows if len(held) > 1 and (kinds := several_of(held))}
    evidence = evidence_of(counts, several)
    out: dict[int, list[Row]] = {}
    for eid, raw, held, facts in rows:
        found = _entity_rows(eid, raw, held, facts, evidence)
        if found:
            out[eid] = found
    return out, several, evidence


def _read_some(graph: Any, ids: set[int], kept: _Kept) -> dict[int, list[Row]] | None:
    """The findings of the entities ``ids``, judged on what ``single_valued`` would read of them,
    with ``kept.several`` brought up to date for them; None when the graph's evidence now says
    otherwise of a kind's being held many at once (every entity holding it is then judged again)."""
    out: dict[int, list[Row]] = {}
    rows = hygiene_store(graph).relations_of(sorted(ids))
    several = kept.several
    for eid in ids:
        several.pop(eid, None)
    for eid, _, rels, _ in rows:
        kinds = several_of(rels)
        if kinds:
            several[eid] = kinds
    evidence = evidence_of(graph.relation_type_counts(), several)
    flipped = any(many_at_once(f, evidence) != many_at_once(f, kept.evidence) for f in {*evidence, *kept.evidence})
    kept.evidence = evidence
    if flipped:
        return None
    for eid, raw, rels, facts in rows:
        held = [r for r in rels if kind_of(r[0]) is not None]
        if not held:
            continue
        since = min(r[2] for r in held)
        newer = [f for f in facts if f[1] >= since]
        if len(held) > 1 or newer:  # single_valued's rule: otherwise nothing can replace the one held
            found = _entity_rows(eid, raw, held, newer, evidence)
            if found:
                out[eid] = found
    return out


MAX_WRITTEN = 5000  # entities written since the last run judged one by one; more: everything is read
# Writes after which entities may be gone without their id in the log: the next run reads everything.
_REMOVING = frozenset({"delete_entity", "merge_entities", "undo"})


@dataclass
class _Kept:
    """One graph's findings as the last run read them, in this process: entity id → rows."""

    last_change: int = -1
    found: dict[int, list[Row]] = field(default_factory=dict)
    saved: int = -1  # the last_change the stored copy (``STATE_KEY``) holds
    several: Several = field(default_factory=dict)  # ``several_of`` of the entities holding two or more
    evidence: dict[str, tuple[int, int]] = field(default_factory=dict)  # ``evidence_of`` the findings were judged by
    full_read: bool = False  # whether the last run read every entity (``_read_all``)


_KEPT = written.PerGraph()

# The findings are also kept in the memory itself (its metadata, beside the graph), with the change
# they are true as of: a new process starts from them and reads only what was written since, instead
# of every relation (seconds on a graph server at 100k entities, which cannot index relation types).
STATE_KEY = "hygiene.superseded_relations"
RULES_VERSION = "2"  # bump when ``judge`` or the kinds change: stored findings are then read again


def _kept(graph: Any) -> _Kept:
    return _KEPT.of(graph, _Kept)


def _anchor(graph: Any, change_id: int) -> list[Any] | None:
    """What identifies the change ``change_id`` (its id, time, operation and entity), or None if
    the log no longer holds it (an import rolled back): stored findings are then not trusted."""
    if change_id <= 0:
        return [change_id]
    found = graph.changes_since(change_id - 1, limit=1)
    if not found or found[0].id != change_id:
        return None
    c = found[0]
    return [c.id, c.at, c.op, c.entity]


def _load(graph: Any, kept: _Kept) -> None:
    """The stored findings into ``kept``, when they still hold for this graph's change log."""
    raw = graph.get_metadata(STATE_KEY)
    if not raw:
        return
    try:
        state = json.loads(raw)
        change = int(state["change"])
        if state.get("version") != RULES_VERSION or change > int(graph.latest_change_id()):
            return
        if _anchor(graph, change) != state["anchor"]:
            return
        found = {int(eid): [(int(r[0]), r[1], r[2], dict(r[3]), r[4], float(r[5])) for r in rows]
                 for eid, rows in state["found"].items()}
        several = {int(eid): {str(k): int(n) for k, n in kinds.items()} for eid, kinds in state["several"].items()}
        evidence = {str(k): (int(v[0]), int(v[1])) for k, v in state["evidence"].items()}
    except (ValueError, KeyError, TypeError, IndexError, AttributeError):
        return  # unreadable: read everything, as a first run does
    kept.last_change, kept.found, kept.saved = change, found, change
    kept.several, kept.evidence = several, evidence


def save(graph: Any) -> None:
    """Store the findings the last run left (after reflect wrote its plan; skipped when unchanged,
    and on a memory open read-only)."""
    kept = _kept(graph)
    if kept.last_change < 0 or kept.saved == kept.last_change:
        return
    anchor = _anchor(graph, kept.last_change)
    if anchor is None:
        return
    value = json.dumps({"version": RULES_VERSION, "change": kept.last_change, "anchor": anchor,
                        "found": {str(eid): rows for eid, rows in kept.found.items()},
                        "several": {str(eid): kinds for eid, kinds in kept.several.items()},
                        "evidence": {k: list(v) for k, v in kept.evidence.items()}},
                       ensure_ascii=False, separators=(",", ":"))
    try:
        graph.set_metadata(STATE_KEY, value)
    except ConfigError:  # read-only: the next process reads everything, as before
        return
    kept.saved = kept.last_change


class Detector:
    """Reflect's reading of this pattern: ``find_rows``'s answer, reading again only the entities
    written since the last run (in this process, or the one that stored its findings last)."""

    def __init__(self, graph: Any) -> None:
        self._graph = graph
        self._kept = _kept(graph)

    def rows(self) -> list[Row]:
        kept, graph = self._kept, self._graph
        if kept.last_change < 0:
            _load(graph, kept)
        latest = int(graph.latest_change_id())
        names = (written.names_since(graph, kept.last_change, latest, MAX_WRITTEN, _REMOVING)
                 if kept.last_change >= 0 else None)
        kept.last_change = latest
        kept.full_read = names is None
        if names is None:
            kept.found, kept.several, kept.evidence = _read_all(graph)
        elif names:
            ids = set(graph.ids_for(sorted(names)).values())
            for near in hygiene_store(graph).neighbours(sorted(ids)).values():
                ids |= near
            some = _read_some(graph, ids, kept)
            if some is None:
                kept.found, kept.several, kept.evidence = _read_all(graph)
                kept.full_read = True
            else:
                for eid in ids:
                    kept.found.pop(eid, None)
                kept.found.update(some)
        return _best_first([r for found in kept.found.values() for r in found])


def _find(reading: Reading) -> list[Row]:
    def read() -> list[Row]:
        reading.done.append(lambda: save(reading.graph))
        return Detector(reading.graph).rows()
    return reading.once(PATTERN, read)


def _successor(by: Mapping[str, Any]) -> str:
    return f"“{by['fact']}”" if "fact" in by else f"{by['relationType']} → {by['to']}"


def _key(row: Row) -> tuple[int, int]:
    digest = hashlib.sha1(f"{row[1]}\x1f{row[2]}\x1f{_successor(row[3])}".encode()).hexdigest()[:12]
    return row[0], int(digest, 16)


def _title(row: Row, names: Names) -> str:
    name = names.get(row[0], (f"#{row[0]}", ""))[0]
    return f"Superseded relation on {clip(name)}: {clip(row[1])} → {clip(row[2])} by {clip(_successor(row[3]), 60)}"


def _draft(c: Candidate, ev: dict[str, Any], names: Names, rules: ReflectRules) -> InsightDraft:
    eid, rtype, to, by, reason, _ = c.row
    name, label = names.get(eid, (f"#{eid}", ""))
    summary = (f'On "{name}", {_successor(by)} seems to replace the relation {rtype} → {to} ({reason}). '
               "Approving keeps the relation, marked as superseded with today as its end; the official reads "
               "still return it, search no longer answers with it, and one undo takes it back.")
    evidence = {"key": list(c.key), "entities": [{"id": eid, "name": name, "label": label, "role": "entity"}],
                "path": [{"from": name, "rel": rtype, "to": to}], "total": 1,
                "relation": {"entity": name, "relationType": rtype, "to": to, "by": dict(by), "reason": reason}}
    return InsightDraft(c.title, c.pattern, c.confidence, summary, evidence)


SPEC = Spec(key=_key, confidence=lambda r: r[5], weight=lambda r: r[0], anchors=lambda r: [r[0]],
            title=_title, draft=_draft,
            find=_find)


# -- approving ---------------------------------------------------------------------------------

def _check(graph: Any, insight: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """The entity's name now (found by id, so a rename does not matter) and the relation facts,
    if the old relation is still current and its successor still there; Conflict otherwise."""
    about = dict((insight.get("evidence") or {}).get("relation") or {})
    ids = [e.get("id") for e in (insight.get("evidence") or {}).get("entities") or [] if isinstance(e.get("id"), int)]
    nodes = graph.nodes_by_id(ids[:1]) if ids else []
    if not about or not nodes:
        raise NotFound(f"The entity of {insight.get('title')!r} no longer exists. Dismiss the insight. "
                       "Nothing was changed.")
    name = nodes[0].name
    rels = {(r["relationType"], r["to"]): r for r in graph.entity_for_edit(name)["relations"] if r["from"] == name}
    old = rels.get((about["relationType"], about["to"]))
    if old is None or old.get("ended_at"):
        raise Conflict(f"The relation {about['relationType']} → {about['to']} of {name!r} is gone or ended since. "
                       "Run reflect again, or dismiss the insight. Nothing was changed.")
    by = about["by"]
    still = by["fact"] in nodes[0].observations if "fact" in by else (by["relationType"], by["to"]) in rels
    if not still:
        raise Conflict(f"What replaced it ({_successor(by)}) is no longer on {name!r}. Run reflect again, or "
                       "dismiss the insight. Nothing was changed.")
    return name, about


def _approve(host: lifecycle.Host, insight: dict[str, Any], actor: str, decide: lifecycle.Decide) -> dict[str, Any]:
    if insight.get("status") != "pending":
        return decide()  # another move: refused by the lifecycle with its reason
    name, about = _check(host.graph, insight)
    key = relation_key(about["relationType"], about["to"])
    patch = {key: {"relationType": about["relationType"], "to": about["to"], "by": about["by"], "ended_at": None,
                   "insight": insight["title"]}}
    change_id = approval.approve_marking(host, insight["title"], name, SUPERSEDED_RELATIONS, patch, actor)
    decided: dict[str, Any] = host.surface_insights(limit=1, title=insight["title"], status="all")[0]
    return {**decided, "applied": {"change_id": change_id}}


def _reopen(host: lifecycle.Host, insight: dict[str, Any], actor: str) -> bool:
    """Back to review: the relation is current again (if the mark is still this insight's)."""
    about = (insight.get("evidence") or {}).get("relation") or {}
    node = host.graph.get_node(about.get("entity", "")) if about else None
    if node is None:
        return False
    key = relation_key(about["relationType"], about["to"])
    if (marks(node.props).get(key) or {}).get("insight") != insight.get("title"):
        return False
    host.graph.merge_node(node.label, node.name, {SUPERSEDED_RELATIONS: {key: None}}, actor)
    return True


# -- reading -----------------------------------------------------------------------------------

def marks(props: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """The superseded relations an entity's properties record, by ``relation_key``."""
    raw = (props or {}).get(SUPERSEDED_RELATIONS)
    if not isinstance(raw, Mapping):
        return {}
    return {k: dict(v) for k, v in raw.items() if isinstance(k, str) and isinstance(v, Mapping)}


def listed(props: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The superseded relations as a list (what explain shows): ``{relationType, to, by, ended_at}``."""
    return [{k: v for k, v in m.items() if k != "insight"} for m in marks(props).values()]


def current(props: Mapping[str, Any] | None, relations: Sequence[Any]) -> list[Any]:
    """``relations`` (``core.model.Relation``) without the outgoing ones an approval superseded."""
    gone = marks(props)
    return [r for r in relations if relation_key(r.relationType, r.to) not in gone]


patterns.register(PATTERN, SPEC, self_evident=True)
lifecycle.carry_out(PATTERN, approve=_approve, reopen=_reopen)
