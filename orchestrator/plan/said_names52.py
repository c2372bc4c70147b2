"""The name a workflow input takes from the author's words when they say more than the skill's name (round 52).

`plan.prose_inputs` matches a thing the text says the run is given to the name a skill reads. The input
is the author's, though, and a run is given it under the author's words:

- "door type (upvc/wooden/composite)" for a skill reading `door`: every word of the name said, then one
  word more that says which thing of it is meant: the input is `door_type`, given to the skill as `door`;
  a word before the name ("the front door"), a word the matcher already sets aside ("the door list",
  "the door number") or one that only says how it is shown ("the season label") keeps the skill's name;
- "what time they rang", "when the customer called", "the time they arrived": the time of an event, for
  a skill reading the event's time (`called_at`, `call_time`, `arrival_ts`): the input is named for the
  event, `call_time`, `arrival_time` (the verbs a person uses for it: "rang", "phoned", "called" are a call).
"""

from __future__ import annotations

from collections.abc import Iterable

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_ASIDE = _rx(r"\([^()]{0,200}+\)")
_WORD = _rx(r"[a-z][a-z0-9]*+")
_LEAD = frozenset({"the", "a", "an", "their", "his", "her", "your", "my", "our", "its", "customer's", "caller's"})
# a trailing word that does not say which thing is meant: the matcher's own words, units, fillers
_NOT_KIND = frozenset({"list", "lists", "file", "number", "no", "id", "ref", "please", "info", "details", "detail",
                       "value", "values", "here", "too", "also", "etc", "string", "text", "field", "thing", "things",
                       "time", "label", "name", "title", "tag", "word", "words", "s", "ms", "m", "h", "kg", "mm", "cm",
                       "km"})  # "the season label" is the season itself

# the event a verb says happened, as a noun; the verbs (and the noun) a skill's name may use for it
_EVENTS: dict[str, tuple[str, frozenset[str]]] = {}
for noun, verbs in (("call", ("rang", "ring", "rung", "rings", "phoned", "phone", "called", "call", "calls", "rang up")),
                    ("arrival", ("arrived", "arrive", "arrives", "got in", "came in", "turned up")),
                    ("departure", ("left", "leave", "leaves", "departed", "set off")),
                    ("booking", ("booked", "book", "books")),
                    ("order", ("ordered", "order", "orders")),
                    ("payment", ("paid", "pay", "pays")),
                    ("delivery", ("delivered", "deliver", "delivers")),
                    ("pickup", ("picked up", "collected", "picks up"))):
    for verb in verbs:
        _EVENTS[verb] = (noun, frozenset({noun, *(v.split()[0] for v in verbs)}))
_EVENT = _rx(r"(?i)^(?:the\s++)?(?:what\s++time|when|the\s++time)\s++(?:they|he|she|you|we|it|(?:the\s++)?[a-z]{2,20}+)\s++"
             r"(?P<verb>[a-z]{2,12}+(?:\s++(?:up|in|off))?)\s*+$")
_TIME_WORDS = frozenset({"at", "time", "ts", "timestamp", "when", "on"})


def _words(text: str) -> list[str]:
    return _WORD.findall(_ASIDE.sub(" ", text.lower()))


def kind_named(part: str, name: str) -> str | None:
    """`door_type` for "door type (upvc/wooden/composite)" said for `door` (module docstring), else None."""
    said = [w for w in _words(part) if w not in _LEAD]
    own = _WORD.findall(name.lower().replace("-", "_").replace("_", " "))
    if len(said) != len(own) + 1 or said[:len(own)] != own:
        return None
    extra = said[-1]
    if extra in _NOT_KIND or len(extra) < 3 or not extra.isalpha():
        return None
    return "_".join([*own, extra])


def event_time(part: str) -> tuple[str, frozenset[str]] | None:
    """(`call_time`, the words a skill's name may use for the event) for "what time they rang", else None."""
    m = _EVENT.match(" ".join(_ASIDE.sub(" ", part).split()))
    if m is None:
        return None
    event = _EVENTS.get(" ".join(m.group("verb").lower().split()))
    return (f"{event[0]}_time", event[1]) if event is not None else None


def event_field(part: str, reads: Iterable[str], made: Iterable[str]) -> str | None:
    """The one name a skill reads that is the time of the event `part` says ("what time they rang": `called_at`,
    `call_time`), none a step outputs; else None."""
    event = event_time(part)
    if event is None:
        return None
    done = set(made)
    found = [name for name in reads if name not in done and len(ws := _WORD.findall(name.lower().replace("_", " "))) == 2
             and ws[0] in event[1] and ws[1] in _TIME_WORDS]
    return found[0] if len(found) == 1 else None


_rx.save()
