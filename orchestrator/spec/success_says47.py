"""A run's success check said as what a numbered step reports (round 47).

"Job's finished when 4 says published = yes", "done once step 2 returns ok = true", "it worked if 3 reports
count >= 1": the step's number (bare or after "step"), a verb of reporting (says, returns, reports, gives,
shows, comes back with), then a comparison (`= yes` / `= no` read as true / false). Read as that comparison, checked on that step's output
(`said_by`, asked by `spec.elsewhere.run_success`). A number that names no step, or words after the verb that
are no comparison ("when 4 says it is done"), are left to the other readings.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_VERB = r"(?:says|said|returns|returned|reports|reported|gives|gave|shows|showed|comes\s++back\s++with|came\s++back\s++with)"
_SAID_BY = _rx(r"(?i)(?<![\w.-])(?:step\s++|#)?(?P<n>\d{1,2}+)\s++" + _VERB + r"\s++(?P<rest>[^.;\n]{1,120}+)")
_CLAUSE_VERB = _rx(r"(?i)^\W{0,3}+(?:(?:step\s++|#)?\d{1,2}+\s++)?" + _VERB + r"\s++(?P<rest>.{1,120}+)$")

_YES_NO = _rx(r"(?i)^(?P<name>[a-z][a-z0-9_]{0,40}+)\s*+(?:==?|is)\s*+(?P<v>yes|no)$")


def said_by(sentence: str, clause: str) -> tuple[int, str] | None:
    """(the step's number, the comparison) when the success clause says what a numbered step reports
    (module docstring); None otherwise. The caller checks the comparison reads and the step exists."""
    m = _SAID_BY.search(sentence)
    said = _CLAUSE_VERB.match(clause.strip())
    if m is None or said is None:
        return None
    rest = said.group("rest").strip().rstrip(".!")
    yes_no = _YES_NO.match(rest)
    if yes_no is not None:  # "published = yes": a yes or no is true or false
        rest = f"{yes_no.group('name')} == {'true' if yes_no.group('v').lower() == 'yes' else 'false'}"
    return int(m.group("n")), rest


_rx.save()
