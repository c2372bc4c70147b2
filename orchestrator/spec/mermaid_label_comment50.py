"""A flowchart comment that names its node by a word of the node's label, not by its id.

    cls["summarize-changes<br/>P4 changelists"]
    %% P4 is cranky at night: 2 retries, 30s gap        read as cls's text: 'P4' is a word of its label

A `%%` comment whose words name no node id nor skill (`spec.graph_mermaid`) is read as the text of the one
step whose label, past its skill's name, has a word of the comment's subject (its words before a `:`, or all
of them): a word of two letters or more that is no small word nor a number. A word found in two steps'
labels, or in none, leaves the comment unread (warned, as before). The reading is warned at its line.
"""

from __future__ import annotations

from collections.abc import Mapping

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_WORD = _rx(r"[A-Za-z0-9][A-Za-z0-9_-]*+")
_BREAK = _rx(r"(?i)<br\s*+/?>|\\n")
_SMALL = frozenset({"is", "are", "was", "be", "at", "on", "in", "of", "to", "the", "a", "an", "and", "or", "it", "its",
                    "this", "that", "for", "by", "with", "if", "when", "then", "so", "no", "not", "do", "does", "step",
                    "node", "box", "note", "all", "any", "each", "every", "one", "two", "gets", "get", "has", "have"})


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text) if len(w) >= 2 and not w.isdigit() and w.lower() not in _SMALL}


def node_by_label(comment: str, labels: Mapping[str, str]) -> tuple[str, str] | None:
    """(the step node the comment names by a word of its label, that word), or None (module docstring).
    `labels`: each step node's label."""
    head = comment.split(":", 1)[0] if ":" in comment else comment
    said = _words(head)
    found: dict[str, str] = {}
    for node, label in labels.items():
        rest = " ".join(_BREAK.split(label)[1:])  # the label past its skill's name
        common = said & _words(rest)
        if common:
            found[node] = sorted(common)[0]
    if len(found) != 1:
        return None
    ((node, word),) = found.items()
    return node, next((w for w in _WORD.findall(head) if w.lower() == word), word)


_rx.save()
