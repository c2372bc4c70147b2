"""The values a workflow input allows, said in words or in a comment on its line.

People state an input's choices where they describe it, not as a JSON Schema `enum`:

    env: staging  # staging | prod            (a YAML comment on the input's line)
    - env: where it goes, one of staging or prod
    - region: `eu` / `us` (either)             - tier: either free or paid
    - mode: dry-run|live

A list read here becomes the input's `enum` in the plan (a run given another value is
refused before any step runs), with a warning at the input's line saying how it was read,
except where it is said plainly, `one of: staging, prod`. Only a list of two to twelve
single words is read ("one of the CSV files or a URL" is a description, not choices); a
default that is none of the values keeps the input open, warned.
"""

from __future__ import annotations

from collections.abc import Sequence

from orchestrator.errors import Diagnostic
from orchestrator.plan.location import warning_at
from orchestrator.spec.model import InputSpec
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_LEAD = _rx(r"(?i)(?<![\w-])(?:one[ \t]++of|either|must[ \t]++be|can[ \t]++be|allowed(?:[ \t]++values)?)"
            r"(?![\w-])[ \t]*+(?P<colon>:?)")
_PIPED = _rx(r"(?<![\w.-])[\w.-]++(?:[ \t]*+\|[ \t]*+[\w.-]++)++")
_SPLIT = _rx(r"(?<![ \t])[ \t]*+(?:,|/|\||(?<![\w-])or(?![\w-])|(?<![\w-])and(?![\w-]))[ \t]*+")
_VALUE = _rx(r"^[`'\"]?+([\w.-]{1,30}+)[`'\"]?+$")
_EXAMPLES = _rx(r"(?i)(?<![\w-])(?:e\.g|eg|i\.e|for[ \t]++example|such[ \t]++as|like|say)(?![\w-])")
_END = _rx(r"[;)(\n]|\.(?:[ \t]|$)")


def _values(listed: str) -> list[str] | None:
    parts = [p.strip() for p in _SPLIT.split(listed.strip().rstrip(".")) if p.strip()]
    values: list[str] = []
    for part in parts:
        m = _VALUE.match(part)
        if m is None:
            return None
        values.append(m.group(1))
    values = list(dict.fromkeys(values))
    return values if 2 <= len(values) <= 12 else None


def _from(text: str) -> tuple[list[str], str, bool] | None:
    """(values, the words they were read from, said plainly) from a description or comment; none
    after words that give examples ("e.g. staging | prod", "such as")."""
    if _EXAMPLES.search(text):
        return None
    lead = _LEAD.search(text)
    if lead is not None:
        rest = text[lead.end():]
        end = _END.search(rest)
        listed = rest[:end.start()] if end else rest
        values = _values(listed)
        if values is not None:
            said = (text[lead.start():lead.end()] + listed).strip()
            return values, said, bool(lead.group("colon")) and lead.group(0).lower().startswith("one")
    piped = _PIPED.search(text)
    if piped is not None and (values := _values(piped.group(0))) is not None:
        return values, piped.group(0), False
    return None


def _comment(item: InputSpec, lines: Sequence[str]) -> str:
    """The `# ...` comment at the end of the input's line in a YAML spec."""
    try:
        line = lines[int(item.where.rsplit(":", 1)[1]) - 1]
    except (IndexError, ValueError):
        return ""
    at = line.find(" #")
    return line[at + 2:].strip() if at >= 0 and line.lstrip().split(":", 1)[0].strip("- ") == item.name else ""


def said_choices(item: InputSpec, lines: Sequence[str], yaml: bool, path: str) -> tuple[list[str] | None,
                                                                                        list[Diagnostic]]:
    """The values `item` allows (None when none are said) and the warning that says how they were read."""
    if item.type and item.type.lower() not in ("string", "str", "text", "choice", "enum"):
        return None, []
    found = _from(item.description or "")
    where = "its description"
    if found is None and yaml:
        comment = _comment(item, lines)
        found = _from(comment) if comment else None
        where = "the comment on its line"
    if found is None:
        return None, []
    values, said, plain = found
    listed = ", ".join(values)
    if item.default is not None and str(item.default) not in values:
        return None, [warning_at(item.where, path, f"input `{item.name}`: '{said}' in {where} reads as its allowed "
                                 f"values ({listed}), but its default `{item.default}` is none of them, so any value "
                                 f"is taken: to limit it write `one of: {listed}` with a default among them",
                                 "plan.input-choices")]
    if plain:
        return values, []
    return values, [warning_at(item.where, path, f"input `{item.name}`: '{said}' in {where} read as its allowed "
                               f"values ({listed}): a run given another value is refused. If they are only examples "
                               f"write 'e.g.'; to say so plainly write `one of: {listed}` in its description",
                               "plan.input-choices")]


_rx.save()
