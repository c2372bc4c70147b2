"""Words that say a step goes through a list an item at a time, beyond `plan.fan_words`' own.

    Take the kegs one after another and run `taste-keg` on it.      "one after another"
    Work through the invoices one-by-one with `check-invoice`.      hyphenated
    Each in turn goes to `score-essay`.                             "each in turn", "them in turn"
    Tag the photos a folder at a time with `tag-photos`.            "a folder at a time": folders counted

`plan.fan_words` reads a step that runs once per item from its words ("for each PR", "one by one",
"one at a time", "row by row") and finds the list (`fan_words._CUES`). A hurried writer also says
"one after another", "one-by-one", "each in turn", "one keg at a time", "a folder at a time";
these read the same. `CUES` are its cue patterns, in the same form as `fan_words._CUES`: a group
`noun` when the words name the thing counted ("a folder at a time": `folder`), none when they
count nothing ("one after another"). "in turn" alone ("which in turn calls") is no cue: only
with "each", "them", "these", "those", "all" or "every one" right before it.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

CUES = (
    # "one keg at a time", "a folder at a time", "one invoice after another"
    _rx(r"(?i)(?<![\w-])(?:a|an|one)\s++(?P<noun>[A-Za-z_][\w-]*+)\s++(?:at\s++a\s++time|after\s++(?:another|the\s++other))"
        r"(?![\w-])"),
    # words that count nothing: "one after another", "one-by-one", "each in turn", "them in turn"
    _rx(r"(?i)(?<![\w-])(?:one\s++after\s++another|one-by-one|one-at-a-time|one-after-(?:another|the-other)|"
        r"(?:each|them|these|those|all|every\s++one)\s++in\s++turn|singly)(?![\w-])"),
)


_rx.save()
