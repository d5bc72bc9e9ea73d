"""What memory hygiene (duplicates, merges, aliases) needs from a backend: a few reads and one
write, the same on SQLite and on a graph server (``HygieneStore``; each backend's is chosen by
``core.storage.factory.hygiene_store``). The rules live in ``core.hygiene``; a backend only
answers these.

An entity's aliases (the names merged into it) are kept in its props under ``aliases``: written
by ``merge_node`` and undone like any other props change. Each backend keeps them findable by
name (SQLite: the ``entity_aliases`` table its triggers fill; a graph server: an ``aliases``
list property on the node), and each alias folded beside it (``core.graph_rules.folded_aliases``: SQLite's
``entity_aliases.folded``, a graph server's ``folded_aliases`` list), so search_nodes matches a
former name with one read and folds nothing but the query. The aliases are part of the entity's
own words and embedding text too (``core.graph_rules.own_words``), and search_semantic takes a
query naming one as naming the entity (``core.search.hybrid``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

# the props keys and their reading, kept with the graph's rules (every backend's rows read them too)
from core.graph_rules import ALIASES_KEY as ALIASES_KEY
from core.graph_rules import SUPERSEDED_RELATIONS as SUPERSEDED_RELATIONS
from core.graph_rules import current_relation as current_relation
from core.graph_rules import relation_key as relation_key

MERGE_OP = "merge_entities"  # the change_log row grouping one merge's rows (undone whole)


class HygieneStore(Protocol):
    """Reads for the duplicate detector and alias lookups, and the one grouping write of a merge."""

    def resolve_aliases(self, names: Sequence[str]) -> dict[str, str]:
        """For each of ``names`` that no entity is called but one has as an alias: that entity's name."""
        ...

    def alias_matches(self, folded_query: str) -> list[str]:
        """The names of the live entities one of whose aliases, folded, holds ``folded_query`` (a
        folded, non-empty substring), in the order they were made; one read of the stored folds."""
        ...

    def entity_rows(self) -> list[tuple[int, str, str]]:
        """(id, name, type) of every live entity that is not an Insight nor archived."""
        ...

    def entity_name_rows(self) -> list[tuple[int, str, str, str | None]]:
        """``entity_rows`` with each name's stored words (``core.hygiene.names.stored_tokens``), or
        None where none are stored for the entity's current name."""
        ...

    def store_name_tokens(self, rows: Sequence[tuple[int, str, str]]) -> None:
        """Store (id, name, stored words) for each entity still called ``name``, a page per write."""
        ...

    def neighbours(self, ids: Sequence[int]) -> dict[int, set[int]]:
        """The ids related to each of ``ids`` (either direction, current relations)."""
        ...

    def repeated_fact_rows(self) -> list[tuple[int, str, list[str]]]:
        """(id, name, observations) of every live non-Insight entity with two observations or more."""
        ...

    def single_valued(self, types: Sequence[str]) -> list[tuple[int, str, list[tuple[str, str, str]],
                                                                 list[tuple[str, str]]]]:
        """For each live non-Insight entity with two current relations or more of ``types`` (stored
        spellings), or with facts written at or after the oldest of them: (id, props JSON, those
        relations as (type, target, created_at) oldest first, those facts as (text, created_at)
        oldest first). Entities with one such relation and nothing newer are left out: nothing
        can replace it, and at 100k entities most are those."""
        ...

    def relations_of(self, ids: Sequence[int]) -> list[tuple[int, str, list[tuple[str, str, str]],
                                                             list[tuple[str, str]]]]:
        """For each live non-Insight entity among ``ids``: (id, props JSON, its current outgoing
        relations of every type as (type, target, created_at) oldest first, its facts as (text,
        created_at) oldest first); what ``single_valued`` reads, for the entities written since a
        detector's last run."""
        ...

