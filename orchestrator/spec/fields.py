"""Named values in spec prose: `Input:`/`Output:` lines and the `{ a: string }` notation.

    module_name (string)                          one field with a type
    existing_docs (string, markdown), docs_found (boolean)
    module_name, existing_docs                    names only
    analysis (JSON): functions, classes, ...      the step's whole output, an object
    issues (list of strings)                      an array of strings
    step-2.analysis                               a reference to an earlier step's output
    { existing_docs: string, docs_found: boolean, functions: [...] }

Type words map to JSON Schema type names (`TYPE_WORDS`); other words in the
parentheses become the field's description, so nothing is lost.
"""

from __future__ import annotations

import re

from orchestrator.spec.model import FieldSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.steps37 import phrase_fields

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

TYPE_WORDS: dict[str, str] = {
    **dict.fromkeys(
        ("string", "str", "text", "markdown", "md", "html", "url", "uri", "path", "filename", "folder",
         "directory", "dir"),
        "string",
    ),
    **dict.fromkeys(("email", "date", "datetime", "timestamp", "yaml"), "string"),
    **dict.fromkeys(("boolean", "bool", "flag"), "boolean"),
    **dict.fromkeys(("json", "object", "dict", "dictionary", "mapping", "map", "record"), "object"),
    **dict.fromkeys(("list", "array", "sequence", "tuple", "set"), "array"),
    **dict.fromkeys(("int", "integer", "count"), "integer"),
    **dict.fromkeys(("number", "float", "decimal", "double", "numeric"), "number"),
    **dict.fromkeys(("null", "none"), "null"),
}
_FORMAT_WORDS = {"markdown", "md", "html", "url", "uri", "path", "filename", "email", "date",
                 "datetime", "timestamp", "yaml", "folder", "directory", "dir"}

_NAME = r"[A-Za-z_][A-Za-z0-9_-]*"
NUMBER_WORDS: dict[str, int] = {
    w: i for i, w in enumerate(
        ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"])
}
ORDINAL_WORDS: dict[str, int] = {
    w: i + 1 for i, w in enumerate(
        ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth"])
}
# the words people number their steps with ("Part 3", "Phase two", "Milestone 2")
STEP_WORDS: tuple[str, ...] = ("step", "stage", "phase", "task", "part", "milestone", "activity")
STEP_WORD = r"(?:" + "|".join(STEP_WORDS) + r")"
NUMBER = r"(?:\d+|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")"
_STEP_REF = _rx(rf"(?i)^\s*{STEP_WORD}[\s_-]*({NUMBER})\s*$")
_DOTTED = _rx(rf"^({_NAME}(?:\s+\d+)?)\.({_NAME}(?:\.{_NAME})*)$")
_ARRAY_OF = _rx(r"(?i)^(?:list|array|sequence|set)\s+of\s+(\w+?)s?$")
_SUFFIX_ARRAY = _rx(r"^(\w+)\s*\[\s*\]$")
_WHOLE = _rx(rf"^`?({_NAME})`?\s*(?:\(([^()]*)\))?\s*:\s*(\S.*)$")
_ITEM = _rx(rf"^`?({_NAME}(?:\.{_NAME})*|step\s+\d+\.{_NAME})`?\s*(?:\((.*)\))?\s*(.*)$", re.I)
_WORD = _rx(r"[\w-]+")


def number_of(word: str) -> int | None:
    """`12` → 12, `three` → 3; anything else → None."""
    w = word.strip().lower()
    if w.isdigit():
        return int(w)
    return NUMBER_WORDS.get(w)


def step_id(text: str) -> str | None:
    """`Step 2`, `step-2`, `step2`, `Stage 2`, `step two` → `step-2`; anything else → None."""
    m = _STEP_REF.match(text.replace("`", ""))
    n = number_of(m.group(1)) if m else None
    return f"step-{n}" if n is not None else None


def type_of(word: str) -> str | None:
    """The JSON Schema type a word names, or None."""
    w = word.strip().strip("`").lower()
    if w.endswith("s") and w[:-1] in TYPE_WORDS and w not in TYPE_WORDS:
        w = w[:-1]
    return TYPE_WORDS.get(w)


def slug(text: str) -> str:
    """`return types` → `return_types`; keeps letters, digits, `_` and `-`."""
    return "_".join(_WORD.findall(text.strip().lower().replace("`", "")))


def split_top(text: str, seps: str = ",") -> list[str]:
    """Split on separators that are not inside (), [], {} or backticks."""
    parts: list[str] = []
    depth = 0
    tick = False
    cur: list[str] = []
    for ch in text:
        if ch == "`":
            tick = not tick
        elif not tick and ch in "([{":
            depth += 1
        elif not tick and ch in ")]}":
            depth = max(depth - 1, 0)
        if ch in seps and depth == 0 and not tick:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur).strip())
    return [p for p in parts if p]


def reference_of(text: str) -> str | None:
    """The reference a dotted name is (`step-2.analysis` -> `steps.step-2.output.analysis`), else None."""
    return _reference(text)[1]


def _reference(name: str) -> tuple[str, str | None]:
    """`step-2.analysis` → (`analysis`, `steps.step-2.output.analysis`); `inputs.x` → (`x`, `inputs.x`)."""
    m = _DOTTED.match(name)
    if not m:
        return name, None
    head, rest = m.group(1), m.group(2)
    sid = step_id(head)
    if sid is not None:
        return rest.split(".")[-1], f"steps.{sid}.output.{rest}"
    if head.lower() == "inputs":
        return rest.split(".")[-1], f"inputs.{rest}"
    return name, None


_FROM_STEP = _rx(rf"(?i)^(?:from\s+|of\s+|output\s+of\s+)?({STEP_WORD}[\s_-]*{NUMBER})(?:['’]s)?(?:\s+output)?$")


def _source_qualifier(qualifiers: str) -> tuple[str, str] | None:
    """A qualifier naming the step a value comes from: (`step-N`, the other qualifiers)."""
    parts = split_top(qualifiers)
    for i, part in enumerate(parts):
        m = _FROM_STEP.match(part.strip().strip("`"))
        sid = step_id(m.group(1)) if m else None
        if sid is not None:
            return sid, ", ".join(parts[:i] + parts[i + 1:])
    return None


def _short_qualifier(qualifiers: str, name: str) -> tuple[str, str] | None:
    """A qualifier that is a short source (`1.course`, `all of 2`, `#1`): (the source, the others)."""
    parts = split_top(qualifiers)
    for i, part in enumerate(parts):
        found = source_of(part, name, bare_number=False)
        if found is not None and not found.startswith("inputs."):
            return found, ", ".join(parts[:i] + parts[i + 1:])
    return None


_FROM_INPUTS = _rx(r"(?i)^(?:from\s+(?:the\s+)?)?(?:workflow\s+inputs?|inputs?)$")


def _input_qualifier(qualifiers: str) -> str | None:
    """`(workflow input)`, `(from the inputs)`: the other qualifiers; None when none says so."""
    parts = split_top(qualifiers)
    for i, part in enumerate(parts):
        if _FROM_INPUTS.match(part.strip().strip("`")):
            return ", ".join(parts[:i] + parts[i + 1:])
    return None


def qualify(
    qualifiers: str, name: str, src: Source, line: int
) -> tuple[str | None, str | None, bool, list[str]]:
    """Read `(string, markdown, optional)` into (type, items, required, description words)."""
    typ: str | None = None
    items: str | None = None
    required = True
    notes: list[str] = []
    for part in split_top(qualifiers):
        low = part.lower().strip("` ")
        arr = _ARRAY_OF.match(low) or _SUFFIX_ARRAY.match(low)
        if low == "optional":
            required = False
        elif low == "required":
            continue
        elif arr and typ is None:
            typ, items = "array", type_of(arr.group(1)) or arr.group(1)
        elif type_of(low) is not None and typ is None:
            typ = type_of(low)
            if low in _FORMAT_WORDS:
                notes.append(low)
        else:
            notes.append(part)
    if typ is None and re.fullmatch(r"\s*[\w.-]+(?:\s*(?:\||/)\s*[\w.-]+)+\s*", qualifiers):
        typ, notes = "string", ["|".join(v.strip() for v in re.split(r"[|/]", qualifiers))]  # `(bronze / silver / gold)`
    elif typ is None and qualifiers.strip():
        src.warn(line, f"field '{name}': no type read in '({qualifiers.strip()})'; kept as description",
                 "spec.field-type")
    return typ, items, required, notes


_AND_NAMES = _rx(r"^\s*+`?[A-Za-z_]\w*+`?(?:\s*+(?:,\s*+(?:and\s++)?+|and\s++|&\s*+)`?[A-Za-z_]\w*+`?)++\s*+\.?$")
_QUOTED_STEP = _rx(r"(?i)[\"“”'‘’]((?:step|stage|phase|task)\s*+\d++)[\"“”'‘’]")


def parse_fields(
    text: str, src: Source, line: int, *, output: bool = False, seps: str = ","
) -> tuple[FieldSpec, ...]:
    """Read an Input/Output line into fields; unreadable items become warnings."""
    text = _QUOTED_STEP.sub(r"\1", text.strip())  # `scores from "step 1"`: the step named in quotes
    if _AND_NAMES.match(text):  # "`shift_date` and `team`": a list of names
        text = ", ".join(n for n in re.findall(r"[A-Za-z_]\w*", text) if n != "and")
    if not text or text.lower() in {"none", "nothing", "-", "n/a"}:
        return ()
    where = src.where(line)
    whole = _WHOLE.match(text)
    if whole and "," not in text.split(":", 1)[0]:
        name, quals, rest = whole.group(1), whole.group(2) or "", whole.group(3)
        typ, items, required, notes = qualify(quals, name, src, line)
        keys = tuple(k for k in (slug(p) for p in split_top(rest)) if k)
        return (
            FieldSpec(
                name=name,
                type=typ or "object",
                items=items,
                description=", ".join([*notes, rest.strip()]),
                required=required,
                keys=keys,
                whole_output=output,
                where=where,
            ),
        )
    fields: list[FieldSpec] = []
    for part in (one for whole_part in split_top(text, seps) for one in _shared_source(whole_part)):
        assigned = assigned_source(part)
        if assigned is not None:  # `translations = all step 2 results`
            fields.append(FieldSpec(name=assigned[0], source=assigned[1], where=where))
            continue
        m = _ITEM.match(part)
        if not m or (m.group(3).strip() and not m.group(3).strip().startswith(("-", "—", "–"))
                     and source_of(re.sub(r"(?i)^\s*from\s", "", m.group(3)), "x") is None):
            if (said := phrase_fields(part, src, line)) is not None:  # "ready lifts (#2)" (`spec.steps37`)
                fields.extend(said)
                continue
            src.warn(line, f"'{part}' is not read as a field name; write `name (type)`",
                     "spec.field")
            continue
        raw_name = m.group(1).replace(" ", "-")
        name, ref = _reference(raw_name)
        quals = m.group(2) or ""
        source = _source_qualifier(quals)
        short = _short_qualifier(quals, name) if source is None and ref is None else None
        tail_source = source_of(m.group(3), name) if re.match(r"(?i)\s*from\s", m.group(3)) else None
        if source is not None and ref is None:  # `artifact_id (step one)`, `rows (from Step 2)`
            ref = f"steps.{source[0]}.output.{name}"
            quals = source[1]
        elif short is not None:  # `course (1.course)`, `results (all of 2)`, `raw (input)`
            ref, quals = short
        elif tail_source is not None and ref is None:  # `service from #1`
            ref = tail_source
        elif ref is None and (given := _input_qualifier(quals)) is not None:  # `n (workflow input)`
            ref, quals = f"inputs.{name}", given
        typ, items, required, notes = qualify(quals, name, src, line)
        tail = "" if tail_source is not None else m.group(3).strip().lstrip("-—– ").strip()
        fields.append(
            FieldSpec(
                name=name,
                type=typ,
                items=items,
                description=", ".join([*notes, tail] if tail else notes),
                required=required,
                source=ref,
                where=where,
            )
        )
    return tuple(fields)


_SHARED_SOURCE = _rx(rf"(?i)^\s*((?:`?{_NAME}`?\s*(?:\+|&|\band\b)\s*)+`?{_NAME}`?)\s+(from\s+\S.*)$")


def _shared_source(part: str) -> list[str]:
    """`savings_gb + count from #4`, `a and b from step 2`: a field each, all from that source."""
    m = _SHARED_SOURCE.match(part)
    if m is None:
        return [part]
    names = [n.strip(" `") for n in re.split(r"(?i)(?:(?<!\s)\s+)?(?:\+|&|\band\b)\s*+", m.group(1)) if n.strip(" `")]
    return [f"{name} {m.group(2)}" for name in names]


_ASSIGNED = _rx(rf"^\s*`?({_NAME})`?\s*(?:=|<-|←|:=|is)\s+(.+?)\s*$")
_WHOLE_OF = _rx(
    rf"(?i)^(?:all\s+(?:of\s+)?)?(?:the\s+)?(?:(?:results?|outputs?|items?)\s+(?:of|from)\s+(?:the\s+)?(?P<a>{STEP_WORD}[\s_-]*{NUMBER})"
    rf"|(?P<b>{STEP_WORD}[\s_-]*{NUMBER})(?:['’]s)?\s+(?:results?|outputs?|items?))"
    r"(?:\s*,?\s*(?:gathered|collected|as a list|together))?$")


def assigned_source(part: str) -> tuple[str, str] | None:
    """`name = all step 2 results` / `name <- step 2's output` → (name, `steps.step-2.output`, the
    whole output: a For each step's results gathered); `name = step-2.field` → that field;
    None when the part is not an assignment from a step."""
    m = _ASSIGNED.match(part)
    if m is None:
        return None
    value = m.group(2).strip().strip("`").strip()
    from orchestrator.spec.joined_words40 import joined_source

    if (joined := joined_source(value)) is not None:  # `a = step-1.x + step-2.y`: one list, in order
        return m.group(1), joined
    whole = _WHOLE_OF.match(value)
    if whole is not None:
        sid = step_id(whole.group("a") or whole.group("b"))
        return (m.group(1), f"steps.{sid}.output") if sid else None
    _, ref = _reference(value)
    return (m.group(1), ref) if ref is not None else None


def parse_braces(text: str, src: Source, line: int) -> tuple[FieldSpec, ...] | None:
    """`{ a: string, b: [...], c?: boolean }` → fields; None when `text` is not braced."""
    body = text.strip()
    if not (body.startswith("{") and body.endswith("}")):
        return None
    fields: list[FieldSpec] = []
    for part in split_top(body[1:-1]):
        name, _, value = part.partition(":")
        name = name.strip().strip("`\"'")
        required = not name.endswith("?")
        name = name.rstrip("?")
        if not re.fullmatch(_NAME, name):
            src.warn(line, f"'{part}' is not read as `name: type`", "spec.field")
            continue
        typ, items = _value_type(value.strip())
        if value.strip() and typ is None:
            src.warn(line, f"field '{name}': type '{value.strip()}' not understood; left untyped",
                     "spec.field-type")
        fields.append(FieldSpec(name=name, type=typ, items=items, required=required,
                                description=value.strip() if typ is None else "",
                                where=src.where(line)))
    return tuple(fields)


def _value_type(value: str) -> tuple[str | None, str | None]:
    v = value.strip().strip("`")
    if v.startswith("[") and v.endswith("]"):
        inner = v[1:-1].strip()
        return "array", (type_of(inner) if inner and inner != "..." else None)
    if v.startswith("{") and v.endswith("}"):
        return "object", None
    arr = _ARRAY_OF.match(v.lower()) or _SUFFIX_ARRAY.match(v.lower())
    if arr:
        return "array", type_of(arr.group(1))
    if not v or v == "...":
        return None, None
    return type_of(v.split("|")[0].strip()), None


# --- where a value comes from, written short ------------------------------------------------
#
#     raw_alert ← input         service ← #1          level ← #1.level      course (1.course)
#     name <- step 2            results (all of 2)    service ← parse.service  name from #2

_INPUT_WORDS = _rx(r"(?i)^(?:from\s+)?(?:the\s+)?(?:workflow\s+|spec\s+|run\s+)?(?:inputs?|parameters?|params?)$")
_NUMBERED = _rx(rf"(?i)^(?:from\s+)?(?:(?:the\s+)?(?:output|result)s?\s+(?:of|from)\s+)?(?:(?:{STEP_WORD})[\s_-]*|#)?"
                rf"({NUMBER})(?:['’]s)?(?:\s+(?:output|result)s?)?$")
_NUMBERED_FIELD = _rx(
    rf"(?i)^(?:from\s+)?(?:(?:{STEP_WORD})[\s_-]*|#)?(\d+|{NUMBER}(?=\s*[.']))\s*(?:\.|['’]s\s+)({_NAME}(?:\.{_NAME})*)$")
_ALL_OF = _rx(
    rf"(?i)^(?:(?:from\s+)?(?:all|every|each)\s+(?:(?:of\s+)?(?:the\s+)?(?:results?|outputs?|items?)\s+)?(?:of|from)\s+"
    rf"(?:the\s+)?(?:{STEP_WORD}[\s_-]*|#)?({NUMBER})|(?:{STEP_WORD}[\s_-]*|#)?(\d+)\s*,?\s*(?:gathered|all\s+results))"
    r"(?:\s*,?\s*(?:gathered|collected|as a list|together))?$")
_NAMED_FIELD = _rx(rf"^(?:from\s+)?({_NAME})\.({_NAME})$")


def source_of(value: str, name: str, *, bare_number: bool = True) -> str | None:
    """Where a short source says `name` comes from (the forms above): `inputs.<name>`,
    `steps.step-N.output.<field>` (the field `name` when none is written), `steps.step-N.output`
    for all the results of a step (a For each step's, gathered), `steps.<step name>.output.<field>`
    for `parse.service` (the name resolved once the steps are known); None for anything else.
    `bare_number`: a number alone (`name ← 2`) is a step too (not in brackets: `(2)`)."""
    v = " ".join(value.strip().strip("`").strip().rstrip(".").split())
    if not v:
        return None
    if _INPUT_WORDS.match(v):
        return f"inputs.{name}"
    m = _ALL_OF.match(v)
    if m is not None:
        n = number_of(m.group(1) or m.group(2))
        return f"steps.step-{n}.output" if n is not None else None
    m = _NUMBERED_FIELD.match(v)
    if m is not None and m.group(2).lower() not in ("output", "outputs", "result", "results") \
            and (n := number_of(m.group(1))) is not None:
        return f"steps.step-{n}.output.{m.group(2)}"
    m = _NUMBERED.match(v)
    if m is not None and (bare_number or not v.isdigit()) and (n := number_of(m.group(1))) is not None:
        return f"steps.step-{n}.output.{name}"
    m = _NAMED_FIELD.match(v)
    if m is not None and m.group(1).lower() not in ("inputs", "input", "steps", "step"):
        return f"steps.{m.group(1)}.output.{m.group(2)}"
    return None


_SHORT_REF = _rx(r"(?i)(?<![\w.#])(?:#(\d+)(?:\.|\s+)(?=[A-Za-z_])|(\d+)\.(?=[A-Za-z_]))")


def spell_step_refs(text: str) -> str:
    """`#3 severity ≥ 8` / `3.failing > 0` → `step 3 severity ≥ 8` / `step 3 failing > 0`: the short
    step references of a condition in the words the condition reader knows."""
    return _SHORT_REF.sub(lambda m: f"step {m.group(1) or m.group(2)} ", text)


_rx.save()
