"""Memory hygiene: what a person may want tidied, proposed and never done silently.

* ``names``      — how names are compared: case, accents, separators and common name variants.
* ``duplicates`` — possible duplicate entities and near-identical observations, as insight drafts.
* ``name_index`` — every name folded into the keys the duplicate rules pair by, kept between runs.
* ``meaning``    — duplicates by meaning: translated or reworded names with neighbours in common,
  judged with the memory's embedder, vetoed for near misses.
* ``written``    — which entities were written since a change-log id (detectors judge only those).
* ``merge``      — the merge of duplicates: a preview (what will change) and its application, one
  undoable change built from the stores' own writes, the same on every backend.
* ``supersede`` / ``supersede_relations`` — superseded facts and relations: proposed, kept with an
  end and a successor once approved.
* ``approval``   — an approval and the mark it makes (a superseded fact or relation) as one change.
* ``tidy``       — the one list of what hygiene proposes (a registry of kinds), and applying chosen ones.
"""

# Registering the kinds with reflect (its one registry of detectors, and what approving does), in
# the order reflect runs them: superseded and contradicting facts, superseded relations, then tidy's kinds.
from core.hygiene import supersede, supersede_relations, tidy  # noqa: E402, F401
