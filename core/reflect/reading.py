"""One reflect's reading of the graph, as every detector sees it: the backend's detection session
(``Detection``: a consistent snapshot, its plain reads) and the ``Reading`` handed to each
``Spec.find``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from core.reflect.model import ReflectRules, StoredInsight

Row = tuple[Any, ...]
Names = dict[int, tuple[str, str]]  # id → (name, label)
T = TypeVar("T")


class Detection(Protocol):
    """A consistent read of the graph for one reflect (``SqliteInsightStore.detection``)."""

    now: str
    fingerprint: str
    cutoff: str  # stale_knowledge: a node last updated on or before this is old

    def last_token(self) -> str: ...
    def stored(self) -> dict[str, StoredInsight]: ...
    def blocked(self, titles: Sequence[str]) -> set[str]: ...
    def names(self, ids: Sequence[int]) -> dict[int, tuple[str, str]]: ...

    # The plain reads of the detectors written once (``core.reflect.patterns``,
    # ``core.reflect.detectors``: the thresholds, ranks and caps are theirs). A node is live when
    # not archived and not an Insight; a relation, while current. "Linked": a relation either way,
    # any type; for each pair one relation is named, ``rel`` and ``outward`` (1 when it points from
    # the first node to the second), one pointing out first.
    def technology_users(self) -> list[Row]:
        """``(technology id, users, their labels)`` per live Technology: the distinct live nodes
        with a ``uses`` relation to it, and how many different labels they have."""
    def concept_links(self) -> list[Row]:
        """``(concept id, linked)`` per live Concept: the distinct live nodes linked to it, either way."""
    def technology_members(self, ids: Sequence[int], most: int) -> dict[int, list[list[Any]]]:
        """Per Technology in ``ids``: its first ``most`` users ``[id, name, label, rel, 0]`` (by a
        ``uses`` relation into it; in a stable order of the backend's)."""
    def concept_members(self, ids: Sequence[int], most: int) -> dict[int, list[list[Any]]]:
        """Per Concept in ``ids``: its first ``most`` linked live nodes ``[id, name, label, rel,
        outward]`` (inward ones first, then a stable order of the backend's)."""
    def real_degrees(self, ids: Sequence[int]) -> dict[int, int]:
        """Per node in ``ids``: its real edges, as ``under_connected`` counts them."""
    def under_connected(self, below: int) -> list[Row]:
        """``(id, name, label, created_at, edges)`` of every live node but Domains with fewer than
        ``below`` real edges: current, to a live node that is not a stub."""
    def problems(self) -> list[Row]:
        """``(id, status, solved_by)`` per live Problem: its ``status`` property lowercased ('' for
        none), and the lowest id of a live Decision it is ``solved_by``, or None."""
    def live_ids(self, label: str) -> list[int]:
        """The ids of the live nodes of a detector label (as spelled in this graph)."""
    def issue_links(self, label: str) -> list[tuple[int, int]]:
        """``(issue id, other id)``, once per pair: live Problems and Vulnerabilities linked to live
        nodes of ``label`` (Concept or Project)."""
    def courses(self, most: int) -> list[Row]:
        """``(concept id, course id)``: live Concepts a live Course ``covers``, at most ``most``
        courses per concept (the first by course name)."""
    def in_domain(self) -> list[Row]:
        """``(node id, domain id)``: live nodes ``in_domain`` a live Domain."""
    def technique_concepts(self) -> list[Row]:
        """``(technique id, concept id, rel, outward)``: live Techniques in some domain, linked to
        live Concepts."""
    def statuses(self, label: str) -> list[Row]:
        """``(id, status)`` of the live nodes of a detector label: the ``status`` property
        lowercased, '' for none."""
    def linked_ids(self, ids: Sequence[int]) -> list[Row]:
        """``(id, other id)`` per current relation of the nodes ``ids`` (either way; repeats kept)."""
    def node_facts(self, ids: Sequence[int]) -> list[Row]:
        """``(id, type, updated_at, confidence)`` of the live nodes among ``ids``; the confidence
        is the numeric ``confidence`` property, None when there is none."""
    def links_between(self, pairs: Sequence[tuple[int, int]]) -> list[Row]:
        """``(a, b, rel, outward)`` per current relation between the two nodes of each pair."""
    def concept_domains(self) -> list[Row]:
        """``(concept id, domain id, example id, rel, outward)`` for the concepts of
        ``technique_concepts``: the domains their linked nodes are in, one example node each."""


@dataclass
class Reading:
    """What a detector reads in one reflect, handed to every ``Spec.find``: the backend's detection
    session, and the graph store for detectors written once over it (supersession, duplicates)."""

    det: Detection
    # The backend's ``core.protocols.GraphStore`` (not imported: that module imports reflect's).
    graph: Any
    rules: ReflectRules
    _shared: dict[str, Any] = field(default_factory=dict)
    done: list[Callable[[], None]] = field(default_factory=list)  # run once the plan is written

    def once(self, key: str, make: Callable[[], T]) -> T:
        """``make()``, computed once per reflect for every pattern that asks by ``key``."""
        if key not in self._shared:
            self._shared[key] = make()
        value: T = self._shared[key]
        return value
