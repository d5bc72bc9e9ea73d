"""The reads of the reflect detectors (``core.reflect.reading.Detection``) as named SQL.

The detectors themselves, what each pattern means and how its evidence is cut and ordered, live
once for every backend in ``core.reflect.patterns`` and ``core.reflect.detectors``; this module
reads the graph for them: plain rows of ids, types and relations, each read once per reflect.

Conventions shared by every detector:

* A node takes part when it is *live*: not archived, and not an Insight (reflect must not feed on
  its own output). A relation takes part while ``ended_at IS NULL``.
* "Linked" means any current relation, either direction, any type; typed steps follow their
  Engrama direction (``Problem -SOLVED_BY-> Decision``, ``Course -COVERS-> Concept``,
  ``x -USES/TEACHES/COMPOSED_OF-> Technology``, ``x -IN_DOMAIN-> Domain``).
* Sets that several joins reuse are put in small TEMP tables with their own indexes
  (``PREPARE``). Without statistics SQLite's planner sometimes nests two materialised CTEs as full
  scans (measured: 40 s at 100k entities); a real index gives it no such choice. For the same
  reason ``CROSS JOIN`` fixes the order where the small side must drive, and a unary ``+`` on
  ``entity_type`` / ``relation_type`` keeps a lookup by id from switching to those indexes.

A member is ``[id, name, label, relation_type, outward]``, where ``outward`` is 1 when the
relation points from the anchor to the member.
"""

from __future__ import annotations

import re

from core.reflect.model import DETECTOR_LABELS

_LIVE_N = "n.archived_at IS NULL AND n.entity_type <> 'Insight'"

# -- working sets, built once per reflect run (TEMP: private to this connection) ----------------

# Problems and Vulnerabilities, and the live Concepts and Projects they are linked to: one pass
# over their relations gives both (once per pair).
_ISSUE_LINK = (
    "CREATE TEMP TABLE rf_issue_link(iid INTEGER NOT NULL, oid INTEGER NOT NULL, kind TEXT NOT NULL, "
    "PRIMARY KEY (iid, oid)) WITHOUT ROWID",
    """
    INSERT OR IGNORE INTO rf_issue_link
    SELECT i.id, o.id, o.entity_type
      FROM entities i JOIN relations r ON r.from_entity = i.id JOIN entities o ON o.id = r.to_entity
     WHERE i.entity_type IN ('Problem', 'Vulnerability') AND i.archived_at IS NULL
       AND r.ended_at IS NULL AND +o.entity_type IN ('Concept', 'Project') AND o.archived_at IS NULL
    UNION ALL
    SELECT i.id, o.id, o.entity_type
      FROM entities i JOIN relations r ON r.to_entity = i.id JOIN entities o ON o.id = r.from_entity
     WHERE i.entity_type IN ('Problem', 'Vulnerability') AND i.archived_at IS NULL
       AND r.ended_at IS NULL AND +o.entity_type IN ('Concept', 'Project') AND o.archived_at IS NULL
    """,
)

# Concepts a live Course COVERS, with at most :cap courses each (any one makes the pattern hold;
# the rest would only lengthen the evidence).
_COURSE = (
    "CREATE TEMP TABLE rf_course(cid INTEGER NOT NULL, kid INTEGER NOT NULL, "
    "PRIMARY KEY (cid, kid)) WITHOUT ROWID",
    """
    INSERT INTO rf_course
    SELECT cid, kid FROM (
        SELECT r.to_entity AS cid, k.id AS kid,
               row_number() OVER (PARTITION BY r.to_entity ORDER BY k.name) AS n
          FROM entities k JOIN relations r ON r.from_entity = k.id JOIN entities c ON c.id = r.to_entity
         WHERE k.entity_type = 'Course' AND k.archived_at IS NULL
           AND r.relation_type = :covers AND r.ended_at IS NULL
           AND +c.entity_type = 'Concept' AND c.archived_at IS NULL
         GROUP BY r.to_entity, k.id
    ) WHERE n <= :cap
    """,
)

# Live nodes IN_DOMAIN live Domains (found through the relation-type index: one pass).
_IN_DOMAIN = (
    "CREATE TEMP TABLE rf_in_domain(nid INTEGER NOT NULL, did INTEGER NOT NULL, "
    "PRIMARY KEY (nid, did)) WITHOUT ROWID",
    f"""
    INSERT OR IGNORE INTO rf_in_domain
    SELECT r.from_entity, r.to_entity
      FROM relations r JOIN entities d ON d.id = r.to_entity JOIN entities n ON n.id = r.from_entity
     WHERE r.relation_type = :in_domain AND r.ended_at IS NULL
       AND +d.entity_type = 'Domain' AND d.archived_at IS NULL AND {_LIVE_N}
    """,
)

# (technique, concept) links for Techniques IN_DOMAIN some Domain; and for each such concept the
# Domains its linked live entities are in, with one example entity each. The fan-out is concepts ×
# domains, not concepts × entities: a popular concept is linked to thousands of entities.
_TECHNIQUE = (
    "CREATE TEMP TABLE rf_tconcept(tid INTEGER NOT NULL, cid INTEGER NOT NULL, rel TEXT NOT NULL, "
    "outward INTEGER NOT NULL, PRIMARY KEY (tid, cid)) WITHOUT ROWID",
    """
    INSERT OR IGNORE INTO rf_tconcept
    SELECT t.id, c.id, r.relation_type, 1
      FROM entities t JOIN relations r ON r.from_entity = t.id JOIN entities c ON c.id = r.to_entity
     WHERE t.entity_type = 'Technique' AND t.archived_at IS NULL AND r.ended_at IS NULL
       AND +c.entity_type = 'Concept' AND c.archived_at IS NULL
       AND t.id IN (SELECT nid FROM rf_in_domain)
    UNION ALL
    SELECT t.id, c.id, r.relation_type, 0
      FROM entities t JOIN relations r ON r.to_entity = t.id JOIN entities c ON c.id = r.from_entity
     WHERE t.entity_type = 'Technique' AND t.archived_at IS NULL AND r.ended_at IS NULL
       AND +c.entity_type = 'Concept' AND c.archived_at IS NULL
       AND t.id IN (SELECT nid FROM rf_in_domain)
    """,
    "CREATE TEMP TABLE rf_cdomain(cid INTEGER NOT NULL, did INTEGER NOT NULL, eid INTEGER NOT NULL, "
    "rel TEXT NOT NULL, outward INTEGER NOT NULL, PRIMARY KEY (cid, did)) WITHOUT ROWID",
    """
    INSERT OR IGNORE INTO rf_cdomain
    SELECT c.cid, dm.did, r.from_entity, r.relation_type, 0
      FROM (SELECT DISTINCT cid FROM rf_tconcept) c
      CROSS JOIN relations r ON r.to_entity = c.cid
      CROSS JOIN rf_in_domain dm ON dm.nid = r.from_entity
     WHERE r.ended_at IS NULL
    UNION ALL
    SELECT c.cid, dm.did, r.to_entity, r.relation_type, 1
      FROM (SELECT DISTINCT cid FROM rf_tconcept) c
      CROSS JOIN relations r ON r.from_entity = c.cid
      CROSS JOIN rf_in_domain dm ON dm.nid = r.to_entity
     WHERE r.ended_at IS NULL
    """,
)

# Every live node but Domains and Insights with fewer than :below real edges. An edge is real
# when it is current and its other end is live and not a stub (props.stub true, or Engrama's
# props.status = 'stub'). Raw edge counts (two GROUP BYs over the covering relation indexes)
# settle almost every node; only nodes touching an ended relation or an unreal end are counted
# exactly.
_UNDER = (
    "CREATE TEMP TABLE rf_unreal(id INTEGER PRIMARY KEY)",
    """
    INSERT INTO rf_unreal
    SELECT id FROM entities
     WHERE archived_at IS NOT NULL OR entity_type = 'Insight'
        OR (instr(props, 'stub') AND (json_extract(props, '$.stub') IN (1, 'true')
            OR lower(coalesce(json_extract(props, '$.status'), '')) = 'stub'))
    """,
    "CREATE TEMP TABLE rf_touched(id INTEGER PRIMARY KEY)",
    """
    INSERT OR IGNORE INTO rf_touched
    SELECT r.from_entity FROM rf_unreal u CROSS JOIN relations r ON r.to_entity = u.id
    UNION ALL
    SELECT r.to_entity FROM rf_unreal u CROSS JOIN relations r ON r.from_entity = u.id
    UNION ALL
    SELECT from_entity FROM relations WHERE ended_at IS NOT NULL
    UNION ALL
    SELECT to_entity FROM relations WHERE ended_at IS NOT NULL
    """,
    "CREATE TEMP TABLE rf_degree(id INTEGER PRIMARY KEY, d INTEGER NOT NULL)",
    "INSERT INTO rf_degree SELECT from_entity, count(*) FROM relations GROUP BY from_entity",
    "INSERT INTO rf_degree SELECT to_entity, count(*) FROM relations WHERE true GROUP BY to_entity "
    "ON CONFLICT (id) DO UPDATE SET d = d + excluded.d",
    """
    CREATE TEMP TABLE rf_under AS
    SELECT * FROM (
        SELECT e.id, e.name, e.entity_type AS label, e.created_at,
               CASE WHEN t.id IS NOT NULL THEN
                    (SELECT count(*) FROM relations r WHERE r.from_entity = e.id
                        AND r.ended_at IS NULL AND r.to_entity NOT IN rf_unreal)
                  + (SELECT count(*) FROM relations r WHERE r.to_entity = e.id
                        AND r.ended_at IS NULL AND r.from_entity NOT IN rf_unreal)
               ELSE coalesce(g.d, 0) END AS d
          FROM entities e
          LEFT JOIN rf_degree g ON g.id = e.id
          LEFT JOIN rf_touched t ON t.id = e.id
         WHERE e.archived_at IS NULL AND e.entity_type NOT IN ('Domain', 'Insight')
    ) WHERE d < :below
    """,
)

PREPARE: dict[str, tuple[str, ...]] = {
    "issue_link": _ISSUE_LINK,
    "course": _COURSE,
    "in_domain": _IN_DOMAIN,
    "technique": _TECHNIQUE,
    "under": _UNDER,
}

TEMP_TABLES = (
    "rf_issue_link", "rf_course", "rf_in_domain", "rf_tconcept", "rf_cdomain", "rf_unreal",
    "rf_touched", "rf_degree", "rf_under",
)

# -- reads -----------------------------------------------------------------------------------

# Per live Technology: the distinct live nodes that USE / TEACH / are COMPOSED_OF it, and how many
# different labels those nodes have.
TECHNOLOGY_USERS = f"""
SELECT t.id AS technology_id, count(DISTINCT n.id) AS n, count(DISTINCT n.entity_type) AS labels
  FROM entities t
  JOIN relations r ON r.to_entity = t.id
  JOIN entities n ON n.id = r.from_entity
 WHERE t.entity_type = 'Technology' AND t.archived_at IS NULL AND r.ended_at IS NULL
   AND +r.relation_type IN (SELECT value FROM json_each(:uses)) AND {_LIVE_N} AND n.id <> t.id
 GROUP BY t.id
"""

# Per live Concept: how many live entities it is linked to (either way).
CONCEPT_LINKS = f"""
WITH link AS (
    SELECT c.id AS cid, r.from_entity AS nid
      FROM entities c JOIN relations r ON r.to_entity = c.id
     WHERE c.entity_type = 'Concept' AND c.archived_at IS NULL AND r.ended_at IS NULL
    UNION
    SELECT c.id, r.to_entity
      FROM entities c JOIN relations r ON r.from_entity = c.id
     WHERE c.entity_type = 'Concept' AND c.archived_at IS NULL AND r.ended_at IS NULL
)
SELECT l.cid AS concept_id, count(*) AS members
  FROM link l JOIN entities n ON n.id = l.nid
 WHERE {_LIVE_N} AND n.id <> l.cid
 GROUP BY l.cid
"""

# Each of :ids's real edges, counted as ``rf_under`` counts them (the other end live, not a stub).
_REAL_END = """o.archived_at IS NULL AND o.entity_type <> 'Insight'
   AND NOT (instr(o.props, 'stub') AND (json_extract(o.props, '$.stub') IN (1, 'true')
            OR lower(coalesce(json_extract(o.props, '$.status'), '')) = 'stub'))"""
REAL_DEGREES = f"""
SELECT k.value,
       (SELECT count(*) FROM relations r JOIN entities o ON o.id = r.to_entity
         WHERE r.from_entity = k.value AND r.ended_at IS NULL AND {_REAL_END})
     + (SELECT count(*) FROM relations r JOIN entities o ON o.id = r.from_entity
         WHERE r.to_entity = k.value AND r.ended_at IS NULL AND {_REAL_END})
  FROM json_each(:ids) k
"""

# The under-connected nodes (``rf_under``, built with :below).
UNDER_CONNECTED = "SELECT id, name, label, created_at, d FROM rf_under"

# Live Problems: their status, and the lowest-id live Decision each is SOLVED_BY.
PROBLEMS = """
SELECT p.id, lower(coalesce(json_extract(p.props, '$.status'), '')),
       (SELECT min(d.id) FROM relations r JOIN entities d ON d.id = r.to_entity
         WHERE r.from_entity = p.id AND +r.relation_type = :solved_by AND r.ended_at IS NULL
           AND +d.entity_type = 'Decision' AND d.archived_at IS NULL)
  FROM entities p
 WHERE p.entity_type = 'Problem' AND p.archived_at IS NULL
"""

# The working sets as rows: (issue, Concept | Project), (concept, course),
# (node, domain), (technique, concept, rel, outward), (concept, domain, example, rel, outward).
ISSUE_LINKS = {label: f"SELECT iid, oid FROM rf_issue_link WHERE kind = '{label}'"
               for label in ("Concept", "Project")}
COURSES = "SELECT cid, kid FROM rf_course"
IN_DOMAIN = "SELECT nid, did FROM rf_in_domain"
TECHNIQUE_CONCEPTS = "SELECT tid, cid, rel, outward FROM rf_tconcept"
CONCEPT_DOMAINS = "SELECT cid, did, eid, rel, outward FROM rf_cdomain"

# Members of a popular anchor run into thousands: each anchor reads only its first ``most``
# relations (index order, so the choice is stable).
TECHNOLOGY_MEMBERS = f"""
SELECT t.value,
       (SELECT json_group_array(json_array(m.id, m.name, m.label, m.rel, 0)) FROM (
            SELECT n.id, n.name, n.entity_type AS label, r.relation_type AS rel
              FROM relations r JOIN entities n ON n.id = r.from_entity
             WHERE r.to_entity = t.value AND r.ended_at IS NULL
               AND +r.relation_type IN (SELECT value FROM json_each(:uses))
               AND {_LIVE_N} AND n.id <> t.value
             LIMIT :most) m)
  FROM json_each(:ids) t
"""

CONCEPT_MEMBERS = f"""
SELECT k.value,
       (SELECT json_group_array(json_array(m.id, m.name, m.label, m.rel, m.outward)) FROM (
            SELECT n.id, n.name, n.entity_type AS label, r.relation_type AS rel, 0 AS outward
              FROM relations r JOIN entities n ON n.id = r.from_entity
             WHERE r.to_entity = k.value AND r.ended_at IS NULL AND {_LIVE_N} AND n.id <> k.value
            UNION ALL
            SELECT n.id, n.name, n.entity_type, r.relation_type, 1
              FROM relations r JOIN entities n ON n.id = r.to_entity
             WHERE r.from_entity = k.value AND r.ended_at IS NULL AND {_LIVE_N} AND n.id <> k.value
             LIMIT :most) m)
  FROM json_each(:ids) k
"""

LINKED_IDS = """
SELECT k.value, r.to_entity FROM json_each(:ids) k CROSS JOIN relations r ON r.from_entity = k.value
 WHERE r.ended_at IS NULL
UNION ALL
SELECT k.value, r.from_entity FROM json_each(:ids) k CROSS JOIN relations r ON r.to_entity = k.value
 WHERE r.ended_at IS NULL
"""

_CONFIDENCE = """CASE WHEN instr(n.props, '"confidence"') AND json_type(n.props, '$.confidence') IN ('integer', 'real')
            THEN json_extract(n.props, '$.confidence') END"""
NODE_FACTS = f"""
SELECT n.id, n.entity_type, n.updated_at, {_CONFIDENCE}
  FROM json_each(:ids) k CROSS JOIN entities n ON n.id = k.value
 WHERE {_LIVE_N}
"""

# Through the unique (from, to, type) index, pair by pair.
LINKS_BETWEEN = """
WITH p AS (SELECT json_extract(value, '$[0]') AS a, json_extract(value, '$[1]') AS b FROM json_each(:pairs))
SELECT p.a, p.b, r.relation_type, 1 FROM p CROSS JOIN relations r ON r.from_entity = p.a AND r.to_entity = p.b
 WHERE r.ended_at IS NULL
UNION ALL
SELECT p.a, p.b, r.relation_type, 0 FROM p CROSS JOIN relations r ON r.from_entity = p.b AND r.to_entity = p.a
 WHERE r.ended_at IS NULL
"""

NAMES = "SELECT id, name, entity_type FROM entities WHERE id IN (SELECT value FROM json_each(?))"


# The labels the statements above name literally; ``localize`` widens each to its spellings.
_ONE_LABEL = re.compile(r"(<>|=)\s*'(" + "|".join(DETECTOR_LABELS) + r")'")
_LABEL_LIST = re.compile(r"\bIN\s*\(\s*('[^']*'(?:\s*,\s*'[^']*')*)\s*\)")
_ONE_RELATION = re.compile(r"(\+?r\.relation_type)\s*=\s*:(solved_by|covers|in_domain)\b")


def localize(sql: str, labels: dict[str, list[str]]) -> str:
    """``sql`` matching every spelling of its labels (``= 'X'`` → ``IN ('X', 'x')``) and relation
    types (``= :covers`` → ``IN`` the ``:covers`` list)."""
    sql = _ONE_RELATION.sub(r"\1 IN (SELECT value FROM json_each(:\2))", sql)
    sql = _ONE_LABEL.sub(lambda m: ("NOT IN" if m[1] == "<>" else "IN") + f" ('{m[2]}')", sql)

    def widen(m: re.Match[str]) -> str:
        words = [w.strip().strip("'") for w in m[1].split(",")]
        spelled = dict.fromkeys(s for w in words for s in labels.get(w, [w]))
        return "IN (" + ", ".join("'" + s.replace("'", "''") + "'" for s in spelled) + ")"

    return _LABEL_LIST.sub(widen, sql)
