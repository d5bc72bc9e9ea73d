"""Reflect: Engrama's seven patterns over the graph, and the human review of what they find.

* ``profile``  — the schema profile (labels, relation types, title-keyed labels, reflect rules) as
  data: ``resources/profiles/engrama.json``, extended by the user's ``profile.json`` and
  ``HIPOCAMPO_PROFILE``.
* ``patterns`` — the one registry of detectors (``SPECS``, ``register``): per pattern, how its rows
  are found (``Spec.find`` over a ``Reading`` of the backend's plain reads), its stable title,
  confidence, summary and evidence.
* ``engine``   — one reflect run: which patterns run (only the clock-dependent one when nothing
  was written since the last run, and those a few writes can touch: ``since``), which candidates
  are written, the plan handed to storage.
* ``temporal`` — decay ``c·exp(−0.01·days)`` and the temporal score ``c·2^(−days/30)``.
* ``lifecycle`` — the insight lifecycle once for every backend: writing a reflect's plan, review
  moves, decay, listing; what approving or reopening a kind of insight does (``approver``,
  ``carry_out``), registered once.
* ``model``    — the plain data passed between them and the storage.

The detectors are ``patterns`` and ``detectors``, once for every backend; ``since`` says which of
them a few writes can touch; ``reading`` is what they read. Queries live in the storage layer
(``core.storage.sqlite.reflect_queries`` / ``cypher.reflect_queries`` for the detectors' reads,
``insights.py`` in each for the lifecycle's reads and writes); callers use
``core.memory.Memory.reflect`` / ``surface_insights`` / ``decide_insight`` / ``mark_synced`` /
``decay_confidence``.
"""
