"""A person's approval said over several sentences: its wait, what silence means "by then", and the case that needs none.

    Hold up to 45 min for her.                                -> the approval waits 2700 s
    The board gets two working days (treat as 48 hours).      -> the approval waits 172800 s (the gloss is the time)
    No reply by then = send it anyway.                        -> silence after that wait approves
    If they have not answered by then the order is rejected   -> silence after that wait rejects
      and the run stops.
    No incidents = no hold.  /  Where it said "low" no sign-off is needed.  /  Otherwise no approval needed.
                                                              -> the case that needs no approval: the gate's
                                                                 condition already says it (read, never a gate)

Forms, calling scripts and memos ask for the sign-off in one sentence and say the wait, what silence means
and when no one is asked in the sentences after it. Each such sentence belongs to the approval the step
already has (`step.StepReader._conditional`): a wait said as "hold (up to) N", "N for her", or as what the
person "gets" with its exact time glossed in brackets ("two working days (treat as 48 hours)") is the
approval's timeout (`held_wait`); a silence said "by then" / "by that time" / "in that time" names that
wait, and its outcome is read from the words after it (`silence_by_then`: "send it anyway" approves,
"rejected", "stops", "cancelled" reject); a sentence that says no approval, no hold or no sign-off is
needed (`no_gate`) is the other side of the gate's condition, never an approval of its own.

A sentence wrapped at any word over lines the anchored reading cut one piece a line (`rejoined`) is
joined again first, so the approval's sentences are read whole ("... until the CAB / has signed off.").

A step's condition said as what an earlier step *said* ("Where step 4 said "high"", "if step 2 says
'red'") is read as that step's field that declares the value (`said_value`): the planner places
"`high` only" on the one output that quotes it, and the step waits for that step.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any, Literal, Protocol

from orchestrator.policy import ApprovalPolicy
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

Outcome = Literal["approve", "reject"]

_UNIT = r"(?:seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d|weeks?|wks?)"
# "hold up to 45 min for her", "hold it for 2 hours max", "hold for 45 minutes"
_HOLD = _rx(rf"(?i)(?<![\w-])hold(?:s|ing)?+\s++(?:it\s++|them\s++|the\s++\w++\s++)?+(?:(?:for\s++)?+(?:up\s++to|at\s++most|"
            rf"max(?:imum)?+|no\s++more\s++than)\s++|for\s++)(?P<n>\d{{1,4}}+(?:\.\d{{1,2}}+)?+)\s*+(?P<u>{_UNIT})(?![\w])")
# a time in words glossed with its exact time: "two working days (treat as 48 hours)", "a shift (i.e. 8 h)"
_GLOSS = _rx(rf"(?i)\((?:treat(?:ed)?+\s++(?:it\s++)?+as|read\s++as|call\s++it|i\.\s*+e\.,?+|that\s++is,?+|=|counts?\s++as|"
             rf"say)\s++(?P<n>\d{{1,4}}+)\s*+(?P<u>{_UNIT})\s*+\)")
# the person is given the time: "gets", "has", "have", "is given", "allow them"
_GIVEN = _rx(r"(?i)(?<![\w-])(?:gets?|has|have|(?:is|are)\s++given|allow(?:ed)?+|give\s++(?:him|her|them|it))\s")
# a silence that names the wait said before: "No reply by then", "If they have not answered by then"
_BY_THEN = _rx(r"(?i)(?<![\w-])(?:by\s++then|by\s++that\s++(?:time|point)|in\s++that\s++time|within\s++that(?:\s++time)?+|"
               r"after\s++that(?:\s++time)?+|once\s++(?:that['’]?s|it['’]?s|the\s++time\s++is)\s++(?:up|gone|over)|"
               r"by\s++the\s++deadline|when\s++(?:the\s++)?+time\s++(?:runs|is)\s++(?:out|up))(?![\w-])")
_QUIET = _rx(r"(?i)(?<![\w-])(?:no\s++(?:reply|answer|response|word|decision|sign-?off|ok|okay)|nothing\s++(?:back|heard)|"
             r"silence|(?:has|have|had|does|do|did)(?:\s++not|n['’]t)\s++(?:answered|replied|responded|signed|approved|"
             r"decided|got\s++back|answer|reply|respond|sign|approve|decide)|(?:nobody|no\s++one|no-one)\s++(?:answers|"
             r"replies|responds|approves|signs|decides|has\s++answered))(?![\w-])")
_GO = _rx(r"(?i)(?<![\w-])(?:anyway|anyhow|regardless|go\s++ahead|proceed|carry\s++on|treat(?:ed)?+\s++as\s++approved|"
          r"(?:counts?|treat(?:ed)?+)\s++as\s++(?:a\s++)?+yes|approved\s++by\s++default)(?![\w-])")
_STOP = _rx(r"(?i)(?<![\w-])(?:reject(?:ed|s)?+|refus(?:ed|es)|declin(?:ed|es)|cancell?+(?:ed|s)|abort(?:ed|s)|"
            r"(?:run|request|order|job|release|change)\s++stops|stops?\s++(?:there|here)|(?:is|are)\s++(?:dropped|"
            r"stopped|called\s++off|binned|scrapped)|do(?:es)?\s++not\s++(?:go|proceed|run|send|ship)|"
            r"don['’]t\s++(?:go|proceed|run|send|ship)|(?:is|are)\s++not\s++(?:given|sent|released|shipped|published|"
            r"applied|run|done|posted|placed|paid|filed|made)|(?:treat(?:ed)?+|counts?)\s++as\s++(?:a\s++)?+no)(?![\w-])")
# the case that needs no one's OK: "no sign-off is needed", "no hold", "needs no approval", "= no hold"
_NO_GATE = _rx(r"(?i)(?<![\w-])(?:no\s++(?:sign-?off|sign\s++off|approval|hold|ok|okay|go-?ahead|review|check)"
               r"(?:\s++(?:is|are|will\s++be))?+(?:\s++(?:needed|required|necessary|wanted))?+|(?:needs?|requires?)\s++"
               r"no\s++(?:sign-?off|approval|ok|okay|go-?ahead)|(?:sign-?off|approval)\s++(?:is\s++)?+not\s++(?:needed|"
               r"required|necessary)|without\s++(?:a\s++|any\s++)?+(?:sign-?off|approval|hold))(?![\w-])"
               r"(?!\s++(?:sheets?|forms?|logs?|box(?:es)?|pages?|books?|columns?|fields?|slips?|notes?|records?|"
               r"stamps?|lines?|rows?|dates?|signatures?)\b)")
# "Where step 4 said "high"", "where 3.3 said "high"", "if triage says 'red'", "when the scan reported `dirty`"
_SAID_VALUE = _rx(r"(?i)(?<![\w-])(?:where|when|if|once)\s++(?P<step>(?:the\s++)?+[\w.-]{1,24}+(?:\s[\w.-]{1,24}+)?)\s++(?:said|says|reported|reports|"
                  r"returned|returns|answered|answers|came\s++back|comes\s++back)\s++(?:with\s++)?+"
                  r"[\"“'`](?P<v>[\w.-]{1,40}+)[\"”'`]")
# a condition opening with an earlier step's label as its subject: "Q3 logged ANY incidents", "B2 found a leak"
_LABEL_SUBJECT = _rx(r"^\s*+(?P<label>[A-Za-z]{0,3}+\d{1,3}+[a-z]?+)\s++(?=(?:logged|logs|said|says|found|finds|shows?|showed|"
                     r"reported|reports|returned|returns|counted|counts|flagged|flags|listed|lists|recorded|records|"
                     r"gave|gives|came\s++back|comes\s++back)\b)")
_STOP_END = _rx(r"[.!?:;][\"”')\]]?+$")


def _seconds(n: str, unit: str) -> float:
    u = unit.lower()
    scale = (604800 if u.startswith("w") else 86400 if u.startswith("d") else 3600 if u.startswith("h")
             else 60 if u.startswith("m") else 1)
    return float(n) * scale


def rejoined(pieces: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Pieces cut one a line out of prose wrapped at any word, joined into whole sentences: a piece that
    ends with no stop, followed on the next line by one opening in lower case, goes on in it, when a stop
    ends the lines so joined. Lines with no stops (a shell history, an outline) are left as they were."""
    from orchestrator.spec.step_prose import sentences

    if len(pieces) < 2 or not any(_goes_on(pieces[i], pieces[i + 1]) for i in range(len(pieces) - 1)):
        return pieces
    out: list[tuple[int, str]] = []
    run: list[tuple[int, str]] = [pieces[0]]
    for prev, nxt in pairwise(pieces):
        if _goes_on(prev, nxt):
            run.append(nxt)
            continue
        out += _resplit(run, sentences)
        run = [nxt]
    out += _resplit(run, sentences)
    return out


def _goes_on(prev: tuple[int, str], nxt: tuple[int, str]) -> bool:
    text = nxt[1].lstrip()
    return (nxt[0] == prev[0] + 1 and not _STOP_END.search(prev[1].rstrip()) and bool(text)
            and (text[0].islower() or text[0].isdigit()))


def _resplit(run: list[tuple[int, str]], sentences: object) -> list[tuple[int, str]]:
    if len(run) == 1 or not _STOP_END.search(run[-1][1].rstrip()):  # no sentence ends it: lines of their own
        return run
    lines = [n for n, _ in run]
    said = sentences("\n".join(t for _, t in run))  # type: ignore[operator]
    return [(lines[min(offset, len(lines) - 1)], s) for offset, s in said]


def held_wait(sentence: str) -> tuple[float, Outcome | None] | None:
    """The approval's wait said as a hold ("Hold up to 45 min for her") or as what the person gets with
    its exact time glossed ("gets two working days (treat as 48 hours)"), with what silence means when the
    same sentence says it; None when it says neither."""
    m = _HOLD.search(sentence)
    if m is None:
        g = _GLOSS.search(sentence)
        if g is None or _GIVEN.search(sentence, 0, g.start()) is None:
            return None
        seconds = _seconds(g.group("n"), g.group("u"))
        rest = sentence[g.end():]
    else:
        seconds, rest = _seconds(m.group("n"), m.group("u")), sentence[m.end():]
    return seconds, (silence_by_then(rest) if _QUIET.search(rest) else None)


def silence_by_then(sentence: str) -> Outcome | None:
    """What a silence said to end the wait before ("by then", "in that time") means: "send it anyway"
    approves, "rejected and the run stops" rejects; None when the sentence says no silence or neither."""
    if _QUIET.search(sentence) is None:
        return None
    quiet = _QUIET.search(sentence)
    after = sentence[quiet.end():] if quiet is not None else sentence
    go, stop = _GO.search(after) is not None, _STOP.search(after) is not None
    return "approve" if go and not stop else "reject" if stop and not go else None


def names_then(sentence: str) -> bool:
    """Whether the sentence's silence points at the wait said before it ("by then", "in that time")."""
    return _BY_THEN.search(sentence) is not None and _QUIET.search(sentence) is not None


def said_of_gate(words: str) -> bool:
    """Whether a line of the step's text is one of its approval's sentences this module reads (a wait, a
    silence "by then", the case that needs none): a condition in it ("If they have not answered by
    then ...") is the approval's, not the step's."""
    return names_then(words) or held_wait(words) is not None or no_gate(words)


def asks_gate(sentence: str) -> bool:
    """Whether the sentence asks a person's approval (`condition.approval_sentence`) or says its wait,
    its silence or the case that needs none (`said_of_gate`): said away from the step (a memo's clause
    wrapped over lines), it is placed on the step it names, or the one before names, as policies are."""
    from orchestrator.spec.condition import approval_sentence

    return approval_sentence(sentence) or said_of_gate(sentence)


def no_gate(sentence: str) -> bool:
    """Whether the sentence says a case needs no approval ("No incidents = no hold.", "Where it said
    "low" no sign-off is needed.")."""
    return _NO_GATE.search(sentence) is not None


def label_subject(text: str, names: list[tuple[int, str]]) -> str:
    """An approval's condition with an earlier step's label as its subject written as "step N" ("Q3
    logged ANY incidents" -> "step 3 logged ANY incidents" when exactly one earlier step's name ends in
    "Q3": "STANDBY Q3"); `names` are the earlier steps' (number, name). The text as it was otherwise."""
    m = _LABEL_SUBJECT.match(text)
    if m is None:
        return text
    label = m.group("label").lower()
    found = [n for n, name in names if name.strip(" .:)").lower().split()[-1:] == [label]]
    return f"step {found[0]} {text[m.end():]}" if len(found) == 1 else text


def said_value(sentence: str) -> tuple[str, str] | None:
    """(the approval's condition, the words read) for "Where step 4 said "high"": the value `high` of
    the earlier step's output that declares it; None when the sentence says no such thing."""
    m = _SAID_VALUE.search(sentence)
    if m is None:
        return None
    return f"{m.group('v')} only", m.group(0)



class _Builder(Protocol):
    """What `gate_said` needs of the step being read (`spec.step._StepBuilder`)."""

    src: Source
    sid: str
    values: dict[str, Any]
    field_where: dict[str, Any]
    beside: str

    def read(self, what: str, line: int, text: str, note: str) -> None: ...


def gate_said(step: _Builder, sentence: str, line: int) -> bool | None:
    """Read a sentence of the step's prose that belongs to its approval (module docstring): True when
    taken, None when it is none of these (the step's other readers go on)."""
    from orchestrator.spec import condition as cond
    from orchestrator.spec.elsewhere import carries_policy

    approval = step.values.get("approval")
    rest = _NO_GATE.sub(" ", sentence)  # what it says besides: a retry or another person's OK is read on
    if no_gate(sentence) and not cond.approval_sentence(rest):
        said = "the case that needs no approval" + (
            f" (the approval is asked only when {approval.when})" if isinstance(approval, ApprovalPolicy)
            and approval.when else "")
        step.read("approval", line, sentence, said)
        if carries_policy(rest):
            step.beside = " ".join(rest.split()).strip(" ;,.")  # "no sign-off needed; retry it 3 times": read on
        return True
    if approval is None and cond.approval_sentence(sentence) and (by := said_value(sentence)) is not None:
        seconds, then = cond.approval_timeout(sentence)
        step.values["approval"] = ApprovalPolicy(timeout_s=seconds, on_timeout=then or "reject", when=by[0])
        step.field_where["approval"] = step.src.where(line)
        step.beside = cond.approval_rest(sentence)
        step.src.warn(line, f"{step.sid}: '{by[1]}' is read as an approval asked only when the step's output "
                            f"that declares the value '{by[0].split()[0]}' has it (a guess): check the plan, or write "
                            f"`Approval: required if FIELD == {by[0].split()[0]}`", "spec.approval-condition")
        step.read("approval", line, sentence, f"needs a person's approval only when {by[1]}")
        return True
    if not isinstance(approval, ApprovalPolicy):
        return None
    if approval.timeout_s is None and (held := held_wait(sentence)) is not None:
        held_then = held[1] or approval.on_timeout
        step.values["approval"] = approval.model_copy(update={"timeout_s": held[0], "on_timeout": held_then})
        step.read("approval", line, sentence, f"the approval waits {held[0]:g}s, then {held_then}s")
        return True
    if approval.timeout_s is not None and names_then(sentence) and (then := silence_by_then(sentence)) is not None:
        step.values["approval"] = approval.model_copy(update={"on_timeout": then})
        step.read("approval", line, sentence, f"no answer in the approval's {approval.timeout_s:g}s means {then}")
        return True
    return None


_rx.save()
