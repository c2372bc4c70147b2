"""Rows of the policy grammar (`spec.grammar`) for the forty-sixth round, joined to its tables through
`spec.grammar_families8`. In words that are not the spec's own:

- a label, a colon, a time and then giving up: "payment API: 2 min, then give up", "the upload: 45s then stop
  and fail": the attempt's time (the give-up itself is read by the failure rows). A label that says waits or
  retries ("retry waits: 30s, then give up") is no such thing, nor a list of times ("waits: 10s, 30s, then stop").
  A clause ended by a comma stands for the label too ("the courier site is slow, 45 seconds then give up on it",
  round 49, a .proto's comment `spec.proto49`), when it says no time and no waits or retries itself.
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row

EARLY: tuple[Row, ...] = (
    # "payment API: 2 min, then give up": the attempt's time, after its label
    Row("timeout", r"(?<![\w'-])(?![^:.;]{0,40}?(?:retr|wait|pause|back-?\s*off|delay|gap|sleep|between))"
        r"(?:[\w'/-]++\s++){0,3}?[\w'/-]++:\s*+{D}\s*+,?\s*+then\s+(?:just\s+)?(?:give\s+up|fail|stop|bail|quit)(?!\w)"),
    # "the DVSA site is slow, 45 seconds then give up on it": a clause with no time or waits in it, then the time
    Row("timeout", r"(?:^|[:;]\s*+|\s-\s++)(?![^,]{0,80}?(?:retr|wait|pause|back-?\s*off|delay|gap|sleep|between|again))"
        r"[^,\d]{1,80}?,\s*+{D}\s*+,?\s*+then\s+(?:just\s+)?(?:give\s+up|fail|stop|bail|quit)(?!\w)"),
)

GATES = {"EARLY": r"|then"}
