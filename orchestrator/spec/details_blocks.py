"""Folded notes about a step: HTML `<details>` toggles and titled callouts, read as that step's text.

Page exports (Notion, Confluence, GitHub wikis) keep a step's notes away from the step, in a
block whose title names it:

    <details>                                  > [!WARNING] Grab a room
    <summary>Grab a room - notes</summary>     > Max 45 seconds, then give up.
    - Max 45 seconds, then give up.
    </details>                                 > ⚠️ **Grab a room:** max 45 seconds

Such blocks are found before the document is parsed (`set_aside`: the text is not changed) and
looked at once the steps are known. A block whose lines the readers took (a toggle under a step's
own heading, read as that step's text) is left as read. Any other block whose title names a step
(its name, number or skill, a trailing "notes"/"details"/"tips" aside: `StepIndex.resolve`), or
whose lines were reported not read under a step's own heading ("step-1: block not read"), gives
its lines to that step as text for the policy reader, warned once at the block's line with how it
was read, in place of the reports of its lines. One whose title names no step and whose lines
were reported not read has its sentences placed as notes said away from the steps
(`spec.elsewhere`: a sentence that names a step's skill, number or word), and what is left
warned as not read; one read where it stands (an "ℹ️ Info" callout of inputs in the preamble)
is left alone. A callout with no title (`> [!NOTE]` alone, `> 💡 text`) is not looked at.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from orchestrator.spec.blocks import Block, Bullet, Para
from orchestrator.spec.model import Reading, SpecText, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.structure import StepIndex

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

CODE = "spec.toggle"

_FENCE = _rx(r"^[ \t]{0,3}+(?:```|~~~)")
_OPEN = _rx(r"(?i)^[ \t]{0,3}+<details(?:[ \t][^>\n]{0,200}+)?+>")
_CLOSE = _rx(r"(?i)</details[ \t]*+>")
_SUMMARY_OPEN = _rx(r"(?i)<summary(?:[ \t][^>\n]{0,200}+)?+>")
_SUMMARY_CLOSE = _rx(r"(?i)</summary[ \t]*+>")
_OWNER = _rx(r"^(step-\d{1,6}+):")  # the step a report of a block not read names
_TAG = _rx(r"<[^<>\n]{0,200}+>")
# "> [!WARNING] Title", "> [!tip]- Title" (Obsidian's folded callout)
_CALLOUT = _rx(r"^[ \t]{0,3}+>[ \t]*+\[![A-Za-z]++\][+-]?+[ \t]*+(?P<title>[^\n]*+)$")
# "> ⚠️ **Title:** text", "> 💡 Title: text": an emoji, then a bold title or a short one before a colon
_EMOJI_CALLOUT = _rx(
    "^[ \\t]{0,3}+>[ \\t]*+[\u2600-\u27bf\U0001f300-\U0001faff][\ufe0f\u200d]*+[ \\t]*+"
    r"(?:\*\*(?P<bold>[^*\n]{1,80}+)\*\*[ \t]*+:?+|(?P<plain>[A-Za-z][^:\n]{0,60}+):)(?P<rest>[^\n]*+)$")
_QUOTED = _rx(r"^[ \t]{0,3}+>[ \t]?+(?P<text>[^\n]*+)$")
_ITEM = _rx(r"^[ \t]*+(?:[-*+]|\d{1,3}[.)])[ \t]++(?:\[[ xX]\][ \t]++)?+")
# a title's aside after the step's name: "Tidy - notes", "Grab a room (details)", "Send it: gotchas"
_ASIDE = _rx(r"(?i)(?<![ \t])[ \t]*+(?:[-–—:(][ \t]*+)?+(?:notes?|details?|tips?|gotchas|caveats|warnings?|more|"
             r"read\s+me|fine\s+print)\)?+[ \t]*+$")


@dataclass
class Toggle:
    """One block set aside: its title, its first and last lines, its lines of text."""

    title: str
    line: int
    end: int = 0
    body: list[tuple[int, str]] = field(default_factory=list)
    kind: str = "toggle"


def set_aside(text: str) -> tuple[str, list[Toggle]]:
    """The text as it is, and its `<details>` blocks and titled callouts (module docstring)."""
    lines = text.split("\n")
    found: list[Toggle] = []
    open_: list[Toggle] = []  # `<details>` opened and not yet closed, innermost last
    in_summary = False
    quote: Toggle | None = None
    fenced = False
    for i, line in enumerate(lines):
        number = i + 1
        if quote is not None:
            m = _QUOTED.match(line)
            if m is not None and line.strip():
                quote.body.append((number, m.group("text")))
                quote.end = number
                continue
            quote = None
        if not open_ and _FENCE.match(line):
            fenced = not fenced
        if fenced:
            continue
        if not open_:
            if (m := _CALLOUT.match(line)) is not None and m.group("title").strip():
                quote = Toggle(title=m.group("title").strip(), line=number, end=number, kind="callout")
            elif (m := _EMOJI_CALLOUT.match(line)) is not None:
                quote = Toggle(title=(m.group("bold") or m.group("plain")).strip(" :"), line=number, end=number,
                               kind="callout")
                if m.group("rest").strip():
                    quote.body.append((number, m.group("rest").strip()))
            if quote is not None:
                found.append(quote)
                continue
        rest = line
        if (m := _OPEN.match(rest)) is not None:
            toggle = Toggle(title="", line=number)
            open_.append(toggle)
            found.append(toggle)
            rest, in_summary = rest[m.end():], False
        if not open_:
            continue
        toggle = open_[-1]
        if (m := _SUMMARY_OPEN.search(rest)) is not None:
            rest, in_summary = rest[m.end():], True
        if in_summary:
            closed = _SUMMARY_CLOSE.search(rest)
            said = rest[:closed.start()] if closed is not None else rest
            toggle.title = " ".join(f"{toggle.title} {_TAG.sub(' ', said)}".split())
            if closed is None:
                continue
            rest, in_summary = rest[closed.end():], False
        closed = _CLOSE.search(rest)
        said = _TAG.sub(" ", rest[:closed.start()] if closed is not None else rest).strip()
        if said:
            toggle.body.append((number, said))
        if closed is not None:
            toggle.end = number
            open_.pop()
    for toggle in open_:  # never closed: to the end of the text
        toggle.end = len(lines)
    return text, found


def _blocks(toggle: Toggle) -> list[Block]:
    """The toggle's lines as paragraphs and bullets (a bullet or a blank line starts another)."""
    blocks: list[Block] = []
    parts: list[str] = []
    start, bullet = 0, False

    def flush() -> None:
        if parts:
            said = " ".join(parts)
            blocks.append(Bullet(line=start, text=said) if bullet else Para(line=start, text=said))
        parts.clear()

    for number, text in toggle.body:
        item = _ITEM.match(text)
        if item is not None or not text.strip():
            flush()
        if not text.strip():
            continue
        if not parts:
            start, bullet = number, item is not None
        parts.append(text[item.end():].strip() if item is not None else text.strip())
    flush()
    return blocks


def _step_of(title: str, index: StepIndex) -> str | None:
    """The id of the step the title names, its aside words ("notes") set apart; None if none."""
    plain = " ".join(title.strip(" *_`:").split())
    short = _ASIDE.sub("", plain).strip(" -–—:*_`")
    return index.resolve(plain) or (index.resolve(short) if short else None)


def place_toggles(toggles: list[Toggle], steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """`steps` with the text of each set-aside block whose title names a step (module docstring)."""
    if not toggles:
        return steps
    from orchestrator.spec.elsewhere import place_blocks

    index = StepIndex(steps)
    out = list(steps)
    read_lines = {t.line for s in steps for t in s.texts}
    for toggle in toggles:
        span = range(toggle.line, max(toggle.end, toggle.line) + 1)
        reported = [w for w in src.warnings if w.line in span and "not read" in w.message]
        sid = _step_of(toggle.title, index) if steps else None
        if any(n in read_lines for n, _ in toggle.body) or (sid is None and not reported):
            continue  # its lines read where they stand (a toggle under a step's heading, a callout of inputs)
        src.warnings[:] = [w for w in src.warnings if not any(w is r for r in reported)]
        blocks = _blocks(toggle)
        owner = next((m.group(1) for w in reported if (m := _OWNER.match(w.message)) is not None
                      and m.group(1) in index.ids), None)  # "step-1: block not read": under step 1's heading
        sid, by = (sid, "its title names the step") if sid is not None else (owner, "it stands under the step's heading")
        what = "the toggle" if toggle.kind == "toggle" else "the callout"
        if sid is None:
            if not blocks:
                continue
            left = place_blocks(blocks, out, src, toggle.title) if out else None
            for text, line in left if left is not None else [(b.text, b.line) for b in blocks
                                                              if isinstance(b, Para | Bullet)]:
                src.warn(line, f"{what} '{toggle.title[:50]}' (line {toggle.line}) names no step, so "
                               f"'{text[:60]}' is not read: write the step's name as its title", "spec.unread")
            continue
        i = next(i for i, s in enumerate(out) if s.id == sid)
        step = out[i]
        texts = tuple(SpecText(text=b.text, line=b.line, kind="prose") for b in blocks if isinstance(b, Para | Bullet))
        said = f"lines {toggle.line}-{toggle.end}" if toggle.end > toggle.line else f"line {toggle.line}"
        note = f"{what} '{toggle.title[:60]}' ({said}) read as {step.id}'s notes: {by}"
        src.warn(toggle.line, f"{step.id} ({step.name}): {note}; its sentences are read for the step's policy "
                              "(check the plan, or write them under the step)", CODE)
        reading = Reading(what="moved", where=src.where(toggle.line), text=toggle.title[:160], note=note)
        out[i] = step.model_copy(update={"texts": (*step.texts, *texts), "readings": (*step.readings, reading)})
    return out


_rx.save()
