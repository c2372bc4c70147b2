"""The run's success check said as "it's done when ...", read where `spec.whole_success`'s cue misses it.

`whole_success.success_cue` reads "X is done when ...", "we're done when ...", "Done = ...". People
also write the contraction and the bare label: "and it's done when the caterer sends an order ref",
"Finished when the report lists 12 items", "That's a success once the last step gives back ok = true",
"Complete if every row has a status". This module gives the clause after the cue; `whole_success`
then reads it as a check on one output, or warns at its line that it is not checked (a check in
words, a script such as `jq -e .ok`), so such a sentence is never dropped silently.

    done_clause("and it's done when we get an order ref back") -> "we get an order ref back"

It is a check of the whole run only outside a step's own success field and without words that
make it about a retry, a wait or an approval (`_NOT_RUN`).
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_STATE = r"(?:done|finished|complete|completed|successful|a\s+success|good|green|ok)"
# "and it's done when", "that's a success once", "we're finished if", "Finished when", "Complete if"
# a chat message's sender or a note's label may come first ("12/05, 09:19 - Sam: and it's done when", "Note: done when")
_DONE = _rx(r"(?i)^(?:[^\n:]{0,100}+(?::\d{1,2}+[^\n:]{0,100}+){0,2}+:\s++)?\W{0,4}+(?:(?:and|so|then)\s++)?(?:(?:it|that|this|we|everything|all)\s*+['’](?:s|re)\s++(?:all\s++)?"
            r"(?:only\s++)?)?" + _STATE + r"\s++(?:only\s++)?(?:when|once|if|as\s+soon\s+as)(?![\w-])\s*+(?P<clause>\S.*)$")
# a sentence about a retry, a wait, a timeout or an approval, not the run's success
_NOT_RUN = _rx(r"(?i)(?<![\w-])(?:retry|retries|retried|attempts?|timeout|times\s+out|approv\w*+|sign-?off|wait(?:ing)?)(?![\w-])")


def done_clause(sentence: str) -> str | None:
    """The check after "it's done when" / "Finished when" (module docstring), or None."""
    m = _DONE.match(sentence.strip())
    if m is None:
        return None
    clause = m.group("clause").strip().rstrip(".!✅ ").strip()
    if not clause or _NOT_RUN.search(clause):
        return None
    return clause


_rx.save()
