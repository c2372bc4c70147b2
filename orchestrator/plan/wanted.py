"""Names a step reads that no schema declares: its skill's instructions and its own text.

A skill without schemas often says in its instructions what it takes and gives:

    Input `tarball` (base64), `expected_sha256`. Output `ok` (bool) and `actual_sha256`.
    Takes `ticket` (and, for the general resolver, `category`). Returns a `resolution` and a `team`.
    Inputs: `rows` (or `joined`), `group_by` (default `country`).

A JSON object in backticks (Reads `{"text": ...}`) names its top-level keys.
`read_instructions` reads such sentences (a word that opens the inputs: Input,
Inputs, Takes, Reads, Needs, Expects, Accepts; one that opens the outputs: Output,
Outputs, Returns, Gives back, Produces): the backticked names after it, a name
after "default" excepted (it is a value), a name marked "optionally", "(default
...)" or "(number, optional, ...)" optional, and a name followed by "(list of {host, expires})", braces in backticks or not, an array (of objects with
those properties). A step that declares no inputs reads the names its text mentions
(`mentioned`): "First pull the tarball using `fetch-mirror`, with the package and
version" names `package` and `version` when those are values the step can reach
(workflow inputs, earlier outputs). A step's text can also name the gathered
results of a `For each` step (`gathered`): "It takes all the results from step 2
together (as `tickets`)", "takes ALL the step 2 results at once, as a list called
`analyses`".

These names are loose: the planner binds one only where a source is certain, and
the plan says where each came from.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict

from orchestrator.plan.bare_names41 import bare_names
from orchestrator.plan.instruction_sections import section_names
from orchestrator.plan.runs37 import same_list_items
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_IN = _rx(r"(?i)\b(?:inputs?|takes|reads|needs|expects|accepts)\b\s*:?")
_OUT = _rx(r"(?i)\b(?:outputs?|returns?|gives back|produces|emits|yields)\b\s*:?")
_TICKED = _rx(r"`([A-Za-z_][\w-]*)(?:\s*:\s*[^`]*)?`")
_SENTENCE = _rx(r"(?<=[.;!?])(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\betc\.)(?<!\bvs\.)\s+(?=[A-Z`(*_])|\n\s*\n")  # "e.g. `metro`" goes on
_GATHERED = _rx(
    r"(?i)\b(?:results?|outputs?|answers?|items?|analys[ie]s)\b[^.;]*?\bas\s+(?:a\s+(?:list|array)\s+)?"
    r"(?:(?:called|named)\s+)?`{1,2}+([A-Za-z_]\w*)`")  # ``invoices`` (reStructuredText) too
_SAID_OPTIONAL = _rx(r"(?i)[ \t]*+\([^()]{0,60}?(?<![\w-])(?:optional|default)(?![\w-])")
_NOT_WORD = _rx(r"[^0-9a-z]+")
_STEP_REF = _rx(r"(?i)\b(?:step|stage|phase|task)[\s_-]*(\d+|[a-z]+)\b")


class Named(BaseModel):
    """A name read from text, with the line it was read on."""

    model_config = ConfigDict(frozen=True)

    name: str
    where: str
    optional: bool = False
    schema_: dict[str, object] | None = None  # what "(list of {a, b})" after the name says its value is
    about: str = ""  # the parenthesis right after the name: "`analyst` (initials)"
    example: bool = False  # a key of a JSON example (Reads `{"text": ...}`): no name said as an input on its own


class Instructions(BaseModel):
    model_config = ConfigDict(frozen=True)

    inputs: tuple[Named, ...] = ()
    outputs: tuple[Named, ...] = ()


# a parenthesis right after a name that opens with one of these goes on with the list ("(or `joined`)",
# "(and, for the general resolver, `category`)"); any other describes the name (fields, values, examples)
_LIST_GOES_ON = ("and", "or", "plus", "also", "optionally", "optional", "&")


def _described(clause: str) -> list[tuple[int, int]]:
    """The spans of the parentheses that describe the name right before them: "`account` (object: `id`,
    `seats`)", "`status` (`clean` or `needs-review`)". Names in them are the name's fields or values, not
    names of their own; a parenthesis opening with "and", "or", "optionally" goes on with the list."""
    spans: list[tuple[int, int]] = []
    for m in _TICKED.finditer(clause):
        at = m.end()
        while at < len(clause) and clause[at] in " \t":
            at += 1
        if at >= len(clause) or clause[at] != "(":
            continue
        depth, end = 0, len(clause)
        for i in range(at, len(clause)):
            depth += {"(": 1, ")": -1}.get(clause[i], 0)
            if depth == 0:
                end = i
                break
        first = clause[at + 1:end].lstrip(" ,").split(" ", 1)[0].strip(",").lower()
        if first not in _LIST_GOES_ON:
            spans.append((at, end))
    return spans


def _names(clause: str, where: str) -> list[Named]:
    out: list[Named] = []
    example = next((m for m in _JSON_TICKED.finditer(clause) if _JSON_KEY.search(m.group(1))), None)
    if example is not None:  # the list ends at a JSON example: what follows describes what the skill does,
        more = _GOES_ON_AFTER.match(clause, example.end())  # but "(and optional `max_len`, default 280)" goes on
        clause = clause[:more.end() if more else example.end()]
    described = _described(clause)
    for m in _TICKED.finditer(clause):
        if any(start < m.start() < end for start, end in described):
            continue  # a field or a value of the name before the parenthesis
        before = clause[max(0, m.start() - 12):m.start()].lower()
        if re.search(r"default\s*(?:is\s*|of\s*|=\s*)?$", before):
            continue  # `(default `country`)`: a value, not a name
        after = clause[m.end():m.end() + 12].lower()
        optional = "optional" in before or bool(re.match(r"\s*\((?:default|optional)", after)) \
            or _SAID_OPTIONAL.match(clause, m.end()) is not None  # "(number, optional, default 10000)"
        about = _ABOUT.match(clause, _past_blanks(clause, m.end()))
        out.append(Named(name=m.group(1), where=where, optional=optional, schema_=_said_list(clause[m.end():]),
                         about=about.group(1) if about else ""))
    for m in _JSON_TICKED.finditer(clause):  # Reads `{"text": ..., "max_len": 280}`: its top-level keys
        out += [Named(name=k, where=where, example=True) for k in _JSON_KEY.findall(m.group(1))]
    if not out and "`" not in clause:  # "Inputs: product (text), core_temp_c (number)": bare names (`plan.bare_names41`)
        out += [Named(name=name, where=where, optional=_SAID_OPTIONAL.match(f"({about})") is not None,
                      schema_=_said_list(clause[at + len(name):]), about=about)
                for name, about, at in bare_names(clause)]
    return out


# "(list of {a, b})", "(same list, tank ids upper-cased)", "(the filtered array)": the value is a list
_LIST_OF = _rx(r"(?i)^\s*+\(\s*+(?:(?:an?|the)\s++)?+(?:(?:same|new|sorted|filtered|cleaned|full|whole|updated|normali[sz]ed)\s++)?+"
               r"(?:list|array)\b(?:\s+of\s+(?:objects?\s+)?`?\{([^{}`]*)\}`?)?")


def _said_list(after: str) -> dict[str, object] | None:
    """"(list of {host, expires})" (or of `{host, expires}`) right after a name: an array, of objects with
    those properties."""
    m = _LIST_OF.match(after)
    if m is None:
        return None
    keys = re.findall(r"[A-Za-z_]\w*", m.group(1) or "")
    return {"type": "array", "items": {"type": "object", "properties": {k: {} for k in keys}}} if keys \
        else {"type": "array"}


_GOES_ON_AFTER = _rx(r"(?i)(?<![ \t])[ \t]*+\((?:and|or|plus|also|optionally|optional)\b[^()]{0,200}+\)")
_ABOUT = _rx(r"\(([^()]{0,80}+)\)")


def _past_blanks(text: str, at: int) -> int:
    """Where the blanks from `at` end (the parenthesis after a ticked name may stand a few blanks away); a blank run
    skipped here, not by a pattern that a search would restart at each blank of it."""
    return at + len(text[at:at + 200]) - len(text[at:at + 200].lstrip(" \t"))
_JSON_TICKED = _rx(r"`\s*\{([^`]*)\}\s*`")
_JSON_KEY = _rx(r"(?:^|[{,]\s*)[\"']([A-Za-z_]\w*)[\"']\s*:")


def read_instructions(body: str, skill_md: str, first_line: int = 1) -> Instructions:
    """The input and output names a skill's instructions state (module docstring)."""
    inputs: dict[str, Named] = {}
    outputs: dict[str, Named] = {}
    for offset, paragraph in _paragraphs(body):
        kind_before: str | None = None
        for sentence in _in_brackets(paragraph):
            at = paragraph.find(sentence)
            line = first_line + offset + paragraph[:at].count("\n")
            where = f"{skill_md}:{line}"
            marks = sorted([(m.start(), m.end(), "in") for m in _IN.finditer(sentence)]
                           + [(m.start(), m.end(), "out") for m in _OUT.finditer(sentence)])
            # a word inside a name's parentheses ("(..., input order)") describes it, opens no list
            marks = [m for m in marks if sentence.count("(", 0, m[0]) <= sentence.count(")", 0, m[0])
                     and sentence.count("`", 0, m[0]) % 2 == 0]  # nor a word in backticks (`"/inputs/gate"`)
            if not marks and kind_before and sentence.startswith("`") and paragraph[:at].rstrip().endswith(";"):
                marks = [(0, 0, kind_before)]  # `Outputs: `a` (...); `b` (...)`: the list goes on after `;`
            kind_before = marks[-1][2] if marks else None
            for i, (_, end, kind) in enumerate(marks):
                stop = marks[i + 1][0] if i + 1 < len(marks) else len(sentence)
                target = inputs if kind == "in" else outputs
                for named in _names(sentence[end:stop], where):
                    target.setdefault(named.name, named)
    listed_in, listed_out = section_names(body, skill_md, first_line)  # "## Input" then a list of its own
    for target, listed in ((inputs, listed_in), (outputs, listed_out)):
        for item in listed:
            target.setdefault(item.name, Named(name=item.name, where=item.where, optional=item.optional,
                                               example=item.example))
    for name, named in outputs.items():  # `samples` (same list, ...) out of `samples` (list of `{tank, abv}`) in
        given = inputs.get(name)
        if given is not None and given.schema_ and _SAME.match(named.about):
            outputs[name] = named.model_copy(update={"schema_": given.schema_})
        elif (given is None or not given.schema_) and not named.schema_ and _SAME.match(named.about) \
                and (in_input := same_list_items(body, name)) is not None:  # a list inside an input (`plan.runs37`)
            outputs[name] = named.model_copy(update={"schema_": in_input})
    return Instructions(inputs=tuple(inputs.values()), outputs=tuple(outputs.values()))


_SAME = _rx(r"(?i)^\s*+(?:the\s++)?+same\b")


def _in_brackets(paragraph: str) -> list[str]:
    """The paragraph's sentences, with a stop inside a name's parenthesis no end: `report` ("House 12
    (3 no-shows). Crew ..."), `incident_count`: the list goes on after the bracket closes."""
    out: list[str] = []
    at = 0
    for piece in _SENTENCE.split(paragraph):
        start = paragraph.find(piece, at)
        at = start + len(piece) if start >= 0 else at
        if out and out[-1].count("(") > out[-1].count(")") and start >= 0:
            begin = paragraph.find(out[-1])
            out[-1] = paragraph[begin:at] if begin >= 0 else f"{out[-1]} {piece}"
        else:
            out.append(piece)
    return out


def _paragraphs(body: str) -> Iterable[tuple[int, str]]:
    """(line offset, text) of each paragraph of `body`; fenced code is left out."""
    lines: list[str] = []
    start, fenced = 0, False
    for i, line in enumerate(body.splitlines()):
        if line.strip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        if not line.strip():
            if lines:
                yield start, "\n".join(lines)
            lines = []
            continue
        if not lines:
            start = i
        lines.append(line)
    if lines:
        yield start, "\n".join(lines)


def _words(text: str) -> list[str]:
    return [w for w in _NOT_WORD.split(text.lower()) if w]


@functools.lru_cache(maxsize=4096)
def _key(name: str) -> str:
    return " ".join(_words(name))


def mentioned(text: str, names: Iterable[str]) -> list[str]:
    """The `names` that `text` mentions, as a word or in backticks (`report_date` as
    "report date" too), in the order of `names`; linear in the text and the names."""
    words = _words(text)
    grams = {" ".join(words[i:i + n]) for n in range(1, 5) for i in range(len(words) - n + 1)}
    found: list[str] = []
    for name in names:
        key = _key(name)
        if key in _FUNCTION_WORDS:  # a field called `to` or `in`: only in backticks, never the word "to"
            if f"`{name}`" in text:
                found.append(name)
        elif key and key in grams:
            found.append(name)
    return found


_FUNCTION_WORDS = frozenset({"a", "an", "and", "as", "at", "be", "by", "do", "for", "from", "if", "in", "into", "is",
                             "it", "no", "not", "of", "on", "or", "so", "the", "then", "to", "up", "us", "we", "with"})


def gathered(text: str) -> list[tuple[str, str | None]]:
    """(name, the step the sentence names or None) for each "the results of step 2 ... as
    `tickets`" in `text`."""
    out: list[tuple[str, str | None]] = []
    for sentence in _SENTENCE.split(text):
        for m in _GATHERED.finditer(sentence):
            ref = _STEP_REF.search(sentence[: m.end()])
            out.append((m.group(1), ref.group(0) if ref else None))
    return out


_rx.save()
