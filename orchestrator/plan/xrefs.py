"""Steps named by a cross-reference to their anchor: AsciiDoc's `<<collect-commits>>`.

A page that gives each step an anchor (`[[collect-commits]]` or `[#collect-commits]` on the
line before its title) names that step elsewhere by a link to it: `<<collect-commits>>`,
`<<collect-commits,Collect commits>>` or `xref:collect-commits[]`. Such a link is a reference to
the step: the first step that starts after the anchor's line (and before the next anchor).
Each link in a step's text is read as "step N" (so "the `commits` from <<collect-commits>>" is
step N's `commits`, as if written so), shown in the plan (`read.xref`); a link to an anchor
that is no step's is left as written.
"""

from __future__ import annotations

import re

from orchestrator.spec.model import Reading, StepSpec, WorkflowSpec

_ANCHOR = re.compile(r"^\s*+(?:\[\[(?P<a>[A-Za-z_][\w.:-]*+)(?:,[^\]\n]*+)?\]\]|\[#(?P<b>[A-Za-z_][\w.:-]*+)[^\]\n]*+\])\s*+$")
_LINK = re.compile(r"<<(?P<a>[A-Za-z_][\w.:-]*+)(?:,[^<>\n]{0,120}+)?>>|\bxref:(?P<b>[A-Za-z_][\w.:-]*+)\[[^\]\n]{0,120}+\]")
_MAX_LINES = 20000


def _line(where: str) -> int | None:
    tail = where.rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else None


def _anchors(spec: WorkflowSpec) -> dict[str, StepSpec]:
    """Each anchor of the text, with the step it marks: the first one starting after it, before the next anchor."""
    marks = [(n, m.group("a") or m.group("b")) for n, line in enumerate(spec.text.splitlines()[:_MAX_LINES], start=1)
             if (m := _ANCHOR.match(line)) is not None]
    starts = [(line, s) for s in spec.steps if (line := _line(s.where)) is not None]
    out: dict[str, StepSpec] = {}
    for i, (at, name) in enumerate(marks):
        until = marks[i + 1][0] if i + 1 < len(marks) else None
        first = next((s for line, s in sorted(starts, key=lambda p: p[0])
                      if line > at and (until is None or line < until)), None)
        if first is not None:
            out.setdefault(name, first)
    return out


def _named(text: str, anchors: dict[str, StepSpec], path: str, line: int | None, readings: list[Reading]) -> str:
    """`text` with each link to a step's anchor as "step N", each read noted (when `line` is given)."""
    def one(m: re.Match[str]) -> str:
        target = anchors.get(m.group("a") or m.group("b") or "")
        if target is None:
            return m.group(0)
        if line is not None:
            readings.append(Reading(what="xref", where=f"{path}:{line}", text=m.group(0),
                                    note=f"the link to {target.id} ({target.name})"))
        return f"step {target.number}" if target.number is not None else target.id
    return _LINK.sub(one, text)


def read_xrefs(spec: WorkflowSpec) -> WorkflowSpec:
    """The spec with each link to a step's anchor in the steps' text read as that step (module docstring)."""
    if "<<" not in spec.text and "xref:" not in spec.text:
        return spec
    anchors = _anchors(spec)
    if not anchors:
        return spec
    path = spec.path
    steps = []
    for step in spec.steps:
        readings: list[Reading] = list(step.readings)
        texts = tuple(t.model_copy(update={"text": _named(t.text, anchors, path, t.line, readings)}) for t in step.texts)
        description = _named(step.description, anchors, path, None, readings)
        if texts == step.texts and description == step.description:
            steps.append(step)
            continue
        seen: dict[tuple[str, str], Reading] = {}
        for r in readings:
            seen.setdefault((r.where, r.text), r)
        steps.append(step.model_copy(update={"texts": texts, "description": description,
                                             "readings": tuple(seen.values())}))
    return spec.model_copy(update={"steps": tuple(steps)})
