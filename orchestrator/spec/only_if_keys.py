"""A step's condition written as a setting of the author's own schema, and "else" as its otherwise.

    [outage]                          outage:
    skill   = book-outage               uses: book-outage
    only_if = risk == high              only_if: risk == high
    [routine]                         routine:
    only_if = else ; risk not high      run_if: otherwise

An INI file or a properties list read anchored on its skills (`spec.anchored`) keeps each section as
one paragraph, and no reader looks at its `key = value` lines: a condition there was dropped without
a word, and both branches ran. Each step's own lines (from its first line to the next step's) are
looked at here for a setting whose key names a condition (`only_if`, `run_if`, `only_when`, `when`,
`condition`, `if`, `skip_unless` ...); its value, less a trailing `;` or `#` comment, is the step's
condition (`StepSpec.when`), when no reader gave the step one (`read_condition_settings`).

A condition that says only "else" / "otherwise" / "if not" / "default" (from any reader: a YAML key
read as the condition too) is not a condition: the step is the otherwise of the nearest step before
it with a condition (`StepSpec.otherwise_where`), as an `Otherwise:` line is; said at its line
(`otherwise_words`).
"""

from __future__ import annotations

from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.whole_doc import line_of

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# `only_if = risk == high ; comment`, `run_when: ...`, `condition = ...` (the key at the line's start)
_SETTING = _rx(r"(?i)^[ \t]*+(?:[-*][ \t]++)?(?P<key>only[_ -]?if|only[_ -]?when|run[_ -]?if|run[_ -]?when|when|if|"
               r"condition|run[_ -]?condition|skip[_ -]?unless|execute[_ -]?if|enabled[_ -]?if)[ \t]*+[=:](?!=)[ \t]*+"
               r"(?P<value>[^;#\n]*+)")
# an INI section's title, the first line of a step read anchored: `[work orders]`
_SECTION = _rx(r"^[ \t]*+\[(?P<title>[^\[\]\n]{1,60}+)\]")
# the steps before finished: "both are done", "they're all back", "the two have finished", "everything is in"
_FINISHED = _rx(r"(?i)^\W*+(?:both|all|each|everything|they|those|these|the\s++(?:two|three|others|rest))(?:\s++(?:of\s++them|of\s++those))?"
                r"(?:['’]re|\s++are|\s++is|\s++have|\s++has|['’]ve)?(?:\s++all)?\s++(?:been\s++)?(?:done|finished|complete|completed|back|"
                r"in|through|over|ready)\W*+$")
# a condition said before a comma at the start of what is left: "if at least one block is ready, ..."
_COMMA_IF = _rx(r"(?i)^\W*+(?:if|only\s++if|provided)\s++(?P<cond>[^,:;.]{3,120}+),\s++(?=\S)")
# a condition that only says it is the other branch
_OTHERWISE = _rx(r"(?i)^\W*+(?:else|otherwise|if[ \t]++not|not[ \t]++that|default|the[ \t]++rest|else[ \t]++branch|"
                 r"every(?:thing|[ \t]++other[ \t]++case)[ \t]++else|anything[ \t]++else)\W*+$")


def _by_section(value: str, sections: dict[str, str]) -> str:
    """The condition with each `section.field` said by a section's title ("assess.risk", "work orders.n")
    written as the step's (`step-3.risk`), as a condition names it."""
    low = value.lower()
    for title, sid in sorted(sections.items(), key=lambda t: -len(t[0])):
        at = low.find(f"{title}.")
        while at >= 0:
            before = low[at - 1] if at else " "
            if not (before.isalnum() or before in "_.-"):
                value, low = value[:at] + sid + value[at + len(title):], low[:at] + sid + low[at + len(title):]
            at = low.find(f"{title}.", at + 1)
    return value


def finished_lead(condition: str) -> bool:
    """Whether a lead's "condition" only says the steps before it finished ("When both are done:", "Once
    they're all back:"): an order, not a condition; the step waits for them as it would anyway."""
    return _FINISHED.match(condition) is not None


def comma_condition(text: str) -> tuple[str, str] | None:
    """"if at least one block is ready, `book-crew` books ...": (the condition, the rest), or None."""
    m = _COMMA_IF.match(text)
    return (m.group("cond").strip(), text[m.end():]) if m is not None else None


def otherwise_words(value: str) -> bool:
    """Whether a condition's value only says "the other branch" ("else", "otherwise", "if not")."""
    return _OTHERWISE.match(value.split(";", 1)[0].split("#", 1)[0]) is not None


def _own_lines(steps: tuple[StepSpec, ...], src: Source) -> list[range]:
    starts = [line_of(s.where) or 0 for s in steps]
    end = len(src.lines) + 1
    out: list[range] = []
    for start in reversed(starts):  # each step's lines run to the nearest start after it (kept as we go)
        out.append(range(start, end) if start else range(0))
        end = start if 0 < start < end else end
    return out[::-1]


def read_condition_settings(steps: tuple[StepSpec, ...], src: Source) -> tuple[StepSpec, ...]:
    """`steps` with each condition setting of a step's own lines read (of a step read anchored on its
    skill: the only shape whose settings no reader looks at), and each condition of "else" read as the
    otherwise of the step before (module docstring)."""
    out = list(steps)
    anchored = {w.line for w in src.warnings if w.code == "spec.anchored"}
    spans = _own_lines(steps, src)
    sections: dict[str, str] = {}  # each step's section title (its first `[title]` line) -> its id
    for step, span in zip(steps, spans, strict=True):
        title = next((m.group("title") for n in span if (m := _SECTION.match(src.line_text(n))) is not None), None)
        if title is not None:
            sections.setdefault(title.strip().lower(), step.id)
    for i, step in enumerate(steps):
        if step.when is None and step.otherwise_where is None and (line_of(step.where) or 0) in anchored:
            for number in spans[i]:
                m = _SETTING.match(src.line_text(number))
                value = m.group("value").strip().strip("`\"'") if m is not None else ""
                if not value:
                    continue
                where = src.where(number)
                if otherwise_words(value):
                    step = _otherwise(step, where, number, src, f"{m.group('key') if m else ''} = {value}")
                else:
                    value = _by_section(value, sections)
                    step = step.model_copy(update={
                        "when": value, "field_where": {**step.field_where, "when": where},
                        "readings": (*step.readings, Reading(what="when", where=where, text=src.line_text(number).strip(),
                                                             note=f"runs only when {value}"))})
                break
        elif step.when is not None and otherwise_words(step.when):  # `only_if: else` read as a condition
            at = step.field_where.get("when", step.where)
            step = _otherwise(step.model_copy(update={"when": None}), at, line_of(at) or 1, src, step.when)
        out[i] = step
    return tuple(out)


def _otherwise(step: StepSpec, where: str, line: int, src: Source, said: str) -> StepSpec:
    src.warn(line, f"{step.id} ({step.name}): '{said.strip()[:60]}' is read as its Otherwise: it runs exactly when the "
                   "condition of the nearest step before it with one was false; to say so plainly write "
                   "`Otherwise (of Step N):`", "spec.lead-condition")
    return step.model_copy(update={
        "otherwise_where": where,
        "field_where": {k: v for k, v in step.field_where.items() if k != "when"},
        "readings": (*step.readings, Reading(what="otherwise", where=where, text=said.strip()[:120],
                                             note="the other branch of the nearest step before it with a condition"))})


_rx.save()
