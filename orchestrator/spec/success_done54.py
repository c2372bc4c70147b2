"""The run's success check said as the state its work is in: "it's booked when ..." (round 54).

    //: it's booked when send-confirmation comes back sent == true
    # the order is shipped once pack-box returns shipped=true
    The claim is filed only when submit-claim says filed is true.

The success readers (`spec.whole_success.success_cue`) know the words of being done ("done", "good", "OK",
"complete"); an author also says the state the run's own work ends in, a verb's past participle ("booked",
"filed", "shipped", "paid", "posted"), before "when" / "once" / "if". Such a sentence is the run's check when
what follows compares an output field with a value written in it (`sent == true`, `shipped=true`, `filed is
true`); the usual reader then places it on a step and warns at its line. A participle that says no end of the
work ("needed", "used", "called", "skipped", "stopped", "started", "failed", ...) is none, nor is a clause that
compares nothing ("it's booked when Jess says so"). The words may follow another sentence run on into them (lines
of comment with no stop between: "... it's only a booking it's booked when ...").

`bare_compare(clause)`: a field and a truth value said after the skill's report with no sign between them
("email-customer came back emailed true", "post-label returns printed yes", "ledger reports posted false"; a
field written as a keyword, "daybook-entry says :ok true", the same) is
that field compared with the value (`emailed == true`); a word that names no field ("came back true", "says it
true") or a value that is no truth value ("came back status ok") is left as written.
"""

from __future__ import annotations

import re

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_STATE = _rx(r"(?i)(?<![\w'’-])(?:it['’]s|it\s++is|we['’]re|we\s++are|(?:the\s++)?[A-Za-z][\w-]{1,30}+\s++is)\s++"
             r"(?:only\s++)?(?P<state>[a-z]{3,22}+)\s++(?:only\s++)?(?:when|once|if)\s++(?P<clause>\S.*)$")
_COMPARES = _rx(r"(?i)(?<![\w-])[A-Za-z_]\w{0,60}+`?\s*+(?:==|=|\bis\b)\s*+`?(?:true|false|yes|no|-?\d{1,12}+|\"[^\"]{1,40}+\"|'[^']{1,40}+')(?![\w-])")
# participles that say no end of the work: a use, a need, a failure, a start
_NOT_DONE = frozenset({"needed", "used", "called", "required", "allowed", "expected", "skipped", "stopped", "started",
                       "failed", "cancelled", "canceled", "rejected", "killed", "triggered", "retried", "blocked",
                       "paused", "held", "queued", "scheduled", "planned", "run", "begun", "asked", "wanted",
                       "tried", "given", "shown", "seen", "known"})
_PARTICIPLE = ("ed", "paid", "sent", "done", "shown", "drawn", "signed")


_BARE = _rx(r"(?i)(?P<said>\b(?:came|comes|coming)\s++back|\breturn(?:s|ed)?+|\bsa(?:ys|id)|\breport(?:s|ed)?+|"
            r"\bg(?:ives|ave)\s++back)\s++:?(?P<f>[A-Za-z_][\w]{1,60}+)\s++(?P<v>true|false|yes|no)\b(?!\s*+[=<>!])")
_NO_FIELD = frozenset({"it", "that", "this", "back", "with", "as", "is", "was", "and", "or", "not", "then", "so"})


def bare_compare(clause: str) -> str:
    """`clause` with a field and a truth value said with no sign between written `field == value` (module
    docstring)."""
    def compared(m: re.Match[str]) -> str:
        if m.group("f").lower() in _NO_FIELD:
            return m.group(0)
        return f"{m.group('said')} {m.group('f')} == {m.group('v').lower()}"

    return _BARE.sub(compared, clause)


def done_state_cue(sentence: str) -> str | None:
    """The check of a sentence that says the run's work is in its end state when an output compares (module
    docstring), or None."""
    m = next((m for m in _STATE.finditer(sentence[:600]) if m.group("state").lower().endswith(_PARTICIPLE)), None)
    state = m.group("state").lower() if m is not None else ""
    if m is None or state in _NOT_DONE or not state.endswith(_PARTICIPLE):
        return None
    clause = m.group("clause").strip().rstrip(".").strip()
    return clause if _COMPARES.search(clause) is not None else None


_rx.save()
