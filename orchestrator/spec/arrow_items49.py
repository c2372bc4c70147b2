"""Numbered items in arrow notation (a whiteboard, a notebook page typed up): the markdown they stand for.

    needs:  TOMORROWS DATE  +  which BAY list       the inputs: each part names one input the items take
    (1) fetch-jobs  <-  date, bay                   -> ## Step 1, `fetch-jobs`, Input: date, bay
          -> cars                                   an arrow line: the step's outputs
          give it 3 goes, 2 mins apart              any other line under the item: its rule, as written
    (2) for EACH car  ->  check-car  (reg, job)     the words before the skill lead the step; a bracket after it its inputs
    (3) SAME TIME as (2)  ->  text-all  <-  cars from (1)   starts with step 2: waits for what step 2 waits for
          drop off = 8:15                           `name = value` under an item: a literal of the step's skill's input
    (4) print-sheet  <-  order_no (3), texted       `x (3)` / `x from (3)`: step 3's output x

An item opens with `(n)` at the start of a line; its lines go on while they are indented past that `(`.
Along the item's line, the segments between `<-` / `->` (also `←`, `→`) are read around the one that opens
with the skill (a catalog skill; without a catalog a hyphenated name): after `<-` what it takes, after a
further `->` what it gives, before it the step's lead words. "Same time as (n)" in them makes the step
wait for what step n waits for. Under the item, `name = value` is a literal when the name (blanks as `_`)
is an input of the skill, or the value is quoted; else (`done = printed yes`) it is a rule line like the
others, which are kept as the step's text (one paragraph each, bracketed typist's notes `[...]` taken out,
warned; an arrow there before a skill, "if it's down -> other-skill instead", is ", use other-skill"). A `needs:` / `inputs:` line before the items names the workflow inputs: each part (cut at `+`,
`,`, `&`, "and") is the one name the items take that no item gives and that the part holds as a word.
Lines after the last item are the run's (its limits, its scribbles). Two items naming a skill with an
arrow make the shape; else the text is left as it is. Patterns anchored and bounded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.vocabulary import Vocabulary

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_ITEM = _rx(r"^([ \t]*+)\((\d{1,2}+)\)[ \t]++(\S.{0,300}+)$")
_ARROW = _rx(r"(?<![ \t])[ \t]*+(<-|->|←|→)[ \t]*+")
_NAME = _rx(r"^`?([A-Za-z][A-Za-z0-9_]*+(?:-[A-Za-z0-9_]++){0,6}+)`?")
_HYPHENATED = _rx(r"^[a-z][a-z0-9]*+(?:-[a-z0-9]++){1,6}+$")
_NEEDS = _rx(r"^[ \t]*+(?:needs|inputs?|you need|takes)[ \t]*+:[ \t]*+(\S.{0,300}+)$", re.IGNORECASE)
_NOTE = _rx(r"\[[^\[\]\n]{0,200}+\][ \t]*+")
_SAME = _rx(r"\b(?:same[ \t]++time[ \t]++as|together[ \t]++with|alongside)[ \t]++\((\d{1,2}+)\)", re.IGNORECASE)
_STEP_REF = _rx(r"\((\d{1,2}+)\)")
_FROM = _rx(r"^([A-Za-z_][A-Za-z0-9_]{0,40}+)[ \t]*+(?:\((\d{1,2}+)\)|from[ \t]++\(?(?:step[ \t]*+)?(\d{1,2}+)\)?)$",
            re.IGNORECASE)
_BARE = _rx(r"^`?([A-Za-z_][A-Za-z0-9_]{0,40}+)`?$")
_ASSIGN = _rx(r"^([A-Za-z][A-Za-z0-9_]{0,30}+(?:[ \t][A-Za-z][A-Za-z0-9_]{0,30}+){0,2}+)[ \t]*+=[ \t]*+"
              r"(\"[^\"\n]{0,200}+\"|'[^'\n]{0,200}+'|[^\s\"'(]{1,40}+)(?:[ \t]++\([^()\n]{0,200}+\))?+[ \t]*+$")
_PARTS = _rx(r"(?<![ \t])[ \t]*+(?:\+|,|&|\band\b)[ \t]*+", re.IGNORECASE)
_IF = _rx(r"^(?:if|when|unless)\b", re.IGNORECASE)
_WORD = _rx(r"[A-Za-z_][A-Za-z0-9_]*+")


@dataclass
class _Item:
    number: int
    at: int
    indent: int
    skill: str = ""
    lead: str = ""
    takes: list[str] = field(default_factory=list)
    gives: list[str] = field(default_factory=list)
    literals: list[tuple[str, str]] = field(default_factory=list)
    rules: list[tuple[int, str]] = field(default_factory=list)


def _skill(segment: str, vocabulary: Vocabulary) -> tuple[str, str] | None:
    """(skill, the rest of the segment) when the segment opens with a skill's name."""
    m = _NAME.match(segment.strip())
    if m is None:
        return None
    name = m.group(1)
    found = vocabulary.skill_for(name) if vocabulary.skills else (name if _HYPHENATED.match(name) else None)
    return (found, segment.strip()[m.end():].strip()) if found else None


def _names(text: str) -> list[str]:
    """The comma-separated parts of a list, brackets around the whole taken off."""
    text = text.strip()
    if text.startswith("(") and text.endswith(")") and _STEP_REF.fullmatch(text) is None:
        text = text[1:-1]
    return [p.strip() for p in text.split(",") if p.strip()]


def _head(item: _Item, text: str, vocabulary: Vocabulary) -> bool:
    """Read the item's own line: its lead, skill, what it takes and gives. False when no skill is named."""
    pieces = _ARROW.split(text)
    segments, arrows = pieces[0::2], pieces[1::2]
    for index, segment in enumerate(segments):
        found = _skill(segment, vocabulary)
        if found is None:
            continue
        item.skill, rest = found
        item.lead = " ".join(s.strip() for s in segments[:index] if s.strip())
        if rest:
            item.takes += _names(rest)
        for arrow, after in zip(arrows[index:], segments[index + 1:], strict=False):
            (item.takes if arrow in ("<-", "←") else item.gives).extend(_names(after))
        return True
    return False


def _literal(item: _Item, line: str, vocabulary: Vocabulary) -> bool:
    """A `name = value` line read as a literal of the item's skill's input; False when it is a rule."""
    m = _ASSIGN.match(line)
    if m is None:
        return False
    name = "_".join(m.group(1).split())
    value = m.group(2)
    inputs = vocabulary.inputs_of(item.skill) if vocabulary.skills else None
    quoted = value[0] in "\"'"
    if inputs is not None and name not in inputs and not (quoted and " " not in m.group(1)):
        return False
    if inputs is None and not quoted:
        return False
    item.literals.append((name, value if quoted else f'"{value}"'))
    return True


def _arrow_use(rule: str, vocabulary: Vocabulary) -> str:
    """A rule line's arrow before a skill ("if it is down -> other-skill instead") said in words: ", use other-skill"."""
    def use(m: re.Match[str]) -> str:
        found = _skill(m.string[m.end():], vocabulary)
        return ", use " if found is not None and m.group(1) in ("->", "→") else m.group(0)
    return _ARROW.sub(use, rule) if not rule.lstrip().startswith(("->", "→", "<-", "←")) else rule


def _input_line(item: _Item) -> str:
    parts: list[str] = []
    for taken in item.takes:
        taken = _NOTE.sub("", taken).strip()
        if (m := _FROM.match(taken)) is not None:
            parts.append(f"`{m.group(1)}` from step {m.group(2) or m.group(3)}")
        elif (b := _BARE.match(taken)) is not None:
            parts.append(f"`{b.group(1)}`")
    parts += [f"`{name}` = {value}" for name, value in item.literals]
    return ", ".join(parts)


def _needs(line: str, items: list[_Item]) -> list[tuple[str, str]]:
    """(input name, the part as written) of each part of a needs line naming one input the items take."""
    given = {g for item in items for g in (_names(x)[0] if _names(x) else "" for x in item.gives)}
    taken: list[str] = []
    for item in items:
        for t in item.takes:
            if (b := _BARE.match(_NOTE.sub("", t).strip())) is not None and b.group(1) not in given \
                    and b.group(1) not in taken:
                taken.append(b.group(1))
    out: list[tuple[str, str]] = []
    for part in (p.strip() for p in _PARTS.split(line) if p.strip()):
        words = {w.lower() for w in _WORD.findall(part)}
        names = [t for t in taken if t.lower() in words]
        if len(names) == 1:
            out.append((names[0], part))
    return out


def arrow_items_markdown(text: str, vocabulary: Vocabulary) -> tuple[str, list[int], list[tuple[int, str]]] | None:
    """(markdown, origin, warnings) of a text of `(n)` items in arrow notation (module docstring), or None."""
    lines = text.split("\n")
    items: list[_Item] = []
    for at, line in enumerate(lines):
        m = _ITEM.match(line)
        if m is None:
            continue
        item = _Item(int(m.group(2)), at, len(m.group(1).expandtabs()))
        if _ARROW.search(line) is not None and _head(item, _NOTE.sub("", m.group(3)), vocabulary):
            items.append(item)
    if len(items) < 2:
        return None
    warnings: list[tuple[int, str]] = []
    ends: list[int] = []
    for index, item in enumerate(items):
        stop = items[index + 1].at if index + 1 < len(items) else len(lines)
        at = item.at + 1
        while at < stop:
            raw = lines[at]
            if raw.strip() and len(raw) - len(raw.lstrip()) <= item.indent:
                break
            line = raw.strip()
            if line:
                cleaned = _NOTE.sub("", line).strip()
                if cleaned != line:
                    warnings.append((at + 1, f"item ({item.number}): the bracketed note(s) "
                                             + ", ".join(f"'{n.strip()}'" for n in _NOTE.findall(line))
                                             + " read as the typist's, not the step's"))
                arrow = _ARROW.match(" " + cleaned) if cleaned[:2] in ("->", "<-") or cleaned[:1] in "→←" else None
                if not cleaned:
                    pass
                elif arrow is not None:
                    rest = cleaned[arrow.end() - 1:]
                    (item.takes if arrow.group(1) in ("<-", "←") else item.gives).extend(_names(rest))
                elif not _literal(item, cleaned, vocabulary):
                    item.rules.append((at, _arrow_use(cleaned, vocabulary)))
            at += 1
        ends.append(at)
    steps = {item.number: n for n, item in enumerate(items, 1)}
    deps: dict[int, list[int]] = {}
    for n, item in enumerate(items, 1):
        refs = [steps[int(r)] for t in item.takes for r in _STEP_REF.findall(t) if int(r) in steps]
        deps[n] = sorted(set(refs)) if refs else ([n - 1] if n > 1 else [])
    out: list[str] = []
    origin: list[int] = []

    def put(text_: str, at_: int) -> None:
        out.append(text_)
        origin.append(at_)

    needs = next(((at, m.group(1)) for at in range(items[0].at) if (m := _NEEDS.match(lines[at]))), None)
    needed = _needs(needs[1], items) if needs is not None else []
    for at in range(items[0].at):
        if needs is not None and at == needs[0] and needed:
            put("## Inputs", at)
            put("", at)
            for name, part in needed:
                put(f"- `{name}`: {part}", at)
            put("", at)
            continue
        put(lines[at], at)
    put("## Steps", items[0].at)
    put("", items[0].at)
    for n, item in enumerate(items, 1):
        put(f"### Step {n}: {item.skill}", item.at)
        put("", item.at)
        put(f"- Skill: `{item.skill}`", item.at)
        same = _SAME.search(item.lead)
        if same is not None and int(same.group(1)) in steps:
            with_ = steps[int(same.group(1))]
            refs = [steps[int(r)] for t in item.takes for r in _STEP_REF.findall(t) if int(r) in steps]
            deps[n] = sorted(set(deps[with_]) | set(refs))
            put(f"- Depends on: {', '.join(f'step {d}' for d in deps[n]) if deps[n] else 'none'}", item.at)
            warnings.append((item.at + 1, f"item ({item.number}): '{same.group(0)}' read as starting with step "
                                          f"{with_}: it waits for what step {with_} waits for"))
        if (inputs := _input_line(item)):
            put(f"- Input: {inputs}", item.at)
        if item.gives:
            put("- Output: " + ", ".join(f"`{g}`" for g in item.gives), item.at)
        put("", item.at)
        lead = _SAME.sub("", item.lead).strip(" -,") if same is not None else item.lead
        if lead:
            put(_STEP_REF.sub(r"step \1", lead), item.at)
            put("", item.at)
        for at, rule in item.rules:
            # a rule opening with "if" is no condition of the step (its lead says when it runs): a note
            put(("- Note: " if _IF.match(rule) else "") + _STEP_REF.sub(r"step \1", rule), at)
            put("", at)
        put("", item.at)
        for at in range(ends[n - 1], items[n].at if n < len(items) else ends[n - 1]):
            put(lines[at], at)
    last = ends[-1]
    warnings.insert(0, (items[0].at + 1, f"the {len(items)} numbered items in arrow notation read as the steps "
                                         "(`<-` what each takes, `->` what it gives)"))
    for at in range(last, len(lines)):
        put(lines[at], at)
    return "\n".join(out), origin, warnings


_rx.save()
