"""GraphML export, for graph tools (Gephi, yEd, Cytoscape, networkx).

Nodes carry ``name``, ``type``, ``observations`` (joined by newlines), ``props`` (JSON) and the
timestamps; edges carry ``relationType`` and ``props``. Written with the standard library's XML
escaping, a node at a time.
"""

from __future__ import annotations

import json
from typing import TextIO
from xml.sax.saxutils import escape as _escape
from xml.sax.saxutils import quoteattr

from core.memory import Memory

PAGE = 2000
_NODE_KEYS = ("name", "type", "observations", "props", "created_at", "updated_at", "archived_at")
_EDGE_KEYS = ("relationType", "props")


def _data(key: str, value: str) -> str:
    # XML 1.0 cannot carry most control characters, even escaped: drop them.
    clean = "".join(ch for ch in value if ch in "\t\n\r" or ord(ch) >= 0x20)
    return f'<data key="{key}">{_escape(clean)}</data>'


def export_graphml(memory: Memory, out: TextIO) -> dict[str, int]:
    """Write the whole graph as GraphML (directed). Returns the counts written."""
    out.write(
        '<?xml version="1.0" encoding="UTF-8"?>\n<graphml xmlns="http://graphml.graphdrawing.org/xmlns">\n'
    )
    for key in _NODE_KEYS:
        out.write(f'  <key id="n_{key}" for="node" attr.name="{key}" attr.type="string"/>\n')
    for key in _EDGE_KEYS:
        out.write(f'  <key id="e_{key}" for="edge" attr.name="{key}" attr.type="string"/>\n')
    out.write('  <graph id="hipocampo" edgedefault="directed">\n')
    ids: dict[str, str] = {}
    offset = 0
    while True:
        page = memory.list_nodes(include_archived=True, limit=PAGE, offset=offset)
        for node in page:
            node_id = f"n{node.id}"
            ids[node.name] = node_id
            values = {
                "name": node.name,
                "type": node.label,
                "observations": "\n".join(node.observations),
                "props": json.dumps(node.props, ensure_ascii=False),
                "created_at": node.created_at,
                "updated_at": node.updated_at,
                "archived_at": node.archived_at or "",
            }
            cells = "".join(_data(f"n_{k}", v) for k, v in values.items() if v)
            out.write(f"    <node id={quoteattr(node_id)}>{cells}</node>\n")
        offset += PAGE
        if len(page) < PAGE:
            break
    edges = 0
    for rel, props in memory.export_relations():
        if rel.from_ not in ids or rel.to not in ids:
            continue
        cells = _data("e_relationType", rel.relationType)
        if props:
            cells += _data("e_props", json.dumps(props, ensure_ascii=False))
        out.write(
            f'    <edge id="e{edges}" source={quoteattr(ids[rel.from_])} '
            f"target={quoteattr(ids[rel.to])}>{cells}</edge>\n"
        )
        edges += 1
    out.write("  </graph>\n</graphml>\n")
    return {"nodes": len(ids), "edges": edges}
