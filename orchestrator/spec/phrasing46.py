"""Rows of the policy grammar (`spec.grammar`) for the forty-sixth round, joined to its tables through
`spec.grammar_families8`. In words that are not the spec's own:

- a label, a colon, a time and then giving up: "payment API: 2 min, then give up", "the upload: 45s then stop
  and fail": the attempt's time (the give-up itself is read by the failure rows). A label that says waits or
  retries ("retry waits: 30s, then give up") is no such thing, nor a list of times ("waits: 10s, 30s, then stop").
- what happens when a limit said in the sentence runs out: "must finish inside 45 minutes; past that, abort it",
  "done within 2 hours - beyond that, cancel the run": the limit's own end, read with the limit, no other policy
  (not warned as not understood). Without a time in the sentence ("past that, abort it") it stays unread.
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row

EARLY: tuple[Row, ...] = (
    # "payment API: 2 min, then give up": the attempt's time, after its label
    Row("timeout", r"(?<![\w'-])(?![^:.;]{0,40}?(?:retr|wait|pause|back-?\s*off|delay|gap|sleep|between))"
        r"(?:[\w'/-]++\s++){0,3}?[\w'/-]++:\s*+{D}\s*+,?\s*+then\s+(?:just\s+)?(?:give\s+up|fail|stop|bail|quit)(?!\w)"),
)

IGNORE: tuple[Row, ...] = (
    # "...inside 45 minutes; past that, abort it": the limit running out, after the time said
    Row("ignore", r"(?<![\w-])(?:past|after|beyond|over)\s+that\s*+[,;:-]?\s*+(?:just\s+)?(?:abort|kill|cancel|stop|end)\s+"
        r"(?:it|the\s+(?:run|job|refresh|thing|lot)|everything)(?![\w-])",
        needs=r"\d\s*+(?:s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)\b"),
)
GATES = {"EARLY": r"|then", "IGNORE": r"|past|beyond"}
