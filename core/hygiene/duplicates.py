"""Possible duplicate entities and near-identical observations, found by rules anyone can check.

Entities (``duplicate_entities``), of compatible types (the same after ignoring case and
separators, or one a placeholder such as ``Unknown``):

* **same name** written differently (``names.name_key``: ``Ana_Garcia`` / ``Ana García`` /
  ``ana garcia``, ``Bob Smith`` / ``Robert Smith``) — confidence 0.95;
* **same words in another order** (``García, Ana``) — 0.9;
* **an initial, a slip or a nickname** (``A. García`` / ``Ana García``, ``Kubernetes`` /
  ``Kuberentes``, ``Tony Russo`` / ``Anthony Russo``: ``glossary.nickname_match``, people only)
  or a company's legal form (``Telefónica S.A.`` / ``Telefónica``, ``names.legal_form_match``)
  and at least one neighbour in common — 0.8;
* **one name inside the other** (``Atlas`` / ``Project Atlas``) with two neighbours in common or
  more, the same numbers, no word put between two of the shorter's (``Order service`` / ``Order
  sync service``) — 0.7;
* **close in meaning** (``Billing service`` / ``Servicio de facturación``): names, words and facts
  alike by the memory's embedder, neighbours in common, no near-miss veto (``core.hygiene.meaning``)
  — 0.6–0.75, the evidence (shared neighbours, similarities) in the insight.

A near miss (``Ana García`` / ``Ana Gardner``, ``Project Atlas`` / ``Atlas Copco``) matches none of
these; names of two generations (``Luis Romero`` / ``Luis Romero Jr.``, ``names.generation``) never
pair. Observations (``repeated_observations``): facts of one entity that differ only in case,
accents, punctuation or spacing, or by one word (never by a number).

Everything here reads through ``core.hygiene.store.HygieneStore`` and the graph store. The names
are kept folded between runs (``name_index``); a later run reads only the entities written since
(``written``), plus the neighbours of the few candidate pairs.
"""

from __future__ import annotations

import weakref
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from core.hygiene import glossary, meaning, written
from core.hygiene import name_index as NI
from core.hygiene import names as N
from core.hygiene.store import HygieneStore
from core.processes import collector_paused
from core.reflect.model import InsightDraft
from core.search.folding import fold

DUPLICATES = "duplicate_entities"
REPEATS = "repeated_observations"
WILDCARD_TYPES = NI.WILDCARD_TYPES
BLOCK_CAP = NI.BLOCK_CAP
MEANING_RULE = "close in meaning"  # core.hygiene.meaning
PAIRWISE_FACTS = 40  # near-identical facts are compared pairwise on entities with at most this many


@dataclass(frozen=True)
class Pair:
    a: int
    b: int
    rule: str
    confidence: float


def _compatible(t1: str, t2: str) -> bool:
    return t1 == t2 or "*" in (t1, t2)


def find_duplicate_groups(rows: Sequence[tuple[int, str, str]], hs: HygieneStore,
                          index: NI.NameIndex | None = None) -> list[tuple[list[int], str, float]]:
    """Groups of entity ids that are probably one thing: ``[(ids, rule, confidence)]``.

    ``index`` is the names as the last run left them (``name_index.for_graph``): only the rows
    that changed since are folded again; None folds them all."""
    with collector_paused():  # a few hundred thousand small lists, no cycles: a collection would only walk them
        index = index if index is not None else NI.NameIndex()
        index.update(list(rows))
        return _groups(index, hs)


def _groups(index: NI.NameIndex, hs: HygieneStore) -> list[tuple[list[int], str, float]]:
    info = index.info
    groups: list[tuple[list[int], str, float]] = []
    grouped: set[int] = set()
    for rule, conf, keyed in (("same name", 0.95, index.same), ("same words", 0.9, index.order)):
        for ids in keyed.many.values():
            free = sorted(i for i in ids if i not in grouped)
            parts = _by_generation(_by_type(free, info), info) if len(free) > 1 else []
            for part in _by_order(parts, info) if rule == "same words" else parts:
                if len(part) > 1:
                    groups.append((sorted(part), rule, conf))
                    grouped.update(part)
    pairs = _loose_pairs(index, grouped, hs)
    groups += [([p.a, p.b], p.rule, p.confidence) for p in pairs]
    return groups


def _by_type(ids: list[int], info: dict[int, tuple[str, str, tuple[str, ...]]]) -> list[list[int]]:
    """``ids`` split into sets of compatible types (placeholders join the first)."""
    parts: dict[str, list[int]] = defaultdict(list)
    wild: list[int] = []
    for i in ids:
        (wild if info[i][1] == "*" else parts[info[i][1]]).append(i)
    if not parts:
        return [wild]
    out = list(parts.values())
    out[0] += wild
    return out


def _by_generation(parts: list[list[int]], info: dict[int, tuple[str, str, tuple[str, ...]]]) -> list[list[int]]:
    """Each part split by the generation its names give (``Richard Cole`` / ``Richard Cole Sr.``:
    the title dropped from the words is a father here, ``names.generation``)."""
    out: list[list[int]] = []
    for part in parts:
        by: dict[str, list[int]] = defaultdict(list)
        for i in part:
            by[N.generation(info[i][0])].append(i)
        out += by.values()
    return out


def _by_order(parts: list[list[int]], info: dict[int, tuple[str, str, tuple[str, ...]]]) -> list[list[int]]:
    """People's names with the same words split by their order, up to a surname written first
    (``names.rotated``: ``García, Ana`` / ``Ana García`` stay one, ``José María Fernández`` /
    ``María José Fernández`` are two people). Other things' words may come in any order."""
    out: list[list[int]] = []
    for part in parts:
        if not meaning.PERSON_FAMILIES & {info[i][1] for i in part}:
            out.append(part)
            continue
        by: list[list[int]] = []
        for i in part:
            home = next((g for g in by if N.rotated(list(info[g[0]][2]), list(info[i][2]))), None)
            if home is None:
                by.append([i])
            else:
                home.append(i)
        out += by
    return out


# Per name index: each small block's candidate pairs (by names alone), kept while the block's
# members do not change.
_BLOCK_PAIRS: weakref.WeakKeyDictionary[NI.NameIndex, dict[str, dict[tuple[int, int], tuple[str, float, int]]]] = \
    weakref.WeakKeyDictionary()


def _block_pairs(index: NI.NameIndex) -> dict[str, dict[tuple[int, int], tuple[str, float, int]]]:
    cached = _BLOCK_PAIRS.get(index)
    if cached is None:
        cached = _BLOCK_PAIRS[index] = {}
        dirty: Iterable[str] = index.blocks.many.keys()
    else:
        dirty = index.dirty_blocks
    info = index.info
    for key in list(dirty):
        ids = index.blocks.get(key)
        cached.pop(key, None)
        if len(ids) < 2 or len(ids) > BLOCK_CAP:
            continue
        found: dict[tuple[int, int], tuple[str, float, int]] = {}
        gen = {i: N.generation(info[i][0]) for i in ids}
        for x in range(len(ids)):
            for y in range(x + 1, len(ids)):
                a, b = sorted((ids[x], ids[y]))
                if not _compatible(info[a][1], info[b][1]) or gen[a] != gen[b]:
                    continue
                person = bool(meaning.PERSON_FAMILIES & {info[a][1], info[b][1]})
                rule = ("a role in brackets", 0.8, 1) if person and N.role_noted(info[a][0], info[b][0]) \
                    else _loose_rule(list(info[a][2]), list(info[b][2]), person)
                if rule is not None and not (rule[0] == "one name inside the other"
                                             and N.kind_noted(info[a][0], info[b][0])):
                    found[(a, b)] = rule
        if found:
            cached[key] = found
    return cached


def _loose_pairs(index: NI.NameIndex, grouped: set[int], hs: HygieneStore) -> list[Pair]:
    """Initials, slips and contained names: candidates paired by a shared rare word or prefix,
    kept only with neighbours in common; an entity in two such pairs is ambiguous and left out."""
    candidates: dict[tuple[int, int], tuple[str, float, int]] = {}
    for found in _block_pairs(index).values():
        candidates.update(found)
    if not candidates:
        return []
    near = hs.neighbours(sorted({i for pair in candidates for i in pair}))
    kept = [Pair(a, b, rule, conf) for (a, b), (rule, conf, need) in sorted(candidates.items())
            if len((near[a] & near[b]) - {a, b}) >= need]
    seen: dict[int, int] = defaultdict(int)
    for p in kept:
        seen[p.a] += 1
        seen[p.b] += 1
    return [p for p in kept if seen[p.a] == 1 and seen[p.b] == 1 and p.a not in grouped and p.b not in grouped]


def _loose_rule(ta: list[str], tb: list[str], person: bool = False) -> tuple[str, float, int] | None:
    """(rule, confidence, neighbours needed in common) for two token lists, or None; ``person``:
    one of them is a person (a nickname may name them: ``glossary.nickname_match``)."""
    if N.initial_match(ta, tb):
        return "an initial", 0.8, 1
    if N.typo_match(ta, tb):
        return "a slip in the name", 0.8, 1
    if person and glossary.nickname_match(ta, tb):
        return "a nickname", 0.8, 1
    if not person and N.legal_form_match(ta, tb):
        return "a legal form", 0.8, 1
    sa, sb = set(ta), set(tb)
    if sa and sb and (sa < sb or sb < sa) and min(len(x) for x in (sa & sb)) >= 4 \
            and _numbers(ta) == _numbers(tb) and not _inserted(ta, tb):
        return "one name inside the other", 0.7, 2
    return None


def _numbers(toks: Sequence[str]) -> list[str]:
    """The words holding a digit: ``Project Phoenix 2`` is the sequel of ``Project Phoenix``."""
    return [t for t in toks if any(c.isdigit() for c in t)]


def _inserted(ta: Sequence[str], tb: Sequence[str]) -> bool:
    """The longer name is the shorter with a word put between two of its words, in the same order
    (``Order service`` / ``Order history service``, ``Payments team`` / ``Payments platform team``):
    the word makes a part or a kind of it, another thing. Words added before or after (``Atlas`` /
    ``Project Atlas``, ``Billing`` / ``Billing service``) do not."""
    short, long_ = sorted((list(ta), list(tb)), key=len)
    if len(short) < 2:
        return False
    kept = [w for w in long_ if w in short]
    if kept != short:
        return False
    first, last = long_.index(short[0]), len(long_) - 1 - long_[::-1].index(short[-1])
    return any(w not in short for w in long_[first:last + 1])


def choose_into(nodes: list[dict[str, Any]]) -> str:
    """Which of a group's entities the others merge into: the name written most fully (no
    underscores; accents, capitals, spaces), then the best-known one (most facts and relations),
    then the oldest."""
    def rank(n: dict[str, Any]) -> tuple[Any, ...]:
        name = n["name"]
        written = sum(1 for c in name if not c.isascii()) + sum(1 for c in name if c.isupper()) + name.count(" ")
        return ("_" in name, -written, -n["weight"], n["order"])
    return str(min(nodes, key=rank)["name"])


def duplicate_drafts(hs: HygieneStore, graph: Any) -> list[InsightDraft]:
    """One insight draft per group of probable duplicates, with its evidence and merge plan."""
    index = NI.for_graph(graph)
    if _written_rows(index, graph) is None:
        with collector_paused():
            stored = hs.entity_name_rows()
            words, index.unsaved = NI.words_of(stored)
            rows = [r[:3] for r in stored]
            index.update(rows, words)
            groups = _groups(index, hs)
    else:
        with collector_paused():
            groups = _groups(index, hs)
    by_meaning = {(v.a, v.b): v for v in meaning.find(index, hs, graph, {i for ids, _, _ in groups for i in ids})}
    groups += [([a, b], MEANING_RULE, v.confidence) for (a, b), v in by_meaning.items()]
    if not groups:
        return []
    linked = {n.id: n.name for n in graph.nodes_by_id(sorted({i for v in by_meaning.values() for i in v.shared}))}
    by_id = {i: index.rows[i] for ids, _, _ in groups for i in ids}
    names = [by_id[i][0] for ids, _, _ in groups for i in ids]
    opened = graph.open_nodes(names)
    weight: dict[str, int] = {e.name: len(e.observations) for e in opened.entities}
    for r in opened.relations:
        for end in (r.from_, r.to):
            if end in weight:
                weight[end] += 1
    drafts = []
    for ids, rule, conf in groups:
        nodes: list[dict[str, Any]] = [{"name": by_id[i][0], "weight": weight.get(by_id[i][0], 0), "order": i}
                                       for i in ids]
        into = choose_into(nodes)
        others = [n["name"] for n in nodes if n["name"] != into]
        shown = ", ".join(f"“{n}”" for n in others)
        # The title names the group, not the choice of the kept one (which may change as they grow):
        # a dismissed group is never proposed again.
        listed = sorted((n["name"] for n in nodes), key=lambda n: (fold(n), n))
        why, extra = rule, dict[str, Any]()
        verdict = by_meaning.get((ids[0], ids[1])) if rule == MEANING_RULE else None
        if verdict is not None:
            why, extra = _meaning_evidence(verdict, linked)
        drafts.append(InsightDraft(
            title=f"Possible duplicates: {' and '.join(listed)}",
            pattern=DUPLICATES, confidence=conf,
            summary=(f"{shown} may be the same as “{into}” ({why}). Approving merges "
                     f"{'them' if len(others) > 1 else 'it'} into “{into}”: facts and relations are kept, "
                     "the other names stay as aliases, and one undo takes it back."),
            evidence={"key": list(ids), "total": len(ids), "path": [], "rule": rule, **extra,
                      "merge": {"into": into, "names": others},
                      "entities": [{"id": i, "name": by_id[i][0], "label": by_id[i][1],
                                    "role": "keep" if by_id[i][0] == into else "duplicate"} for i in ids]}))
    return drafts


def store_folded(hs: HygieneStore, graph: Any) -> None:
    """Store the names' words the last run folded because none were stored (entities written
    before schema 8, or by another tool): the next process reads them instead (a page per write)."""
    index = NI.for_graph(graph)
    unsaved, index.unsaved = index.unsaved, []
    if unsaved:
        hs.store_name_tokens(unsaved)


MAX_WRITTEN = 5000  # entities written since the last run read one by one; more: every name is read
# Writes after which entities may be gone without their id in the log: every name is read again.
_REMOVING = frozenset({"delete_entity", "merge_entities", "undo"})


def _written_rows(index: NI.NameIndex, graph: Any) -> list[tuple[int, str, str]] | None:
    """Bring ``index`` up to date from the entities written since its last update (by the change
    log): the rows changed, or None when every row must be read (a first run in this process, a
    deletion, a merge, an undo, or thousands of writes)."""
    latest = int(graph.latest_change_id())
    after, index.last_change = index.last_change, latest
    names = written.names_since(graph, after, latest, MAX_WRITTEN, _REMOVING) if after >= 0 and index.rows else None
    if names is None:
        return None
    nodes = graph.nodes_by_id(sorted(set(graph.ids_for(sorted(names)).values()))) if names else []
    live = [(n.id, n.name, n.label) for n in nodes if n.archived_at is None and n.label != "Insight"]
    index.update_some(live, [n.id for n in nodes if n.archived_at is not None or n.label == "Insight"])
    return live


def _meaning_evidence(v: meaning.Verdict, linked: dict[int, str]) -> tuple[str, dict[str, Any]]:
    """The words of a by-meaning proposal's reason, and its evidence: which neighbours are shared,
    how alike the names, their words and their facts are."""
    shared = [linked.get(i, f"#{i}") for i in v.shared]
    listed = ", ".join(f"“{n}”" for n in shared[:5]) + (f" and {len(shared) - 5} more" if len(shared) > 5 else "")
    facts = f", facts {v.facts:.2f}" if v.facts is not None else ""
    why = (f"close in meaning: names {v.names:.2f}, words {v.words:.2f}{facts}; "
           f"both linked to {listed}")
    return why, {"meaning": {"names": v.names, "words": v.words, "facts": v.facts, "shared": shared}}


def repeat_drafts(hs: HygieneStore) -> list[InsightDraft]:
    """One insight draft per entity holding near-identical observations."""
    drafts = []
    for eid, name, observations in hs.repeated_fact_rows():
        found = repeated_fact_groups(observations)
        if not found:
            continue
        dropped = sum(len(r) for _, r in found)
        drafts.append(InsightDraft(
            title=f"Repeated facts on {name}", pattern=REPEATS, confidence=0.9,
            summary=(f"“{name}” holds {dropped} fact{'s' if dropped > 1 else ''} that repeat another almost "
                     "word for word. Approving removes the repeats (one undo brings them back)."),
            evidence={"key": [eid, dropped], "total": 1, "path": [],
                      "entities": [{"id": eid, "name": name, "label": "", "role": "holder"}],
                      "repeats": [{"keep": k, "drop": r} for k, r in found]}))
    return drafts


def repeated_fact_groups(observations: Sequence[str]) -> list[tuple[str, list[str]]]:
    """``[(kept, [near-identical repeats])]`` among one entity's observations: the same key first,
    then near pairs (on entities with at most ``PAIRWISE_FACTS`` distinct facts); first written kept."""
    groups: dict[str, list[str]] = {}
    order: list[str] = []
    for text in observations:
        k = N.fact_key(text)
        if k not in groups:
            groups[k] = []
            order.append(k)
        groups[k].append(text)
    heads = [groups[k][0] for k in order]
    merged: list[tuple[str, list[str]]] = [(groups[k][0], groups[k][1:]) for k in order]
    if len(heads) <= PAIRWISE_FACTS:
        taken: set[int] = set()
        for x in range(len(heads)):
            if x in taken:
                continue
            for y in range(x + 1, len(heads)):
                if y not in taken and N.near_same_fact(heads[x], heads[y]):
                    merged[x][1].extend([heads[y], *merged[y][1]])
                    taken.add(y)
        merged = [m for j, m in enumerate(merged) if j not in taken]
    return [(k, r) for k, r in merged if r]
