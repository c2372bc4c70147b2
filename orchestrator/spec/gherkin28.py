"""A Gherkin feature's step lines that name skills, its Background's names, and an Outline's Examples as a branch.

`spec.gherkin` makes each Scenario one step; a feature often says several skills' work in one Scenario, and
says a choice between skills in a Scenario Outline's Examples table. Read here, on the rewritten lines:

    Scenario: Intake                         ->  ## Step 1: Intake
      When `scan-label` reads the label      ->  When `scan-label` reads the label.
      And weigh-box weighs it                ->  ## Step 2: `weigh-box` weighs it        a skill named: a step
        # scale is flaky, retry twice        ->  scale is flaky, retry twice             that step's policy
    Given the clerk enters "order" and "bin" ->  Inputs: `order` and `bin` (the clerk enters).  (Background)

    Scenario Outline: Route                  ->  ## Step 3: If weight_kg is over 30 — `freight`
      Given weigh-box measured <weight>      ->  (the Given names an earlier step: text, no new step)
      Examples:
        | weight  | skill    |
        | over 30 | freight  |                ->  (blank: the row is the step above)
        | else    | courier  |                ->  ## Step 4: Anything else — `courier`
        # courier cut-off 2 min on freight   ->  (placed under the row whose skill it names)

A step line (Given/When/Then/And/But/*) names a skill by its catalog name (bare or quoted), by a name in
backticks, or, with no catalog known, by a hyphenated word right after its keyword. The first such line of a
Scenario stays under the Scenario's heading; each later one is a step of its own, in order; a line naming only
skills an earlier step runs is text (it speaks of that step's result). An Outline's Examples table whose one
column holds a skill per row and another a condition is a branch: the first row's condition ("more than 90
minutes") on the column's value, which the Outline's `<column>` placeholder ties to an earlier skill's output
of that word (`labour` -> `labour_min`); a row saying "anything else" / "otherwise" / "else" / "the rest" is
the other side. Comments after the table naming one row's skill go under that row. Each step made so is a
warning at its line. Lines may move (an Outline's comment), so the text comes with each line's source line.
"""

from __future__ import annotations

import re

from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_SCENARIO = _rx(r"^\s*(?:Scenario(?:\s+(?:Outline|Template))?|Example|Rule|Feature|Background):")
_OUTLINE = _rx(r"^\s*Scenario\s+(?:Outline|Template):")
_EXAMPLES = _rx(r"^\s*(?:Examples|Scenarios):")
_STEP = _rx(r"^\s*(?P<kw>Given|When|Then|And|But|\*)\s+(?P<body>.*)$")
_TABLE_ROW = _rx(r"^\s*\|.*\|\s*$")
_COMMENT = _rx(r"^\s*#")
_TICKED = _rx(r"`([A-Za-z_][\w.-]*)`")
_HYPHEN_SUBJECT = _rx(r"^[`\"']?+(?P<name>[a-z][a-z0-9]*+(?:-[a-z0-9]++)++)[`\"']?+\s")
_WORD = _rx(r"[A-Za-z][\w-]*")
_ELSE = _rx(r"(?i)^(?:anything|everything|any)\s+else|^otherwise|^else|^the\s+rest|^default|^any\s+other")
_PLACEHOLDER = _rx(r"<([A-Za-z_][\w ]*)>")
_QUOTED = _rx(r"[\"“]([A-Za-z_][\w.-]*)[\"”]|`([A-Za-z_][\w.-]*)`")
_CALLED = _rx(r"(?i)\b(?:called|named)\s+[\"“`']?([A-Za-z_][\w-]*)")
_GOT = _rx(r"(?i)\b(?P<which>whichever(?:\s+one)?+)\s+(?:it|they|we|you|he|she)\s+(?:got|received|was\s+given|"
          r"were\s+given|ended\s+up\s+with|landed)\b")
_UNITS = {"minutes": ("_min", "_mins", "_minutes"), "minute": ("_min", "_mins", "_minutes"),
          "seconds": ("_s", "_sec", "_secs", "_seconds"), "hours": ("_h", "_hr", "_hrs", "_hours"),
          "days": ("_d", "_days"), "kg": ("_kg",), "percent": ("_pct", "_percent")}


def skills_named(line: str, src: Source) -> list[str]:
    """The skills a step line names, in order (see the module doc); [] for any other line."""
    m = _STEP.match(line)
    if m is None:
        return []
    body = m.group("body")
    known = src.vocabulary.skills
    found: list[tuple[int, str]] = [(t.start(), t.group(1)) for t in _TICKED.finditer(body)
                                    if not known or src.vocabulary.skill_for(t.group(1))]
    if known:
        for w in _WORD.finditer(body):
            skill = src.vocabulary.skill_for(w.group(0).rstrip("-"))
            if skill and all(at != w.start() - 1 for at, _ in found):
                found.append((w.start(), skill))
    elif (h := _HYPHEN_SUBJECT.match(body)) is not None and not found:
        found.append((0, h.group("name")))
    names: list[str] = []
    for _, name in sorted(found):
        if name not in names:
            names.append(name)
    return names


def background_names(body: str) -> list[str]:
    """A Background line's input names: each quoted name, each `<placeholder>`, "a ... called X"."""
    names = [m.group(1) or m.group(2) for m in _QUOTED.finditer(body)]
    names += [m.group(1).strip().replace(" ", "_") for m in _PLACEHOLDER.finditer(body)]
    names += [m.group(1) for m in _CALLED.finditer(body)]
    out: list[str] = []
    for n in names:
        if n not in out:
            out.append(n)
    return out


def background_line(body: str, number: int, src: Source) -> str | None:
    """`Given the clerk enters "order" and "bin"` -> `Inputs: `order` and `bin` (the clerk enters).`;
    None when it names none, or one in quotes (`spec.gherkin` reads that)."""
    names = background_names(body)
    if not names or (len(names) == 1 and _QUOTED.search(body)):
        return None
    rest = _CALLED.sub(" ", _PLACEHOLDER.sub(" ", _QUOTED.sub(" ", body)))
    rest = " ".join(rest.split()).strip(" .,")
    if len(names) == 1:  # "a plate called plate_id", "the <batch>"
        return f"- {names[0]}: {rest}" if rest else f"- {names[0]}"
    listed = ", ".join(f"`{n}`" for n in names[:-1]) + f" and `{names[-1]}`"
    src.warn(number, f"the Background line names {len(names)} inputs: {', '.join(names)}", "spec.reading")
    return f"Inputs: {listed}" + (f" ({rest})." if rest else ".")


def _blocks(lines: list[str]) -> list[tuple[int, int]]:
    starts = [i for i, line in enumerate(lines) if _SCENARIO.match(line)]
    return [(s, starts[k + 1] if k + 1 < len(starts) else len(lines)) for k, s in enumerate(starts)]


def _strip_keyword(line: str, skills: list[str]) -> str:
    m = _STEP.match(line)
    body = m.group("body").strip() if m else line.strip()
    return _ticked(body, skills).rstrip(".")


def _ticked(text: str, skills: list[str]) -> str:
    for skill in skills:
        text = re.sub(rf"(?<![\w`-]){re.escape(skill)}(?![\w`-])", f"`{skill}`", text, count=1)
    return text


def refine(lines: list[str], out: list[str], src: Source, first_line: int = 1) -> tuple[list[str], list[int]]:
    """`spec.gherkin`'s rewritten lines with the steps above; and each text line's 0-based source line."""
    out = list(out)
    order = list(range(len(out)))
    seen: set[str] = set()
    moves: list[tuple[list[tuple[int, int]], list[int]]] = []
    for start, end in _blocks(lines):
        if not re.match(r"^\s*(?:Scenario|Example)", lines[start]):
            continue
        if _OUTLINE.match(lines[start]) and _outline(lines, out, moves, start, end, src, seen, first_line):
            continue
        first = True
        for i in range(start + 1, end):
            new = [s for s in skills_named(lines[i], src) if s not in seen]
            if not new:
                continue
            seen.update(new)
            if first:  # under the Scenario's heading; in backticks, before the earlier steps' names a Given says
                first = False
                out[i] = _ticked(out[i], new)
                continue
            out[i] = f"## Step 0: {_strip_keyword(lines[i], new)}"
            src.warn(i + first_line, f"the line names the skill `{new[0]}` after the Scenario's first: read as a step "
                                     "of its own", "spec.reading")
    for i, line in enumerate(lines):  # "Given it has a slot, whichever one it got": the join of a branch before
        if _STEP.match(line) and (g := _GOT.search(out[i])) is not None:
            out[i] = out[i][:g.start()] + g.group("which") + " ran" + out[i][g.end():]
            src.warn(i + first_line, f"'{g.group(0)}' read as a join: the value of whichever branch ran", "spec.reading")
    for moved, heads in moves:  # after every block, whose lines are found by their index
        _move(out, order, moved, heads)
    return _numbered(out), [k + first_line - 1 for k in order]


def _outline(lines: list[str], out: list[str], moves: list[tuple[list[tuple[int, int]], list[int]]], start: int, end: int, src: Source,
             seen: set[str], first_line: int) -> bool:
    ex = next((i for i in range(start, end) if _EXAMPLES.match(lines[i])), None)
    if ex is None:
        return False
    rows = [i for i in range(ex + 1, end) if _TABLE_ROW.match(lines[i])]
    if len(rows) < 3:
        return False
    cells = [[c.strip() for c in lines[i].strip().strip("|").split("|")] for i in rows]
    header, body = cells[0], cells[1:]
    known = src.vocabulary.skills

    def is_skill(c: str) -> bool:
        c = c.strip("`")
        return bool(src.vocabulary.skill_for(c)) if known else bool(re.fullmatch(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+", c))

    col = next((k for k in range(len(header)) if all(len(r) > k and is_skill(r[k]) for r in body)), None)
    conds = [k for k in range(len(header)) if k != col]
    if col is None or len(conds) != 1:
        return False
    cond = conds[0]
    subject = _subject(header[cond], lines[start:ex], src)
    row_lines = rows[1:]
    skills = [r[col].strip("`") for r in body]
    for k, (i, row) in enumerate(zip(row_lines, body, strict=True)):
        value = _unit_dropped(row[cond], subject)
        head = (f"Anything else — `{skills[k]}`" if k and _ELSE.match(row[cond])
                else f"If {subject} is {value} — `{skills[k]}`")
        target = start if k == 0 else i
        out[target] = f"## Step 0: {head}"
        if k == 0:
            out[i] = ""
        src.warn(i + first_line, f"the Examples row '{row[col]}' read as a step: `{skills[k]}`, "
                                 + (f"when {subject} is {value}" if head.startswith("If") else "otherwise"),
                 "spec.reading")
    seen.update(skills)
    # the lines after the table: each under the row whose skill it names (one only), else where it is
    tail = [i for i in range(rows[-1] + 1, end) if lines[i].strip()]
    moved = [(i, skills.index(n[0])) for i in tail
             if len(n := [s for s in skills if re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", lines[i])]) == 1
             and skills.index(n[0]) < len(skills) - 1]
    if moved:
        moves.append((moved, [start, *row_lines[1:]]))
    return True


def _move(out: list[str], order: list[int], moved: list[tuple[int, int]], heads: list[int]) -> None:
    """Each moved line goes just before the heading of the row after the one it names (`order` keeps its source)."""
    for i, row in sorted(moved, key=lambda x: -x[0]):
        at = order.index(i)
        text = out.pop(at)
        order.pop(at)
        at = order.index(heads[row + 1])
        out[at:at] = ["", text, ""]
        order[at:at] = [i, i, i]


def _subject(column: str, outline: list[str], src: Source) -> str:
    """The name the Examples column stands for: the output of that word of a skill the `<column>` line names."""
    word = column.strip().replace(" ", "_")
    for line in outline:
        if f"<{column.strip()}>" not in line:
            continue
        for skill in skills_named(line, src):
            outputs = src.vocabulary.outputs_of(skill) or frozenset()
            hits = sorted(o for o in outputs if o == word or o.startswith(word + "_") or o.endswith("_" + word))
            if len(hits) == 1:
                return hits[0]
    return word


def _unit_dropped(value: str, subject: str) -> str:
    """"more than 90 minutes" on `labour_min` is "more than 90": the unit is the name's."""
    words = value.split()
    if len(words) > 1 and subject.endswith(_UNITS.get(words[-1].lower(), ("\0",))):
        return " ".join(words[:-1])
    return value


def _numbered(out: list[str]) -> list[str]:
    n = 0
    fixed = []
    for line in out:
        m = re.match(r"^## Step \d+: ", line)
        if m:
            n += 1
            line = f"## Step {n}: " + line[m.end():]
        fixed.append(line)
    return fixed


_rx.save()
