"""A fan-out said in words the spec reader left unread: "per country", "each PR", "one by one".

The spec reader reads a fan-out from the forms it knows ("for each doc in documents", "once per
element of ``rows`` from stage 1"). Many more say the same thing in other words: "`review-pr`
per PR", "applied to each of the rows, one at a time", "Each respondent row will be scored
independently", "for every country on that list", "one job per PR", "multi-instance (parallel)".
A person reads them by meaning: the step's skill takes one thing (`pr`) that nothing before gives,
and a step before it gives a list of those things (`prs`). This reader does the same, for a
markdown step that has no `For each` and whose text says one of the words of `_CUES`:

- the step's *free* inputs are the inputs its skill reads that no step before it outputs, that
  are no declared workflow input and that the step's text gives no value or source;
- the lists are the array fields of the outputs of the steps before it, the nearest step first;
- a list and a free input go together when the input is the list's singular (`pr` and `prs`,
  `country` and `countries`), or, when the step has one free input, when the word the text
  counts ("per **country**", "each of the **rows**") is the list's name or its singular.

The nearest step that gives such a pair, and gives only one, is the loop: the step becomes a
`For each: pr in steps.step-1.output.prs`, its free input taking each item, with a warning at the
line that says how it was read and how to write it, and the rule in the plan's `for_each`
provenance. When the words are there but no pair is found (no step before gives a list, or
several fit), the step runs once and a warning at the line says what was not read and what to
write. Words that say nothing about items ("each attempt", "per second", "in parallel with step
1", "independently of the snapshot") are not cues. The YAML readers own their keys: YAML steps
are left as they are.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

from orchestrator.errors import Diagnostic
from orchestrator.kinds import BoundSkill
from orchestrator.plan.author_inputs24 import input_list_pairs
from orchestrator.plan.contract import OutputContract
from orchestrator.plan.fan_arrow55 import EACH_ARROW
from orchestrator.plan.fan_gather import blank_start_together, singular
from orchestrator.plan.fan_items import counted_names, holds, item_field_pairs, said_pairs
from orchestrator.plan.fan_made import Made
from orchestrator.plan.gather_said import gather_over_loop, gather_warning
from orchestrator.plan.item_fields45 import item_field_input_pairs
from orchestrator.plan.literal_shape28 import outside_lists
from orchestrator.plan.location import split_where, warning_at
from orchestrator.plan.loop_field import array_fields
from orchestrator.plan.mapping import SAYS_EVERY
from orchestrator.plan.schema import properties_of, required_of
from orchestrator.plan.steps34c import start_from_shape
from orchestrator.plan.wanted import Instructions
from orchestrator.spec.markup37 import named as symbol_input
from orchestrator.spec.markup_words import unmarked_lines
from orchestrator.spec.model import StepSpec, WorkflowSpec
from orchestrator.spec.one_by_one import CUES as ONE_BY_ONE
from orchestrator.spec.policy_notation24 import once_only_before
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.shape_comment import ends_span, gutter_indent

_rx = Patterns(__name__)

_WORD = r"[A-Za-z_][\w-]*+"
# the words that say a step runs once per item; `noun`: the thing counted, when the words name it
_CUES = [
    # "on each PR", "for every country", "to every single one of the cleaned items", "against each host"
    _rx(rf"(?i)(?<![\w-])(?:for|on|to|over|with|against|at|through|across)\s++(?:each|every)\s++(?:single\s++)?"
        rf"(?:one\s++of\s++(?:the\s++|those\s++|these\s++)?)?(?!of(?![\w-]))`?(?P<noun>{_WORD}(?:\s++{_WORD})?)"),
    # "each of the rows", "every one of those PRs"
    _rx(rf"(?i)(?<![\w-])(?:each|every)\s++(?:single\s++)?(?:one\s++)?of\s++(?:the\s++|those\s++|these\s++|its\s++)?"
        rf"`?(?P<noun>{_WORD}(?:\s++{_WORD})?)"),
    # "per country", "one job per PR", "once per file"
    _rx(rf"(?i)(?<![\w-])per\s++`?(?P<noun>{_WORD})"),
    # "Each respondent row will be scored", "every PR gets a blurb"
    _rx(rf"(?i)(?<![\w-])(?:each|every)\s++`?(?P<noun>{_WORD}(?:\s++{_WORD})?)`?\s++(?:is|are|will|gets?|goes|must|"
        r"should|has|runs?|needs?|can)(?![\w-])"),
    # "every country on that list", "each hire in the `intake` batch"
    _rx(rf"(?i)(?<![\w-])(?:each|every)\s++`?(?P<noun>{_WORD})`?\s++(?:on|in|of|from)\s++(?:that|the|this|those|these)"
        r"\s++(?:`?[A-Za-z_]\w*+`?\s++)?(?:list|set|batch|lot|array|table)(?![\w-])"),
    # "loop over the PRs", "go through the countries", "map `x` over the rows"
    _rx(rf"(?i)(?<![\w-])(?:(?:loop|iterate|go|walk|cycle|step)(?:s|ed|ing)?\s++(?:over|through)|map(?:s|ped|ping)?"
        rf"\s++\S++\s++over)\s++(?:the\s++|all\s++(?:the\s++)?|each\s++of\s++the\s++)?`?(?P<noun>{_WORD})"),
    # "row by row", "country by country"
    _rx(r"(?i)(?<![\w-])(?P<noun>[a-z]{2,}+)\s++by\s++(?P=noun)(?![\w-])"),
    # words that count nothing: "one by one", "one at a time", "fan them out", "multi-instance", "every one"
    _rx(r"(?i)(?<![\w-])(?:one\s++(?:by|after)\s++(?:one|the\s++other)|one\s++at\s++a\s++time|(?:each|every)\s++one"
        r"(?!\s++of(?![\w-]))|fan(?:ned|s|ning)?"
        r"\s++(?:\w++\s++)?out|multi-instance|in\s++parallel(?!\s++(?:with|to|alongside|as)(?![\w-]))|"
        r"independently(?!\s++(?:of|from)(?![\w-])))"),
    EACH_ARROW,  # "EACH order ---> scale-recipe": the arrow hands each order on (`plan.fan_arrow55`)
    *ONE_BY_ONE,  # "one after another", "each in turn", "a folder at a time" (`spec.one_by_one`)
]
# a loop header of pseudo-code right above the step's own line: `\ForAll{$row \in rows$}`,
# `for row in rows:`, `foreach ($rows as $row)`: its list is the thing counted
_HEADER = _rx(r"(?i)^\s*+(?:\\(?:ForAll|ForEach|For)\s*+\{\$?\s*+(?P<var>\w++)\s*+(?:\\in|in|∈)\s*+\\?(?:\w++\{)?"
              r"(?P<noun>\w++)|for\s++(?:each\s++)?(?P<pyvar>\w++)\s++in\s++(?P<list>\w++)\s*+:?\s*+$"
              r"|foreach\s*+\(\s*+\$?(?P<php>\w++)\s++as\s++\$?(?P<phpvar>\w++))")
_HEADING = _rx(r"^(#{1,6})\s")
_UNDERLINE = _rx(r"^(?:={3,}+|-{3,}+)$")
# "once every market is converted", "when each file is done": a wait for all, not a fan-out
_WAIT = _rx(r"(?i)(?<![\w-])(?:once|when|after|until|till|before|soon\s++as)\s*+$")
# "... in `prs`", "... of `top`": the list the words name, right after them
_NAMED_LIST = _rx(r"(?i)[^.;:`]{0,40}?(?<![\w-])(?:in|of|from)\s++`(?P<list>[A-Za-z_]\w*+)`")
# "every pet on the due list", "each row in the `cleaned` table": the list named by a bare word
# before a word for a list, right after the words (the word alone is too loose: "in the morning")
_WORD_LIST = _rx(r"(?i)[^.;:`]{0,40}?(?<![\w-])(?:in|on|of|from)\s++(?:(?:the|that|this|those|these|its|our|your|my)"
                 r"\s++)?`?(?P<list>[A-Za-z_]\w*+)`?\s++(?:list|set|batch|lot|array|table|queue)s?+(?![\w-])")
# what "each"/"per" counts when it is not items: attempts, time, the run itself
_FROM_STEP = _rx(r"(?i)`?[ \t]{1,20}+(?:from|of|out[ \t]{1,5}+of)[ \t]{1,20}+(?:step[ \t]{0,5}+)?+\d{1,3}+(?!\w|\.\d)")
_NOT_ITEMS = frozenset((
    "attempt", "attempts", "try", "tries", "retry", "retries", "failure", "failures", "error", "errors", "call",
    "calls", "request", "requests", "second", "seconds", "sec", "minute", "minutes", "min", "hour", "hours", "day",
    "days", "week", "weeks", "month", "time", "times", "run", "runs", "other", "cent", "step", "steps", "stage",
    "stages", "one", "of", "the", "a", "an", "it", "them", "this", "that", "those", "these", "item", "items", "page",
))


@dataclass(frozen=True)
class _Cue:
    line: int
    said: str
    nouns: tuple[str, ...]  # the thing counted, lower case (empty: the words count nothing)
    listed: str | None = None  # the list named right after ("for every PR in `prs`")
    var: str | None = None  # a loop header's variable (`r` of `\ForAll{$r \in R$}`)


def _level(lines: list[str], number: int) -> int:
    """The heading level of line `number` (1-based): `## x`, or a text line over `===`/`---`."""
    m = _HEADING.match(lines[number - 1])
    if m:
        return len(m.group(1))
    below = lines[number].strip() if number < len(lines) else ""
    if lines[number - 1].strip() and _UNDERLINE.match(below):
        return 1 if below[0] == "=" else 2
    return 0


def _spans(spec: WorkflowSpec, lines: list[str]) -> dict[str, tuple[int, int]]:
    """Each step's lines: from its own line to the line before the next step's or the next
    heading of its level or above (a table row, or a step starting at the line of the one
    before: its own line only)."""
    count = len(lines)
    starts = sorted((split_where(s.where, spec.path)[1] or 0, s.id) for s in spec.steps)
    out: dict[str, tuple[int, int]] = {}
    for i, (line, sid) in enumerate(starts):
        if 0 < line <= count:
            last = next((n for n, _ in starts[i + 1:] if n > line), count + 1) - 1
            level = _level(lines, line) or 7
            indent = gutter_indent(lines[line - 1])  # "Success:", "Change History", "Step 50": not its text
            last = next((n - 1 for n in range(line + 1, last + 1) if 0 < _level(lines, n) <= level
                         or ends_span(lines[n - 1], indent)), last)
            # the second of two steps one sentence starts (`spec.pair_sentence`): its own line only
            out[sid] = (line, line) if i and starts[i - 1][0] == line else (line, last)
    return out


def _lines(lines: list[str], span: tuple[int, int]) -> Iterator[tuple[int, str]]:
    first, last = span
    if lines[first - 1].lstrip().startswith("|"):
        last = first
    fenced = False
    for number in range(first, last + 1):
        text = lines[number - 1]
        if text.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced:
            yield number, text


def _cue(text: list[tuple[int, str]]) -> _Cue | None:
    body = [i for i, (_, words) in enumerate(text) if words.strip()]
    for index, (line, words) in enumerate(text):
        # a loop header with its body after it in the step's lines (the last line is the next step's header)
        if body and index < body[-1] and (header := _header_at(line, words)) is not None:
            return header
        for pattern in _CUES:
            for m in pattern.finditer(words):
                if m.group(0)[:1].lower() == "e" and _WAIT.search(words[max(0, m.start() - 12):m.start()]):
                    continue
                if m.group(0)[:3].lower() == "per" and once_only_before(words, m.start()):
                    continue  # "Only run it once per wave": a limit (`spec.policy_notation24`)
                noun = m.groupdict().get("noun")
                said = (noun or "").lower().replace("`", "").split()
                nouns = tuple(w for w in said if w not in _NOT_ITEMS)
                if noun is not None and said and said[0] in ("item", "items") \
                        and _FROM_STEP.match(words, m.start("noun") + len(m.group("noun").split()[0])):
                    nouns = (said[0],)  # "once per item from 1": the items of that step
                elif noun is not None and (not nouns or said[0] in _NOT_ITEMS):
                    continue  # "each attempt", "per second", "on each other": not items
                start = m.start("noun") if noun is not None else m.end()
                named = _NAMED_LIST.match(words, start) or _WORD_LIST.match(words, start)
                return _Cue(line, m.group(0).strip(), nouns, named.group("list") if named else None)
    return None


def _reads(skill: BoundSkill, said: Instructions | None) -> tuple[list[str], set[str]]:
    """The names the skill reads and the required ones: its input schema's, else its instructions'."""
    if properties_of(skill.input_schema):
        return list(properties_of(skill.input_schema)), set(required_of(skill.input_schema))
    named = said.inputs if said is not None else ()
    return [n.name for n in named], {n.name for n in named if not n.optional}


def _header(lines: list[str], first: int) -> _Cue | None:
    """The loop header right above line `first` (blank lines between), as a cue."""
    number = first - 1
    while number > 0 and not lines[number - 1].strip():
        number -= 1
    return _header_at(number, lines[number - 1]) if number > 0 else None


def _header_at(line: int, words: str) -> _Cue | None:
    m = _HEADER.match(words)
    if m is None:
        return None
    noun = (m.group("noun") or m.group("list") or m.group("php")).lower()
    return _Cue(line, words.strip(), (noun,), m.group("noun") or m.group("list") or m.group("php"),
                m.group("var") or m.group("pyvar") or m.group("phpvar"))


def _symbol_list(cue: _Cue, spec: WorkflowSpec, made: Made) -> _Cue:
    """A loop header's list written as the symbol an input line names (`\\ForAll{$r \\in R$}` under
    `\\Require runs $R$`, `spec.markup37`): the loop over that workflow input."""
    listed = cue.listed or ""
    inputs = frozenset(i.name for i in (*spec.inputs, *spec.inputs_said))
    if not listed or listed in inputs or listed in made.fields:
        return cue
    name = symbol_input(spec.text or "", listed, inputs)
    return cue if name is None else replace(cue, nouns=(name.lower(),), listed=name)


def _free_inputs(step: StepSpec, reads: tuple[list[str], set[str]], made: Made, spec: WorkflowSpec) -> list[str]:
    """The inputs the skill reads that no step before outputs (`made`), no declared input is, and
    the step's text gives no value or source (module docstring), the required ones first."""
    given = {i.name for i in (*spec.inputs, *spec.inputs_said)} | set(step.input_values) \
        | {f.name for f in step.inputs if f.source}
    names, required = reads
    names = [n for n in names if n not in given and n not in made.fields]
    return sorted(names, key=lambda n: n not in required)


def _pairs(cue: _Cue, free: list[str], made: Made, outputs: Mapping[str, OutputContract], by_noun: bool
           ) -> list[tuple[str, str, str]]:
    """(producer, list field, item input) at the nearest step before that gives any. `by_noun`:
    the list the words count may go to the step's one free input (the words are on a line that
    names its skill)."""
    nouns = cue.nouns if by_noun and len(free) == 1 and singular(free[0]) == free[0].lower() else ()
    sid = made.nearest_list(free, nouns)
    if sid is None:
        return _named_pairs(cue, free, made)
    found: list[tuple[str, str, str]] = []
    for field in array_fields(outputs[sid].schema_):
        one = singular(field)
        for name in free:
            single = singular(name) == name.lower()  # `feeds` is a list itself, not one item of one
            if one == name.lower() or (by_noun and len(free) == 1 and single and cue.nouns and
                                       any(n in (field.lower(), one) or singular(n) == one for n in cue.nouns)):
                found.append((sid, field, name))
    return found or _named_pairs(cue, free, made)


def _named_pairs(cue: _Cue, free: list[str], made: Made) -> list[tuple[str, str, str]]:
    """The list the words name (`prs` in "for every PR in `prs`", `top` in "each of those top 3")
    when it is an output field of a step before that is no other type than an array; its items'
    fields are then what the skill reads. The loop's item is named after the list's singular."""
    # by the list's singular only for a step whose skill reads something nothing gives (its item's fields)
    named = made.nearest_named(counted_names(cue.listed, cue.nouns), by_singular=bool(free))
    if named is not None:
        sid, field = named
        one = singular(field)
        counted = (n for n in free if any(singular(w) == n.lower() for w in cue.nouns))  # "every pet" and `pet`
        return [(sid, field, next((n for n in free if n.lower() == one), None) or next(counted, None)
                 or (one if one != field.lower() else "item"))]
    if cue.listed and cue.listed not in made.fields and singular(cue.listed) != cue.listed.lower():
        one = singular(cue.listed)  # "for every PR in `prs`", no step makes `prs`: the workflow's list
        return [("", cue.listed, next((n for n in free if n.lower() == one), one))]
    return item_field_pairs(free, made)


def _listed(lists: list[str], shown: int = 8) -> str:
    """The lists the steps before give, the nearest first, the first `shown` of them."""
    near = ", ".join(reversed(lists[-shown:]))
    return near if len(lists) <= shown else f"{near} and {len(lists) - shown} more"


def _why(item: str, free: list[str]) -> str:
    if item in free:
        return f" (its skill reads `{item}` and no step before gives it)"
    return f" (its skill reads {', '.join(f'`{n}`' for n in free)}, the item's fields)" if free else ""


def _of_item(free: list[str], fields: frozenset[str]) -> list[str]:
    """The free inputs the items declare as fields, or all of them when the items declare none."""
    return ([n for n in free if n.lower() in fields] or free) if fields else free


def _item(free: list[str], cue: _Cue) -> str | None:
    """The item a fan-out whose list was not found would give: the free input the words count
    ("per PR" and `pr`), or the one free input of words that count nothing ("one by one"); None
    when no free input is one item (then nothing says the step misses its items)."""
    items = [n for n in free if singular(n) == n.lower()]
    if cue.var:  # a loop written as code always loops over items
        return next((n for n in items if n == cue.var), cue.var)
    if cue.nouns:
        return next((n for n in items if any(singular(w) == n.lower() for w in cue.nouns)), None)
    return items[0] if len(items) == 1 else None


def _gather_unread(step: StepSpec, text: list[tuple[int, str]], free: list[str], path: str) -> list[Diagnostic]:
    """A warning at the line where a step with no loop before it says it gathers ("all the
    blurbs", "consolidated") and its skill reads a list (a plural name) nothing gives."""
    lists = [n for n in free if singular(n) != n.lower()]
    # the lines as one text, so "kick\n both off together" is read across the break (`blank_start_together`)
    joined = blank_start_together("\n".join(words.replace("\n", " ") for _, words in text)).split("\n")
    said = next(((line, m.group(0)) for (line, _), words in zip(text, joined if text else [], strict=True)
                 for m in [SAYS_EVERY.search(words)] if m), None)
    if not lists or said is None:
        return []
    name = lists[0]
    return [warning_at(f"{path}:{said[0]}", path,
                       f"{step.id} ({step.name}): the text says `{said[1].strip()}`, the results of a step run once "
                       f"per item, but no step before it runs per item, so nothing gives `{name}`: give the step "
                       f"that makes each result a `For each: <item> in <list>`, or write where `{name}` comes from "
                       f"(`{name} (from Step N)`, or an Inputs section)", "spec.gather-not-read")]


def _made(made: Made, step: StepSpec, text: list[tuple[int, str]], skill: BoundSkill | None,
          instructions: Mapping[str, Instructions], outputs: Mapping[str, OutputContract], loops: set[str]) -> None:
    """`step` read: what it outputs is made from here on, and what its lists hold by their words."""
    looping = step.id in loops or step.for_each is not None  # a loop read from words here too
    made.add(step.id, outputs[step.id].schema_, loop=looping)
    if not looping:
        made.add_said(step.id, holds(" ".join(w for _, w in text), skill, instructions.get(skill.name) if skill else None,
                                      outputs[step.id].schema_))


def read_fan_outs(spec: WorkflowSpec, outputs: Mapping[str, OutputContract], bound: Mapping[str, BoundSkill],
                  instructions: Mapping[str, Instructions]) -> tuple[WorkflowSpec, dict[str, str], list[Diagnostic]]:
    """The spec with each fan-out said in words read as its step's `For each`, the rule that
    read each (step id -> provenance note), and a warning per cue read or not read."""
    if spec.format != "markdown" or not spec.text:
        return spec, {}, []
    lines = unmarked_lines(spec.text.splitlines())  # 'For **each** crate': the words as plain
    spans = _spans(spec, lines)
    notes: dict[str, str] = {}
    found: list[Diagnostic] = []
    steps: list[StepSpec] = []
    made = Made()  # what the steps before make, kept as the steps go (linear)
    loops = {s.id for s in spec.steps if s.for_each is not None}
    looped = False  # a step before runs per item
    last_loop: str | None = None  # the nearest step before that runs per item
    outside: list[tuple[str, str]] = []  # what the skills of the steps before read, with what they say of it
    for step in spec.steps:
        skill = bound.get(step.id)
        text = list(_lines(lines, spans[step.id])) if step.id in spans else []
        if steps and skill is not None and steps[-1].id in bound:
            before = bound[steps[-1].id]
            said_before = instructions.get(before.name)
            outside += [(n.name, n.about) for n in (said_before.inputs if said_before else ())]
        cue = (_cue(text) or _header(lines, spans[step.id][0])) if (
            step.for_each is None and skill is not None and text) else None
        cue = _symbol_list(cue, spec, made) if cue is not None and cue.var else cue
        if cue is None or skill is None:
            if skill is not None and steps and step.for_each is None and not looped:
                free = _free_inputs(step, _reads(skill, instructions.get(skill.name)), made, spec)
                found += _gather_unread(step, text, free, spec.path)
            steps.append(step)
            _made(made, step, text, skill, instructions, outputs, loops)
            looped = looped or step.for_each is not None
            last_loop = step.id if step.for_each is not None else last_loop
            continue
        where = f"{spec.path}:{cue.line}"
        label = f"{step.id} ({step.name})"
        free = _free_inputs(step, _reads(skill, instructions.get(skill.name)), made, spec)
        named = re.search(rf"(?<![\w-]){re.escape(skill.name)}(?![\w-])", lines[cue.line - 1]) is not None
        pairs = _pairs(cue, free, made, outputs, named)
        said_list = ""
        if not pairs and (pairs := said_pairs(cue.nouns, free, made)):
            said_list = f"; the words of {pairs[0][0]} say `{pairs[0][1]}` holds {pairs[0][2]}s" if len(pairs) == 1 else ""
        if not pairs:  # "one go per field on the list", `fields` a workflow input (`plan.author_inputs24`);
            whole = set(_reads(skill, instructions.get(skill.name))[0])  # not a list its skill takes whole
            pairs = input_list_pairs(cue.nouns, free, [i for i in spec.inputs if i.name not in whole]) \
                or item_field_input_pairs(cue.nouns, free, [i for i in (*spec.inputs, *spec.inputs_said)
                                                            if i.name not in whole],
                                          " ".join(w for _, w in text))  # its fields the text names (`item_fields45`)
        derived = [] if spec.inputs or pairs else outside_lists(outside, made.fields)  # `literal_shape28`
        if derived and (pairs := input_list_pairs(cue.nouns, free, derived)):
            pass  # "for each Object": the list the first step's skill reads from outside the run
        declared = {i.name for i in (*spec.inputs, *spec.inputs_said, *derived)}
        gather = (gather_over_loop(" ".join(w for _, w in text), free, pairs[0][1],
                                   properties_of(outputs[pairs[0][0]].schema_).get(pairs[0][1]))
                  if len(pairs) == 1 and pairs[0][0] in outputs else None)
        if gather is not None:  # "every reminder ..., all together" and "counts per channel": no loop over `channel`
            found.append(gather_warning(where, spec.path, label, cue.said, gather, pairs[0][0], pairs[0][1], free,
                                        last_loop))
        elif len(pairs) == 1 and not pairs[0][0] and pairs[0][1] not in declared:
            found.append(warning_at(where, spec.path,
                                    f"{label}: the text says `{cue.said}` `{pairs[0][1]}`, a For each over "
                                    f"`{pairs[0][1]}`, but no step makes it and it is no declared workflow input, "
                                    f"so the step runs once: declare `{pairs[0][1]}` in an Inputs section "
                                    f"(`- {pairs[0][1]}: ...`) and write `For each: {pairs[0][2]} in {pairs[0][1]}`",
                                    "spec.each-not-read"))
        elif len(pairs) == 1:
            producer, field, item = pairs[0]
            whose = f"{producer}'s `{field}`" if producer else f"the workflow input `{field}`"
            written = f"{producer}.{field}" if producer else field
            notes[step.id] = f"the text says `{cue.said}`; each item of {whose} as `{item}`"
            found.append(warning_at(where, spec.path,
                                    f"{label}: the text says `{cue.said}`: read as a For each over {whose}, each "
                                    f"item as `{item}`{_why(item, _of_item(free, made.item_fields(producer, field)))}{said_list}. To say so write `For each: {item} in "
                                    f"{written}`", "fan-out-read"))
            update: dict[str, object] = {"for_each": f"{item} in steps.{producer}.output.{field}" if producer
                                         else f"{item} in {field}",
                                         "field_where": {**step.field_where, "for_each": where}}
            if not step.depends_on and not start_from_shape(step):  # "they don't depend on each other": the
                # items; the list is the producer's (a root read from the list's shape stays: `plan.steps34c`)
                update.update(depends_where=None, unordered_where=None)
            step = step.model_copy(update=update)
        elif pairs or _item(free, cue) is not None:
            counted = pairs[0][2] if pairs else _item(free, cue)
            if pairs:
                why = "several lists fit (" + ", ".join(f"{p}.{f} as `{n}`" for p, f, n in pairs) + ")"
            elif made.lists:
                why = f"no list before it is one of `{counted}`s (the steps before give {_listed(made.lists)})"
            else:
                why = "no step before it gives a list"
            found.append(warning_at(where, spec.path,
                                    f"{label}: the text says `{cue.said}`, a step run once per item, but the list "
                                    f"is not read: {why}; the step runs once. Write `For each: {counted} in <list>`, "
                                    "the list being a workflow input or an earlier step's output field "
                                    "(`step-N.field`)", "spec.each-not-read"))
        steps.append(step)
        _made(made, step, text, skill, instructions, outputs, loops)
        looped = looped or step.for_each is not None
        last_loop = step.id if step.for_each is not None else last_loop
    if not notes:
        return spec, notes, found
    return spec.model_copy(update={"steps": steps}), notes, found


_rx.save()
