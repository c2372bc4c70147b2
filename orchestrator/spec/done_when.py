"""The run's success check said as "it's done when ...", read where `spec.whole_success`'s cue misses it.

`whole_success.success_cue` reads "X is done when ...", "we're done when ...", "Done = ...". People
also write the contraction and the bare label: "and it's done when the caterer sends an order ref",
"Finished when the report lists 12 items", "That's a success once the last step gives back ok = true",
"Complete if every row has a status", and a sheet's footer "RECORD COMPLETE only when the filer says
filed = yes" (a bare label, its state and "only": outside every step only). This module gives the clause after the cue; `whole_success`
then reads it as a check on one output, or warns at its line that it is not checked (a check in
words, a script such as `jq -e .ok`), so such a sentence is never dropped silently.

    done_clause("and it's done when we get an order ref back") -> "we get an order ref back"
    script_check("`jq -e '.ok'` passes on the output") -> "ok == true"

A check written as a `jq -e` filter over the output is the comparison it states: `.ok` is
`ok == true`, `.count >= 3` is `count >= 3`; any other filter stays the words it is (warned).

It is a check of the whole run only outside a step's own success field, without words that make
it about a retry, a wait or an approval (`_NOT_RUN`), and not told in the past ("Done when the
server answered" says what happened: prose, as `spec.success` has it).
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_STATE = r"(?:done|finished|complete|completed|ready|successful|a\s+success|good|green|ok)"
# "and it's done when", "that's a success once", "we're finished if", "Finished when", "Complete if"
# a chat message's sender or a note's label may come first ("12/05, 09:19 - Sam: and it's done when", "Note: done when")
_DONE = _rx(r"(?i)^(?P<lead>[^\n:]{0,100}+(?::\d{1,2}+[^\n:]{0,100}+){0,2}+:\s++)?\W{0,4}+(?:(?:and|so|then)\s++)?(?P<who>(?:(?:it|that|this|we|everything|all)\s*+['’](?:s|re)|its|thats)\s++(?:all\s++)?"
            r"(?:only\s++)?)?" + _STATE + r"\s++(?:only\s++)?(?:when|once|if|as\s+soon\s+as)(?![\w-])\s*+(?P<clause>\S.*)$")
# "RECORD COMPLETE only when ...", "Order done only if ...": a bare label of one to three words, its state, and "only"
# before the cue (a sheet's footer line); "only" is what makes it the run's condition of being done, not a description
_BARE = _rx(r"(?i)^\W{0,4}+(?:the\s++)?[A-Za-z][\w-]{1,30}+(?:\s++[A-Za-z][\w-]{1,30}+){0,2}?\s++" + _STATE
            + r"\s++only\s++(?:when|once|if)(?![\w-])\s*+(?P<clause>\S.*)$")
# a sentence about a retry, a wait, a timeout or an approval, not the run's success
_NOT_RUN = _rx(r"(?i)(?<![\w-])(?:retry|retries|retried|attempts?|timeout|times\s+out|approv\w*+|sign-?off|wait(?:ing)?)(?![\w-])")

# "Done when the docs server answered": what happened, told in the past, no check (`test_spec_success_said`)
_HAPPENED = _rx(r"(?i)^(?:the\s++|a\s++|an\s++|it\s++|we\s++|they\s++)?(?:(?!(?:is|are|be|been|was|were|has|have|gets?|got)\s)[\w-]{1,30}+\s++){0,3}?[a-z]{2,30}?ed(?![\w-])(?!\s*+[=:<>!`])(?!\s++(?:to|as|by|with|is|are)\b)")


def done_clause(sentence: str, *, outside: bool = True) -> str | None:
    """The check after "it's done when" / "Finished when" (module docstring), or None. Inside a step's
    text a bare "Done when ..." describes the step (prose, as the bundled specs write it): only
    "it's done when", "we're done when" or a sender's message is the run's there."""
    m = _DONE.match(sentence.strip())
    if m is None and outside:
        m = _BARE.match(sentence.strip())
    elif m is not None and not (outside or m.group("who") or m.group("lead")):
        return None
    if m is None:
        return None
    clause = m.group("clause").strip().rstrip(".!✅ ").strip()
    if not clause or _NOT_RUN.search(clause) or _HAPPENED.match(clause):
        return None
    return clause


# `jq -e '.ok'`, `jq -e ".status == \"SENT\""`, jq -e .count>=3: one field of the output, alone or compared with a literal
_JQ = _rx(r"(?<![\w-])jq\s++-e\s++['\"]?\.(?P<field>[A-Za-z_]\w{0,60}+)(?:\s*+(?P<op>==|!=|>=|<=|>|<)\s*+"
          r"(?P<value>\\?\"[^\"\\]{0,60}+\\?\"|true|false|null|-?\d{1,12}+(?:\.\d{1,9}+)?+))?\s*+['\"]?(?=[`\s]|$)")


def script_check(clause: str) -> str | None:
    """The comparison a `jq -e` check states (module docstring), or None."""
    m = _JQ.search(clause)
    if m is None:
        return None
    if m.group("op") is None:
        return f"{m.group('field')} == true"
    return f"{m.group('field')} {m.group('op')} {m.group('value').replace(chr(92), '')}"


_rx.save()
