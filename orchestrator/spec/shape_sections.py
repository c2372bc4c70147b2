"""What a warning about a section no reader takes says was read of it: never "its content is
not read" when a line of it was read (a whole run's limit in `## Notes`, a success check).

    section 'Notes' is not a spec section; its content is not read but for line 47, read as
    the whole run's limit
"""

from __future__ import annotations

from orchestrator.spec.source import Source

# what a sentence reading's section says it was read as
_READ_AS: dict[str, str] = {"whole run": "the whole run's limit", "success": "a success check",
                            "convergence": "a limit of the run", "step": "a step's policy",
                            "recovery": "a step's policy"}


def read_lines(src: Source, first: int, last: int, since: int = 0) -> dict[int, str]:
    """The lines between `first` and `last` that a sentence reading (from the `since`-th on)
    took, with what each was read as."""
    found: dict[int, str] = {}
    prefix = f"{src.path}:"
    for reading in src.readings[since:]:
        where = str(getattr(reading, "where", ""))
        if not where.startswith(prefix) or not where[len(prefix):].isdigit():
            continue
        line = int(where[len(prefix):])
        if first <= line <= last:
            found.setdefault(line, _READ_AS.get(str(getattr(reading, "section", "")), "a policy"))
    return found


def not_read_said(title: str, first: int, last: int, src: Source, since: int = 0) -> str:
    """"section 'T' is not a spec section; its content is not read", said truly: the lines of it
    that were read are named, with what they were read as."""
    found = read_lines(src, first, last, since)
    head = f"section '{title}' is not a spec section; its content is not read"
    if not found:
        return head
    kinds = sorted(set(found.values()))
    lines = ", ".join(str(n) for n in sorted(found))
    return f"{head} but for line{'s' if len(found) > 1 else ''} {lines}, read as {' and '.join(kinds)}"
