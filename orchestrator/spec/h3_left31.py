"""A condition said as a label of plural nouns before a colon, leading a sentence that asks a person's OK.

    Orders over $150: a Tier 2 lead has to OK the credit ...      -> "the order is over 150"
    Refund amounts above €2,000: finance signs off first           -> "the refund amount is above 2,000"
    Batches under 10 kg: the shift lead OKs them                   -> "the batch is under 10 kg"

The label names the things the step handles in the plural ("Orders", "Invoices", "Batches") and a
comparison with a number; it is read as the condition "the <noun> is <comparison> <number>" on the one
thing (the last word made singular, the currency marks dropped), which the planner then places on a
value by its meaning (`order` -> `order_total`, warned) or, when no value is found for it, warns at its
line and asks the approval on every run. A label that does not read as a condition gives None and the
caller's words stand.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_LABEL = _rx(r"(?i)^(?P<noun>[a-z][a-z ]{1,40}?)\s++(?P<op>over|above|under|below|exceeding|of\s++more\s++than|"
             r"of\s++less\s++than)\s++(?P<value>[$€£]?\s*+\d[\d,.]*+\s*+(?:[kKmM](?![a-z])|[a-z]{1,5}+)?+)\s*+$")
_ENDS_ES = ("sses", "xes", "ches", "shes", "zes")
_LEAD_LABEL = _rx(r"^\W{0,4}+(?P<label>[A-Za-z][^:;,.!?\n]{2,80}+(?:[.,]\d[^:;,.!?\n]{0,20}+)?+):\s")
_OPS = {"of more than": "more than", "of less than": "less than", "exceeding": "over"}


def singular(word: str) -> str:
    """The singular of an English plural noun, by its ending ("batches" -> "batch", "entries" -> "entry",
    "orders" -> "order"); a word that is not plural so is returned as given."""
    low = word.lower()
    if low.endswith("ies") and len(low) > 4:
        return word[:-3] + "y"
    if low.endswith(_ENDS_ES):
        return word[:-2]
    if low.endswith("s") and not low.endswith(("ss", "us", "is")) and len(low) > 3:
        return word[:-1]
    return word


def label_condition(label: str) -> str | None:
    """The condition a plural-noun label states ("Orders over $150" -> "the order is over 150"), or None
    when the label is not nouns, a comparison and a number."""
    from orchestrator.spec.condition import read_condition

    m = _LABEL.match(label.strip())
    if m is None:
        return None
    words = m.group("noun").split()
    if not words or words[0].lower() in {"if", "when", "where", "for", "the", "a", "an", "and", "or", "not"}:
        return None
    noun = " ".join([*(w.lower() for w in words[:-1]), singular(words[-1]).lower()])
    value = m.group("value").lstrip("$€£").strip()
    op = " ".join(m.group("op").lower().split())
    op = _OPS.get(op, op)
    text = f"the {noun} is {op} {value}"
    return text if read_condition(text) is not None else None


def lead_label(sentence: str) -> str | None:
    """The condition of a plural-noun label that opens the sentence before a colon ("Orders over $150: a
    lead has to OK it" -> "the order is over 150"), or None."""
    m = _LEAD_LABEL.match(sentence)
    return label_condition(m.group("label")) if m is not None else None


_rx.save()
