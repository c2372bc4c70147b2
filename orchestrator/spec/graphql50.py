"""A GraphQL schema (SDL, `flow.graphql`) whose fields carry a skill directive, read as the markdown it stands
for, line for line (as `proto49` reads a protobuf service).

    input RunInput {                                      ->  ## Inputs
      siteCode: String!   # e.g. LDS-2                    ->  - `siteCode` (string): e.g. LDS-2
      rooms: [String!]                                    ->  - `rooms` (array)
    }                                                     ->  (nothing)
    type Flow {                                           ->  ## Steps
      # a and b start together                            ->  a and b start together     (the next step's lead)
      fetch(day: $day): Rows @skill(name: "fetch-rows")   ->  1. fetch: `fetch-rows` with day = `$day`
        # retry 3 times                                   ->     - retry 3 times         (a rule of its own)
      score(rows: fetch.rows, cap: 5) @skill(name: "s")   ->  2. score: `s` with rows = `fetch.rows`, cap = 5
    }
    type Rows { rows: [String] }   (any other type)       ->  (nothing: a step's rough return type)

A text is such a schema when a line declares `type Name {` (or `input`, `interface`) and a field line carries a
`@skill(name: "x")` directive (`@uses`, `@step`, `@task`, `@tool`, `@run`, `@runs` alike; the name bare or
under `name:` / `skill:`). The field is the step, named as the field, running that skill; each argument is an
input of the skill under its own name: `$x` the workflow input `x`, `a.b` step `a`'s output `b`, a quoted
string, number or `true` / `false` a literal. The `input` type whose fields the steps take as `$x` (else the
first `input` type) is the Inputs: each field one, its type said (`Int` an integer, `[T]` a list), its `#`
comment the description. A `#` comment indented under a step's field is that step's rule, each line its own
unless the line before ends mid-sentence (`,`, `and`, `(`); a comment at a field's indent is the lead of the
step below it (`these two start together`); comments outside the types keep their text (a whole run's
limit, the success check), each line a sentence of its own unless it ends mid-sentence (round 52). Other types, `schema`, `scalar`, `enum`, `union` and `directive` lines are not read.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_OPEN = _rx(r"^[ \t]*+(?:extend[ \t]++)?(?P<kind>type|input|interface)[ \t]++(?P<name>[A-Za-z_]\w{0,80}+)"
            r"[^{}\n#]{0,200}+\{(?P<rest>[^\n]*+)$")
_OTHER = _rx(r"^[ \t]*+(?:schema|scalar|enum|union|directive)\b")
_DIRECTIVE = _rx(r"@(?:skill|uses|step|task|tool|runs?)[ \t]*+\([ \t]*+(?:(?:name|skill)[ \t]*+:[ \t]*+)?"
                 r"\"(?P<skill>[^\"\n]{1,120}+)\"[^()\n]{0,200}+\)")
_FIELD = _rx(r"^(?P<indent>[ \t]*+)(?P<name>[A-Za-z_]\w{0,80}+)[ \t]*+(?:\((?P<args>[^()\n]{0,1000}+)\))?[ \t]*+:")
_INPUT_FIELD = _rx(r"^[ \t]*+(?P<name>[A-Za-z_]\w{0,80}+)[ \t]*+:[ \t]*+(?P<type>[\[\]\w!]{1,120}+)"
                   r"[ \t]*+(?:=[^#\n]{0,200}+)?(?:#[ \t]*+(?P<note>.*+))?$")
_COMMENT = _rx(r"^(?P<indent>[ \t]*+)#[ \t]?(?P<text>.*+)$")
_VAR = _rx(r"\$(?P<name>[A-Za-z_]\w{0,80}+)")
_REF = _rx(r"[A-Za-z_]\w{0,80}+(?:\.[A-Za-z_]\w{0,80}+)++")
_GOES_ON = _rx(r"(?i)(?:[,+(\-]|\band|\bor)[ \t]*+$")
_DOC = _rx(r"^[ \t]*+(?:\"[^\"\n]*+\"|\"\"\"[^\n]*+)[ \t]*+$")
_TYPES = {"String": "string", "ID": "string", "Boolean": "boolean", "Float": "number", "Int": "integer"}


def is_graphql(text: str) -> bool:
    """Whether `text` is a GraphQL schema with a type whose field carries a skill directive."""
    lines = text.splitlines()
    return any(_OPEN.match(x) for x in lines) and any(_FIELD.match(x) and _DIRECTIVE.search(x) for x in lines)


def _type(written: str) -> str:
    written = written.strip()
    if written.startswith("["):
        return "array"
    return _TYPES.get(written.rstrip("!").strip(), "object")


def _split(args: str) -> list[str]:
    """An argument list split at its top-level commas (never inside quotes or brackets)."""
    out: list[str] = []
    depth, quoted, start = 0, False, 0
    for i, c in enumerate(args):
        if c == '"':
            quoted = not quoted
        elif not quoted and c in "[{":
            depth += 1
        elif not quoted and c in "]}":
            depth -= 1
        elif not quoted and depth == 0 and c == ",":
            out.append(args[start:i])
            start = i + 1
    out.append(args[start:])
    return [a.strip() for a in out if a.strip()]


def _value(v: str) -> str:
    if _VAR.fullmatch(v) or _REF.fullmatch(v):
        return f"`{v}`"
    return v


def _step(line: str, number: int) -> str:
    field = _FIELD.match(line)
    skill = _DIRECTIVE.search(line)
    assert field is not None and skill is not None
    pairs = []
    for arg in _split(field.group("args") or ""):
        name, colon, value = arg.partition(":")
        pairs.append(f"{name.strip()} = {_value(value.strip())}" if colon else arg)
    out = f"{number}. {field.group('name')}: `{skill.group('skill')}`"
    out += f" with {', '.join(pairs)}" if pairs else ""
    tail = line[skill.end():].split("#", 1)
    return out + (f"; {tail[1].strip()}" if len(tail) > 1 and tail[1].strip() else "")


def _inputs_type(lines: list[str]) -> str | None:
    taken = {m.group("name") for x in lines if _DIRECTIVE.search(x) for m in _VAR.finditer(x)}
    first: str | None = None
    current: str | None = None
    for x in lines:
        if (m := _OPEN.match(x)) is not None:
            current = m.group("name") if m.group("kind") == "input" else None
            first = first or current
        elif current and (f := _INPUT_FIELD.match(x)) and f.group("name") in taken:
            return current
        elif x.strip().startswith("}"):
            current = None
    return first


def graphql_markdown(text: str) -> str | None:
    """`text` lowered to markdown line for line when it is a GraphQL schema whose fields run skills, else None."""
    if not is_graphql(text):
        return None
    lines = text.splitlines()
    inputs = _inputs_type(lines)
    out: list[str] = []
    body: str | None = None  # "inputs", "steps" or "other": the type whose body is open
    number = 0
    rule_indent = -1  # a step's field indent: a comment deeper than it is the step's rule
    for start, line in enumerate(lines):
        comment = _COMMENT.match(line)
        if body is None:
            if (m := _OPEN.match(line)) is not None:
                closed = "}" in m.group("rest")
                name = m.group("name")
                steps = any(_DIRECTIVE.search(x) and _FIELD.match(x) for x in _body(lines, start))
                if not closed:
                    body = "inputs" if name == inputs and m.group("kind") == "input" else "steps" if steps else "other"
                heading = {"inputs": "## Inputs", "steps": "## Steps"}.get(body or "", "")
                at = len(out) - 1  # the comments right above the steps' type are their lead (a run's limit)
                while heading == "## Steps" and at >= 0 and out[at].strip() and not out[at].startswith("#"):
                    at -= 1
                if heading == "## Steps" and at >= 0 and at < len(out) - 1 and not out[at].strip():
                    out[at], heading = heading, ""
                out.append(heading)
            elif _OTHER.match(line) or _DOC.match(line):
                out.append("")
            elif comment is not None:
                out.append(_own_sentence(comment.group("text"), lines, start))
            else:
                out.append(line)
            continue
        if line.strip().startswith("}"):
            body, rule_indent = None, -1
            out.append("")
        elif comment is not None:
            said = comment.group("text").strip()
            deeper = rule_indent >= 0 and len(comment.group("indent").expandtabs()) > rule_indent
            if body != "steps" or not said:
                out.append("" if body != "steps" else said)
                rule_indent = -1 if not said else rule_indent
            elif deeper:
                goes_on = _GOES_ON.search(out[-1]) is not None
                out.append(("   " if goes_on else "   - ") + said)
            else:
                rule_indent = -1
                out.append(said)
        elif body == "inputs" and (f := _INPUT_FIELD.match(line)) is not None:
            note = (f.group("note") or "").strip()
            out.append(f"- `{f.group('name')}` ({_type(f.group('type'))})" + (f": {note}" if note else ""))
        elif body == "steps" and _FIELD.match(line) and _DIRECTIVE.search(line):
            number += 1
            field = _FIELD.match(line)
            rule_indent = len(field.group("indent").expandtabs()) if field else 0
            out.append(_step(line, number))
        elif body == "steps" and line.strip():
            out.append(line)  # a field running no skill: kept, so it is reported at its line
        else:
            out.append("")
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


def _own_sentence(said: str, lines: list[str], at: int) -> str:
    """A `#` comment outside the types ended as a sentence of its own when the next line is another comment: two
    comment lines are two remarks ("whole run gets 10 minutes max" / "it's done when post.posted comes back true"),
    not one sentence, unless the first ends mid-sentence (`,`, `and`, `(`)."""
    text = said.rstrip()
    following = _COMMENT.match(lines[at + 1]) if at > 0 and at + 1 < len(lines) else None
    if not text or following is None or not following.group("text").strip() or text[-1] in ".!?:;" \
            or _GOES_ON.search(text):
        return said
    return text + "."


def _body(lines: list[str], start: int) -> list[str]:
    """The lines of the type opened at `start`, up to its closing `}`."""
    out: list[str] = []
    for x in lines[start + 1:]:
        if x.strip().startswith("}"):
            break
        out.append(x)
    return out


_rx.save()
