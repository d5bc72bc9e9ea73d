"""Markdown and plain-text notes: one file is one entity.

A note looks like this (front matter optional; Hipocampo's own export writes exactly this)::

    ---
    name: Ada Lovelace
    type: Person
    tags: ["math", "computing"]
    ---

    Wrote the first published algorithm.

    Worked with Charles Babbage on the Analytical Engine.

    ## Relations

    - worked with → [[Charles Babbage]]

- The entity's name comes from the front matter's ``name`` or ``title``, else the note's first
  ``# Title`` heading, else the file's stem.
- Its type from ``type`` / ``entityType`` / ``label``; without one, ``Note``, spelled as the memory
  already spells it (assistants write ``note``: the imported notes join that type, not a second one).
- ``archived_at`` (written for archived entities) archives the entity on import.
- Every other front-matter key becomes a property. Values are read as JSON when they parse as
  JSON (numbers, booleans, ``[…]``, quoted strings), as a YAML block list (``- item`` lines), or
  as plain text.
- Each paragraph (text between blank lines) becomes one observation, and each item of a bullet
  list one observation of its own (``- ``, ``* ``, ``+ `` or ``1. ``; its wrapped lines stay with
  it); a paragraph that is only a heading is structure, not a fact, and is left out. A paragraph
  starting with a Markdown backslash escape (``\\- not a bullet``, ``1\\. not a list``, ``\\# not a
  heading``) is one observation, read without that backslash: the export writes a fact that itself
  starts like a bullet, a numbered item or a heading that way, so it round-trips unchanged.
- Under a ``## Relations`` heading, lines ``- TYPE → [[Target]]`` (or ``->``) become relations;
  their targets must exist once the whole import is done.

A folder is imported as one unit (one transaction) so notes can link to each other.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from core.io.report import ImportReport, Progress, no_progress
from core.io.writer import BatchWriter
from core.memory import Memory

NOTE_SUFFIXES = (".md", ".markdown", ".txt")
DEFAULT_TYPE = "Note"
_NAME_KEYS = ("name", "title")
ARCHIVED_KEY = "archived_at"  # set on archived (soft-deleted) entities; imported as archived
_TYPE_KEYS = ("type", "entityType", "label")
_RELATION = re.compile(r"^\s*[-*]\s+(?P<type>.+?)\s*(?:→|->)\s*\[\[(?P<target>.+?)\]\]\s*$")
_HEADING = re.compile(r"^#{1,6}\s")
_TITLE = re.compile(r"^#\s+(\S.*)$")
_RELATIONS_HEADING = re.compile(r"^#{1,6}\s+relations\s*$", re.IGNORECASE)
_BULLET = re.compile(r"^\s{0,3}(?:[-*+]|\d{1,3}[.)])\s+(?=\S)")
# A paragraph that would read back as structure (a bullet, a numbered item, a heading) is written
# with a Markdown backslash escape (``\- x``, ``1\. x``, ``\# x``), and read back without it; a
# text that starts with such an escape already gets one backslash more, so it comes back as it was.
_LEAD_MARKER = re.compile(r"^(?:[-*+]|#{1,6})\s|^\\+[-*+#]")
_NUMBER_MARKER = re.compile(r"^(\d{1,3})(?:[.)]\s|\\+[.)])")
_LEAD_ESCAPED = re.compile(r"^\\(?=\\*[-*+#])")
_NUMBER_ESCAPED = re.compile(r"^(\d{1,3})\\(?=\\*[.)])")
PAGE = 2000


# -- parsing ----------------------------------------------------------------------------------


def parse_note(text: str, stem: str, default_type: str = DEFAULT_TYPE) -> tuple[dict[str, Any], dict[str, Any],
                                                                                list[dict[str, str]]]:
    """Split one note into (entity, properties, relations). Pure: no I/O."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    front, body = _split_front_matter(text)
    title = next((m[1].strip() for line in body.split("\n") if (m := _TITLE.match(line))), None)
    name = next((str(front.pop(k)) for k in _NAME_KEYS if front.get(k) not in (None, "")), title or stem)
    for k in _NAME_KEYS:  # a title beside a name is just a property; the one used is the name
        if front.get(k) == name:
            front.pop(k)
    etype = next((str(front.pop(k)) for k in _TYPE_KEYS if front.get(k) not in (None, "")), default_type)
    observations: list[str] = []
    relations: list[dict[str, str]] = []
    in_relations = False
    for paragraph in _paragraphs(body):
        if _RELATIONS_HEADING.match(paragraph):
            in_relations = True
            continue
        if _HEADING.match(paragraph) and "\n" not in paragraph:
            in_relations = False
            continue
        if in_relations:
            lines = paragraph.split("\n")
            found = [m for line in lines if (m := _RELATION.match(line))]
            if len(found) == len(lines):
                relations.extend({"from": name, "to": m["target"], "relationType": m["type"]} for m in found)
                continue
            in_relations = False
        observations.extend(_bullets(paragraph) or [_unescape(paragraph)])
    return {"name": name, "entityType": etype, "observations": observations}, front, relations


def _bullets(paragraph: str) -> list[str]:
    """The items of a paragraph that is a bullet list (one per item), or [] when it is not one."""
    lines = paragraph.split("\n")
    if not _BULLET.match(lines[0]):
        return []
    items: list[list[str]] = []
    for line in lines:
        marker = _BULLET.match(line)
        if marker:
            items.append([line[marker.end():].strip()])
        elif line.startswith((" ", "\t")):  # a wrapped line of the item above
            items[-1].append(line.strip())
        else:
            return []  # prose after a list line: keep the paragraph whole
    return [" ".join(item) for item in items if any(item)]


def _escape(text: str) -> str:
    """``text`` as a paragraph that ``parse_note`` reads back as ``text`` (see ``_LEAD_MARKER``)."""
    if _LEAD_MARKER.match(text):
        return "\\" + text
    if number := _NUMBER_MARKER.match(text):
        return number[1] + "\\" + text[number.end(1):]
    return text


def _unescape(paragraph: str) -> str:
    if _LEAD_ESCAPED.match(paragraph):
        return paragraph[1:]
    if number := _NUMBER_ESCAPED.match(paragraph):
        return number[1] + paragraph[number.end():]
    return paragraph


def _split_front_matter(text: str) -> tuple[dict[str, Any], str]:
    if not text.startswith("---\n"):
        return {}, text
    end = text.find("\n---", 3)
    if end == -1:
        return {}, text
    block, rest = text[4:end], text[end + 4 :]
    return _parse_front_matter(block.split("\n")), rest.split("\n", 1)[1] if "\n" in rest else ""


def _parse_front_matter(lines: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    key: str | None = None
    for line in lines:
        if key is not None and re.match(r"^\s+-\s", line):  # a YAML block list under the last key
            if not isinstance(out.get(key), list):
                out[key] = []
            out[key].append(_scalar(line.strip()[1:].strip()))
            continue
        if ":" not in line or line.startswith((" ", "\t", "#")):
            continue
        key, value = line.split(":", 1)
        key, value = key.strip(), value.strip()
        out[key] = _scalar(value) if value else None
    return out


def _scalar(value: str) -> Any:
    try:
        return json.loads(value)
    except ValueError:
        pass
    if value.startswith("[") and value.endswith("]"):  # a YAML flow list of plain words
        return [_scalar(v.strip()) for v in value[1:-1].split(",") if v.strip()]
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return {"yes": True, "no": False, "null": None, "~": None}.get(value.lower(), value)


def _paragraphs(body: str) -> Iterable[str]:
    for block in re.split(r"\n\s*\n", body):
        block = block.strip("\n").strip()
        if block:
            yield block


# -- import -----------------------------------------------------------------------------------


def note_files(path: Path) -> list[Path]:
    """``path`` itself, or every note under the folder ``path`` (sorted, hidden folders skipped)."""
    if path.is_file():
        return [path]
    return sorted(
        p
        for p in path.rglob("*")
        if p.is_file()
        and p.suffix.lower() in NOTE_SUFFIXES
        and not any(part.startswith(".") for part in p.relative_to(path).parts)
    )


def import_notes(
    memory: Memory, path: Path, *, actor: str = "import", progress: Progress = no_progress
) -> ImportReport:
    """Import one note, or a folder of notes as one unit. Unreadable files are counted as errors."""
    files = note_files(path)
    default_type = next((t for t in memory.count_labels() if t.lower() == DEFAULT_TYPE.lower()), DEFAULT_TYPE)
    report = ImportReport(source=str(path), format="markdown")
    writer = BatchWriter(memory, report, actor)
    total = sum(f.stat().st_size for f in files)
    done = 0
    with memory.transaction():
        for file in files:
            where = str(file.relative_to(path)) if file != path else file.name
            try:
                text = file.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                report.error(where, f"cannot read it ({exc})")
                continue
            entity, props, relations = parse_note(text, file.stem, default_type)
            archived = props.pop(ARCHIVED_KEY, None) is not None
            writer.entity(where, entity, props=props, archived=archived)
            for r in relations:
                writer.relation(where, r)
            done += file.stat().st_size
            progress(done, total)
        writer.finish()
    progress(total, total)
    return report


# -- export -----------------------------------------------------------------------------------


def render_note(
    name: str,
    etype: str,
    props: dict[str, Any],
    observations: list[str],
    relations: list[tuple[str, str]],
    archived_at: str | None = None,
) -> str:
    """One entity as a note that ``parse_note`` (and ``import_notes``) read back to the same entity."""
    lines = ["---", f"name: {_front_value(name)}", f"type: {_front_value(etype)}"]
    if archived_at:
        lines.append(f"{ARCHIVED_KEY}: {json.dumps(archived_at)}")
    lines += [
        f"{k}: {json.dumps(v, ensure_ascii=False)}"
        for k, v in props.items()
        if k not in (*_NAME_KEYS, *_TYPE_KEYS, ARCHIVED_KEY)
    ]
    lines += ["---", ""]
    for o in observations:
        # A blank line inside an observation would split it in two on the way back.
        lines += [_escape(re.sub(r"\n\s*\n", "\n", o.strip())), ""]
    if relations:
        lines += ["## Relations", ""]
        lines += [f"- {rtype} → [[{target}]]" for rtype, target in relations]
        lines.append("")
    return "\n".join(lines)


def _front_value(value: str) -> str:
    # Plain when it reads back as the same string; JSON-quoted otherwise (e.g. "42", "true", "[x]").
    return (
        value
        if _scalar(value) == value and value.strip() == value and value
        else json.dumps(value, ensure_ascii=False)
    )


def export_notes(memory: Memory, folder: Path) -> dict[str, int]:
    """Write one ``.md`` file per entity into ``folder`` (created if missing)."""
    folder.mkdir(parents=True, exist_ok=True)
    outgoing: dict[str, list[tuple[str, str]]] = {}
    for rel, _props in memory.export_relations():
        outgoing.setdefault(rel.from_, []).append((rel.relationType, rel.to))
    used: set[str] = set()
    count, offset = 0, 0
    while True:
        page = memory.list_nodes(include_archived=True, limit=PAGE, offset=offset)
        for node in page:
            filename = _unique_filename(node.name, used)
            note = render_note(
                node.name,
                node.label,
                node.props,
                node.observations,
                outgoing.get(node.name, []),
                node.archived_at,
            )
            (folder / filename).write_text(note, encoding="utf-8")
            count += 1
        offset += PAGE
        if len(page) < PAGE:
            break
    return {"entities": count, "files": count}


def _unique_filename(name: str, used: set[str]) -> str:
    stem = re.sub(r'[\\/:*?"<>|\x00-\x1f]', "_", name).strip(" .") or "entity"
    stem = stem[:120]
    candidate, n = f"{stem}.md", 2
    while candidate.lower() in used:  # case-insensitive file systems (macOS, Windows)
        candidate, n = f"{stem} ({n}).md", n + 1
    used.add(candidate.lower())
    return candidate
