"""An insight's title and explanation in the app's language.

``core.reflect`` writes them in English (they are also what MCP clients read, and an approved
insight's title becomes its entity's name). The app says them again from the insight's pattern and
its evidence (the entities with their roles, the count), in the words of the installed translation;
what the evidence does not hold (a stale node's reason) is read from the English text. An insight
whose evidence does not fit its pattern keeps the stored English.
"""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QObject

from core.reflect.patterns import SUMMARY_SAMPLE, UNDER_CONNECTED_TITLE


class InsightWords(QObject):
    """The translation context of these words (never instantiated)."""


def _title_prefixes() -> dict[str, str]:
    """The English start of each pattern's title → the same in the app's language."""
    return {
        "Cross-project solution for ": InsightWords.tr("Cross-project solution for "),
        "Shared technology: ": InsightWords.tr("Shared technology: "),
        "Training opportunity: ": InsightWords.tr("Training opportunity: "),
        "Technique transfer: ": InsightWords.tr("Technique transfer: "),
        "Concept cluster: ": InsightWords.tr("Concept cluster: "),
        "Stale knowledge: ": InsightWords.tr("Stale knowledge: "),
        "Possible duplicates: ": InsightWords.tr("Possible duplicates: "),
        "Repeated facts on ": InsightWords.tr("Repeated facts on "),
        "Superseded on ": InsightWords.tr("Superseded on "),
        "Contradiction on ": InsightWords.tr("Contradiction on "),
    }


def insight_title(insight: dict[str, Any]) -> str:
    """The insight's title as the app shows it (the stored title stays the entity's name)."""
    title = str(insight.get("title") or "")
    if title == UNDER_CONNECTED_TITLE:
        return InsightWords.tr("Under-connected nodes")
    for english, local in _title_prefixes().items():
        if title.startswith(english):
            return local + title[len(english):]
    return title


def _listing(items: list[str], total: int) -> str:
    """The first few ``items`` (as many as reflect's own summary lists), then how many more."""
    items = items[:SUMMARY_SAMPLE]
    shown = ", ".join(items)
    rest = max(total, len(items)) - len(items)
    return InsightWords.tr("{shown} and {rest} more").format(shown=shown, rest=rest) if rest > 0 else shown


def _by_role(evidence: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    roles: dict[str, list[dict[str, Any]]] = {}
    for entity in evidence.get("entities") or []:
        if isinstance(entity, dict) and entity.get("name"):
            roles.setdefault(str(entity.get("role")), []).append(entity)
    return roles


def _names(entities: list[dict[str, Any]]) -> list[str]:
    return list(dict.fromkeys(str(e["name"]) for e in entities))


def _with_labels(entities: list[dict[str, Any]]) -> list[str]:
    return [f"{e['name']} ({e.get('label') or '?'})" for e in entities]


def insight_summary(insight: dict[str, Any]) -> str:
    """The insight's explanation in the app's language (the stored English when it cannot be said)."""
    english = str(insight.get("summary") or "")
    evidence = insight.get("evidence") or {}
    if not isinstance(evidence, dict):
        return english
    facts = evidence.get("facts")
    if isinstance(facts, dict) and {"entity", "older", "newer"} <= facts.keys():
        return _facts_summary(str(insight.get("pattern")), facts) or english
    relation = evidence.get("relation")
    if isinstance(relation, dict) and {"entity", "relationType", "to", "by"} <= relation.keys():
        return _relation_summary(relation) or english
    try:
        said = _say(str(insight.get("pattern") or ""), _by_role(evidence), int(evidence.get("total") or 0), english)
    except (KeyError, IndexError, TypeError, ValueError):
        return english
    return said or english


def _facts_summary(pattern: str, facts: dict[str, Any]) -> str | None:
    """Memory hygiene's two patterns (core.hygiene.supersede): an update, or two facts that disagree."""
    words = {"entity": facts["entity"], "older": facts["older"], "newer": facts["newer"]}
    if pattern == "superseded_facts":
        return InsightWords.tr(
            'On "{entity}", the newer fact "{newer}" seems to update the older "{older}". Approving keeps the '
            "older fact, marked as superseded by the newer, with today as its end; search then answers with "
            "the newer one.").format(**words)
    if pattern == "contradicting_facts":
        return InsightWords.tr(
            'On "{entity}", "{older}" and "{newer}" disagree, and nothing says which is newer. Neither was '
            "retired: edit the entity to keep the one that is true.").format(**words)
    return None


def _relation_summary(relation: dict[str, Any]) -> str | None:
    """Memory hygiene's superseded relation (core.hygiene.supersede_relations)."""
    by = relation["by"]
    if not isinstance(by, dict):
        return None
    successor = f"“{by['fact']}”" if "fact" in by else f"{by.get('relationType')} → {by.get('to')}"
    return InsightWords.tr(
        'On "{entity}", {successor} seems to replace the relation {old} → {target}. Approving keeps the '
        "relation, marked as superseded with today as its end; the official reads still return it, search "
        "no longer answers with it, and one undo takes it back.").format(
            entity=relation["entity"], successor=successor, old=relation["relationType"], target=relation["to"])


def _say(pattern: str, roles: dict[str, list[dict[str, Any]]], total: int, english: str) -> str | None:  # noqa: PLR0911
    first = {role: entities[0]["name"] for role, entities in roles.items()}
    if pattern == "cross_project_solutions":
        text = InsightWords.tr(
            'The open problem "{problem}" (project "{project}") shares the concept "{concept}" with "{solved}" '
            '(project "{source}"), which was solved by the decision "{decision}". That decision may apply here.'
        ).format(problem=first["open_problem"], project=first["project"], concept=first["concept"],
                 solved=first["solved_problem"], source=first["source_project"], decision=first["decision"])
        solved = len(_names(roles["solved_problem"]))
        if solved > 1:
            text += " " + InsightWords.tr("%n more solved problem(s) share its concepts.", "", solved - 1)
        return text
    if pattern == "shared_technology":
        return InsightWords.tr(
            '"{technology}" is used by %n entities: {users}. Consider sharing knowledge, fixes or materials '
            "between them.", "", total
        ).format(technology=first["technology"], users=_listing(_with_labels(roles["user"]), total))
    if pattern == "concept_clusters":
        return InsightWords.tr(
            'The concept "{concept}" connects %n entities: {members}. This cluster may reveal a pattern worth '
            "exploring.", "", total
        ).format(concept=first["concept"], members=_listing(_with_labels(roles["member"]), total))
    if pattern == "training_opportunities":
        courses = _names(roles["course"])
        text = InsightWords.tr(
            'The problem "{issue}" involves the concept "{concept}", which the course "{course}" covers. '
            "Reviewing it may help."
        ).format(issue=first["issue"], concept=first["concept"], course=courses[0])
        if len(courses) > 1:
            others = _listing(courses[1:], len(courses) - 1)
            text += " " + InsightWords.tr("Other courses: {courses}.").format(courses=others)
        return text
    if pattern == "technique_transfer":
        homes = ", ".join(f'"{name}"' for name in _names(roles.get("home_domain", []))) or InsightWords.tr("its domain")
        return InsightWords.tr(
            'The technique "{technique}" (used in {homes}) shares %n concept(s) with work in "{domain}", where '
            "it is not used yet: {concepts}. It may apply there.", "", total
        ).format(technique=first["technique"], homes=homes, domain=first["target_domain"],
                 concepts=_listing(_names(roles["concept"]), total))
    if pattern == "stale_knowledge":
        low = re.search(r"its confidence is low \(([0-9.]+)\)", english)
        since = re.search(r"not been updated since (\d{4}-\d{2}-\d{2})", english)
        if low:
            reason = InsightWords.tr("its confidence is low ({confidence})").format(confidence=low.group(1))
        elif since:
            reason = InsightWords.tr("it has not been updated since {date}").format(date=since.group(1))
        else:
            return None
        active = roles["active"]
        text = InsightWords.tr(
            '"{node}" is linked to the active {label} "{active}", but {reason}. Consider updating or archiving it.'
        ).format(node=first["stale_node"], label=str(active[0].get("label") or "").lower(),
                 active=active[0]["name"], reason=reason)
        if total > 1:
            text += " " + InsightWords.tr("(%n more active entities are linked to it.)", "", total - 1)
        return text
    if pattern == "duplicate_entities":
        others = ", ".join(f'"{e["name"]}"' for e in roles["duplicate"])
        return InsightWords.tr(
            '{others} may be the same as "{kept}". Approving merges them into "{kept}": facts and relations are '
            "kept, the other names stay as aliases, and one undo takes it back."
        ).format(others=others, kept=first["keep"])
    if pattern == "repeated_observations":
        return InsightWords.tr(
            '"{name}" holds facts that repeat another almost word for word. Approving removes the repeats '
            "(one undo brings them back)."
        ).format(name=first["holder"])
    if pattern == "under_connected_nodes":
        return InsightWords.tr(
            "%n entities have fewer than 2 real connections: {listed}. Linking them (INSTANCE_OF, BELONGS_TO, "
            "IN_DOMAIN …) makes them easier to find and reason about.", "", total
        ).format(listed=_listing(_with_labels(roles["under_connected"]), total))
    return None
