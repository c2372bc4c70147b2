"""Round 45's policy phrasings of a plain rota sheet's numbered items (holdout29 178 and its like).

    If one goes wrong try again after 10 sec then 30 sec then give up.   2 retries, waits 10 s then 30 s
    if it just sits there for 5 mins on a go, stop it.                   a 300 s limit on each attempt

"One" that opens a failure ("if one goes wrong", "when any goes bad") is one of the items, not a count of
goes: "1 goes" was read as one attempt, so no retry, against the tries the sentence then says. And a step
said to sit, hang or stall for a time, then to be stopped, is the time limit of one attempt ("on a go",
"per try" say so; without them it is still the attempt's, as "if nothing back in 20s kill it" is). "Give it
the sunday" hands the step a value: no policy, not "give it" left unread ("give it the usual 3 tries" stays one).
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row

# rows of the policy grammar (`spec.grammar_families8` joins them before every earlier round's)
EARLY: tuple[Row, ...] = (
    # "if it just sits there for 5 mins on a go, stop it", "when the job hangs for 2 min, kill it"
    Row("timeout", r"\b(?:if|when|once|should)\s+(?:it|they|the\s+[\w-]+)\s+(?:just\s+|only\s+)?(?:sits?|sat|hangs?|hung|"
        r"stalls?|stalled|freezes|froze|spins?|stays?\s+stuck|is\s+stuck|gets\s+stuck)(?:\s+(?:there|around|idle|waiting))?"
        r"\s+(?:for|over)\s+(?:more\s+than\s+|over\s+)?{D}(?:\s+(?:on|in|per)\s+(?:a|one|any|each|the)\s+(?:go|try|attempt|run))?"
        r"(?=\s*+,?\s*+(?:then\s+)?(?:stop|kill|cancel|abort|give\s+up|end|bin|drop|pull\s+the\s+plug))"),
)
IGNORE: tuple[Row, ...] = (
    # "If one goes wrong", "when any goes bad": one of the items fails, no count of goes
    Row("ignore", r"\b(?:if|when|should|in\s+case)\s+(?:1|one|any|some|each)\s+(?:of\s+(?:them|those|these|the\s+[\w-]+)\s+)?"
        r"goes\s+(?:wrong|bad|badly|awry|astray|missing|sideways|pear-shaped)\b"),
    # "give it the sunday", "give it their file": what the step is handed, no time or tries to give it
    Row("ignore", r"\bgive\s+it\s+(?:the|its|their|our|your|his|her)\s+(?!(?:full|whole|usual|same|standard|normal|"
        r"benefit|time|chance|once|last|final|extra|odd|night|weekend|day|morning|afternoon|evening)\b)[a-z][\w'’-]*+"
        r"(?![ \t]*+(?:\d|one|two|three|four|five|more|tries|goes|attempts|minutes?|hours?|seconds?)\b)"),
)
GATES = {"EARLY": r"|sits?|sat|hangs?|hung|stall|freez|froze|spins?|stuck", "IGNORE": r"|goes|give\s+it"}
