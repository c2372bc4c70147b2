"""An SQL script whose `--` comments carry the process: a Flyway or Liquibase migration, a psql
script, a PL/pgSQL function's header.

    -- run with:   psql -v week=2026-W48 -v region=north -f V48__weekly.sql     inputs week, region
    --   :region = 'north' or 'south'                                          input region, its description
    \\set discount_pct 20                                                       a constant: `:discount_pct` is 20
    -- 3. `winback-offer` on that list, discount_pct = 20, code_prefix = 'X'   the step's own values
    --    SET statement_timeout = '90s' for this one                           the step's timeout, 90 s
    -- 5. ... whatever 3 or 4 handed back, as `sends`                          `sends` from step 3's or
    --    (both of them call that field `messages`)                            step 4's `messages`

The comment gutter is taken off by `spec.shape_comment`; what is read here:

- the inputs (`psql_inputs`): the psql variables a script is given (`-v name=value` / `--set name=value`
  on a `psql` command line in the text) and those its comments describe as `:name = ...` / `:name - ...`
  a line; each warned with the line that said it. Only in an SQL script (`is_sql`): a `.sql` file or a
  text that opens with `--liquibase formatted sql`.
- a step's own values (`step_values`): `name = value` in the step's text, the name written as one (with
  `_`, or in backticks) and the value a number, a quoted text or true/false; and each `\\set name value`
  of the script whose `:name` the step's text uses. A sentence about failure ("if ... locked: keep going
  with logged = false") holds a fallback's values, not inputs, and `SET` statements are settings: neither
  is read here. Warned (a reading) at the step.
- `SET [LOCAL] statement_timeout = '90s'` (or `TO 90000`, milliseconds when no unit is written) in a
  step's text: the step's timeout, its words replaced in the text the policy reader sees by
  "timeout <n>s" so they are read once, as a timeout, not as values to go on with.
- a renamed join (`renamed_join`, any document kind): "whatever 3 or 4 handed back, as `sends` (both
  of them call that field `messages`)": `sends` taken from step 3's or step 4's `messages`, whichever ran
  (`spec.either_input`, `plan.join_sources`).

A `.sql` file with no numbered comment is no workflow: the markdown reader refuses it ("no steps").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from orchestrator.spec.input_prose import literal_value
from orchestrator.spec.model import InputSpec, Reading, SpecText, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

if TYPE_CHECKING:
    from orchestrator.spec.either_input import EitherInput

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_LIQUIBASE = _rx(r"(?i)\A\s*+--\s*+liquibase\s++formatted\s++sql")
_PSQL = _rx(r"(?<![\w-])psql(?![\w-])")
_V_FLAG = _rx(r"(?<![\w-])(?:-v|--set|--variable)[ \t=]++([A-Za-z_]\w*+)=(\"[^\"\n]*+\"|'[^'\n]*+'|[^\s\"']*+)")
_DESCRIBED = _rx(r"^[ \t]*+(?:--|\*++|//)[ \t]*+:['\"]?+([A-Za-z_]\w*+)['\"]?+[ \t]++(?:=|-|–|—|:)[ \t]*+(.*+)$")
_META_SET = _rx(r"^[ \t]*+\\set[ \t]++([A-Za-z_]\w*+)[ \t]++(\"[^\"\n]*+\"|'[^'\n]*+'|\S++)[ \t]*+$")
_PLACEHOLDER = r"(?<![:\w]):['\"]?+{name}(?![\w])"
# `name = value` in a step's text: a name written as one (`_` in it, or backticks), a literal value
_PAIR = _rx(r"(?<![\w`.])(?:`([A-Za-z_]\w*+)`|([A-Za-z][A-Za-z0-9]*+(?:_[A-Za-z0-9]++)++))[ \t]*+=(?!=)[ \t]*+"
            r"(\"[^\"\n]{0,80}+\"|'[^'\n]{0,80}+'|-?\d++(?:\.\d++)?+(?![\w.])|true(?!\w)|false(?!\w))")
_SET_BEFORE = _rx(r"(?i)(?<![\w])set(?:[ \t]++(?:local|session))?+[ \t]++$")
_FAILURE_WORDS = _rx(r"(?i)(?<![\w-])(?:fail\w*+|errors?|locked|down|keep\s++going|carry\s++on|go\s++on\s++with|"
                     r"continue\s++with|fall\s*+back|instead|otherwise|if\s++it\s++(?:breaks|dies))(?![\w-])")
_STOP = _rx(r"[.!?;:](?:\s++|$)|\n")
_TIMEOUT = _rx(r"(?i)(?<![\w])SET(?:[ \t]++(?:LOCAL|SESSION))?+[ \t]++statement_timeout[ \t]*+(?:=|TO)[ \t]*+"
               r"['\"]?+(\d++(?:\.\d++)?+)(?:[ \t]*+(ms|s|sec|min|h)(?![\w]))?+['\"]?+;?+")
_UNIT = {"ms": 0.001, "s": 1.0, "sec": 1.0, "min": 60.0, "h": 3600.0}
# "whatever 3 or 4 handed back, as `sends` (both of them call that field `messages`)"
_RENAMED = _rx(r"(?i)(?<![\w-])(?:whatever|whichever|what)[ \t]++(?:of[ \t]++)?+(?:steps?[ \t]++)?+(\d{1,3})[ \t]++"
               r"(?:or|/)[ \t]++(?:steps?[ \t]++)?+(\d{1,3})[ \t]++[a-z][a-z \t]{0,30}?,?+[ \t]*+as[ \t]++`([A-Za-z_]\w*+)`"
               r"[^`()\n]{0,40}?\([^()`]{0,60}?(?:call|name)s?+[ \t]++(?:that|the|it|this)[ \t]*+(?:field|value|output)?+"
               r"[ \t]*+`([A-Za-z_]\w*+)`")


def is_sql(src: Source) -> bool:
    """A `.sql` file, or a text that says it is Liquibase's formatted SQL."""
    return src.path.lower().endswith(".sql") or _LIQUIBASE.match(src.text) is not None


def psql_inputs(src: Source) -> tuple[InputSpec, ...] | None:
    """The psql variables an SQL script is given, in the order first said (module docstring); None when it
    names none or is no SQL script."""
    if not is_sql(src):
        return None
    found: dict[str, InputSpec] = {}
    for number, raw in enumerate(src.text.splitlines(), 1):
        if _PSQL.search(raw):
            for flag in _V_FLAG.finditer(raw):
                found.setdefault(flag.group(1), InputSpec(name=flag.group(1), where=src.where(number)))
        described = _DESCRIBED.match(raw)
        if described is not None:
            name, said = described.group(1), described.group(2).strip()
            old = found.get(name)
            found[name] = InputSpec(name=name, description=said, where=old.where if old else src.where(number))
    if not found:
        return None
    first = min(int(i.where.rsplit(":", 1)[1]) for i in found.values())
    names = ", ".join(found)
    src.warn(first, f"the psql variables {', '.join(f'`:{n}`' for n in found)} read as the workflow's inputs "
                    f"{names}; to say so, write `-- Inputs: {names}`", "spec.reading")
    return tuple(found.values())


_STATEMENT = _rx(r"(?im)^[ \t]*+((?:alter|create|drop|insert|update|delete|select|grant|truncate|with)[ \t]++[\w ]{0,30}+)")


def no_steps(src: Source) -> str | None:
    """The refusal of an SQL script with no workflow in its comments (module docstring); None for other texts."""
    if not is_sql(src):
        return None
    said = [m.group(1).split()[0].upper() for m in _STATEMENT.finditer(src.text)][:4]
    what = f" ({', '.join(dict.fromkeys(said))} ...)" if said else ""
    return (f"an SQL script with no workflow in its comments: its statements{what} are SQL, not steps; write the "
            "process as numbered `--` comments that name each step's skill in backticks "
            "(`-- 1. `load-rows` with :day`)")


def _constants(src: Source) -> dict[str, object]:
    """`\\set name value` lines of the script: name -> value."""
    out: dict[str, object] = {}
    for raw in src.text.splitlines():
        m = _META_SET.match(raw)
        if m is not None:
            found, value = literal_value(m.group(2))
            out.setdefault(m.group(1), value if found else m.group(2))
    return out


def _pairs(text: str) -> dict[str, object]:
    """`name = value` pairs of `text` outside failure sentences and SET statements."""
    out: dict[str, object] = {}
    for part in _STOP.split(text):
        if not part.strip() or _FAILURE_WORDS.search(part):
            continue
        for m in _PAIR.finditer(part):
            if _SET_BEFORE.search(part, 0, m.start()):
                continue
            found, value = literal_value(m.group(3))
            if found:
                out.setdefault(m.group(1) or m.group(2), value)
    return out


def _timed(step: StepSpec, src: Source) -> StepSpec:
    """The step with a `SET statement_timeout` of its text read as its timeout (module docstring)."""
    texts: list[SpecText] = []
    changed = False
    for t in step.texts:
        m = _TIMEOUT.search(t.text)
        if m is None or changed:
            texts.append(t)
            continue
        seconds = float(m.group(1)) * _UNIT[(m.group(2) or "ms").lower()]
        said = f"{seconds:g}s"
        texts.append(t.model_copy(update={"text": f"{t.text[:m.start()]}timeout {said}{t.text[m.end():]}"}))
        changed = True
        line = t.line + t.text.count("\n", 0, m.start())
        src.warn(line, f"{step.id}: '{m.group(0).strip()}' read as its timeout, {said} an attempt; to say so, "
                       f"write `timeout: {said}`", "spec.reading")
    return step.model_copy(update={"texts": tuple(texts)}) if changed else step


def step_values(steps: Iterable[StepSpec], src: Source) -> list[StepSpec]:
    """Each step of an SQL script with its own values and its statement timeout read (module docstring);
    other documents' steps as they are."""
    steps = list(steps)
    if not is_sql(src):
        return steps
    constants = _constants(src)
    out: list[StepSpec] = []
    for step in steps:
        step = _timed(step, src)
        text = " ".join([step.description, *(t.text for t in step.texts)])
        given = _pairs(text)
        for name, value in constants.items():
            if re.search(_PLACEHOLDER.format(name=re.escape(name)), text):
                given.setdefault(name, value)
        given = {k: v for k, v in given.items()
                 if k not in step.input_values and not any(f.name == k and f.source for f in step.inputs)}
        if given:
            note = "values " + ", ".join(f"{k} = {v!r}" for k, v in given.items())
            reading = Reading(what="input", where=step.where, text=note,
                              note=note + " (the step's own in the SQL script's comment, no workflow input)")
            step = step.model_copy(update={"input_values": {**step.input_values, **given},
                                           "readings": (*step.readings, reading)})
        out.append(step)
    return out


def renamed_join(text: str, where: str) -> list[EitherInput]:
    """"whatever 3 or 4 handed back, as `sends` (both of them call that field `messages`)": `sends` from
    the named field of each of the two steps, whichever ran (module docstring)."""
    from orchestrator.spec.either_input import (  # imports this module: asked late
        Alternative,
        EitherInput,
    )

    out = []
    for m in _RENAMED.finditer(text):
        field = m.group(4)
        out.append(EitherInput(name=m.group(3), where=where, text=" ".join(m.group(0).split())[:160], deliberate=True,
                               alternatives=(Alternative(words=field, step=f"step {m.group(1)}"),
                                             Alternative(words=field, step=f"step {m.group(2)}"))))
    return out


_rx.save()
