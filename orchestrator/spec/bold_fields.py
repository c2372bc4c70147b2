"""A paragraph of bold field lines, split back into its fields.

Markdown joins lines with no blank between them into one paragraph, so a step written as

    **Bot:** build-wire-batch
    **Only when:** foreign_count from #2 is more than 0
    **Sign-off:** over $20,000 the controller approves.
    She gets 24 hrs.

reached the anchored reader as one sentence, and the readers after it took the approval from
the sign-off and dropped the `Only when:` silently (both branches of a payout ran). Each line
that starts with a bold label (`**Label:**`, `__Label:__`, `**Label**:`) starts a field; a line
without one goes on with the field before it. A paragraph with fewer than two such lines is
left as it is.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)

_BOLD_LABEL = _rx(r"^\s*+(?:\*\*|__)[^*_:\n]{1,40}+(?::\s*+(?:\*\*|__)|(?:\*\*|__):)")


def bold_fields(lines: list[tuple[int, str]]) -> list[tuple[int, str]] | None:
    """(line, text) per field of a paragraph of bold field lines, or None when it is no such
    paragraph (fewer than two lines start with a bold label)."""
    if sum(1 for _, text in lines if _BOLD_LABEL.match(text)) < 2:
        return None
    fields: list[tuple[int, str]] = []
    for line, text in lines:
        if _BOLD_LABEL.match(text) or not fields:
            fields.append((line, text))
        else:
            fields[-1] = (fields[-1][0], f"{fields[-1][1]}\n{text}")
    return fields


_rx.save()
