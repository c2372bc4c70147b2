"""A legend (a key, an abbreviations list, a glossary of codes) that maps short codes to skills,
and numbered rows written in those codes, read as the markdown they stand for.

    ABBREVIATIONS                                   a legend: each `CODE = skill` ("X: skill",
      sc = stock-check     bl = bin-lookup           "X - skill", a `| Code | Skill |` row) whose
    Row 1: sc on the order. (If sc fails ...)       skill is a catalog skill is an alias
    Row 2: *bl on each line from row 1; rep from    ->  ### Step 1: Row 1 / - Skill: `stock-check`
           * to end of the in-stock lines.          ->  - For each: line in step-1.in_stock
    Row 3: pr the bins from row 2 tog               ->  - Input: picks = all step 2 results
    Row 4: pl using the grams from row 1, zone UK   ->  - Input: grams (from Step 1), zone = "UK"

A line that opens with a row or step label ("Row 1:", "Rnd 2", "R3", "Stage B:", "Cue 4 -", "Well 2:")
and uses a code of the legend is a step running the code's skill; the indented lines under it are
its text (its policy in brackets included). Codes in the text are written as the skill's name and
"row N" as "step K", so the readers after this one read them. "*...; rep from * to end of X" is a
For each over the list of step N (the row "from row N" names, else the row before) whose output
name X's words hold (`in_stock` in "the in-stock lines"), the item taken by the one input of the
skill nothing else gives; "tog" / "together" / "all" with an earlier For each row is its gather
for the skill's one unbound input; an input of the skill named beside a value ("zone UK",
`service "Tracked 48"`) takes it as a literal; one named "from row N" is step N's output of
that name. Rows are worked in order: each depends on the row before it (and on any row it takes
data from). The legend must give two codes or more of catalog skills; a legend whose values are
no skills (a list of abbreviations in words, `total = price * qty`) is no legend of steps and
nothing here reads it. Each reading is warned at its line. `origin` maps each markdown line back
to the author's line (as `spec.form_lines` does).
"""

from __future__ import annotations

import re

from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.vocabulary import Vocabulary

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# one legend entry: CODE = skill, CODE: skill, CODE - skill (several on a line, two spaces apart)
_ENTRY = _rx(r"(?<![\w-])([A-Za-z][A-Za-z0-9]{0,5}+)[ \t]*+(?:=|:|-|–|—)[ \t]*+`?([A-Za-z][\w-]{1,60}+)`?")
# a table row | CODE | skill |
_CELL_ROW = _rx(r"^[ \t]*+\|[ \t]*+`?([A-Za-z][A-Za-z0-9]{0,5}+)`?[ \t]*+\|[ \t]*+`?([A-Za-z][\w-]{1,60}+)`?[ \t]*+\|")
_HEADING = _rx(r"(?i)^[ \t#*]*+(?:abbreviations?|legend|key|glossary|codes?|cue[ \t]++key|code[ \t]++key)"
               r"[ \t]*+:?[ \t*]*+$|^[ \t#*]*+(?:key|legend)[ \t]*+:")
# a row or step label opening a line: "Row 1:", "Rnd 2", "R3", "Stage B:", "Cue 4 -"
_LABEL = _rx(r"(?i)^[ \t]{0,3}+((?:row|rnd|round|step|stage|phase|cue|part|well|line)[ \t]*+([0-9]{1,3}+|[A-Z](?![a-z]))"
             r"|R([0-9]{1,3}+))(?:[ \t]*+[:.)–—-])?[ \t]++(\S.*)$")
_REF = _rx(r"(?i)\b(?:row|rnd|round|step|stage|phase|cue|part|well)[ \t]++([0-9]{1,3}+|[A-Z])\b")
_REPEAT = _rx(r"(?i)\brep(?:eat)?[ \t]++from[ \t]++\*[ \t]++to[ \t]++(?:the[ \t]++)?end[ \t]++of[ \t]++(?:the[ \t]++)?"
              r"([\w][\w -]{0,60}+)")
_GATHER = _rx(r"(?i)\b(?:tog|together|all[ \t]++of[ \t]++them|every[ \t]++\w++'s)\b")
_WORD = _rx(r"[a-z0-9]++")


def _legend(lines: list[str], vocabulary: Vocabulary) -> tuple[dict[str, str], set[int]]:
    """The aliases (code -> skill) and the 0-based lines of the legend block."""
    found: dict[int, list[tuple[str, str]]] = {}
    for at, line in enumerate(lines):
        if _LABEL.match(line):
            continue
        head = _HEADING.match(line)  # "Key: OW = open-wave, ...": the entries after the label
        rest = line[head.end():] if head is not None else line
        pairs = [m.groups() for m in _CELL_ROW.finditer(line)] or [m.groups() for m in _ENTRY.finditer(rest)]
        hits = [(code, skill) for code, name in pairs
                if (skill := vocabulary.skill_for(name)) is not None and code != name]
        if hits:
            found[at] = hits
    aliases: dict[str, str] = {}
    used: set[int] = set()
    for at, hits in found.items():
        # in a block: two entries on the line, a legend heading above or on it, or an entry line beside it
        headed = at > 0 and _HEADING.match(lines[at - 1]) is not None
        if len(hits) >= 2 or headed or _HEADING.match(lines[at]) or at - 1 in found or at + 1 in found:
            aliases.update(hits)
            used.add(at)
            if headed:
                used.add(at - 1)
    return (aliases, used) if len(set(aliases)) >= 2 else ({}, set())


def _tokens(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def _alias_rx(aliases: dict[str, str]) -> re.Pattern[str]:
    """A code of the legend as a whole word (a leading `*` of a repeat is no part of a word)."""
    codes = "|".join(re.escape(c) for c in sorted(aliases, key=len, reverse=True))
    return re.compile(r"(?<![\w-])(" + codes + r")(?![\w-])")


class _Row:
    def __init__(self, label: str, key: str, at: int, text: str) -> None:
        self.label, self.key, self.at, self.text = label, key, at, text
        self.more: list[tuple[int, str]] = []
        self.skill = ""
        self.number = 0


def legend_markdown(text: str, vocabulary: Vocabulary) -> tuple[str, list[int], list[tuple[int, str]]] | None:
    """The document as markdown, each markdown line's author's line (0-based) and the warnings
    (1-based line, message); None when it has no legend of skills with rows written in its codes."""
    if not vocabulary:
        return None
    lines = text.split("\n")
    aliases, legend_lines = _legend(lines, vocabulary)
    if not aliases:
        return None
    code_rx = _alias_rx(aliases)
    rows: list[_Row] = []
    rest: list[tuple[int, str]] = []  # (line, text) before and after the rows, not the legend
    for at, line in enumerate(lines):
        if at in legend_lines:
            continue
        m = _LABEL.match(line)
        if m is not None and (c := code_rx.search(m.group(4))) is not None:
            rows.append(_Row(m.group(1).strip(), (m.group(2) or m.group(3)).upper(), at, m.group(4)))
            rows[-1].skill = aliases[c.group(1)]
        elif rows and line[:1] in (" ", "\t") and line.strip() \
                and (rows[-1].more[-1][0] if rows[-1].more else rows[-1].at) == at - 1:
            rows[-1].more.append((at, line.strip()))
        else:
            rest.append((at, line))
    if len(rows) < 2:
        return None
    for k, row in enumerate(rows, 1):
        row.number = k
    return _emit(lines, rows, rest, aliases, legend_lines, code_rx, vocabulary)


def _emit(lines: list[str], rows: list[_Row], rest: list[tuple[int, str]], aliases: dict[str, str],
          legend_lines: set[int], code_rx: re.Pattern[str], vocabulary: Vocabulary
          ) -> tuple[str, list[int], list[tuple[int, str]]]:
    out: list[str] = []
    origin: list[int] = []
    warnings: list[tuple[int, str]] = []
    by_key = {row.key: row for row in rows}

    def put(at: int, *texts: str) -> None:
        out.extend(texts)
        origin.extend([at] * len(texts))

    before = [(at, line) for at, line in rest if at < rows[0].at]
    after = [(at, line) for at, line in rest if at > rows[0].at]
    title = next(((at, line.strip()) for at, line in before if line.strip()), None)
    first = min(legend_lines)
    put(title[0] if title else first, f"# {title[1] if title else 'Pattern'}", "")
    prose = [(at, line) for at, line in before if title is None or at != title[0]]
    if any(line.strip() for _, line in prose):
        put(prose[0][0], "## Overview", "")
        for at, line in prose:
            put(at, line.strip())
        put(prose[-1][0], "")
    codes = ", ".join(f"{code} = `{skill}`" for code, skill in aliases.items())
    warnings.append((first + 1, f"the legend's codes are read as the skills they stand for ({codes}): each row "
                                "opening with a row label and using a code is a step running its skill"))

    def rewrite(text: str) -> str:
        text = code_rx.sub(lambda m: f"`{aliases[m.group(1)]}`", text)
        return _REF.sub(lambda m: f"step {by_key[m.group(1).upper()].number}"
                        if m.group(1).upper() in by_key else m.group(0), text)

    loops: dict[int, str] = {}  # step number -> item input
    put(rows[0].at, "## Steps", "")
    for row in rows:
        whole = " ".join([row.text, *(t for _, t in row.more)])
        refs = [by_key[m.group(1).upper()].number for m in _REF.finditer(whole)
                if m.group(1).upper() in by_key and by_key[m.group(1).upper()].number < row.number]
        takes = set(vocabulary.inputs_of(row.skill) or ())
        bullets: list[str] = []
        bound: set[str] = set()
        inputs: list[str] = []
        repeat = _REPEAT.search(whole)
        if repeat is not None:
            source = refs[0] if refs else row.number - 1
            field = _field(repeat.group(1), rows[source - 1].skill, vocabulary) if source >= 1 else None
            free = sorted(takes)
            if field is not None and len(free) == 1:
                bullets.append(f"- For each: {free[0]} in step-{source}.{field}")
                bound.add(free[0])
                loops[row.number] = free[0]
                warnings.append((row.at + 1, f"'rep from * to end of {repeat.group(1).strip()}' is read as a For "
                                             f"each over step {source}'s `{field}`, each item as `{free[0]}`"))
            else:
                warnings.append((row.at + 1, f"'rep from * to end of {repeat.group(1).strip()}' repeats the row, but "
                                             "no list of an earlier row has those words or the skill takes more "
                                             "than one input: write `For each: <item> in step-N.<list>`"))
        for name in sorted(takes - bound):
            lit = re.compile(r"(?<![\w-])" + re.escape(name).replace("_", "[ _]") + r"[ \t]*+(?:=|:|is)?[ \t]*+"
                             r"(\"[^\"\n]{1,80}+\"|'[^'\n]{1,80}+'|[A-Z0-9][\w.-]{0,40}+)").search(whole)
            if lit is not None:
                value = lit.group(1).strip("\"'").rstrip(".,;:")
                inputs.append(f'{name} = "{value}"')
                bound.add(name)
                continue
            for ref in refs:
                if name in (vocabulary.outputs_of(rows[ref - 1].skill) or ()):
                    inputs.append(f"{name} (from Step {ref})")
                    bound.add(name)
                    break
        free = sorted(takes - bound)
        gathered = [n for n in refs if n in loops] or [n for n in loops if n < row.number][-1:]
        if _GATHER.search(whole) and gathered and len(free) == 1 and row.number not in loops:
            inputs.append(f"{free[0]} = all step {gathered[0]} results")
            warnings.append((row.at + 1, f"'{_GATHER.search(whole).group(0)}' is read as gathering every result "  # type: ignore[union-attr]
                                         f"of step {gathered[0]}'s For each into `{free[0]}`"))
        deps = sorted({*refs, *([row.number - 1] if row.number > 1 else [])})
        put(row.at, f"### Step {row.number}: {row.label}", "")
        put(row.at, f"- Skill: `{row.skill}`", *bullets)
        if inputs:
            put(row.at, f"- Input: {', '.join(inputs)}")
        if deps:
            put(row.at, "- Depends on: " + ", ".join(f"Step {d}" for d in deps))
        put(row.at, "", rewrite(row.text))
        for at, more in row.more:
            put(at, rewrite(more))
        put(row.more[-1][0] if row.more else row.at, "")
    if any(line.strip() for _, line in after):
        put(after[0][0], "## Notes", "")
        for at, line in after:
            put(at, rewrite(line.strip()))
    return "\n".join(out), origin, warnings


def _field(words: str, skill: str, vocabulary: Vocabulary) -> str | None:
    """The output of `skill` whose name's words are all among `words` (the longest such)."""
    said = _tokens(words)
    fits = [name for name in vocabulary.outputs_of(skill) or () if _tokens(name.replace("_", " ")) <= said]
    return max(fits, key=len) if fits else None


_rx.save()
