"""COBOL's comment lines are comments (55th round; used by `spec.wired52` when it splits a file into code and comments).

          * WHOLE JOB MUST FINISH INSIDE 15 MINUTES.        fixed format: `*` in column 7 (the six columns before it
    000190* RUN IS GOOD WHEN X COMES BACK OK = TRUE.          blank or a sequence number): a full-line comment
           *> give it two minutes then give up              free format: `*>` anywhere a line starts: a comment
           CALL 'SW' USING 'x' A  *> a note                 `*>` after code, a space before it: a trailing comment
          *ptr = 3;                                         a near miss: C code indented six columns stays code

A line read as a comment calls nothing (a skill it names in a sentence is no step), and its text reaches the
readers of prose as the other comments do: a run's check, its limits, the rules under a call. The fixed form
needs the `*` to be followed by a space, another `*`, `-`, `=`, `>` or the end of the line, so a pointer
dereference at that column stays code. Scanning is linear.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# fixed format: columns 1-6 blank or a sequence number, `*` in column 7, then a space, `*`, `-`, `=`, `>` or the end
_FIXED = _rx(r"^[ 0-9]{6}\*(?=[ \t*\-=>]|$)")
# a label on a line of its own: `0200-FINES.`, `MAIN-LOGIC SECTION.`, `step_2:`, `:fines` (batch)
_LABEL = _rx(r"^(?::[A-Za-z_][\w-]{0,60}+|[A-Za-z0-9][\w-]{0,60}+(?:[ \t]++SECTION)?+[ \t]*+[.:])$", re.I)
# free format: `*>` opening the line
_FREE = _rx(r"^[ \t]*+\*>")


def cobol_comment(raw: str) -> tuple[str, int] | None:
    """(text, column of the text) of a COBOL full-line comment (module docstring), or None when the line is not
    one. The column is where the words start, not the `*`: the marker's column is fixed, the words' is the
    comment's indent."""
    text = raw.rstrip()
    free = _FREE.match(text)
    m = free or _FIXED.match(text)
    if m is None:
        return None
    rest = text[m.end():].lstrip(">*")
    said = rest.strip().strip("*").strip()
    if free is not None:  # `*>` may stand at any column: its own column is the comment's indent
        return said, len(text) - len(text.lstrip())
    return said, len(text) - len(rest) + (len(rest) - len(rest.lstrip()))


class _Line(Protocol):
    code: str
    comment: str
    indent: int
    blank: bool


def rules_above_label(lines: Sequence[_Line], end: int, start: int, last: bool) -> list[int]:
    """The indexes of the comment lines right under a call whose construct ends at index `end` that are its rules,
    the next call's construct starting at index `start` (`last`: no call follows). They run on from the line
    after the construct (no blank line between), each indented at least as deep as the call's first code line...

        0200-FINES.                       (a paragraph label: `NAME.`, `NAME:`, `NAME SECTION.`, `:name`)
            CALL 'SW' USING 'calc-fines' A B
        *       IF CALC ABENDS RERUN ONCE AFTER 30 SECS.      the call's: as deep as its code
        0300-LETTERS.                                         the next label, shallower than the comment
            CALL 'SW' USING 'fine-letters' ...

    ...and are followed by a label shallower than them (the next step's heading, so they cannot be its heading),
    or, after the last call, by anything. A comment at the label's depth right above it stays the label's heading."""
    if end + 1 >= len(lines) or end < 0:
        return []
    depth = next((ln.indent for ln in lines[:end + 1][::-1] if ln.code.strip() and not ln.comment), None)
    call_indent = min((ln.indent for ln in lines[max(0, end - 3):end + 1] if ln.code.strip()), default=0)
    if depth is None:
        return []
    run: list[int] = []
    j = end + 1
    while j < len(lines) and not lines[j].blank and not lines[j].code.strip() and lines[j].comment:
        if lines[j].indent < call_indent:
            return []
        run.append(j)
        j += 1
    if not run:
        return []
    if last:
        return run
    if j >= start or lines[j].blank or not _LABEL.match(lines[j].code.strip()):
        return []
    if lines[j].indent >= min(lines[i].indent for i in run):
        return []
    between = range(j + 1, start)
    return run if all(not lines[i].code.strip() or _LABEL.match(lines[i].code.strip()) for i in between) else []


def cobol_trailing(code: str) -> tuple[str, str]:
    """(code, comment) of a line with a free-format `*>` comment after its code, outside quotes."""
    i, quote = 0, ""
    while i < len(code):
        ch = code[i]
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif code.startswith("*>", i) and i > 0 and code[i - 1] in " \t":
            return code[:i].rstrip(), code[i + 2:].strip()
        i += 1
    return code, ""



# -- a COBOL program's data items and its `CALL .. USING 'skill' A B RETURNING C` -------------------------------

# a data item on a line of its own: `01 WS-BRANCH PIC X(3).`, `77 WS-RATE PIC 9V99 VALUE 0.25.`
_ITEM = _rx(r"^(?:0?1|77)[ \t]++(?P<name>[A-Za-z0-9][\w-]{0,60}+)[ \t]++PIC(?:TURE)?+[ \t]++[^ \t.]{1,40}+"
            r"(?:[ \t]++VALUE[ \t]++(?P<value>\"[^\"\n]{0,200}+\"|'[^'\n]{0,200}+'|[-+]?\d{1,15}+(?:\.\d{1,6}+)?+|"
            r"SPACES?|ZEROE?S?))?+[ \t]*+\.?$", re.I)
# a fixed-format line's sequence number (columns 1-6) before its code
_SEQUENCE = _rx(r"^\d{6}+[ \t]++")
# `ACCEPT WS-BRANCH FROM COMMAND-LINE` / `FROM ARGUMENT-VALUE`, `ACCEPT X` (from the operator's console)
_ACCEPT = _rx(r"\bACCEPT[ \t]++(?P<name>[A-Za-z0-9][\w-]{0,60}+)", re.I)
# the words that end a CALL's argument list
_ENDS = frozenset({"returning", "giving", "end-call", "on", "not", "exception", "overflow"})
_WORD = _rx(r"\"[^\"\n]{0,200}+\"|'[^'\n]{0,200}+'|[A-Za-z0-9][\w-]{0,60}+|\.")


@dataclass
class Item:
    """A data item: its name, line number, its VALUE literal (None: blank) and whether it is ACCEPTed."""

    name: str
    line: int
    value: object = None
    accepted: bool = False


@dataclass
class Using:
    """The arguments after the skill's name in `CALL .. USING 'skill' A B` and the RETURNING names."""

    args: list[str] = field(default_factory=list)
    returns: list[str] = field(default_factory=list)


def data_items(lines: Sequence[_Line]) -> dict[str, Item]:
    """The program's data items by upper-case name (`01 X PIC .. [VALUE v].`), ACCEPTed ones marked."""
    items: dict[str, Item] = {}
    for number, ln in enumerate(lines, start=1):
        code = _SEQUENCE.sub("", ln.code.strip())
        m = _ITEM.match(code)
        if m is not None:
            items[m.group("name").upper()] = Item(m.group("name"), number, _literal(m.group("value")))
            continue
        for a in _ACCEPT.finditer(code):
            if a.group("name").upper() in items:
                items[a.group("name").upper()].accepted = True
    return items


def _literal(value: str | None) -> object:
    if value is None:
        return None
    if value[:1] in "\"'":
        return value[1:-1]
    if value.upper().startswith("SPACE"):
        return " "
    if value.upper().startswith("ZERO"):
        return 0
    return float(value) if "." in value else int(value)


def using(text: str, skill_written: str) -> Using | None:
    """The arguments of a call that names its skill as the first literal after USING (module section), or None."""
    words = [m.group(0) for m in _WORD.finditer(text)]
    for i, word in enumerate(words[:-1]):
        if word.lower() != "using" or words[i + 1][1:-1].lower() != skill_written.strip("\"'").lower() \
                or words[i + 1][:1] not in "\"'":
            continue
        out = Using()
        bucket = out.args
        for w in words[i + 2:]:
            if w == "." or (w.lower() in _ENDS and w.lower() not in ("returning", "giving")):
                break
            if w.lower() in ("returning", "giving"):
                bucket = out.returns
                continue
            if w.lower() in ("by", "reference", "content", "value"):
                continue
            bucket.append(w)
        return out
    return None


def shared_prefix(names: Sequence[str]) -> str:
    """The hyphenated head every data item shares (`WS-` of WS-BRANCH, WS-AS-OF): a namespace, not the name."""
    heads = {n.split("-", 1)[0] + "-" for n in names if "-" in n}
    if len(names) < 2 or len(heads) != 1 or not all("-" in n for n in names):
        return ""
    return heads.pop()


def folded(name: str, prefix: str) -> str:
    """`WS-AS-OF` -> `as_of` (the shared prefix dropped, lower case, `_` for `-`)."""
    if prefix and name.upper().startswith(prefix.upper()):
        name = name[len(prefix):]
    return name.lower().replace("-", "_")


def returned_field(name: str, outputs: Sequence[str], count: int) -> str | None:
    """The output field a RETURNING name stands for: the one its last words name (`FIN-TOTAL`: total,
    `OVD-LOANS`: loans), else the only output of a call that returns one name; None when neither says."""
    words = name.lower().replace("_", "-").split("-")
    for n in range(len(words)):
        tail = "_".join(words[n:])
        hit = next((o for o in outputs if o.lower().replace("-", "_") == tail), None)
        if hit is not None:
            return hit
    return outputs[0] if len(outputs) == 1 and count == 1 else None



class _CallLike(Protocol):
    skill: str
    written: str
    start: int
    end: int
    sid: str


class _StepLike(Protocol):
    inputs: dict[str, object]
    deps: list[str]


def wire_using(w: Any, k: int, step: _StepLike) -> None:
    """Bind step `k`'s inputs from `CALL .. USING 'skill' A B RETURNING C` (module docstring): each argument to
    the skill input it names (`WS-BRANCH`: branch), else to the input at its place in the skill's list (warned);
    a data item with a VALUE is that literal, a blank one the run's input, a name an earlier call RETURNED that
    step's output field; the RETURNING names name this step for the calls after it."""
    c = w.calls[k]
    text = " ".join(ln.code for ln in w.lines[c.start:c.end + 1])
    got = using(text, c.written)
    if got is None or not got.args:
        return
    order = list(w.vocab.inputs_in_order(c.skill) or ())
    items = data_items(w.lines)
    prefix = shared_prefix([i.name for i in items.values()])
    earlier = {r.upper(): (p, len(u.returns)) for p in w.calls[:k]
               if (u := using(" ".join(ln.code for ln in w.lines[p.start:p.end + 1]), p.written)) is not None
               for r in u.returns}
    line = w.lines[c.index].number
    named = {a: next((o for o in order if o == folded(a, prefix) or o == _tail(a, order)), None) for a in got.args}
    free = [o for o in order if o not in named.values()]
    for place, arg in enumerate(got.args):
        name = named[arg]
        if name is None:
            if place >= len(order) or order[place] not in free:
                w.src.warn(line, f"argument {place + 1} `{arg}` of the call to {c.skill} names none of its inputs "
                                 f"({', '.join(order) or 'none known'}) and has no free place: it is not read", "spec.unread")
                continue
            name = order[place]
            free.remove(name)
            w.src.warn(line, f"argument {place + 1} `{arg}` of the call to {c.skill} is bound to its input `{name}` by "
                             f"its place (the skill's inputs in order: {', '.join(order)}), a guess: nothing names it",
                       "spec.guess")
        step.inputs[name] = _value(w, arg, name, items, prefix, earlier, line)
        source = earlier.get(arg.upper())
        if source is not None and source[0].sid not in step.deps:
            step.deps.append(source[0].sid)


def _tail(arg: str, order: Sequence[str]) -> str | None:
    """The input the last words of a hyphenated name spell (`OVD-LOANS`: loans), if the skill has it."""
    return returned_field(arg, order, 2)


def _value(w: Any, arg: str, name: str, items: dict[str, Item], prefix: str,
           earlier: dict[str, tuple[Any, int]], line: int) -> object:
    if arg[:1] in "\"'":
        return arg[1:-1]
    if re.fullmatch(r"[-+]?\d{1,15}+(?:\.\d{1,6}+)?+", arg):
        return float(arg) if "." in arg else int(arg)
    if arg.upper() in earlier:
        call, count = earlier[arg.upper()]
        outs = sorted(w.vocab.outputs_of(call.skill) or ())
        got = returned_field(arg, outs, count) or (name if name in outs else None)
        if got is None:
            w.src.warn(line, f"`{arg}` (returned by {call.skill}) names none of its outputs ({', '.join(outs) or 'none known'}): "
                             f"its whole output is given to `{name}`", "spec.guess")
            return "{{ steps." + call.sid + ".output }}"
        return "{{ steps." + call.sid + ".output." + got + " }}"
    item = items.get(arg.upper())
    if item is not None and item.value is not None:
        return item.value
    if item is not None:
        said = folded(item.name, prefix)
        if said not in w.inputs:
            w.inputs[said] = item.line
            if not item.accepted:
                w.src.warn(item.line, f"`{item.name}` has no VALUE and nothing before the calls sets it: read as the "
                                      f"run's input `{said}`", "spec.guess")
        return "{{ inputs." + said + " }}"
    w.src.warn(line, f"`{arg}` is no data item and no earlier call returns it: read as the run's input `{name}`",
               "spec.guess")
    w.inputs.setdefault(name, line)
    return "{{ inputs." + name + " }}"


_rx.save()
