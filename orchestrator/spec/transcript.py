"""A chat transcript (a chatbot or assistant conversation export) where a person dictates the flow.

Its turns open with the speaker, most with a time: `[09:01] Dana: ...`, `09:01 Dana: ...`,
`Dana [09:01]: ...`, a role (`User: ...`, `Assistant: ...`), or a role on a line of its own
with the message below it (`**User:**`, `### Assistant`, `ChatGPT said:`). Four such turns from
two speakers or more make a document a transcript. A speaker whose name says it is a bot or
an assistant (`BOT_NAMES`, or marked 🤖 / "(app)" / "(bot)" where the participants are
listed) is not the author: its turns (its questions, its "Got it", its closing summary of
the flow) are blanked, so they are neither steps nor policies. The lines keep their numbers.

Each turn of the author that asks to run a skill not run yet (a hyphenated name after a word
of doing: "run parse-rows on it", "→ notify-team", "with lookup-owner", "ran: post-status")
is a step, a numbered list item with that name in backticks; a name the turn sends a failure
to ("use `guess-x` instead") is a fallback, not a step. The author's other turns are the
text of the step last asked for (the answer to "any retry for that one?"), read by the policy
reader; turns before the first step are the preamble (a name with an underscore there is put in
backticks, so "the input is the raw json, call it alert_json" declares the input `alert_json`). A turn after the bot summed the flow
up (a bot turn naming two steps' skills) is a reply, read as the chat readers read replies.
A transcript none of whose turns asks for a skill is not read as one big step: its turns are
blanked, and the refusal says what a turn that asks for a step looks like.
"""

from __future__ import annotations

import re

from orchestrator.spec.chat_export import (
    DATED,
    chatter,
    is_export,
    proposer,
    says_rule,
    system_line,
)
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.sms50 import SMS_TURN, is_sms

_WHO = r"[^\W\d_][\w .'’()&-]{0,38}?"
# the forms of a turn's opening: (time) speaker: text
TURN_FORMS: tuple[str, ...] = (
    rf"^\s*\[(?P<time>[\d:/ .,T-]{{4,25}}(?:\s*[AaPp]\.?[Mm]\.?)?)\]\s*(?P<who>{_WHO})\s*:\s+(?P<text>\S.*)$",
    # a messaging app's export: "12/05/2025, 09:02 - Name: text" (`spec.chat_export`)
    rf"^\s*(?P<time>{DATED})\s+[-–—]\s+(?P<who>{_WHO})\s*:\s+(?P<text>\S.*)$",
    rf"^\s*(?P<time>\d{{1,2}}:\d{{2}}(?::\d{{2}})?(?:\s*[AaPp]\.?[Mm]\.?)?)\s+(?:[-–—|]\s+)?(?P<who>{_WHO})\s*:\s+(?P<text>\S.*)$",
    rf"^\s*(?:\*\*|__)?(?P<who>{_WHO})(?:\*\*|__)?\s*[\[(](?P<time>\d{{1,2}}:\d{{2}}[^\])]{{0,12}})[\])]\s*:\s+(?P<text>\S.*)$",
    r"^\s*(?:\*\*|__)?(?P<who>user|you|assistant|human|ai|bot|me|system|chatgpt|claude|gpt-?4o?|copilot|gemini)"
    r"(?:\*\*|__)?\s*:(?:\*\*|__)?\s+(?P<text>\S.*)$",
    SMS_TURN,  # a phone's text thread: "Gaz 07:22  1st x with ..." (`spec.sms50`)
)
_TURNS = tuple(re.compile(p, re.I if "user|assistant" in p else 0) for p in TURN_FORMS)
# a role on a line of its own ("**User:**", "### Assistant", "ChatGPT said:"): the message is on the lines below
_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_ALONE = _rx(r"(?i)^\s*(?:#{1,6}\s+)?(?:\*\*|__)?(?P<who>user|you|assistant|human|ai|bot|me|system|chatgpt|claude|"
             r"gpt-?4o?|copilot|gemini)(?:\s+said)?+\s*+:?\s*+(?:\*\*|__)?\s*+:?\s*+$")
# a speaker's name and a colon, no time: a turn only where a bot speaks too and each speaker twice or more
_NAMED = _rx(r"^\s*(?:>\s*)?(?:\*\*|__)?(?P<who>[A-Z][\w.'’-]*(?:\s[A-Z][\w.'’-]*){0,2})(?:\*\*|__)?\s*:"
             r"(?:\*\*|__)?\s+(?P<text>\S.*)$")
# a speaker that is a bot or an assistant, by its name
BOT_NAMES = _rx(r"(?i)bot\b|\bassistant\b|^ai$|\bgpt|chatgpt|\bclaude\b|copilot|gemini|\bsystem\b|🤖")
_MARKED_BOT = _rx(r"(?P<who>[^\W\d_][\w .'’-]{0,38}?)\s*(?:🤖|\((?:app|bot|assistant)\))")
# a skill the turn asks to run: a hyphenated name (or any name in backticks) after a word of doing
_ASKED = _rx(r"(?i)(?:\b(?:run|runs|running|call|calls|use|using|with|via|invoke|trigger|fire|do|then|into|first|next|finally|"
             r"start\s+with|begin\s+with|kick\s+off|1st|2nd|3rd|\d{1,2}th|last\s+one|lastly)\s+"
             r"|→\s*|->\s*|:\s+)(?:the\s+)?`?(?P<name>(?<=`)[a-z][\w-]*(?=`)|[a-z0-9]+(?:-[a-z0-9]+)+)`?(?![\w-])")
# before the first step, a name with an underscore is code ("input is the raw json, call it alert_json")
_CODE_NAME = _rx(r"(?<![`\w])([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?![`\w])")
# a message numbered as a step of a plan ("1) ...", "2. ...", "Step 3: ...") and any hyphenated name in it
_NUMBERED = _rx(r"(?i)^\s*+(?:step\s*+)?\d{1,2}\s*+[.):]\s")
_ANY_NAME = _rx(r"(?<![\w/.-])`?(?P<name>[a-z][a-z0-9]*+(?:-[a-z0-9]++)++)`?(?![\w-])")
_LIST_MARK = _rx(r"^\s*(?:[-*+]|\d+[.)])\s+")
_RULE = _rx(r"^\s*[-=_*·•]{3,}\s*$")


def _turn(line: str) -> tuple[str, str] | None:
    """(speaker, text) of a turn's first line, or None."""
    for regex in _TURNS:
        m = regex.match(line)
        if m:
            return m.group("who").strip(), m.group("text")
    return None


def _turns(lines: list[str]) -> list[tuple[int, tuple[str, str]]]:
    """The turns of `lines` outside fenced blocks (a log pasted in a fence is not a conversation);
    without a time or a role word, `Name: text` lines are turns only when a bot is among the
    speakers and every speaker has two turns or more."""
    found, loose, fence = [], [], ""
    for i, line in enumerate(lines):
        opened = re.match(r"^\s{0,3}(`{3,}|~{3,})", line)
        if opened:
            fence = "" if fence and opened.group(1).startswith(fence) else fence or opened.group(1)[:3]
            continue
        if fence:
            continue
        if (turn := _turn(line)) is not None:
            found.append((i, turn))
        elif (alone := _ALONE.match(line)) is not None:
            found.append((i, (alone.group("who"), "")))
        elif (named := _NAMED.match(line)) is not None:
            loose.append((i, (named.group("who").strip(), named.group("text"))))
    if found or not loose:
        return found
    count = {who: sum(1 for _, (w, _) in loose if w == who) for _, (who, _) in loose}
    if any(BOT_NAMES.search(who) for who in count) and min(count.values()) >= 2 and len(count) >= 2:
        return loose
    return []


def _bots(lines: list[str], speakers: set[str]) -> set[str]:
    said = {who for line in lines for m in _MARKED_BOT.finditer(line) for who in speakers
            if m.group("who").strip().endswith(who) or who.endswith(m.group("who").strip())}
    return {who for who in speakers if BOT_NAMES.search(who)} | said


def _fallback_skill(text: str) -> str | None:
    on_failure = read_phrase(text).statement.on_failure
    return on_failure.skill if on_failure is not None and on_failure.kind == "use_skill" else None


_DEPENDS_ON = _rx(r"(?i)\b(?:depends|depending|based|branch(?:es)?)\s+on\s+(?:the\s+)?`?(?P<field>[a-z_]\w*)`?")
_ARROW = _rx(r"(?:→|->|=>|⇒)\s*(?:the\s+)?`?$")
_OTHERWISE = _rx(r"(?i)^\W*(?:otherwise|else|anything\s+else|everything\s+else|any\s+other\s+case|in\s+any\s+other\s+case|all\s+other)\b")
_IF_NOT = _rx(r"(?i)^\W*+(?:and\s++|or\s++)?(?:if\s++not|(?:and\s++)?otherwise|else|if\s++it\s++(?:isn['’]?t|is\s++not|doesn['’]?t))\W*+$")
_COMPARES = _rx(r"(?i)[=<>≥≤]|\b(?:is|are|isn'?t|equals|contains|has|above|below|over|under)\b")


def _item(said: str, asked: re.Match[str], field: str) -> str:
    """A numbered item's text for a turn that asks for a step: `name: what was said`, the name in
    backticks; a turn that sends a case to it ("P1 or P2 → page-x", "otherwise → ticket-y") is
    written as the condition it states ("If severity is P1 or P2: `page-x` ...", "Otherwise: ...")."""
    name = asked.group("name")
    after = said[asked.end("name"):].lstrip("`")
    before = said[:asked.start("name")]
    if _ARROW.search(before):
        case = _ARROW.sub("", before).strip()
        case = re.split(r"(?<=[.!?;])\s+", case)[-1].strip(" ,:")  # the last sentence before the arrow
        case = re.sub(r"(?i)^(?:and\s+|then\s+|so\s+|if\s+|when\s+)+", "", case)
        if _OTHERWISE.match(case):
            return f"Otherwise: `{name}`{after}"
        if case:
            cond = case if _COMPARES.search(case) or not field else f"{field} is {case}"
            return f"If {cond}: `{name}`{after}"
    if _IF_NOT.match(before):  # "3) if not, lock-x with ...": the other case of the step before
        return f"Otherwise: `{name}`{after}"
    return f"{name}: {before.rstrip('`')}`{name}`{after}"


def _indent(run: list[str]) -> str:
    """The indent that keeps a line inside the last numbered item ("1. " is three wide, "10. " four)."""
    return " " * (len(str(len(run))) + 2)


def read_transcript(text: str) -> str | None:
    """The transcript rewritten as a numbered list of the author's steps (module docstring), or
    None when `text` is not a transcript."""
    lines = text.split("\n")
    turns = _turns(lines)
    speakers = {who for _, (who, _) in turns}
    if len(turns) < 4 or len(speakers) < 2:
        return None
    bots = _bots(lines[: turns[0][0]] + [line for i, line in enumerate(lines) if i < turns[0][0] + 1], speakers)
    if bots == speakers:
        return None
    out = list(lines)
    for i in range(turns[0][0]):  # the export's header: a rule line would make the line above it a heading
        if _RULE.match(lines[i]):
            out[i] = ""
    export = is_export(lines, [i for i, _ in turns]) or is_sms(lines, [i for i, _ in turns])  # a messaging app's export (`spec.chat_export`)
    author = _proposer(turns, lines, bots) if export else None
    if export:
        taken = {i for i, _ in turns}
        for i, line in enumerate(lines):
            if i not in taken and system_line(line):
                out[i] = ""
    starts = [i for i, _ in turns] + [len(lines)]
    run: list[str] = []  # the skills asked for, in order
    summed_up = False
    field = ""  # the field the author said the next steps depend on ("then it depends on severity")
    for (i, (who, said)), end in zip(turns, starts[1:], strict=True):
        rest = [j for j in range(i + 1, end) if lines[j].strip()]  # a turn's lines after its first
        if who in bots:
            named = {m.group("name") for m in _ASKED.finditer(" ".join([said, *(lines[j] for j in rest)]))}
            summed_up = summed_up or len(named & set(run)) >= 2
            for j in [i, *rest]:
                out[j] = ""
            continue
        if export and ((who != author and not says_rule(said)) or chatter(said)):
            for j in [i, *rest]:  # another member's reply that sets no rule, or chatter: no step's text
                out[j] = ""
            continue
        if summed_up:  # after the flow was summed up: a reply, unindented
            out[i] = said
            continue
        said_lines = [(i, said)] if said.strip() else []  # a speaker's line alone: the message is below it
        if not said.strip():
            out[i] = ""
        for at, line_text in [*said_lines, *((j, lines[j].strip()) for j in rest)]:
            field = _author_line(out, at, line_text, run, field, own=export and at == i)
    if not run:  # a transcript that asks for no skill: its turns are not read as one big step
        for i, _ in turns:
            out[i] = ""
    return "\n".join(out)



def _proposer(turns: list[tuple[int, tuple[str, str]]], lines: list[str], bots: set[str]) -> str | None:
    """The speaker who asks for the most skills (`chat_export.proposer`)."""
    asked: dict[str, int] = {}
    starts = [i for i, _ in turns] + [len(lines)]
    for (i, (who, said)), end in zip(turns, starts[1:], strict=True):
        if who not in bots:
            text = " ".join([said, *lines[i + 1:end]])
            asked[who] = asked.get(who, 0) + sum(1 for _ in _ASKED.finditer(_LIST_MARK.sub("", text)))
    return proposer(asked)


def _author_line(out: list[str], at: int, said: str, run: list[str], field: str, own: bool = False) -> str:
    """Line `at` of an author's turn into `out`: a step when it asks for a skill not run yet, else
    the text of the step asked for last (the preamble before any); the field steps depend on. An
    export's message of its own (`own`: a message's first line) that is no step is a note of its own
    under the step (a sub-bullet), so its sentences do not run on into the message before it."""
    numbered = _NUMBERED.match(said) is not None
    said = _LIST_MARK.sub("", said)
    on = _DEPENDS_ON.search(said)
    field = on.group("field") if on else field
    fallback = _fallback_skill(said)
    asked = next((m for m in _ASKED.finditer(said) if m.group("name") not in run and m.group("name") != fallback), None)
    if asked is None and numbered:  # "2) tidy-rows cleans the sheet": a numbered message proposes the name it gives
        asked = next((m for m in _ANY_NAME.finditer(said) if m.group("name") not in run
                      and m.group("name") != fallback), None)
    if asked is not None:
        run.append(asked.group("name"))
        out[at] = f"{len(run)}. {_item(said, asked, field)}"
    else:
        note = "- " if own and run else ""  # an export's later message: a note of its own under the step
        out[at] = f"{_indent(run)}{note}{said}" if run else _CODE_NAME.sub(r"`\1`", said)  # "call it alert_json"
    if not re.search(r"[.!?;:…,(/&+—–-]\s*$|\b(?:and|or|then|with|to|of|the|a|an|but)\s*$", out[at]):
        out[at] = out[at].rstrip() + "."  # a message's line ends its sentence: the next does not run on into it
    return field


def transcript_start(text: str) -> int | None:
    """The line of the first turn when `text` is a transcript (module docstring), else None."""
    lines = text.split("\n")
    turns = _turns(lines)
    if len(turns) < 4 or len({who for _, (who, _) in turns}) < 2:
        return None
    return turns[0][0] + 1


_rx.save()
