"""A part of the run's success check said as something being there (twenty-ninth round).

    Pattern is finished when there's a label id and the route has at least one stop.
        -> "there's a label id": the output `label_id` is not empty, on the one step that gives it

"There's a receipt number", "there is a booking reference", "there are some tracking ids": the
thing said to be there is an output in words (`spec.success_words` finds the step whose output it
is, and says the reading at the line). "There's no rush" or "there is a chance it rains" name no
output and stay unread, warned as before.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_THERE = _rx(r"(?i)^there(?:'s|\s++is|\s++are|\s++was|\s++were)\s++(?:a|an|the|some|its)\s++(?P<field>[\w.' -]{1,60}+)$")


def there_field(part: str) -> str | None:
    """The words of the thing `part` says is there ("there's a label id" -> "label id"), else None."""
    m = _THERE.match(part.strip())
    return m.group("field").strip() if m is not None else None


_rx.save()
