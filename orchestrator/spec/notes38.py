"""A person's OK said with "ok" as a verb after a modal, in notes of every kind.

    IF there are more than 20 texts, Dr Okoye has to ok it first          -> an approval of the step
    the duty manager needs to okay this before it goes out                 -> an approval of the step
    over 3 pallets? Sam's got to o.k. them                                 -> an approval of the step

`ok_verb` is asked by `condition.approval_sentence` after the other approval words said nothing:
"ok" / "okay" / "o.k." in any case, right after "has to", "have to", "needs to", "must", "got to",
"should" and followed by what is approved ("it", "this", "them", "that", "the <thing>") or by
"first" / "before": there it can only be the verb. "it's ok to send", "looks ok first time", "that
is ok" or "ok, then send" say no one's yes (no modal before the word) and are not read.

A value to go on with said as the pair the step would have said (`as_if30` asks `said_pair` when "as
if it said/returned/came back with" is followed by a bare word that is no value by itself):

    carry on as if it said logged: false            (skill outputs `logged`) -> {logged: false}
    on error continue as though it returned status = "skipped"             -> {status: "skipped"}

The name must be an output of the step's skill; "as if it said hello: world" with no output `hello`
is not read here.

No retry said as a run count with "ever", or as "no <re-verb>" (`EARLY`, rows of the policy grammar
joined through `grammar_families8`):

    only ever ONCE. no resend.          only ever once!          no resubmit - it charges the card
                                                                  -> no retry

A person asked for their OK ("message her on Teams", "ring the duty vet") is how the approval is
asked, not what follows a failure: `asks_approver` tells the policy reader (`phrase`) to drop the
escalation it read from such words in a sentence that says an approval, warned (the run sends no
message; the approval is the step's wait). In such a sentence "no answer" / "no reply" is the
person's silence (the approval's wait, `condition.approval_timeout`), not the step timing out:
`approver_silence` keeps the policy reader from scoping the sentence's policy to timeouts. Neither
reading is made when the sentence also says the step itself fails, errors, times out or hangs ("if
it times out, message the duty manager": an escalation).

A count taken "from" a step by a count word, for an input whose name is that count's stem
(`stem_count`, asked by `plan.output_aliases` beside `plan.runs37.count_field`):

    month, and the "how many went" number from the send    (`sent`; step "send them" gives `sent_count`)
    the count from the mailer                               (`delivered`; the mailer gives `delivered_count`)

The step's field must be `<name>_count`, `<name>_n`, `<name>_total`, `n_<name>` or `num_<name>`, the one
such field; a count word must lead the words said ("number", "count", "total", "how many").

"once ever" must end its clause ("only ever once a day" is a schedule, "only ever once more" a
retry); "no re<verb>" is the verb bare ("no resending needed, it's idempotent" is not read here).
"""

from __future__ import annotations

from collections.abc import Iterable

from orchestrator.spec.grammar_families import REDO
from orchestrator.spec.grammar_row import Row
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_OK_VERB = _rx(r"(?i)(?<![\w-])(?:(?:has|have|needs?|ought|got|gotta)\s++to|must|should|gotta|['’]s\s++got\s++to|"
               r"will\s++need\s++to)\s++(?:ok|okay|o\.k\.)(?=\s++(?:it|this|them|that|the\s++[\w-]++|first|before|"
               r"beforehand|in\s++advance)(?![\w-]))")


EARLY: tuple[Row, ...] = (
    # "only ever ONCE.", "just ever once!": no retry (a clause's end after it)
    Row("no_retry", r"(?<![\w-])(?:only|just)\s++ever\s++once(?=\s*+[.;!,)]|\s*+$|\s++[-–—]\s)"),
    # "no resend.", "no re-submit - it charges twice": no retry
    Row("no_retry", r"(?<![\w-])no\s++" + REDO + r"(?=\s*+[.;!,)]|\s*+$|\s++[-–—]\s)"),
)

# the words the new rows need in a sentence (`grammar.GATES`)
GATES = {"EARLY": r"|ever\s+once|no\s+re"}

# after "as if it said ": "logged: false", "status = \"skipped\""
_PAIR = _rx(r"(?i)(?P<field>[A-Za-z_][\w-]{0,40}+)\s*+(?::|=)\s*+(?P<value>\"[^\"\n]{0,80}+\"|'[^'\n]{0,80}+'|"
            r"`[^`\n]{0,80}+`|-?\d{1,9}+(?:\.\d{1,6}+)?+|[A-Za-z][\w-]{0,40}+)")


def said_pair(text: str, start: int, outputs: frozenset[str] | None) -> tuple[str, str, int] | None:
    """(the output's name, its value as written, where the pair ends) of a "name: value" pair at `start`
    whose name is an output of the step's skill (module docstring), else None."""
    if not outputs:
        return None
    m = _PAIR.match(text, start)
    if m is None or m.group("field") not in outputs:
        return None
    return m.group("field"), m.group("value"), m.end()


def asks_approver(sentence: str, message: str) -> bool:
    """Whether an escalation `message` read in `sentence` ("message her on Teams") only says how the
    person whose OK the sentence asks for is reached (module docstring)."""
    from orchestrator.spec.condition import approval_sentence
    from orchestrator.spec.notify_person import tells

    return tells(message) and _STEP_FAILS.search(sentence) is None and approval_sentence(sentence)


# the step itself failing: then a person told, or no answer, may be the step's own policy
_STEP_FAILS = _rx(r"(?i)(?<![\w-])(?:time[sd]?\s*+-?out|timeout|timing\s++out|hangs?|hung|hanging|too\s++(?:long|slow)|"
                  r"fail\w*+|errors?|erroring|crash\w*+|falls?\s++over|dies|died|breaks?|broken?|goes\s++wrong|down)"
                  r"(?![\w-])")


def approver_silence(sentence: str) -> bool:
    """Whether the silence the sentence speaks of is the approver's, not the step's (module docstring)."""
    from orchestrator.spec.approval_ok import said_silence
    from orchestrator.spec.condition import approval_sentence

    return said_silence(sentence) and _STEP_FAILS.search(sentence) is None and approval_sentence(sentence)


_COUNT_LEAD = _rx(r"(?i)^(?:the\s++)?+(?:number|count|total|tally|figure|how\s++many)\b")


def stem_count(name: str, words: str, fields: Iterable[str]) -> str | None:
    """The one field of `fields` that counts `name` (`sent` -> `sent_count`) when `words` say a count
    (module docstring), else None."""
    if not _COUNT_LEAD.match(words):
        return None
    forms = {f"{name}_count", f"{name}_n", f"{name}_total", f"n_{name}", f"num_{name}"}
    found = [f for f in fields if f in forms]
    return found[0] if len(found) == 1 else None


def ok_verb(sentence: str) -> bool:
    """Whether the sentence says someone has to OK the work, with "ok" the verb after a modal
    (module docstring)."""
    return _OK_VERB.search(sentence) is not None


_rx.save()
