"""A section no reader takes, warned when it was left, amended when a later reader reads a line of it.

    section 'Consequences' is not a spec section; its content is not read but for line 26, read as the
    whole run's limit
        -> ... but for lines 26, 27, read as a success check and the whole run's limit

The warning about a section the document's readers do not know is said when that section is left
(`spec.shape_sections.not_read_said`, naming the lines read by then). The last reader
(`spec.whole_net`) may then read one more of its lines, a success check said there; `amended` says so
in the warning (as `plan.transitions` does for guards), so it never says a line was not read that is.
The section runs from its heading's line to the line before the next heading.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_SAID = _rx(r"^(?P<head>section '.{1,200}?' is not a spec section; its content is not read)(?: but for lines? "
            r"(?P<lines>\d{1,6}+(?:, \d{1,6}+){0,50}+), read as (?P<kinds>[^,]{1,200}?))?(?P<rest>, and .*)?$")
_HEADING = _rx(r"^\s{0,3}#{1,6}\s")
_CODE = "spec.unknown-section"


def amended(src: Source, read: dict[int, str]) -> None:
    """Each "its content is not read" warning of a section that holds a line of `read` (line -> what it
    was read as), said again with those lines (module docstring)."""
    if not read:
        return
    lines = src.lines
    out = []
    for w in src.warnings:
        m = _SAID.match(w.message) if w.code == _CODE and w.line is not None else None
        if m is None or w.line is None:
            out.append(w)
            continue
        end = next((n for n in range(w.line + 1, len(lines) + 1) if _HEADING.match(lines[n - 1])), len(lines) + 1)
        inside = {n: what for n, what in read.items() if w.line < n < end}
        if not inside:
            out.append(w)
            continue
        found = dict.fromkeys((int(n) for n in (m.group("lines") or "").split(", ") if n), "")
        kinds = set((m.group("kinds") or "").split(" and ")) - {""}
        found.update(inside)
        kinds |= set(inside.values())
        said = ", ".join(str(n) for n in sorted(found))
        message = (f"{m.group('head')} but for line{'s' if len(found) > 1 else ''} {said}, read as "
                   f"{' and '.join(sorted(kinds))}{m.group('rest') or ''}")
        out.append(w.model_copy(update={"message": message}))
    src.warnings[:] = out


_rx.save()
