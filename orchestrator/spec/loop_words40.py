"""Words in a step's text that only look like a policy (round 40): the step's loop, its gather, a place's
distance.

    Once per hive on A's list, each hive on its own.       the For each (the sentence opens so), no retry
    Wait for ALL the B's, then hand it the whole pile.      the gather (it starts after every item's run)
    Supplier is Ashdown Queens (they're 20 min away)        how far the supplier is, no time limit

"once" and "wait" are retry and wait words, and a duration is a time limit's; these phrasings say how
often the step runs (a sentence opening "Once per hive": the For each its plan reads; "post it once per
batch" stays a step done once, no retry), what it waits for (all of a For each's
results: the gather) or how far a place is ("20 min away", "a 10 minute drive from"), so they are no policy
and are not warned as one not understood. The For each and the gather are read by their own readers
(`spec.per_item`, `plan.gather_words`); what those do not read stays warned there.
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row

UNIT_WORDS = r"second|sec|minute|min|hour|hr|day|week|month|night|shift|run|attempt|try|tries|go|failure|error"

IGNORE: tuple[Row, ...] = (
    # "Once per hive on A's list" opening the sentence (after its row's skill): the For each ("once for every
    # well" is `spec.h24_left31`'s); not "post it once per batch" (done once: no retry), "once per hour" (a wait)
    Row("ignore", r"^[ \t]*+(?:`[\w.-]{1,60}+`[ \t]*+)?once\s+per\s+(?!(?:" + UNIT_WORDS + r")s?\b)[a-z][\w'’-]*+"),
    # "Run once per parcel in `parcels`", "call it once per row of the sheet": once for each item of a list named
    # after it, the For each (round 46); "post it once per batch" names no list: done once, no retry
    Row("ignore", r"(?<![\w-])(?:run|runs|call|calls|do|does|invoke|execute)\s+(?:it\s+|this\s+|that\s+)?once\s+per\s+"
        r"(?!(?:" + UNIT_WORDS + r")s?\b)[a-z][\w'’-]{0,30}+\s+(?:in|of|from|on)\b"),
    # "wait for ALL the B's", "wait until every score is in", "wait on all of them": the gather
    Row("ignore", r"\bwait\s+(?:for|until|till|on)\s+(?:all|every|each)\s+(?:of\s+)?(?:the\s+|those\s+|these\s+|them\b)?"
        r"[\w'’-]*+(?:\s+(?:is|are|has|have)\s+(?:in|back|done|finished|through))?"),
    # "they're 20 min away", "a 10 minute drive from the yard": a distance, no time limit
    Row("ignore", r"(?<![\w.])(?:an?\s+)?{D}\s+(?:away|(?:drive|walk|ride|bike|cycle)\s+(?:away|from|off)\b)"),
)
GATES = {"IGNORE": r"|once|wait|away|drive|walk|ride|bike|cycle"}
