"""Notes under a sheet's grid keyed by the row's label with a noun before it: "Line 1:", "Row 3b -", "Item C:".

    LINE | ACTION            | SYSTEM STEP                (a worksheet's grid: rows labelled 1, 2, 3a, 3b, 4)
      1  | Pull the record    | record-get
      3b | Query the owner    | owner-query
    NOTES
     - Line 1: the server is slow; 20 s timeout.          a note of the step whose row is labelled "1"
     - Row 3b: send it ONE time only.                     a note of the step whose row is labelled "3b"
     - Line 1 of the form is the header.                  no: no separator after the label
     - Line up the trays: 2 min each.                     no: no label after the noun

A worksheet, a rota or a prep sheet often numbers its rows in a grid and then writes notes about them
under it, each opened by the grid's own word for a row and the row's label ("Line 1:", "Row 3b -",
"Item C:"). `spec.cue_notes` keys a note by a bare label opening its line ("B - ..."); this module gives
it the same key when the label follows one of the nouns line, row, item, entry or stage (any case) and
is followed by a separator (":", "-", "=", ")", "." or two blanks). Whether the label belongs to a step's
row is checked by the caller, as for a bare label. One match per line, anchored at its start.

    Line 3a only if line 2 says in band (within_band = yes); 3b is for everything else.
                                                          3a runs only when step 2 says so; 3b is its other branch
    Row C only when B = off; otherwise row D.             C's condition; D its other branch
    Line 3a only lists the trays.                         no: "only" is no condition here

A line under the grid that opens with a row's label (a noun before it or not) and "only if" / "only when"
gives that row's step its condition, read as a grid cell's is (`spec.heading_condition.clause_said`; the
rows it names by label, "line 2" as "2"; a comparison in brackets after the words said, "in band
(within_band = yes)", is taken for them); a clause after it on the same line naming a later row's label
with "is for everything else", "otherwise", "else" makes that row's step the other branch. Each reading
is warned at its line (`spec.grid-condition`); steps that already say when they run are left alone.
`read_keyed_conditions` runs after `spec.grid_condition`, one pass over the lines.

    4  | Log entry (after 3a OR 3b)  | log-entry          runs once after whichever of 3a, 3b ran

A step whose grid row (the line of its span naming its skill) says "after X or Y", X and Y the labels of
two rows whose steps are the branches of one choice (one has a condition, the other is its other branch),
runs once after whichever of them ran (`join: any`), warned at the row (`spec.join-ran`); a step that
already says what it waits for is left alone. `read_label_joins` runs after `spec.join_ran`.

    nothing goes to flag-plan till the PRO says yes       an approval asked (`condition.approval_sentence`)
    nothing is sent until Sam OKs it                      the same
    nothing goes out until the van is back                no: no person saying yes

`held_till_yes` reads a hold said through what may not go on until a person says yes, OKs it, approves
or signs off ("nothing goes to X till the PRO says yes"): the step's approval, read by the readers of
approvals as any other approval sentence.
"""

from __future__ import annotations

from orchestrator.spec.heading_condition import Said, apply_said, clause_said, step_ref
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# the noun, the label, then a separator: "- Line 1: ...", "Row 3b - ...", "ITEM C: ..."
_NOUN_KEYED = _rx(r"^[\s|*>-]{0,6}+(?i:line|row|item|entry|stage)[ \t]{1,3}+([A-Z][0-9]{0,2}+|[0-9]{1,3}+[a-z]?+)"
                  r"(?:[ \t]{0,4}+[-–—:=)][ \t]|\.[ \t]|[ \t]{2,}+\S)")


_LABEL = r"([A-Z][0-9]{0,2}+|[0-9]{1,3}+[a-z]?+)"
_NOUN = r"(?i:line|row|item|entry|stage)"
# "Line 3a only if ...", "C only when ...": the row's label, then the condition
_KEYED_IF = _rx(r"^[\s|*>-]{0,6}+(?:" + _NOUN + r"[ \t]{1,3}+)?+" + _LABEL + r"[ \t:,-]{1,4}+(?=(?i:only)[ \t]++(?i:if|when)\b)")
# "3b is for everything else", "otherwise row D", "line 4 otherwise", "else 3b"
_ELSE_OF = _rx(r"^[ \t]*+(?:(?:" + _NOUN + r"[ \t]{1,3}+)?+" + _LABEL + r"[ \t]++(?:(?:is|runs|goes)[ \t]++(?:for|on)[ \t]++"
               r"(?i:everything|anything|all)[ \t]++(?i:else)|(?i:otherwise|else))|(?i:otherwise|else)[,:]?+[ \t]++(?:"
               + _NOUN + r"[ \t]{1,3}+)?+" + r"([A-Z][0-9]{0,2}+|[0-9]{1,3}+[a-z]?+))\b")
# "says in band (within_band = yes)": the aside names the field and its value, taken for the words before it
_ASIDE = _rx(r"(?i)(?<=[ \t])(?P<w>says|shows|reports|gives|returns|comes[ \t]++back)[ \t]++[^()\n]{1,60}+\([ \t]*+"
             r"(?P<c>[a-z][a-z0-9_]{1,40}+[ \t]*+(?:==?|is)[ \t]*+[\w.-]{1,30}+)[ \t]*+\)")
_NOUN_REF = _rx(r"^[ \t]*+(?:the[ \t]++)?+" + _NOUN + r"[ \t]++(?=\S)")
CODE = "spec.grid-condition"


def read_keyed_conditions(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps with the conditions said under the grid by a row's label read (module docstring)."""
    if len(steps) < 2 or "only" not in src.text.lower():
        return steps
    from orchestrator.spec.cue_notes import cue_labels  # cue_notes asks `noun_keyed` here

    labels = cue_labels(steps, src)
    if not labels:
        return steps
    index = {s.id: i for i, s in enumerate(steps)}
    out = list(steps)
    for number, raw in enumerate(src.lines, start=1):
        if len(raw) > 400 or "only" not in raw.lower() or (m := _KEYED_IF.match(raw)) is None:
            continue
        target = labels.get(m.group(1))
        if target is None:
            continue
        at = index[target]
        step = out[at]
        if step.when or step.otherwise_where or step.otherwise_of or step.routes or step.approval:
            continue
        clauses = raw[m.end():].split(";")
        earlier = out[:at]

        def named(ref: str, earlier: list[StepSpec] = earlier) -> str | None:
            return step_ref(_NOUN_REF.sub("", ref), earlier, labels)

        clause = _ASIDE.sub(lambda a: f"{a.group('w')} {a.group('c')}", clauses[0].strip(), count=1)
        said = clause_said(clause, named, else_alone=False)
        if said is None or said.kind != "when":
            continue
        out[at] = apply_said(step, said, None, src, number, "a note keyed by its row's label", CODE)
        for clause in clauses[1:]:
            e = _ELSE_OF.match(clause)
            other = labels.get(e.group(1) or e.group(2) or "") if e is not None else None
            if other is None or index[other] <= at:
                continue
            branch = out[index[other]]
            if not (branch.when or branch.otherwise_where or branch.otherwise_of or branch.routes):
                out[index[other]] = apply_said(branch, Said("otherwise", clause.strip()), out[at], src, number,
                                               "a note keyed by its row's label", CODE)
    return out


# "(after 3a OR 3b)", "after row C or row D"
_AFTER_OR = _rx(r"(?i)(?<![\w-])after[ \t]++(?:(?:line|row|item|entry|stage|step)[ \t]++)?+([A-Z][0-9]{0,2}+|[0-9]{1,3}+[a-z]?+)"
                r"[ \t]++or[ \t]++(?:(?:line|row|item|entry|stage|step)[ \t]++)?+([A-Z][0-9]{0,2}+|[0-9]{1,3}+[a-z]?+)(?![\w-])")


def _row_line(step: StepSpec, src: Source) -> int:
    tail = step.where.rpartition(":")[2]
    start = int(tail) if tail.isdigit() else 0
    skill = step.skill.strip("`* ") if step.skill else (step.mentions[0].text if step.mentions else "")
    if not start or not skill:
        return 0
    return next((n for n in range(start, min(start + 24, len(src.lines) + 1)) if skill in src.line_text(n)), 0)


def read_label_joins(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps whose grid row says "after 3a OR 3b" of two branches made joins (module docstring)."""
    if len(steps) < 3 or not any(s.otherwise_of for s in steps):
        return steps
    from orchestrator.spec.cue_notes import cue_labels  # cue_notes asks `noun_keyed` here

    labels = cue_labels(steps, src)
    if not labels:
        return steps
    by_id = {s.id: s for s in steps}
    out = list(steps)
    for at, step in enumerate(steps):
        if step.depends_where is not None or step.join == "any" or step.when or step.otherwise_of:
            continue
        row = _row_line(step, src)
        m = _AFTER_OR.search(src.line_text(row)) if row else None
        if m is None:
            continue
        pair = [labels.get(m.group(1)), labels.get(m.group(2))]
        a, b = (by_id.get(x or "") for x in pair)
        if a is None or b is None or a.id == b.id or steps.index(a) >= at or steps.index(b) >= at:
            continue
        if not ((a.when and b.otherwise_of == a.id) or (b.when and a.otherwise_of == b.id)):
            continue
        where = src.where(row)
        note = f"runs once after whichever of {a.id}, {b.id} ran"
        src.warn(row, f"{step.id} ({step.name.strip()[:50]}): '{m.group(0)}' is read as: {note} (the branches of "
                      f"one choice); to say so plainly write `Depends on: whichever of {a.id}, {b.id} ran`", "spec.join-ran")
        out[at] = step.model_copy(update={
            "depends_on": (a.id, b.id), "depends_where": where, "join": "any",
            "readings": (*step.readings, Reading(what="join", where=where, text=m.group(0), note=note))})
    return out


# "nothing goes to flag-plan till the PRO (me) says yes", "nothing is sent until Sam OKs it": three parts
_HELD = _rx(r"(?i)(?<![\w-])(?:nothing|no[ \t]++[a-z]{2,20}+)[ \t]++(?:goes|is[ \t]++sent|gets[ \t]++sent|moves|runs|happens|"
            r"starts|leaves|is[ \t]++posted|gets[ \t]++posted)(?![\w-])")
_TILL = _rx(r"(?i)(?<![\w-])(?:till|until|unless)[ \t]")
_YES = _rx(r"(?i)(?<![\w-])(?:says[ \t]++(?:yes|ok|okay|go)|(?-i:OK)s[ \t]++it|okays[ \t]++it|approves|agrees|signs[ \t]++"
           r"(?:it[ \t]++)?+off|gives[ \t]++(?:the[ \t]++)?+(?:ok|okay|nod|go-?ahead|green[ \t]++light))(?![\w-])")


def held_till_yes(sentence: str) -> bool:
    """Whether the sentence holds the work until a person says yes (module docstring)."""
    if len(sentence) > 400 or (held := _HELD.search(sentence)) is None:
        return False
    till = _TILL.search(sentence, held.end(), held.end() + 80)
    return till is not None and _YES.search(sentence, till.end(), till.end() + 80) is not None


def noun_keyed(line: str) -> tuple[str, int] | None:
    """The row label of a note line opened by a noun and the label ("Line 3b: ..." -> ("3b", 5)), with
    the width of the noun before the label (the note's text may start after it); None otherwise."""
    m = _NOUN_KEYED.match(line)
    if m is None:
        return None
    noun = m.group(0)[: m.start(1) - m.start(0)].strip(" \t|*>-")
    return m.group(1), len(noun) + 1


_rx.save()
