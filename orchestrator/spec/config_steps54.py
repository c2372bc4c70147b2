"""A config file whose steps are items of a list, read by their skill calls (`spec.wired52`): what round 54 reads.

    'ask' => ['child' => '',   // full name      a key whose value is a block of blank values ('', "", null, ~,
              'dob'   => ''],                    nil, nothing after `=`) is the run's inputs container: its keys
    inputs: {a: null, b: ~}    [ask] a= b=       are the workflow's inputs (a line comment is the input's
                                                 description) and `ask.x`, 'ask.x', ask['x'] read input x
    'term_start' => '2027-01-11',                a top-level scalar key is a constant: a value that names it
    ... 'term_start' => 'term_start'             bare ('term_start', in quotes or not) is that literal
    'give_up_after' => '10 min',                 a top-level key whose name says a limit, with a duration: the
    'done_when' => 'x says sent = true',         whole run's limit; one that says when it is done: the check
    // 3a - there IS a space                     a comment heading a step that starts with a label (`3a -`,
    ['skill' => 'enrol-pupil', 'if' => ...],     `# 2)`, `-- step 4`) names the step: `'else' => '3a'` is the
    ['skill' => 'waitlist-add', 'else' => '3a']  otherwise of step 3a (its condition false), and `'3a/3b.f'`,
    ... 'status' => '3a/3b.status'               `3a|3b.f`, `(3a or 3b).f` the field of whichever ran
        // give it 20 seconds then give up       comments indented under an item (after it, before the next)
                                                 are that step's texts: its rules
    'if' => 'class-capacity.spaces > 0'          a hyphenated step name in a condition is one name
    'band' => 'nosuch.band'                      a value shaped as a reference that names nothing is warned

Each is a construction, not a vocabulary: the keys' own names are read only for the whole-run limit and check.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from orchestrator.spec.model import SpecText
from orchestrator.spec.regex_cache import Patterns

if TYPE_CHECKING:
    from orchestrator.spec.wired52 import _Wired

_rx = Patterns(__name__)

# `'key' => rest`, `key: rest`, `"key" = rest`, `$key = rest`
_KEY_LINE = _rx(r"^\s*+[$]?[\"']?(?P<key>[A-Za-z_][\w-]{0,60}+)[\"']?\s*+(?P<sep>=>|:(?!:)|=(?![=>]))\s*+(?P<rest>.{0,400}+)$")
_SECTION = _rx(r"^\s*+\[\s*+(?P<key>[A-Za-z_][\w-]{0,60}+)\s*+\]\s*+$")
_BLANK = _rx(r"^(?:''|\"\"|null|NULL|Null|nil|None|undef|~|)$")
_OPEN = _rx(r"^(?:array\s*+\(|\[|\{|\()\s*+$")
_INLINE = _rx(r"^(?:array\s*+\(|\[|\{|\()(?P<body>[^\[\]{}()]{0,400}+)[\])}]\s*+[,;]?$")
_INNER_KEY = _rx(r"[\"']?(?P<key>[A-Za-z_][\w-]{0,60}+)[\"']?\s*+(?:=>|:(?!:)|=(?![=>]))\s*+(?P<value>''|\"\"|[^,\s\"']{0,20}+)"
                 r"\s*+(?:,|$)")
_SCALAR = _rx(r"^(?P<v>'[^'\n]{0,200}+'|\"[^\"\n]{0,200}+\"|-?\d{1,15}+(?:\.\d{1,6}+)?)\s*+[,;]?$")
_DURATION = _rx(r"(?i)^\d{1,6}+(?:\.\d{1,3}+)?\s*+(?:s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?)$")
_LIMIT_KEY = _rx(r"(?i)(?:give_?up|timeout|time_?out|time_?limit|deadline|max_?(?:time|run|duration|wall)|wall_?time|"
                 r"run_?limit|limit|within|budget)")
_DONE_KEY = _rx(r"(?i)^(?:done|success|succeeded|finished|complete|completed|ok|good|passed)_?(?:when|if|once|on)$|"
                r"^(?:success|done)_?(?:check|criteria|criterion)$")
# a comment that heads a step by its label: `3a - ...`, `2) ...`, `step 4`, `#3b: ...`, `Step 2.`
_LABEL = _rx(r"(?i)^(?:(?:step|stage|no\.?)\s*+#?(?P<a>\d{1,3}+[a-z]?)\b|#?\s*+(?P<b>\d{1,3}+[a-z]?)\s*+(?:[-\u2013\u2014:)]|\.(?!\d)|$))")
# `3a/3b.status`, `3a|3b.status`, `(3a or 3b).status`: a field of whichever of the two ran
_EITHER = _rx(r"^\(?\s*+(?P<a>[\w-]{1,60}+)\s*+(?:/|\||\bor\b)\s*+(?P<b>[\w-]{1,60}+)\s*+\)?\.(?P<f>[A-Za-z_][\w.]{0,80}+)$")
# a step's name with a hyphen and a field after it in a condition: `class-capacity.spaces`
_HYPHEN_REF = _rx(r"(?<![\w.\-$@])[A-Za-z_]\w{0,40}+(?:-\w{1,40}+){1,6}+(?:\.[A-Za-z_]\w{0,60}+){1,4}+")
# `x.f or y.f`, `x.f || y.f`, `x.f // y.f`: the field of whichever of two steps ran, each side its own step and field
_EITHER_EACH = _rx(r"^\(?\s*+(?P<a>[\w-]{1,60}+)\.(?P<fa>[A-Za-z_][\w.]{0,80}+)\s*+(?:\bor\b|\|\||//|\||\?\?)\s*+"
                   r"(?P<b>[\w-]{1,60}+)\.(?P<fb>[A-Za-z_][\w.]{0,80}+)\s*+\)?$")
# a value in single braces, a placeholder: `{loa}`, `{1.band}`, `{2.total or 3.total}` (not `{{ x }}`, not `${x}`)
_BRACED = _rx(r"(?<![{$#%@\w])\{\s*+(?P<r>[\w-]{1,60}+(?:\.[A-Za-z_]\w{0,60}+){0,4}+)\s*+\}(?!\})")
_BRACED_ALL = _rx(r"^\{(?!\{)\s*+(?P<r>[^{}\n]{1,300}+)\}$")
# an INI-shaped line, `key = the rest` / `key: the rest`: the rest unquoted and unbracketed is the whole value
_INI_LINE = _rx(r"^\s*+[\"']?(?P<key>[A-Za-z_][\w-]{0,60}+)[\"']?\s*+(?:=(?![=>])|:(?!:))\s*+(?P<rest>[^\s\"'\[(].{0,400}+)$")
# a step's label in its section header: `[2]`, `[3a]`, `[step 4]`
_SECTION_LABEL = _rx(r"(?i)^\s*+\[\s*+(?:step\s*+)?(?P<l>\d{1,3}+[a-z]?)\s*+\]\s*+$")
# a description: unquoted words, not a literal, a reference or a list
_PROSE = _rx(r"^[A-Za-z][\w'\-]{0,40}+(?:[ \t]++[^\s{}\[\]=]{1,60}+){1,60}+$")
_OTHERWISE_KEYS = frozenset({"else", "otherwise", "elseof", "otherwiseof", "else_of", "otherwise_of"})
_HOLDER_KEYS = frozenset({"in", "inputs", "input", "with", "args", "arguments", "params", "parameters", "data", "using"})
# tails a literal with a dot often has that are no step's field: a host, a file, a version
_NOT_FIELDS = frozenset({"com", "org", "net", "uk", "io", "co", "de", "fr", "eu", "gov", "edu", "csv", "json", "txt",
                         "pdf", "xlsx", "xls", "html", "htm", "php", "py", "yaml", "yml", "xml", "md", "log", "zip",
                         "png", "jpg", "doc", "docx"})


@dataclass
class ConfigKeys:
    """What a config file's top-level keys said (module docstring)."""

    literals: dict[str, object] = field(default_factory=dict)  # a top-level scalar key -> its value
    notes: dict[str, str] = field(default_factory=dict)  # an input -> its description (the line's comment)
    labels: bool = False  # some step is named by the label of its heading comment
    titles: dict[int, tuple[int, str]] = field(default_factory=dict)  # a call -> (line, its heading's title)


def _words(key: str) -> str:
    return " ".join(re.split(r"[_\-]++|(?<=[a-z])(?=[A-Z])", key)).lower().strip()


def _scalar(text: str) -> object:
    said = text.strip().rstrip(",;").strip()
    if said[:1] in "\"'":
        return said[1:-1]
    return float(said) if "." in said else int(said)


def read_config_keys(w: _Wired) -> None:
    """The inputs container, constants and whole-run sentences of the keys before the first call."""
    first = w.calls[0].start if w.calls else len(w.lines)
    j = 0
    while j < first:
        ln = w.lines[j]
        code = ln.code.strip()
        sect = _SECTION.match(code)
        if sect is not None:  # `[ask]` then `a=` lines; `[run]` then `boat = name of the boat` lines
            names: list[tuple[str, int]] = []
            described: dict[str, str] = {}
            run_lines: list[tuple[int, str]] = []
            blank = True
            k = j + 1
            while k < first and not _SECTION.match(w.lines[k].code.strip()):
                inner = w.lines[k].code.strip()
                if inner:
                    m = _KEY_LINE.match(inner)
                    rest = m.group("rest").strip().rstrip(",;").strip() if m is not None else ""
                    if m is not None and (said := run_sentence(m.group("key"), rest.strip("\"'"))) is not None:
                        run_lines.append((k, said))  # `time_limit = 5 min ...`: the whole run's, not an input
                    elif m is not None and _BLANK.match(rest):
                        names.append((m.group("key"), k))
                    elif m is not None and _PROSE.match(rest) and _named_braced(w, m.group("key"), first):
                        names.append((m.group("key"), k))  # its value says what it is: `{boat}` names it later
                        described[m.group("key")] = rest
                    else:
                        blank = False
                        break
                k += 1
            if blank and names:
                _container(w, sect.group("key"), names)
                for name, said in described.items():
                    w.config.notes[name] = _sentence(said, w.config.notes.get(name, "")).rstrip(".")
                for at, said in run_lines:
                    w.lines[at].comment = _sentence(said, w.lines[at].comment)
                j = k
                continue
            j += 1
            continue
        m = _KEY_LINE.match(code)
        if m is None:
            j += 1
            continue
        key, rest = m.group("key"), m.group("rest").strip()
        if _OPEN.match(rest):  # a block opened here: the run's inputs when its values are all blank
            end = j + 1
            while end < first and w.before[end] > w.before[j]:
                end += 1
            names = []
            blank = True
            for k in range(j + 1, min(end, first)):
                inner = w.lines[k].code.strip()
                if not inner or inner[:1] in ")]}":
                    continue
                for part in [p for p in re.split(r",(?=\s*+[\"']?[A-Za-z_])", inner) if p.strip()]:
                    got = _KEY_LINE.match(part.strip())
                    if got is None or not _BLANK.match(got.group("rest").strip().rstrip(",;").strip()):
                        blank = False
                        break
                    names.append((got.group("key"), k))
                if not blank:
                    break
            if blank and names:
                _container(w, key, names)
                j = max(end, j + 1)
            else:
                j += 1  # a block of other things (the whole config, its steps): its keys are read one by one
            continue
        inline = _INLINE.match(rest)
        if inline is not None:
            pairs = list(_INNER_KEY.finditer(inline.group("body")))
            if pairs and all(_BLANK.match(p.group("value")) for p in pairs):
                _container(w, key, [(p.group("key"), j) for p in pairs])
            j += 1
            continue
        scalar = _SCALAR.match(rest)
        if scalar is not None and w.before[j] <= w.before[first]:
            value = _scalar(scalar.group("v"))
            said = run_sentence(key, value) if isinstance(value, str) else None
            if said is not None:
                ln.comment = _sentence(said, ln.comment)
            else:
                w.config.literals[key] = value
        elif w.before[j] <= w.before[first] and _PROSE.match(rest) and (said := run_sentence(key, rest)) is not None:
            ln.comment = _sentence(said, ln.comment)  # `done_when = x amount above 0`, unquoted
        j += 1


def run_sentence(key: str, value: str) -> str | None:
    """The whole run's limit or check a top-level key says (`give_up_after = '10 min'`, `time_limit = 5 min the whole
    thing`, `done_when = x says sent`) as a sentence for the whole-run readers; None for any other key."""
    words = _words(key)
    lead = re.match(r"^\d{1,6}+(?:\.\d{1,3}+)?\s*+[A-Za-z]{1,8}+", value.strip())
    if _LIMIT_KEY.search(key) and lead is not None and _DURATION.match(lead.group(0)):
        return f"the whole run: {words} {value.strip()}"
    if _DONE_KEY.match(key) and value.strip():
        return f"{words} {value.strip()}"
    return None


def run_key(key: str) -> bool:
    """A key naming the whole run's limit or check (`done_when`, `time_limit`): a skill named in its value is no call."""
    return bool(_DONE_KEY.match(key) or _LIMIT_KEY.search(key))


def _named_braced(w: _Wired, key: str, first: int) -> bool:
    """Some line from the first step on names `key` as a placeholder: `{key}`, `${key}`, `{{ key }}`, `%key%`."""
    at = re.compile(rf"(?:\{{\s*+|\$|%){re.escape(key)}(?:\s*+\}}|%|(?![\w-]))")
    return any(at.search(ln.code) for ln in w.lines[first:])


def _sentence(said: str, comment: str) -> str:
    """A key's reading said as a sentence of its own, the line's comment after it (each ends a sentence)."""
    return " ".join(t if t.endswith((".", "!", "?")) else f"{t}." for t in (said, comment) if t)


def _container(w: _Wired, key: str, names: list[tuple[str, int]]) -> None:
    w.containers.add(key)
    for name, k in names:
        w.inputs[name] = w.lines[k].number
        if w.lines[k].comment:
            w.config.notes[name] = w.lines[k].comment


def literal_named(w: _Wired, said: str) -> tuple[bool, object]:
    """(True, its value) when a value names a top-level scalar key bare (`'term_start'`, `term_start`)."""
    name = said.strip().strip("\"'`")
    if name in w.config.literals:
        return True, w.config.literals[name]
    return False, None


def label_steps(w: _Wired) -> None:
    """Each call headed by a comment that starts with a label (`3a - ...`) is also named by that label; once a
    file labels its steps, a bare number names the step so labelled, not the step at that position."""
    from orchestrator.spec.news_tell40 import news_only
    from orchestrator.spec.phrase import read_phrase

    labelled: dict[int, str] = {}
    for k, c in enumerate(w.calls):
        lead = w._lead_start(k)
        indent = w.lines[c.start].indent  # (a comment indented deeper is the step before's own)
        at = next((j for j in range(lead, c.start) if w.lines[j].comment and not w.lines[j].code.strip()
                   and w.lines[j].indent <= indent), None)
        first = w.lines[at].comment.strip() if at is not None else ""
        if (sect := _SECTION_LABEL.match(w.lines[c.start].code)) is not None:  # `[2]` heading its keys
            labelled[k] = sect.group("l").lower()
            continue
        m = _LABEL.match(first)
        if m is not None and at is not None:
            labelled[k] = (m.group("a") or m.group("b")).lower()
            title = first[m.end():].lstrip(" -\u2013\u2014:.)").strip()
            said = read_phrase(title, w.vocab.skills).statement
            if title and (not said.model_dump(exclude_defaults=True, exclude_none=True) or news_only(said, title)):
                # a title that states no policy ("4. tell the cellar": news, no failure named): the step's name
                w.config.titles[k] = (w.lines[at].number, title)
    if not labelled:
        return
    w.config.labels = True
    for k, c in enumerate(w.calls):
        c.aliases.discard(str(c.number))
        if k in labelled:
            c.aliases.add(labelled[k])


def either_ref(w: _Wired, said: str, k: int) -> str | None:
    """`3a/3b.status`, `3a|3b.status`, `(3a or 3b).status`, `3a.status or 3b.status` (also in braces,
    `{2.total or 3.total}`) naming two earlier steps: whichever ran's field."""
    text = said.strip().strip("\"'`")
    if (inside := _BRACED_ALL.match(text)) is not None:
        text = inside.group("r").strip()
    m = _EITHER.match(text)
    each = _EITHER_EACH.match(text) if m is None else None
    if m is None and each is None:
        return None
    got = m or each
    assert got is not None
    a, b = w.step_named(got.group("a"), k), w.step_named(got.group("b"), k)
    if a is None or b is None or a is b:
        return None
    fa = (m.group("f") if m is not None else got.group("fa")).split(".")
    fb = (m.group("f") if m is not None else got.group("fb")).split(".")
    return f"{a.sid}." + ".".join(w._out_field(a, fa)) + f" or {b.sid}." + ".".join(w._out_field(b, fb))


def braced(said: str) -> str | None:
    """The reference inside a placeholder in single braces (`{loa}`, `{1.rate}`), or None."""
    m = _BRACED_ALL.match(said.strip())
    return m.group("r").strip() if m is not None and _BRACED.fullmatch(said.strip()) else None


def braced_refs(w: _Wired, said: str, k: int, stash: Callable[[str], str]) -> str:
    """A condition with each placeholder in single braces (`{1.band} is large`) read as the step's field or input
    it names (kept from the word-by-word reading, which reads no step named by a number)."""

    def one(m: re.Match[str]) -> str:
        got = w.reference(m.group("r"), k)
        if got is None or got[0] not in ("step", "input"):
            return m.group(0)
        text = str(got[1]).removeprefix("{{ ").removesuffix(" }}")
        return stash(text.removeprefix("steps.").replace(".output.", ".", 1))

    return _BRACED.sub(one, said)


def line_value(code: str, key: str, said: str) -> str:
    """The whole unquoted rest of an INI-shaped line `key = the rest` (`only_if = {1.band} is large`, `after = 2 or
    3`), else the value as the pair reader cut it."""
    m = _INI_LINE.match(code)
    if m is None or m.group("key") != key:
        return said
    return m.group("rest").strip()


def otherwise_of(w: _Wired, key: str, said: str, k: int, line: int) -> str | None:
    """The step an `else`/`otherwise` key names (`'else' => '3a'`): its id, or None (not such a key, or warned when
    it names no earlier step)."""
    if re.sub(r"[\W_]++", "", key).lower() not in {re.sub(r"[\W_]++", "", x) for x in _OTHERWISE_KEYS}:
        return None
    name = said.strip().strip("\"'`").strip()
    step = w.step_named(name, k) if name else None
    if step is None:
        w.src.warn(line, f"`{key}` names `{name[:40]}`, no step before this one (by its id, skill or the label of "
                         "its heading comment), so the step is not made anyone's otherwise", "spec.unread")
        return ""
    return step.sid


def holds_inputs(key: str, said: str) -> bool:
    """`'in' => ['x' => ...]`: a key that holds the step's inputs (its pairs are read one by one)."""
    opened = said.strip()[:1] in "[{(" or said.strip().lower().startswith("array(")
    return key.lower() in _HOLDER_KEYS and opened


def under_comments(w: _Wired, k: int) -> list[SpecText]:
    """The comment lines right after call `k`'s block, indented deeper than its first line: the step's own."""
    c = w.calls[k]
    indent = w.lines[c.start].indent
    nxt = w.calls[k + 1].start if k + 1 < len(w.calls) else len(w.lines)
    out: list[SpecText] = []
    section = _SECTION.match(w.lines[c.start].code.strip()) or _SECTION_LABEL.match(w.lines[c.start].code)
    for j in range(c.end + 1, nxt):
        ln = w.lines[j]
        if ln.blank or ln.code.strip() or not ln.comment or (ln.indent <= indent and not section):
            break  # (under a `[section]` header, its comments up to a blank line are its own at any indent)
        out.append(SpecText(text=ln.comment, line=ln.number))
    return out


def hyphen_steps(w: _Wired, said: str, k: int, stash: Callable[[str], str]) -> str:
    """A condition with each `step-name.field` whose hyphenated head names a step read as that step's field (kept
    from the word-by-word reading, which would read `class` of `class-capacity` as a name of its own)."""

    def one(m: re.Match[str]) -> str:
        got = w.reference(m.group(0), k)
        if got is None or got[0] != "step":
            return m.group(0)
        text = str(got[1]).removeprefix("{{ ").removesuffix(" }}")
        return stash(text.removeprefix("steps.").replace(".output.", ".", 1))

    return _HYPHEN_REF.sub(one, said)


def unbound_reference(inner: str) -> bool:
    """A quoted literal shaped as a reference (`'nosuch.band'`): warned, never bound silently as text."""
    from orchestrator.spec.wired52 import _QUOTED_REF

    if not _QUOTED_REF.match(inner) and not _EITHER.match(inner):
        return False
    return inner.rsplit(".", 1)[-1].lower() not in _NOT_FIELDS


_rx.save()
