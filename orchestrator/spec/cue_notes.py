"""Notes written under a grid or list and keyed by a step's cue letter or number go to that step.

    CUE NOTES                                           (the text after the last step's row)
      A  - quick, 1 min max.                            a note of the step whose row starts "A"
      B: doesn't wait for A. If it chokes, ...          a note of step "B" (and its next lines)
      4) Retry the courier twice.                       a note of the step numbered 4

A reader that finds steps by the skills they name (`spec.anchored`) gives a step every line up to the
next step, so notes written after the last row all land on the last step; notes in a block of their
own are placed by `spec.anchored_place`, which asks `note_label` and `row_label` here. `route_notes` gives each
step its cue label (the short token that opens the source line naming its skill: "A", "C1", "3"); a
text of a step whose source line opens with another step's label and a separator ("B -", "B:", "3)",
or two spaces) is moved, with the lines after it up to the next keyed or blank line, to that step;
each move warned at its line. A start said there ("start it same time") moves with it.
"""

from __future__ import annotations

from orchestrator.spec.model import Reading, SpecText, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.sheet_flow32 import noun_keyed
from orchestrator.spec.source import Source
from orchestrator.spec.wrapped_item47 import continues_line

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# the label opening a grid row or a list item: "A", "C1", "3", "4a"
_LABEL = _rx(r"^[\s|*#>-]{0,6}+([A-Z][0-9]{0,2}+|[0-9]{1,3}+[a-z]?+)(?=[.):]?+\s)")
# a keyed note line: the label, then a separator ("-", ":", ")", "=") or two spaces
_KEYED = _rx(r"^[\s|*>-]{0,6}+([A-Z][0-9]{0,2}+|[0-9]{1,3}+[a-z]?+)(?:[ \t]{0,4}+[-–—:=)][ \t]|\.[ \t]|[ \t]{2,}+\S)")


def row_label(line: str) -> str | None:
    """The label opening a grid row or list item ("A    meter the mix  loudness-meter" -> "A")."""
    m = _LABEL.match(line)
    return m.group(1) if m is not None else None


def note_label(line: str) -> str | None:
    """The key of a keyed note line ("  B - doesn't wait for A" -> "B"; "Line 3b: ..." -> "3b",
    `spec.sheet_flow32`), or None."""
    m = _KEYED.match(line)
    if m is not None:
        return m.group(1)
    keyed = noun_keyed(line)
    return keyed[0] if keyed is not None else None


def _line(step: StepSpec) -> int:
    tail = step.where.rpartition(":")[2]
    return int(tail) if tail.isdigit() else 0


def skill_of(step: StepSpec) -> str:
    """The skill the step names: its `Skill:`, else the first name in its prose."""
    if step.skill:
        return step.skill.strip("`* ")
    return step.mentions[0].text if step.mentions else ""


def cue_labels(steps: list[StepSpec], src: Source) -> dict[str, str]:
    """Each step's cue label (the token opening the source line that names its skill) -> its id;
    labels said by fewer than two steps, or by two steps, are left out."""
    found: dict[str, list[str]] = {}
    starts = [_line(s) for s in steps]
    for index, step in enumerate(steps):
        skill = skill_of(step)
        if not skill or not starts[index]:
            continue
        end = next((n for n in starts[index + 1:] if n > starts[index]), starts[index] + 12)
        for number in range(starts[index], min(end, starts[index] + 12, len(src.lines) + 1)):
            text = src.line_text(number)
            if skill in text:
                m = _LABEL.match(text)
                if m is not None:
                    found.setdefault(m.group(1), []).append(step.id)
                break
    labels = {label: ids[0] for label, ids in found.items() if len(ids) == 1}
    return labels if len(labels) >= 2 else {}


def route_notes(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps with each note keyed by another step's label moved to that step (module docstring)."""
    if len({s.id for s in steps}) != len(steps):
        return steps  # two steps with one id: refused by `check_steps`
    labels = cue_labels(steps, src)
    if not labels:
        return steps
    by_id = {s.id: s for s in steps}
    own = {sid: label for label, sid in labels.items()}
    moved: dict[str, list[tuple[str, SpecText]]] = {}
    for step in steps:
        keep: list[SpecText] = []
        key: str | None = None
        shown: set[tuple[int, str]] = set()
        for text in _split(step.texts, src, labels):
            raw = src.line_text(text.line)
            m = _KEYED.match(raw) if text.line > _line(step) else None
            if m is not None and continues_line(src.line_text(text.line - 1), raw):
                m = None  # "the time from\n   1. Gives you ...": the sentence goes on (`spec.wrapped_item47`)
            if m is not None and (text.line, m.group(1)) not in shown:
                key = labels.get(m.group(1)) if m.group(1) != own.get(step.id) else None
            elif not raw.strip() or _starts_block(raw):
                key = None
            if key is None or key == step.id:
                keep.append(text)
                continue
            moved.setdefault(key, []).append((step.id, text))
            if m is not None and (text.line, m.group(1)) not in shown:
                shown.add((text.line, m.group(1)))
                src.warn(text.line, f"'{raw.strip()[:60]}': a note keyed '{m.group(1)}', read as about {key} (the "
                                    f"step whose row opens with '{m.group(1)}'), not {step.id}. To say so plainly "
                                    f"write the note in {key}'s own row or under its heading", "spec.placed")
        by_id[step.id] = step.model_copy(update={"texts": tuple(keep)})
    if not moved:
        return steps
    for sid, notes in moved.items():
        for giver_id, text in notes:
            giver, where = by_id[giver_id], src.where(text.line)
            update: dict[str, object] = {"texts": (*by_id[sid].texts, text)}
            if giver.unordered_where == where:  # "start it same time" in the note: the start moves too
                by_id[giver_id] = giver.model_copy(update={"unordered_where": None, "readings": tuple(
                    r for r in giver.readings if not (r.what == "depends_on" and r.where == where))})
                update["unordered_where"] = where
                update["readings"] = (*by_id[sid].readings, Reading(
                    what="depends_on", where=where, text=text.text[:160],
                    note="does not wait for the step before it (only for the steps whose outputs it reads): its "
                         "keyed note says so"))
            by_id[sid] = by_id[sid].model_copy(update=update)
    return [by_id[s.id] for s in steps]


def _split(texts: tuple[SpecText, ...], src: Source, labels: dict[str, str]) -> list[SpecText]:
    """The texts, each at the line it starts on, and cut where a keyed note line starts inside one
    ("D push `feed-publish` notes -- A - quick, 1 min max." is two: the row and A's note)."""
    out: list[SpecText] = []
    for text in texts:
        rest, line, first = text.text, text.line, True
        for number in range(text.line, min(text.line + 40, len(src.lines) + 1)):
            said = " ".join(src.line_text(number).split())
            if not said:
                continue
            at = rest.find(said[:24])
            if at < 0:
                if first:
                    continue  # the text starts further down its paragraph
                break
            if first:
                line, first = number, False
                if at > 0:
                    continue
            elif at > 0 and note_label(src.line_text(number)) in labels:
                out.append(text.model_copy(update={"text": rest[:at].strip(), "line": line}))
                rest, line = rest[at:], number
        out.append(text.model_copy(update={"text": rest, "line": line}))
    return out


# a line that is no continuation of a keyed note: a heading in capitals ("HARD STOP:"), a rule
_BLOCK = _rx(r"^[A-Z][A-Z ]{3,}+[:=]|^\s*+[-=_]{5,}+")


def _starts_block(raw: str) -> bool:
    return bool(_BLOCK.match(raw))


_rx.save()
