"""A step run once per item, said as "each X" handing on to it by an arrow (fifty-fifth round).

    ||  EACH order  --->  scale-recipe (product, qty)      a For each over the list of orders
    every invoice => `pdf-render`                          a For each over the invoices
    each row → clean-row                                   a For each over the rows

On a whiteboard or in notes an arrow (`->`, `--->`, `=>`, `===>`, `→`) is "hands on to": "each order ---> skill"
sends each order to the skill, the For each `plan.fan_words` reads from its cues (this is one more cue); the list
is the one the step before hands on, found by the noun as for "for each order". Not "each attempt -> 30 s" (a
word that counts no items, `fan_words._NOT_ITEMS`) nor "orders -> each shop" (the arrow before "each").
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "EACH order --->", "every invoice =>", "each row →": the noun, then an arrow
EACH_ARROW = _rx(r"(?i)(?<![\w-])(?:each|every)[ \t]++`?(?P<noun>[A-Za-z_][\w-]{0,40}+)`?[ \t]*+"
                 r"(?:-{1,4}+>|={1,4}+>|→|⟶|⇒)")

_rx.save()
