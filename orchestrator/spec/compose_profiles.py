"""docker-compose `profiles:` that split services into branches: what the file says each means.

Compose starts a service with a profile only when that profile is selected; a job file that
uses profiles as branches says in words when each is selected, in a comment on the
`profiles:` line (or on the comment line just above it):

    page-oncall:
      profiles: [noisy-night]      # only brought up when merge counted 3 or more errors
    quiet-digest:
      profiles: [quiet-night]      # the other case: fewer than 3 errors

"when X" / "if X" makes the profile's services conditional on X (a `when:`, read and compiled
like any condition); "the other case", "otherwise", "else" makes them the Otherwise of the
nearest service before them whose profile has a condition (an `otherwise:`). A profile read
once holds for every later service that lists it. A profile whose meaning the file does not
say is a warning at its line: its service always runs.
"""

from __future__ import annotations

import re

from yaml.nodes import Node, ScalarNode

from orchestrator.spec.condition import read_condition
from orchestrator.spec.model import Reading
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.yaml_dialect import STR, note, scalar
from orchestrator.spec.yaml_node import NodeReader

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_COMMENT = _rx(r"(?:^|\s)#\s?(?P<text>.*)$")
_WHEN = _rx(r"(?i)\b(?:when|if|whenever)\s+(?P<cond>.+?)\s*[.;]?\s*$")
_OTHER = _rx(r"(?i)^\W*(?:the\s+other\s+(?:case|branch|one)|otherwise|else|in\s+(?:every|any)\s+other\s+case|"
             r"the\s+rest\s+of\s+the\s+time)\b")


def _comment(r: NodeReader, line: int) -> str:
    """The comment on `line` after its value, or the comment line just above it; "" when none."""
    own = r.src.line_text(line)
    value = re.sub(r"'[^']*'|\"[^\"]*\"", "", own)  # a `#` inside quotes is no comment
    m = _COMMENT.search(value.split(":", 1)[1] if ":" in value else value)
    if m is not None:
        return m.group("text").strip()
    above = r.src.line_text(line - 1).strip()
    return above[1:].strip() if above.startswith("#") else ""


class Profiles:
    """The profiles read so far in one compose file, in service order."""

    def __init__(self, r: NodeReader, notes: list[Reading]) -> None:
        self.r = r
        self.notes = notes
        self.meaning: dict[str, tuple[str, str]] = {}  # profile -> ("when", condition) / ("otherwise", service)
        self.last_conditional: str | None = None  # the nearest service whose profile has a condition

    def read(self, service: str, key: Node, value: Node) -> tuple[Node, Node] | None:
        """The step key a service's `profiles:` stands for (`when:` or `otherwise:`), or None (warned)."""
        r = self.r
        line = r.line(key)
        names = [str(n.value) for n in getattr(value, "value", [])] if not isinstance(value, ScalarNode) \
            else [str(value.value)]
        known = next((self.meaning[n] for n in names if n in self.meaning), None)
        said = _comment(r, line)
        found: tuple[str, str] | None = known
        if found is None and said:
            other, when = _OTHER.match(said), _WHEN.search(said)
            if other is not None and self.last_conditional is not None and self.last_conditional != service:
                found = ("otherwise", self.last_conditional)
            elif when is not None and read_condition(when.group("cond")) is not None:
                found = ("when", when.group("cond"))
        profile = ", ".join(names) or "?"
        if found is None:
            why = f"its comment ('{said}') says no condition that can be read" if said else "the file does not say " \
                  "when it is selected"
            r.src.warn(line, f"{service}: profile '{profile}' makes the service a branch, but {why} (a comment such "
                             "as `# only when merge counted 3 or more errors`, or `# the other case`); it always runs",
                       "spec.unread")
            return None
        for n in names:
            self.meaning.setdefault(n, found)
        if found[0] == "when":
            self.last_conditional = service
            self.notes.append(note(r, key, f"{service}: profiles", f"profile '{profile}' read as the condition "
                                                                   f"`{found[1]}` (its comment)"))
        else:
            self.notes.append(note(r, key, f"{service}: profiles", f"profile '{profile}' read as the other case of "
                                                                   f"{found[1]}: it runs when {found[1]}'s condition "
                                                                   "is false"))
        return scalar(found[0], key), ScalarNode(STR, found[1], value.start_mark, value.end_mark)


_rx.save()
