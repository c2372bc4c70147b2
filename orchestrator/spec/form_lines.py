"""A filled-in request form whose steps are runs of `Step N - Field: value` lines, read as the
markdown it stands for.

    Request title: Nightly stock check              ->  # Nightly stock check
    Info needed from the user: store, date          ->  ## Inputs / - store / - date
    Max total run time: 45 min                      ->  ## Overview / the line as written
    -------------------------------                 ->  (a blank line: never a heading's underline)
    Step 1 - What happens: pull the counts          ->  ## Steps / ### Step 1: pull the counts
    Step 1 - Program/skill: pull-counts             ->  - Skill: `pull-counts`
    Step 1 - Information used: store, date          ->  - Input: store, date
    Step 1 - Result: counts                         ->  - Output: counts
    Step 1 - Only do this if: ...                   ->  - When: ...
    Step 1 - Sign-off needed?: YES if ...           ->  - Approval: YES if ...
    Step 1 - Error handling: retry twice            ->  - Error handling: retry twice   (the policy reader's)

A document is such a form when at least two step numbers each have two or more field lines
(`Step 2 - Tool: x`, `Step 2. Tool: x`, `[Step 2] Tool = x`, `S2 Tool: x`). Without this reading
a separator line of dashes under a field line made it a heading, so every step was titled by the
field line before it and a policy written there became a title, read by nobody.

A field the reader knows is given the label the step reader takes; any other keeps the team's own
label, so the policy reader reads it or says it did not understand it. A step whose fields are all
empty (or "(leave blank)") is no step: warned at its line. Header fields name the run's inputs
(read as an inputs list), its title, or are the form's own prose (the whole-run readers take a
time limit or a "how we know it worked" line from there). What follows the last step is notes.
`origin` maps each markdown line back to the author's line, as `spec.wiki` does, so findings
point at the form.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.table_columns import columns_of, failure_header

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_FIELD_LINE = _rx(r"(?i)^[ \t]*+(?:\[[ \t]*+)?(?:step|stage|phase|task|s)[ \t]*+(?:no\.?[ \t]*+|#[ \t]*+)?(\d{1,3})"
                  r"(?:[ \t]*+\])?[ \t]*+(?:[-–—.|)][ \t]*+)?([A-Za-z][^:=\n]{0,60}?)[ \t]*+[:=](?![:=])[ \t]*+(.*)$")
_HEADER_FIELD = _rx(r"^[ \t]*+([A-Za-z][^:=\n]{0,60}?)[ \t]*+:(?!//)[ \t]*+(.*)$")
_SEPARATOR = _rx(r"^[ \t]*+[-=_*~+#.]{3,}+[ \t]*+$")
_BLANK_VALUE = _rx(r"(?i)^[\s(\[]*+(?:leave\s++(?:it\s++)?blank|blank|n/?a|none|tbd|-+)?[\s)\].]*+$")

_SKILL = _rx(r"(?i)\b(?:skill|program|tool|script|command|app|bot|automation|job)s?\b")
_INPUT = _rx(r"(?i)\b(?:information|info|input|inputs|uses|used|needs|takes|reads|data\s++in|source|given)\b")
_OUTPUT = _rx(r"(?i)\b(?:result|results|output|outputs|produces|gives|returns|deliverable|comes\s++out)\b")
_WHEN = _rx(r"(?i)^(?:only|run|do\s++this|condition|if\b|when\b)|\bonly\s++(?:do|run|if|when)\b")
_APPROVAL = _rx(r"(?i)\b(?:sign[\s-]*+off|approv\w*+|ok\s++from|authori[sz]\w*+|review(?:er)?\s++needed)\b")
_AFTER = _rx(r"(?i)\b(?:depends|after|waits?\s++for|prerequisites?|runs\s++after)\b")
_NAME = _rx(r"(?i)^(?:what\s++happens|what|task|description|action|summary|step\s++name|name|title|purpose)\b")
_TITLE_KEY = _rx(r"(?i)^(?:request\s++)?(?:title|name|subject)\b|\btitle$")
_INPUTS_KEY = _rx(r"(?i)\b(?:from\s++the\s++user|needs?\s++from|info(?:rmation)?\s++needed|inputs?\b|what\s++to\s++"
                  r"provide|to\s++be\s++provided|user\s++(?:gives|provides|supplies))")
_DONE_KEY = _rx(r"(?i)\b(?:know\s++(?:it|that\s++it)\s++(?:worked|works|is\s++done)|done\s++when|definition\s++of\s++done|"
                r"success|finished\s++when|acceptance|it\s++worked)\b")
_SPLIT = _rx(r",\s*+(?![^()]*+\))|;\s*+")


def _label(key: str, column: str | None) -> str:
    """The label the step reader takes for the team's own field name (`column`: what
    `table_columns` makes of it beside the step's other fields), or the name as written."""
    known = {"skill": "Skill", "input": "Input", "output": "Output", "when": "When", "depends": "Depends on",
             "timeout": "Timeout", "retries": "Retries", "attempts": "Retries", "on_error": "On error",
             "for_each": "For each", "approval": "Approval", "notes": "Notes"}
    if failure_header(key):  # "If it breaks", "Error handling": the policy reader's, under the author's label
        return key.strip()
    if column in known:
        return known[column]
    for rx, label in ((_APPROVAL, "Approval"), (_WHEN, "When"), (_SKILL, "Skill"), (_AFTER, "Depends on"),
                      (_OUTPUT, "Output"), (_INPUT, "Input")):
        if rx.search(key):
            return label
    return key.strip()


class _Step:
    def __init__(self, number: str, line: int) -> None:
        self.number, self.line = number, line
        self.fields: list[tuple[int, str, str]] = []  # (line, key, value)
        self.more: dict[int, list[tuple[int, str]]] = {}  # a field's continuation lines, by its index


def is_form(lines: list[str]) -> bool:
    """Two step numbers or more, each with two field lines or more."""
    counts: dict[str, int] = {}
    for line in lines:
        m = _FIELD_LINE.match(line)
        if m is not None:
            counts[m.group(1)] = counts.get(m.group(1), 0) + 1
    return sum(1 for n in counts.values() if n >= 2) >= 2


def form_markdown(text: str) -> tuple[str, list[int], list[tuple[int, str]]] | None:
    """The form as markdown, each markdown line's author's line (0-based) and the warnings
    (1-based line, message); None when `text` is no such form."""
    lines = text.split("\n")
    if not is_form(lines):
        return None
    header: list[tuple[int, str]] = []
    steps: list[_Step] = []
    loose: list[tuple[int, int, str]] = []  # (the step it follows, line, text): not a field of it
    running = False  # the line before was a field line or ran on from one
    for at, line in enumerate(lines):
        m = _FIELD_LINE.match(line)
        if m is not None:
            if not steps or steps[-1].number != m.group(1):
                steps.append(_Step(m.group(1), at))
            steps[-1].fields.append((at, m.group(2), m.group(3).strip()))
            running = True
        elif _SEPARATOR.match(line) or not line.strip():
            running = False
        elif not steps:
            header.append((at, line))
        elif running and _HEADER_FIELD.match(line) is None:  # a value that runs on to the next line
            steps[-1].more.setdefault(len(steps[-1].fields) - 1, []).append((at, line.strip()))
        else:
            loose.append((len(steps) - 1, at, line.strip()))
    return _emit(header, steps, loose)


def _emit(header: list[tuple[int, str]], steps: list[_Step],
          loose: list[tuple[int, int, str]]) -> tuple[str, list[int], list[tuple[int, str]]]:
    out: list[str] = []
    origin: list[int] = []
    warnings: list[tuple[int, str]] = []

    def put(at: int, *texts: str) -> None:
        out.extend(texts)
        origin.extend([at] * len(texts))

    title = next(((at, v.strip()) for at, line in header
                  if (f := _HEADER_FIELD.match(line)) is not None and _TITLE_KEY.search(f.group(1))
                  and (v := f.group(2)).strip()), None)
    first = header[0][0] if header else (steps[0].line if steps else 0)
    put(title[0] if title else first, f"# {title[1] if title else 'Request form'}", "")
    asked: list[tuple[int, str]] = []
    prose: list[tuple[int, str]] = []
    for at, line in header:
        f = _HEADER_FIELD.match(line)
        if f is not None and _INPUTS_KEY.search(f.group(1)) and f.group(2).strip():
            asked += [(at, part.strip()) for part in _SPLIT.split(f.group(2)) if part.strip()]
        elif f is not None and _DONE_KEY.search(f.group(1)) and f.group(2).strip():
            prose.append((at, f"Definition of done: {f.group(2).strip()}"))  # read as the run's success check
        elif title is None or at != title[0]:
            prose.append((at, line.strip()))
    if prose:
        put(prose[0][0], "## Overview", "")
        for at, line in prose:
            put(at, line, "")
    if asked:
        put(asked[0][0], "## Inputs", "")
        for at, name in asked:
            put(at, f"- {name}")
        put(asked[-1][0], "")
    put(steps[0].line, "## Steps", "")
    between: dict[int, list[tuple[int, str]]] = {}
    for after, at, line in loose:
        between.setdefault(after, []).append((at, line))
    tail = between.pop(len(steps) - 1, [])
    for index, step in enumerate(steps):
        values = [v for _, _, v in step.fields]
        if all(_BLANK_VALUE.match(v) for v in values):
            warnings.append((step.line + 1, f"step {step.number} of the form has no field filled in, so it is no "
                                            "step: fill in what it does and the skill it runs, or delete it"))
            for at, line in between.get(index, []):
                put(at, line, "")
            continue
        name = next((v for _, k, v in step.fields if _NAME.match(k) and not _BLANK_VALUE.match(v)), "")
        put(step.line, f"### Step {step.number}: {name}" if name else f"### Step {step.number}", "")
        columns = columns_of([k for _, k, _ in step.fields])
        for field, (at, key, value) in enumerate(step.fields):
            if (_NAME.match(key) and value == name) or _BLANK_VALUE.match(value):
                continue
            label = _label(key, columns[field])
            put(at, f"- {label}: {value}")
            for more_at, more in step.more.get(field, []):
                put(more_at, f"  {more}")
        put(step.fields[-1][0], "")
        for at, line in between.get(index, []):  # a line of the author's between two steps: the step's text
            put(at, line, "")
    if tail:
        put(tail[0][0], "## Notes", "")
        for at, line in tail:
            put(at, line, "")
    return "\n".join(out), origin, warnings


_rx.save()
