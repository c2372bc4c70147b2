"""A Protocol Buffers schema (`flow.proto`) whose service's rpcs are the steps, read as the markdown it stands
for, line for line.

    syntax = "proto3";  package a.b;  import ...;  option ...;   ->  (nothing)
    message RunRequest {                                        ->  ## Inputs
      string pupil_ref = 1;  // e.g. "CC-2291"                  ->  - `pupil_ref` (string): e.g. "CC-2291"
      repeated string rooms = 2;                                ->  - `rooms` (array)
    }                                                           ->  (nothing)
    message Plan { string when = 1; }   (any other message)     ->  (nothing: an rpc's rough types)
    service Flow {                                              ->  ## Steps
      // whole run: 10 minutes                                  ->  whole run: 10 minutes     (the steps' lead)
      // 1. fetch-rows: day -> rows                              ->  1. fetch-rows: day -> rows
      //    retry 3 times                                        ->     - retry 3 times       (a rule of its own)
      //    a, b,                                                ->     a, b,                 (a line going on:
      //    c                                                    ->     c                      the same sentence)
      rpc FetchRows (Day) returns (Rows);                       ->  (nothing)
    }

A text is a schema when a line declares `service Name {` and a line in it `rpc Name (A) returns (B)`. The
message whose fields are the run's inputs is the one named for them (`...Request`, `...Input(s)`,
`...Params`, `...Parameters`, `...Args`, `...Arguments`, `...Options`) that no rpc returns, the first such;
each field is an input under the name written, its type said (`int32` an integer, `bool` a boolean,
`repeated` a list) and its trailing comment its description. The comment block above an rpc is that rpc's
step, when its first line is numbered (`1.`, `3a.`, `2)`): that line heads a list item and each line after
it is a rule of its own (a sub-bullet), unless the line before it ends mid-sentence (`,`, `+`, `-`, `(`,
`and`, `or`), when it goes on as the same text. Comment lines in the service not above a numbered line are
the steps' lead (a whole run's limit, the success check). Any other line keeps its text, so what is not
read is reported at its own line.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_SERVICE = _rx(r"^[ \t]*+service[ \t]++[A-Za-z_]\w{0,80}+[ \t]*+\{[ \t]*+(?://.*+)?$")
_RPC = _rx(r"^[ \t]*+rpc[ \t]++[A-Za-z_]\w{0,80}+[ \t]*+\([^()\n]{0,200}+\)[ \t]*+returns[ \t]*+\(")
_DECL = _rx(r"^[ \t]*+(?:syntax|edition|package|import|option)\b[^;\n]{0,300}+;[ \t]*+(?://.*+)?$")
_MESSAGE = _rx(r"^[ \t]*+message[ \t]++(?P<name>[A-Za-z_]\w{0,80}+)[ \t]*+\{(?P<rest>[^\n]*+)$")
_FIELD = _rx(r"^[ \t]*+(?P<label>repeated[ \t]++|optional[ \t]++|required[ \t]++)?(?P<type>[A-Za-z_][\w.]{0,80}+"
             r"|map[ \t]*+<[^<>\n]{1,120}+>)[ \t]++(?P<name>[A-Za-z_]\w{0,80}+)[ \t]*+=[ \t]*+\d{1,9}+[^;\n]{0,200}+;"
             r"[ \t]*+(?://[ \t]*+(?P<note>.*+))?$")
_RETURNS = _rx(r"\breturns[ \t]*+\([ \t]*+(?:stream[ \t]++)?(?P<name>[A-Za-z_]\w{0,80}+)[ \t]*+\)")
_INPUTS_NAME = _rx(r"(?:Request|Inputs?|Params|Parameters|Args|Arguments|Options)$")
_COMMENT = _rx(r"^[ \t]*+//+[ \t]?(?P<text>.*+)$")
_NUMBERED = _rx(r"^[ \t]*+\d{1,3}+[a-z]?[.)][ \t]")
_GOES_ON = _rx(r"(?i)(?:[,+(\-]|\band|\bor)[ \t]*+$")
_TYPES = {"string": "string", "bytes": "string", "bool": "boolean", "double": "number", "float": "number"}


def is_proto(text: str) -> bool:
    """Whether `text` is a protobuf schema with a service of rpcs (`service X {` and an `rpc A (B) returns (C)`)."""
    lines = text.splitlines()
    return any(_SERVICE.match(x) for x in lines) and any(_RPC.match(x) for x in lines)


def _type(label: str | None, written: str) -> str:
    if label and label.strip() == "repeated":
        return "array"
    if written.startswith("map"):
        return "object"
    if "int" in written or "fixed" in written:
        return "integer"
    return _TYPES.get(written, "object" if written[:1].isupper() else "string")


def _inputs_message(lines: list[str]) -> str | None:
    returned = {m.group("name") for x in lines if _RPC.match(x) for m in _RETURNS.finditer(x)}
    for x in lines:
        m = _MESSAGE.match(x)
        if m and _INPUTS_NAME.search(m.group("name")) and m.group("name") not in returned:
            return m.group("name")
    return None


def proto_markdown(text: str) -> str | None:
    """`text` lowered to markdown line for line when it is a protobuf schema with a service, else None."""
    if not is_proto(text):
        return None
    lines = text.splitlines()
    inputs = _inputs_message(lines)
    out: list[str] = []
    message: str | None = None  # the message whose body is open
    service = False
    in_step = False  # a numbered comment block is open
    for line in lines:
        comment = _COMMENT.match(line)
        if message is not None:
            field = _FIELD.match(line)
            if line.strip().startswith("}"):
                message = None
                out.append("")
            elif field and message == inputs:
                note = (field.group("note") or "").strip()
                out.append(f"- `{field.group('name')}` ({_type(field.group('label'), field.group('type'))})"
                           + (f": {note}" if note else ""))
            elif field or not line.strip():
                out.append("")
            else:
                out.append(comment.group("text") if comment else line)
            continue
        if (m := _MESSAGE.match(line)) is not None:
            closed = "}" in m.group("rest")
            message = None if closed else m.group("name")
            out.append("## Inputs" if m.group("name") == inputs and not closed else "")
            continue
        if _DECL.match(line):
            out.append("")
            continue
        if _SERVICE.match(line):
            service, in_step = True, False
            out.append("## Steps")
            continue
        if service and _RPC.match(line):
            in_step = False
            note = line.split("//", 1)[1].strip() if "//" in line else ""
            out.append(f"   {note}" if note else "")
            continue
        if service and line.strip() == "}":
            service = in_step = False
            out.append("")
            continue
        if comment is None:
            in_step = in_step and bool(line.strip())
            out.append(line)
            continue
        said = comment.group("text").rstrip()
        if not said.strip():
            in_step = False
            out.append("")
        elif service and _NUMBERED.match(said):
            in_step = True
            out.append(said.strip())
        elif in_step:
            goes_on = _GOES_ON.search(out[-1]) is not None
            out.append(("   " if goes_on else "   - ") + said.strip())
        else:
            out.append(said)
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


_rx.save()
