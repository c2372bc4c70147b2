"""The run's success check said in words about one step's outputs, and a card's "X COMPLETE WHEN:" label.

People end a document with what they would see when the run is done, in the words of the thing that
did it, naming its outputs as words among others:

    We're finished when ④ has handed back a certificate number and a premium above zero.
    good_if: "raise_wo gave back a wo_number"
    The procedure is complete when curator-report returns status "filed" and a report ID beginning GR-.
    DONE = feed shows status scheduled for the right guid.
    DONE = OVEN LOADS says fits (last tray out by half six).      (a row's name, then its yes/no output: fits == true)
    CARD COMPLETE WHEN: tech log status entered (SERVICEABLE or U/S - AWAITING PARTS).

The step is the one the clause names (its id, its skill, its number, a word of its name only it has),
else the step whose outputs the clause names most (the last of them, the run's end). Each part of the
clause (split at "and", ",", ";") is read by the output names it holds ("report ID" is `report_id`,
"certificate number" the `certificate`) and what follows each:

- nothing, or "entered" / "given" / "set" / "present" / "recorded": that output is not empty;
- said after "zero" / "no" ("zero blocked packages", "no open defects"): empty, or 0;
- "above zero", "over 3", "at least 2", "below 10", "at most 5": a bound on the number;
- "beginning GR-", "starting with INV-": a prefix;
- `"filed"`, `is "PASS"`, `true`, an upper-case word, or one bare word ("status scheduled"): that value;
- "(SERVICEABLE or U/S - AWAITING PARTS)": one of the values in the parentheses.

An output said as "the right guid" / "the expected total" compares with a value the spec does not
write: that part is warned at the line as not checked, as is a part that names no output of the step.
Every part read is a guess from words, so the line is warned with what was read and what to write.

`titled_cue` reads a label of being done that a card or a form puts before the check: "CARD COMPLETE
WHEN: ...", "Job done once: ...", "Form is finished when: ..." (the colon makes it a label; "mark the
job complete when the customer signs" in a step's text is that step's words, not a check).
"""

from __future__ import annotations

import re
from typing import Any

from orchestrator.spec.elsewhere import keys_of, named_step
from orchestrator.spec.legal_prose29 import UNIT_TAILS, done_aux
from orchestrator.spec.model import ContractSpec, Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.sheet_cells27 import said_flag
from orchestrator.spec.source import Source
from orchestrator.spec.success import check_schema
from orchestrator.spec.success_article55 import had_noun
from orchestrator.spec.whole_doc import Said
from orchestrator.spec.whole_success import CODE, outputs_of

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "CARD COMPLETE WHEN: ...", "Job done once: ...", "The form is finished when: ..."
_TITLED = _rx(r"(?i)^\W{0,4}+(?:the\s++)?(?P<subject>[A-Za-z][\w/-]{0,30}+(?:\s++[A-Za-z][\w/-]{0,30}+){0,3}?)\s++"
              r"(?:is\s++|are\s++)?(?:complete|completed|done|finished)\s++(?:when|once|if)\s*+:\s*+(?P<clause>\S.*)$")
# a subject that makes the label about a retry, a wait or an approval, not the run
_NOT_RUN = _rx(r"(?i)(?<![\w-])(?:retry|retries|attempts?|timeout|wait(?:ing)?|approv\w*+|sign-?off|step|task)(?![\w-])")
_PARTS = _rx(r"(?i)(?<!\s)\s++and\s++(?:also\s++)?|(?<!\s)\s*+[,;]\s*+(?:and\s++)?")
_TOKEN = _rx(r"[A-Za-z0-9][\w/-]{0,60}+")
_QUOTED = _rx(r"^[\s:=]{0,3}+(?:(?:is|of|as|=|==|:|equals|reads|says|shows)\s++)?[\"“'`](?P<value>[^\"”'`]{1,60}+)[\"”'`]")
_OPTIONS = _rx(r"\((?P<options>[^()]{1,120}+)\)")
_OR = _rx(r"(?i)(?<!\s)\s*+,\s*+(?:or\s++)?|(?<!\s)\s++or\s++")
_BOUND = _rx(r"(?i)^\W{0,3}+(?:is\s++|of\s++)?(?P<op>above|over|greater\s++than|more\s++than|higher\s++than|>=|>|at\s++least|"
             r"no\s++less\s++than|exceeds?|exceeding|is\s++in\s++excess\s++of|in\s++excess\s++of|below|under|less\s++than|lower\s++than|<=|<|at\s++most|no\s++more\s++than)\s*+"
             r"(?P<n>-?\d{1,12}+(?:\.\d{1,9}+)?+|zero|one|two|three|four|five|six|seven|eight|nine|ten)(?![\w-])")
_PREFIX = _rx(r"(?i)^\W{0,3}+(?:that\s++)?(?:begin(?:ning|s)?|start(?:ing|s)?|prefixed)\s++(?:with\s++|by\s++)?[\"“'`]?(?P<prefix>[\w-]{1,40}+)")
_LITERAL = _rx(r"^\W{0,3}+(?i:(?:is|=|==|:|equals|reads|says|shows|as)\s++)?(?P<value>(?i:true|false|yes|no)|-?\d{1,12}+(?:\.\d{1,9}+)?+|"
               r"[A-Z][A-Z0-9_/-]{1,40}+)(?![\w-])")
_BARE = _rx(r"(?i)^\W{0,3}+(?P<value>[a-z][a-z_-]{1,40}+)(?:\s++(?:for|on|in|at|to|from|by|with|of)(?![\w-])|\s*+$)")
_NOT_EMPTY = frozenset({"entered", "given", "set", "present", "filled", "recorded", "there", "returned", "logged",
                        "written", "issued", "assigned", "back"})
_QUALIFIER = frozenset({"right", "correct", "expected", "proper", "matching", "same", "valid", "intended"})
_TAIL_WORDS = frozenset({"number", "no", "num", "nr", "id", "ref", "code", "value", "field"})
_SHORT = {"no": "number", "num": "number", "nr": "number", "ref": "reference", "qty": "quantity", "pct": "percent"}
_WORD_NUMBERS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                 "nine": 9, "ten": 10}
_OPS = {"above": "exclusiveMinimum", "over": "exclusiveMinimum", "greater than": "exclusiveMinimum",
        "more than": "exclusiveMinimum", "exceeds": "exclusiveMinimum", "exceed": "exclusiveMinimum",
        "exceeding": "exclusiveMinimum", "is in excess of": "exclusiveMinimum", "in excess of": "exclusiveMinimum", "higher than": "exclusiveMinimum", ">": "exclusiveMinimum",
        ">=": "minimum", "at least": "minimum", "no less than": "minimum", "below": "exclusiveMaximum",
        "under": "exclusiveMaximum", "less than": "exclusiveMaximum", "lower than": "exclusiveMaximum",
        "<": "exclusiveMaximum", "<=": "maximum", "at most": "maximum", "no more than": "maximum"}
_SHOWN = {"exclusiveMinimum": ">", "minimum": ">=", "exclusiveMaximum": "<", "maximum": "<="}


def titled_cue(sentence: str) -> str | None:
    """The check after a label of being done ("CARD COMPLETE WHEN: ..."), or None (module docstring)."""
    m = _TITLED.match(sentence.strip())
    if m is None or _NOT_RUN.search(m.group("subject")):
        return None
    clause = m.group("clause").strip().rstrip(".!").strip()
    return clause or None


def titled_line(sentence: str, line: str) -> str | None:
    """The sentence as the check when its line opens with a label of being done the sentence reader
    cut off ("CARD COMPLETE WHEN: tech log status entered"), else None."""
    clause = titled_cue(line)
    head = " ".join(sentence.split()[:3])
    if clause is None or not head or head not in " ".join(clause.split()):
        return None
    return sentence.strip().rstrip(".!").strip() or None


def _same(word: str, part: str) -> bool:
    return word == part or _SHORT.get(word, word) == _SHORT.get(part, part)


def _mentions(tokens: list[str], names: frozenset[str]) -> list[tuple[int, int, str]]:
    """(first token, token after, output name) of each output the tokens name, longest first, not overlapping."""
    low = [t.lower() for t in tokens]
    found: list[tuple[int, int, str]] = []
    i = 0
    while i < len(low):
        best: tuple[int, str] | None = None
        for name in names:
            parts = name.lower().split("_")
            if low[i] == name.lower():
                end = i + 1
            elif len(parts) > 1 and i + len(parts) <= len(low) and all(
                    _same(w, p) for w, p in zip(low[i:i + len(parts)], parts, strict=True)):
                end = i + len(parts)
            elif len(parts) > 2 and parts[-1] in UNIT_TAILS and i + len(parts) - 1 <= len(low) and all(
                    _same(w, p) for w, p in zip(low[i:i + len(parts) - 1], parts[:-1], strict=True)):
                end = i + len(parts) - 1  # "the invoice total" is `invoice_total_usd` (`spec.legal_prose29`)
            else:
                continue
            if best is None or end > best[0]:
                best = (end, name)
        if best is None:
            i += 1
            continue
        end, name = best
        if end < len(low) and low[end] in _TAIL_WORDS and low[end] not in name.lower().split("_"):
            end += 1  # "a certificate number" is the `certificate` the output holds
        found.append((i, end, name))
        i = end
    return found


# "zero blocked packages", "no open defects": the output is empty (or 0)
_NONE = frozenset({"zero", "no", "0", "none"})


def _number(raw: str) -> float | int:
    if raw.lower() in _WORD_NUMBERS:
        return _WORD_NUMBERS[raw.lower()]
    return float(raw) if "." in raw else int(raw)


def _keywords(tail: str, bounded: str) -> tuple[dict[str, Any], str] | None:
    """The check what follows an output's name says (module docstring): (keywords, as written), or None."""
    if (options := _OPTIONS.search(bounded)) is not None and _OR.search(options.group("options")):
        values = [o.strip().strip("\"'“”`") for o in _OR.split(options.group("options")) if o.strip()]
        return {"enum": values}, "is one of " + ", ".join(f'"{v}"' for v in values)
    if (quoted := _QUOTED.match(tail)) is not None:
        return {"const": quoted.group("value")}, f'== "{quoted.group("value")}"'
    tail = done_aux(tail)  # "has been issued", "exceeds zero" (`spec.legal_prose29`)
    if (bound := _BOUND.match(tail)) is not None:
        key = _OPS[" ".join(bound.group("op").lower().split())]
        n = _number(bound.group("n"))
        return {key: n}, f"{_SHOWN[key]} {n}"
    if (starts := _PREFIX.match(tail)) is not None:
        return {"type": "string", "pattern": "^" + re.escape(starts.group("prefix"))}, f"starts with {starts.group('prefix')}"
    first = tail.strip(" .:-").split(" ", 1)[0].lower()
    if not tail.strip(" .:-") or first in _NOT_EMPTY:
        return {"minItems": 1, "minLength": 1, "minProperties": 1}, "is not empty"
    if (literal := _LITERAL.match(tail)) is not None:
        raw = literal.group("value")
        value: Any = {"true": True, "yes": True, "false": False, "no": False}.get(raw.lower(), raw)
        if isinstance(value, str) and re.fullmatch(r"-?\d+(?:\.\d+)?", value):
            value = _number(value)
        shown = str(value).lower() if isinstance(value, bool) else f'"{value}"' if isinstance(value, str) else str(value)
        return {"const": value}, f"== {shown}"
    if (bare := _BARE.match(tail)) is not None and bare.group("value").lower() not in _QUALIFIER:
        return {"const": bare.group("value")}, f'== "{bare.group("value")}"'
    return None


def _read_part(part: str, names: frozenset[str]) -> tuple[list[tuple[str, dict[str, Any], str]], list[str]]:
    """The checks one part says on the outputs it names, and what of it is not read."""
    spans = [(m.start(), m.end(), m.group(0)) for m in _TOKEN.finditer(part)]
    said = _mentions([t for _, _, t in spans], names)
    if not said:
        return [], [part]
    read: list[tuple[str, dict[str, Any], str]] = []
    unread: list[str] = []
    for k, (first, after, name) in enumerate(said):
        before = {t.lower() for _, _, t in spans[max(0, first - 3):first]}
        start = spans[after - 1][1]
        stop = spans[said[k + 1][0]][0] if k + 1 < len(said) else len(part)
        if {t.lower() for _, _, t in spans[max(0, first - 2):first]} & _NONE:  # "zero blocked", "no open defects"
            read.append((name, {"maxItems": 0, "maximum": 0, "maxLength": 0}, f"{name} is empty or zero"))
            continue
        if before & _QUALIFIER:  # "the right guid": compared with a value the spec does not write
            unread.append(part[spans[max(0, first - 2)][0]:spans[after - 1][1]])
            continue
        if first and had_noun(spans[first - 1][2], part[start:stop]):  # "a start time": had (`spec.success_article55`)
            read.append((name, {"minItems": 1, "minLength": 1, "minProperties": 1}, f"{name} is not empty"))
            continue
        got = _keywords(part[start:stop], part[start:])
        if got is None:
            unread.append(part[spans[first][0]:stop].strip())
            continue
        read.append((name, got[0], f"{name} {got[1]}"))
    return read, unread


def _outputs(step: StepSpec, src: Source) -> frozenset[str]:
    """What the step outputs (`whole_success.outputs_of`), its skill found in backticks when the skill
    field still holds the whole line it was named in ("`wall-to-wall-quote` · pulls from: ...")."""
    known = outputs_of(step, src.vocabulary)
    if known:
        return known
    for name in re.findall(r"`([\w.-]{1,80})`", step.skill or ""):
        if (outputs := src.vocabulary.outputs_of(name)):
            return frozenset(outputs)
    return frozenset()


def _split(text: str) -> list[str]:
    """The parts of a clause at "and", ",", ";", never inside parentheses ("(SERVICEABLE, U/S or AOG)")."""
    inside = [(m.start(), m.end()) for m in _OPTIONS.finditer(text)]
    out: list[str] = []
    start = 0
    for m in _PARTS.finditer(text):
        if any(a <= m.start() < b for a, b in inside):
            continue
        out.append(text[start:m.start()])
        start = m.end()
    return [*out, text[start:]]


def _step(text: str, steps: list[StepSpec], src: Source) -> tuple[int, str] | None:
    """The step the clause names, and how; None when it names none."""
    words = {t.lower() for t in _TOKEN.findall(text)}
    ids = [i for i, s in enumerate(steps) if s.id.lower() in words]
    if len(ids) == 1:
        return ids[0], f"`{steps[ids[0]].id}` names it"
    marks = {t for t in text.split() if len(t) <= 3 and not t.isalpha()}  # "④", "C1", "5.4": a step's own mark
    marked = [i for i, s in enumerate(steps) if s.name.split()[:1] and s.name.split()[0].rstrip(".)") in marks]
    if len(marked) == 1:
        return marked[0], f"'{steps[marked[0]].name.split()[0]}' marks it"
    keys = keys_of([(i + 1, s.name, (s.skill or "").strip("`") or None) for i, s in enumerate(steps)])
    named = named_step(text, keys, src.vocabulary)
    if named is not None and 0 < named[0] <= len(steps):
        return named[0] - 1, named[1]
    return None


def read_on_outputs(clause: str, said: Said, steps: list[StepSpec],
                    src: Source) -> tuple[list[StepSpec], tuple[ContractSpec, ...]] | None:
    """The steps (one with the reading of its check) and the check on its output the clause says in
    words (module docstring), warned at the line; None when no part names an output of the step."""
    text = shown = clause.strip().strip("*_ ").strip()
    for row in steps:  # "OVEN LOADS says fits": that row's yes/no output is true (`spec.sheet_cells27`)
        if (flag := said_flag(text, row.name, _outputs(row, src))) is not None:
            text = f"{flag} true"
            break
    parts = [p for p in (p.strip().strip("*_ ").rstrip(".").strip() for p in _split(text)) if p]
    named = _step(text, steps, src)
    if named is not None:
        at, how = named
    else:  # the step whose outputs the clause names most, the last of them
        counts = [sum(len(_mentions(_TOKEN.findall(p), _outputs(s, src))) for p in parts) for s in steps]
        most = max(counts, default=0)
        if most == 0:
            return None
        at = max(i for i, c in enumerate(counts) if c == most)
        how = "the last of the steps whose outputs it names" if counts.count(most) > 1 else "the step whose outputs it names"
    names = _outputs(steps[at], src)
    if not names and named is not None:  # outputs not known yet: the names written as names ("a wo_number")
        names = frozenset(t for t in _TOKEN.findall(text) if "_" in t and t != steps[at].id) | frozenset(
            re.findall(r"`([A-Za-z_]\w{0,60})`", text))
    if not names:
        return None
    checks: dict[str, dict[str, Any]] = {}
    written: list[str] = []
    unread: list[str] = []
    for part in parts:
        read, left = _read_part(part, names)
        for name, keywords, shown in read:
            checks.setdefault(name, {}).update(keywords)
            written.append(shown)
        unread += left
    if not checks:
        return None
    step = steps[at]
    check = " and ".join(written)
    src.warn(said.line, f"{step.id} ({step.name}): '{shown[:60]}' is read as the run's success check ({check}), on this "
                        f"step's output ({how}, read from words: a guess): check the plan, or write `- Success "
                        f"criteria: {check}` under the step", CODE)
    for part in unread:
        src.warn(said.line, f"the run's success check: '{part[:80]}' is not a comparison of an output of {step.id} with "
                            "a value written in the spec, so that part is not checked", CODE)
    reading = Reading(what="success", where=src.where(said.line), text=" ".join(said.text.split())[:160],
                      note=f"the run's success check `{check}`, checked on {step.id}'s output ({how})")
    out = list(steps)
    out[at] = step.model_copy(update={"readings": (*step.readings, reading)})
    return out, (ContractSpec(producer=step.id, consumer=None, where=src.where(said.line), validation=(check,),
                              constraints={"": check_schema(checks)}),)


_rx.save()
