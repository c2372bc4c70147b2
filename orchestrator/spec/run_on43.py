"""A success check run on after another sentence with no capital: "... half an hour max. its done when ...".

Notes typed in lower case start a sentence after a stop without a capital, so the document's sentences
(`spec.whole_doc`, which end a sentence before a capital) keep two in one: "whole thing should be done in
half an hour max. its done when the PMS log has gone in (logged = true)". The limit is read from the
whole; `run_on_check` gives the words after the stop when they open with the run's success cue ("its
done when", "we're finished once"), so `spec.whole_net` reads them as the success check at their own
line. A stop inside a number ("2.5") or after an abbreviation with no space is no stop here; a tail that
opens with no success cue is left as it was.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# a stop, then spaces, then a lower-case word: where a sentence of lower-case notes starts
_RUN_ON = _rx(r"(?<=[a-z0-9)][.!?])\s++(?=[a-z])")


def run_on_check(text: str) -> str | None:
    """The words after a stop that open with the run's success cue (module docstring), or None."""
    from orchestrator.spec.whole_success import success_cue

    for m in _RUN_ON.finditer(text):
        tail = text[m.end():]
        if success_cue(tail) is not None:
            return tail
    return None


_rx.save()
