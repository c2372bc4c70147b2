"""Success criteria that are plain comparisons, read into checks on the step's output.

    valid is true and problems is empty   → valid: const true; problems: empty
    confidence >= 0.7                     → confidence: minimum 0.7
    status == 'done', errors = []         → status: const "done"; errors: empty
    category is one of billing, technical → category: enum

Each comparison becomes JSON Schema keywords on the output field (`check_schema`),
which the planner merges into the step's output contract, so the handoff check
enforces it and a failure names the JSON pointer. A criterion that is not a plain
comparison ("JSON parses without error") is reported by the caller with its line.
"""

from __future__ import annotations

import json
import re
from typing import Any

from orchestrator.spec.done_when import script_check
from orchestrator.spec.fields import split_top
from orchestrator.spec.regex_cache import Patterns, compile_many

_FIELD = r"`?(?P<field>[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*)`?"
_VALUE = r"(?P<value>`[^`]*`|\"[^\"]*\"|'[^']*'|-?\d+(?:\.\d+)?|true|false|null|none|\[\s*\]|\{\s*\})"
_NUMBER = r"(?P<value>-?\d+(?:\.\d+)?)"
# (pattern, what it gives): "const", "not_const", "empty", "not_empty", "min", ... as rows
COMPARISONS: tuple[tuple[str, str], ...] = (
    (rf"^{_FIELD}\s+(?:is|are|should\s+be|must\s+be)\s+(?:not\s+empty|non-?empty|present|set|given|filled(?:\s+in)?)$", "not_empty"),
    (rf"^{_FIELD}\s+(?:(?:is|are|should\s+be|must\s+be)\s+empty|\s*(?:==?|is)\s*(?:\[\s*\]|\{{\s*\}}|\"\"|''))$", "empty"),
    (rf"^(?:no|there\s+are\s+no|zero)\s+{_FIELD}$", "empty"),
    (rf"^{_FIELD}\s*(?:>=|≥|is\s+at\s+least|at\s+least|is\s+no\s+less\s+than|of\s+at\s+least)\s*{_NUMBER}$", "minimum"),
    (rf"^{_FIELD}\s*(?:<=|≤|is\s+at\s+most|at\s+most|is\s+no\s+more\s+than|of\s+at\s+most)\s*{_NUMBER}$", "maximum"),
    (rf"^{_FIELD}\s*(?:>|is\s+(?:greater|more|higher)\s+than|is\s+above|above|over)\s*{_NUMBER}$", "exclusiveMinimum"),
    (rf"^{_FIELD}\s*(?:<|is\s+(?:less|lower|smaller)\s+than|is\s+below|below|under)\s*{_NUMBER}$", "exclusiveMaximum"),
    (rf"^{_FIELD}\s*(?:!=|≠|is\s+not|isn't|must\s+not\s+be|should\s+not\s+be)\s*{_VALUE}$", "not_const"),
    (rf"^{_FIELD}\s+(?:is|are|should\s+be|must\s+be)\s+(?:one\s+of|in)\s*[:(\[]?\s*(?P<options>[^)\]]+?)\s*[)\]]?$", "enum"),
    (rf"^{_FIELD}\s*(?:==?|is|equals|should\s+be|must\s+be|are)\s*{_VALUE}$", "const"),
    # "the lab system gives us back a lims_ref", "it returns a `ticket_id`": that field is there (a field written as
    # one: with an underscore or in backticks; "a confirmation number" is words, not read)
    (r"^(?:[^`]{0,60}?\s)?(?:gives?\s+(?:us\s+|you\s+|me\s+)?(?:back\s+)?|returns?\s+|comes?\s+back\s+with\s+|"
     r"hands?\s+(?:us\s+)?back\s+|sends?\s+(?:us\s+)?back\s+|produces?\s+|yields?\s+)(?:an?\s+|the\s+|its\s+|some\s+)?"
     r"(?:`(?P<field>[A-Za-z_]\w*)`|(?P<field2>[a-z]\w*_\w+))$", "not_empty"),
)
_ONE_OF, _OPERATOR, *_COMPARED = compile_many("success", [  # once per install (`spec.regex_cache`)
    (r"\b(?:one\s+of|is\s+in|are\s+in)\b", re.I),
    (r"[=<>!≥≤]|\b(?:is|are|equals|should|must|at\s+least|at\s+most|no)\b", re.I),
    *((p, re.I) for p, _ in COMPARISONS),
])
_COMPILED = tuple(zip(_COMPARED, (kind for _, kind in COMPARISONS), strict=True))
_EMPTY: dict[str, Any] = {"maxItems": 0, "maxLength": 0, "maxProperties": 0}
_NOT_EMPTY: dict[str, Any] = {"minItems": 1, "minLength": 1, "minProperties": 1}


def _literal(raw: str) -> Any:
    text = raw.strip()
    if text.startswith("`") and text.endswith("`"):
        text = text[1:-1].strip()
    if text[:1] in "\"'" and text[-1:] == text[:1] and len(text) >= 2:
        return text[1:-1]
    if text.lower() == "none":
        return None
    try:
        return json.loads(text.lower() if text.lower() in ("true", "false", "null") else text)
    except ValueError:
        return text


def read_comparison(clause: str) -> tuple[str, dict[str, Any]] | None:
    """One comparison: (field, JSON Schema keywords), or None when it is not one."""
    text = clause.strip().rstrip(".").strip()
    text = re.sub(r"^(?:the\s+)?(?:output\s+|field\s+|result\s+)?", "", text, flags=re.I)
    for regex, kind in _COMPILED:
        m = regex.match(text)
        if m is None:
            continue
        field = next(v for k, v in m.groupdict().items() if k in ("field", "field2") and v)
        if kind == "empty":
            return field, dict(_EMPTY)
        if kind == "not_empty":
            return field, dict(_NOT_EMPTY)
        if kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            return field, {kind: float(m.group("value")) if "." in m.group("value") else int(m.group("value"))}
        if kind == "enum":
            options = [_literal(o) for o in re.split(r"(?:(?<!\s)\s+)?,\s*|(?<!\s)\s+or\s+", m.group("options")) if o.strip()]
            return field, {"enum": options}
        value = _literal(m.group("value"))
        return field, {"not": {"const": value}} if kind == "not_const" else {"const": value}
    return None


# a label before the criteria: "Success =", "Success criteria:", "Done when", "It succeeds if"
_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_LEAD = _rx(r"^(?:(?:the\s+)?(?:step\s+)?success(?:\s+(?:criteria|criterion|check|condition))?\s*(?:[:=]|means|when|if)"
            r"|(?:done|passes|it\s+(?:succeeds|passes|is\s+done)|the\s+step\s+(?:succeeds|passes|is\s+done))"
            r"\s+(?:when|if))\s*", re.I)


def read_criteria(text: str) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """The comparisons of a success line ({field: keywords}) and the clauses that are not ones."""
    checks: dict[str, dict[str, Any]] = {}
    rest: list[str] = []
    parts: list[str] = []
    text = _LEAD.sub("", text.strip(), count=1)  # "Success = valid is true": the label is not a field
    for part in split_top(text, ",;"):
        if parts and _ONE_OF.search(parts[-1]) and not _OPERATOR.search(part):
            parts[-1] = f"{parts[-1]}, {part}"  # "one of billing, technical": the options go on
        else:
            parts.append(part)
    for part in parts:
        # "valid is true and problems is empty": several comparisons, when every piece is one
        joiner = r"\s+(?:and|&&)\s+(?=[^,]*?(?:[=<>!≥≤]|\bis\b|\bare\b))" if _ONE_OF.search(part) else r"\s+and\s+|\s+&&\s+"
        pieces = [c.strip() for c in re.split(joiner, part) if c.strip()]
        found = [read_comparison(c) for c in pieces]
        if len(pieces) == 1 or not all(f is not None for f in found):
            found = [read_comparison(part)]
        if any(f is None for f in found):
            rest.append(part.strip())
            continue
        for f in found:
            if f is not None:
                checks.setdefault(f[0], {}).update(f[1])
    return checks, rest


def check_schema(checks: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """JSON Schema keywords for the whole output: each checked field required and constrained."""
    return {"properties": {f: dict(k) for f, k in checks.items()}, "required": sorted(checks)}


# A success check said as people say it, wherever the document kind puts it: "It's ready when X",
# "The run only counts as good when X", "The run succeeds if X", "Success means X", "Done when X",
# and a Gherkin "Then X equals Y" (a Then that compares, not one that says what comes back)
_SAID = _rx(
    r"(?i)^\W*(?:\d{4}-\d{2}-\d{2}\s+)?+(?:(?:and\s+)?(?:it['’]?s|it\s+is|we['’]?re|we\s+are|this\s+is|the\s+(?:run|job|dish|release|workflow|batch|step)\s+is)\s+"
    # "it's only \"done\" when ...": the word may be put in quotes, "only" said before it
    r"(?:only\s+)?[\"“]?(?:ready|done|good|finished|complete|cooked|a\s+success|successful)[\"”]?\s+(?:only\s+)?(?:when|if|once)"
    # "Sheet's good when ...", "the docket's done once ...": the thing the run makes, then the check
    r"|(?:the\s+)?[A-Za-z][\w-]{1,30}+['’]s\s+(?:ready|done|good|finished|complete)\s+(?:only\s+)?(?:when|once)"
    # "monthend = done when ...", "payroll: done once ...": the run's (a list's, a project's) name, then being done
    r"|[A-Za-z][\w-]{1,30}+\s*+[=:]\s*+(?:done|finished|complete)\s+(?:only\s+)?(?:when|once|if)"
    r"|(?:the\s+(?:run|job|workflow|release|batch|step)|it)\s+(?:only\s+)?(?:counts?|is\s+counted)\s+as\s+"
    r"(?:good|done|a\s+success|successful|passed|ok)\s+(?:only\s+)?(?:when|if|once)"
    r"|(?:the\s+(?:run|job|workflow|release|batch|step)|it)\s+(?:only\s+)?(?:succeeds|passes|is\s+successful)\s+(?:only\s+)?(?:when|if|once)"
    r"|(?:the\s+(?:run|job|workflow|release|batch|night)|it)\s+(?:only\s+)?(?:counts|worked|works|succeeded)\s+(?:only\s+)?(?:when|if|once)"
    r"|check(?:\s*\([^()]{0,30}\))?\s*:"
    r"|success(?:\s+criteri(?:a|on))?\s*[:—–]|success\s+(?:means|is\s+when|=)|done\s+(?:when|means)|definition\s+of\s+done\s*[:=-]?"
    # "Done = ...", "Finished if: ...", `done_when:`, `finished_if:`: a label of being done, then the check ("Done:"
    # alone is a report of what was done)
    r"|(?:(?:the\s+)?(?:job|run|task|work|macro|script|sweep|workflow|batch|all|everything)\s+)?(?:done|finished|complete|completed)"
    r"(?:[\s_-]?+(?:when|if|once|means)\s*+(?:[:=]|==)|\s*+==?)(?!=)"
    r"|(?:done|finished|complete|completed)[\s_-]?+(?:when|if|once)\s)\s*(?P<clause>.+)$")
# "Then": capitalised anywhere (a Gherkin scenario's lines run together), or opening the sentence
_THEN = _rx(r"(?:(?<![\w-])Then|^\W*(?i:then))\s+(?P<clause>(?:(?!\s(?:And|When|Given|But|Then)\s)[^#.])*?"
            r"(?:\bequals?\b|==|>=|<=|!=|\bis\s+(?:at\s+least|at\s+most|not|empty|true|false|the\s+(?:same|number|"
            r"count|length))|\bmatches\b|\bshould\s+(?:be|equal)\b|\bmust\s+(?:be|equal)\b|\bcomes\s+back\s+as\b)"
            r"(?:(?!\s(?:And|When|Given|But|Then)\s)[^#.])*)")
TITLE = _rx(r"(?i)^\W*(?:it['’]?s\s+(?:ready|done|good)\s+when|done\s+when|(?:definition\s+of\s+)?done|success"
            r"(?:\s+(?:criteria|check|checks|means|is))?|acceptance(?:\s+criteria)?|expected\s+(?:result|outcome)s?|"
            r"how\s+we\s+know\s+it\s+(?:worked|works)|"
            # a question: "When is it done?", "When is a wave finished?", "What counts as done?"
            r"when\s+(?:is|are)\s+(?:it|we|they|this|the\s+\w+|an?\s+\w+)\s+(?:done|finished|complete|ready|successful)\s*\?|"
            r"what\s+counts\s+as\s+(?:done|finished|success|a\s+success)\s*\?)")


def success_clause(sentence: str) -> str | None:
    """The criteria of a sentence that states a success check ("It's ready when `n` equals 3"
    -> "`n` equals 3"); None when the sentence is no such check."""
    m = _SAID.match(sentence)
    if m is None:
        return None
    clause = m.group("clause").strip().lstrip("…. ").rstrip(". ")
    if clause:  # "came back emailed true": `emailed == true` (`spec.success_done54`)
        from orchestrator.spec.success_done54 import bare_compare

        clause = bare_compare(clause)
    return (script_check(clause) or clause) if clause else None  # `jq -e '.ok'`: the comparison it states


# "we'll call it a success if ...", "let's count the run as done once ...": a check said outright, even in words that
# compare nothing; it is reported at its line when not read (never left as prose)
_CLAIMED = _rx(r"(?i)^\W*(?:and\s+)?(?:we['’]?ll|we\s+will|we|i['’]?ll|i\s+will|you\s+can|let['’]?s)\s+(?:call|count|consider|"
               r"deem)\s+(?:it|the\s+(?:run|job|workflow|release|batch|step))\s+(?:as\s+)?(?:a\s+success|successful|good|done|"
               r"a\s+pass|passed)\s+(?:only\s+)?(?:when|if|once)\s+(?P<clause>.+)$")


def success_claimed(sentence: str) -> str | None:
    """The criteria of a sentence that calls the run a success on a condition, in any words."""
    m = _CLAIMED.match(sentence)
    return m.group("clause").strip().rstrip(". ") or None if m else None


_COMPARES = _rx(r"(?i)\bequals?\b|==|>=|<=|!=|[<>≥≤]|\bis\s+(?:at\s+least|at\s+most|not|empty|true|false|"
                r"one\s+of|the\s+(?:same|number|count|length))|\bmatches\b|\bcomes\s+back\s+as\b")


def compares(clause: str) -> bool:
    """Whether a success clause compares something ("`sent` equals 3"), rather than tells what
    has happened ("the server answered"), which is a description."""
    return _COMPARES.search(clause) is not None


def then_clauses(text: str) -> list[str]:
    """The checks of Gherkin-like "Then" lines in `text` ("Then `sent` equals the number of
    ids"): the ones that compare, not the ones that say what comes back ("Then I get `rows`")."""
    return [c for m in _THEN.finditer(text) if (c := m.group("clause").strip().rstrip(". "))]


_NAMED = _rx(r"(?i)^(?:the[ \t]++)?`?(?P<a>[A-Za-z_]\w*+)`?[ \t]*+"
             r"(?P<op>>=|<=|==|!=|=|>|<|≥|≤|(?:is[ \t]++)?(?:at[ \t]++least|at[ \t]++most|(?:greater|more|less|"
             r"higher|lower)[ \t]++than|above|below|over|under)|matches|equals)[ \t]*+"
             r"(?:the[ \t]++)?(?P<b>`[A-Za-z_]\w*+`|[A-Za-z][A-Za-z0-9]*+(?:_[A-Za-z0-9]++)++)(?:[ \t]++from[ \t]++[^.;]{1,40}+)?$")


def compared_names(clause: str) -> tuple[str, str, str] | None:
    """(field, operator, name) for a clause that compares a field with another named value, not a value
    written in the spec ("accuracy >= min_accuracy", "`rows` equals `row_count`"): no check can say it."""
    m = _NAMED.match(clause.strip().rstrip(".").strip())
    if m is None or m.group("b").strip("`").lower() in ("true", "false", "null", "none"):
        return None
    return m.group("a"), " ".join(m.group("op").split()), m.group("b").strip("`")


_rx.save()
