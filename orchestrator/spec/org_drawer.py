"""An org-mode property drawer read as the labelled lines it stands for.

    * TODO Check every claim
      :PROPERTIES:
      :RUNS:     check-claim                →  - Runs: check-claim
      :IF_FAILS: try it twice, 1 min apart  →  - If fails: try it twice, 1 min apart
      :END:

An author's own property names (`:TIMEBOX:`, `:ON_ERROR:`, `:RETRIES:`) are labels like any other:
each property is written as a bullet `- Name: value` (so no value runs into the next), and its value
is read by the readers that read a labelled bullet (skill, inputs, outputs, and the policy phrase
reader, which warns at its line what it does not understand). The drawer's `:PROPERTIES:` and `:END:` lines are no text; the
line numbers are kept. Used by the outline reader (`spec.outline`).
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_OPEN = _rx(r"(?i)^\s*+:properties:\s*+$")
_CLOSE = _rx(r"(?i)^\s*+:end:\s*+$")
_PROPERTY = _rx(r"^(\s*+):([A-Za-z][\w-]{0,40}+)(\+?):[ \t]++(\S.*)$")


def drawer_lines(lines: list[str]) -> list[str]:
    """`lines` with each property drawer's lines written as labelled sentences (module docstring);
    a line outside a drawer is kept as it is."""
    if not any(_OPEN.match(ln) for ln in lines):
        return lines
    out: list[str] = []
    inside = False
    for raw in lines:
        if _OPEN.match(raw):
            inside = True
            out.append("")
            continue
        if inside and _CLOSE.match(raw):
            inside = False
            out.append("")
            continue
        m = _PROPERTY.match(raw) if inside else None
        if m is None:
            out.append(raw)
            continue
        name = " ".join(m.group(2).replace("_", " ").replace("-", " ").split()).capitalize()
        value = m.group(4).rstrip()
        out.append(f"{m.group(1)}- {name}: {value}")
    return out
