"""A person's sign-off said as a duty done by a named role before the work goes on, and the wait for that role.

    RII: IF ANY BRAKE IS WORN, DUPLICATE INSPECTION BY A CERTIFYING INSPECTOR BEFORE PARTS ARE CALLED.
    If the dose is above 10 mg: second check by the charge nurse before it is given.
    Any change to the rig needs a walk-round by the site supervisor prior to the lift.
        -> an approval on the step (its condition read as any approval's, `condition.approval_condition`)

    Wait max 30 min for the inspector; no inspector in 30 min = do not proceed.
    wait up to 2 hours for the duty manager, no manager by then -> go ahead anyway
        -> the approval's wait (1800 s, 7200 s) and what no answer means (reject, approve)

Work cards, lab protocols and site checklists name the check and the role who does it ("inspection by a
certifying inspector", "countersigned by the pharmacist") and say it happens before the work goes on: that
is a person's yes the step waits for (`sign_cue`), not a step of its own. The wait is said as waiting for
the role ("wait max 30 min for the inspector"), and what silence means as what happens with no one of that
role in time ("no inspector in 30 min = do not proceed": reject) (`role_wait`). Such a wait is never a
retry rule of the step: `grammar_person_wait` reports it as no policy when no approval took it.

The role must be one of the words below (people, not machines: "wait 30 s for the pump" or "checked by
the script before upload" are not read); what is done must be said to come before ("before", "prior
to", "ahead of"): "the inspector signs the log afterwards" is not a gate.
"""

from __future__ import annotations

import re
from typing import Literal

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# the roles that sign: people named by their duty
ROLE = (r"(?:inspectors?|supervisors?|managers?|leads?|approvers?|reviewers?|checkers?|officers?|nurses?|doctors?|"
        r"physicians?|pharmacists?|vets?|veterinarians?|chefs?|captains?|skippers?|foremen|foreman|engineers?|"
        r"directors?|editors?|owners?|boss(?:es)?|signator(?:y|ies)|auditors?|witness(?:es)?|verifiers?|certifiers?|"
        r"surveyors?|wardens?|registrars?|conservators?|principals?|chairs?|producers?|controllers?|coordinators?|superintendents?|"
        r"harbou?rmasters?|stationmasters?|quartermasters?|instructors?|tutors?|teachers?|curators?|"
        r"head\s++of\s++[\w-]++|person\s++in\s++charge|second\s++person|qualified\s++person|QP|CRS)")
# the duty done by that role
_DUTY = (r"(?:(?:duplicate\s++|independent\s++|second\s++|double[- ]?)?(?:inspection|check|review|verification|sign-?off|"
         r"walk-?round|walk-?through|witness(?:ing)?|countersignature|approval|look|read-?back)|inspected|checked|reviewed|"
         r"verified|signed(?:\s++off)?+|countersigned|witnessed|approved|cleared|released)")
_BEFORE = r"(?:before|prior\s++to|ahead\s++of)(?![\w-])"
_SIGN = _rx(rf"(?i)(?<![\w-]){_DUTY}\s++by\s++(?:(?:a|an|the|our|one|two|its)\s++)?+(?:[\w-]++\s++){{0,3}}?{ROLE}"
            rf"(?![\w-])\s*+(?:\([^()]{{0,60}}\)\s*+)?+,?\s*+{_BEFORE}")

# "wait max 30 min for the inspector", "wait up to 2 hours for the duty manager"
_D = r"(?P<d>\d{1,4}+(?:\.\d{1,2}+)?+\s*+(?:seconds?|secs?|s|minutes?|mins?|min|m|hours?|hrs?|hr|h|days?|d)|an?\s++(?:hour|minute|day))"
_WAIT = _rx(rf"(?i)(?<![\w-])wait(?:s|ing)?+\s++(?:(?:max(?:imum)?+|up\s++to|at\s++most|no\s++more\s++than)\s++)?+{_D}"
            rf"(?![\w-])\s*+(?:max(?:imum)?+\s++|tops\s++)?+for\s++(?:(?:a|an|the|our|its)\s++)?+(?:[\w-]++\s++){{0,2}}?"
            rf"(?P<role>{ROLE})(?![\w-])")
# "no inspector in 30 min = ...", "no manager by then -> ...", "if no supervisor turns up within 1 h, ..."
_NO_ROLE = _rx(rf"(?i)(?<![\w-])no\s++(?:(?:[\w-]++\s++){{0,2}}?){ROLE}(?![\w-])[^=.;:→>,]{{0,40}}?"
               r"(?:=|->|→|=>|:|,|\bmeans\b|\bthen\b)")
# a wait for a role in a sentence, for the policy grammar's row (`grammar_person_wait`): {D} is the grammar's
WAIT_FOR_ROLE = (r"(?<![\w-])wait(?:s|ing)?\s+(?:(?:max(?:imum)?|up\s+to|at\s+most|no\s+more\s+than)\s+)?{D}"
                 r"(?:\s+(?:max(?:imum)?|tops))?\s+for\s+(?:(?:a|an|the|our|its)\s+)?(?:[\w-]+\s+){0,2}?" + ROLE.replace(
                     "++", "+") + r"(?![\w-])[^.]*")


def sign_cue(sentence: str) -> re.Match[str] | None:
    """Where a sentence says a role's check comes before the work (module docstring); None if it does not."""
    return _SIGN.search(sentence)


def role_wait(text: str) -> tuple[float | None, Literal["approve", "reject"] | None]:
    """(seconds, what no answer means) of a wait for a role ("Wait max 30 min for the inspector; no
    inspector in 30 min = do not proceed" -> 1800, reject); what then is None when the text does not
    say; (None, None) when it waits for no role."""
    from orchestrator.spec.condition import _silence_means
    from orchestrator.spec.phrase_value import duration

    m = _WAIT.search(text)
    seconds = duration(" ".join(m.group("d").split())) if m is not None else None
    if m is None or seconds is None:
        return None, None
    rest = text[m.end():]
    absent = _NO_ROLE.search(rest)
    said = rest[absent.end():absent.end() + 80] if absent is not None else rest[:120]
    return seconds, _silence_means(said)


def waits_for_role(text: str) -> bool:
    """Whether a text waits a time for a role (the wait of a person's sign-off, no retry)."""
    return _WAIT.search(text) is not None


_rx.save()
