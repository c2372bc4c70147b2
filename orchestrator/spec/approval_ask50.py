"""A person asked first, by a message, before the work goes on: an approval (50th round).

    BUT if the quote's over £150 text me first b4 u book anyone. give me 10 mins. if i dont answer DONT book
    ring the duty manager first before you send anything out
    message Priya first, before we order
        -> an approval on the step (its condition, its wait and what silence means read as any approval's)

"Text me first before you book" tells a person about the work before it is done so that they can say
no: the step waits for their answer, it is not a message the run sends (the run sends none: `spec.notify_person`).
The person is asked (text, ring, call, phone, message, ping, email, ask, check with) and then "first" and
"before" / "b4" what is done. Told afterwards ("text me after you book", "ring me once it's sent") or told
without "first ... before" ("text me the price") is a message, not an approval.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_ASK_FIRST = _rx(r"(?i)(?<![\w-])(?:text|txt|ring|call|phone|message|msg|ping|email|e-mail|ask|check\s++with|whatsapp)\s++"
                 r"(?:me|us|her|him|them|(?:the\s++)?[A-Za-z][\w-]{1,30}+(?:\s++(?!first\b)[A-Za-z][\w-]{1,30}+)?+)\s*+,?\s*+first"
                 r"\s*+,?\s*+(?:before|b4|prior\s++to)(?![\w-])")


# "if the quote's over £150 text me first b4 ...": the condition, up to the person asked
_IF_ASKED = _rx(r"(?i)^\W*+(?:(?:but|and|so|then)\s++)?(?:if|when|whenever)\s++(?P<cond>[^.;!?]{3,120}?)\s*+,?\s*+"
                r"(?=(?:text|txt|ring|call|phone|message|msg|ping|email|e-mail|ask|check\s++with|whatsapp)\s)")


def asks_first(sentence: str) -> bool:
    """A person asked by a message first, before the work goes on (module docstring)."""
    return _ASK_FIRST.search(sentence) is not None


def condition_before_ask(text: str) -> str | None:
    """The condition said before the person asked first ("if the quote's over £150 text me first b4 u book"
    -> "the quote's over £150"), when it reads as one; else None."""
    from orchestrator.spec.condition import read_condition

    m = _IF_ASKED.match(text)
    if m is None or not asks_first(text[m.end("cond"):]):
        return None
    said = m.group("cond").strip(" ,")
    return said if read_condition(said) is not None else None


_rx.save()
