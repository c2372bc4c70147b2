"""A choice written as HTML `<details>` toggles, one per case, each toggle's summary its case.

    ### 4 · Branch on the tier                     a step's own heading (or a section read as steps)
    <details>
    <summary>🔴 tier is "high"</summary>           a branch: its summary is its condition
    → **request-due-diligence** with the name ...  the branch's step: the skill its body names first
    Their API is slow, allow up to 2 minutes.       the lines under it: that step's text
    </details>
    <details>
    <summary>🟢 any other tier</summary>           the other side of the branch before
    → **create-vendor-record** with ...
    </details>

Page exports (Notion, Confluence, GitHub issues and wikis) fold each case of a choice into a
toggle. A collapsed section is still the spec: two or more toggles in a row, each with a summary
and a body whose first paragraph names a skill (in backticks or bold, after an optional arrow),
are read as the branches of a choice, as list items "label → `skill`" are
(`spec.sections.section_units`): each toggle becomes one branch item whose label is the summary
and whose text is the body, warned once at the first toggle's line with how it was read.

A toggle whose summary says it holds a log, an example, a sample or an output ("Full log",
"Example output", "Sample run", "Stack trace") is not steps even when its body names a skill: its
body is set aside (not read as the step's text, so no step and no policy is taken from it) and
warned at its line. Any other toggle is left where it stands (`spec.details_blocks` reads it as
notes of the step it stands under or names).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from orchestrator.spec.blocks import Block, Bullet, Other, Para
from orchestrator.spec.list_branches import clean_label
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.sections import names_a_skill
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_OPEN = _rx(r"(?i)<details(?:[ \t][^>\n]{0,200}+)?+>")
_ITEM = _rx(r"^(?:[-*+]|\d{1,3}[.)])\s")
_CLOSE = _rx(r"(?i)</details[ \t]*+>")
_SUMMARY = _rx(r"(?i)<summary(?:[ \t][^>\n]{0,200}+)?+>(?P<title>[^\n]{0,300}?)</summary[ \t]*+>")
_TAG = _rx(r"<[^<>\n]{0,200}+>")
_ARROW = _rx(r"^\s*+(?:→|->|=>|⇒|➜|➔)\s*+")
# what a toggle that is a record, not steps, says it holds
_RECORD = _rx(r"(?i)(?<![\w-])(?:logs?|examples?|e\.g\.|samples?|(?:sample|example|console|raw)\s++outputs?|"
              r"transcripts?|traces?|stack\s++traces?|tracebacks?|screenshots?|console|dumps?|"
              r"what\s++it\s++(?:looks|looked)\s++like|previous\s++runs?|last\s++run|history)(?![\w-])")
# a label's signs the branch-item form does not take (`sections._BRANCH_ITEM`): markup, arrows, colons
_LABEL_SIGNS = _rx(r"[*_`→:]++")


@dataclass
class _Toggle:
    line: int
    title: str = ""
    body: list[Block] = field(default_factory=list)
    end: int = 0
    first: int = 0  # the index of the block it opens in
    last: int = 0  # the index of the block it closes in


def _html(block: Block) -> bool:
    return isinstance(block, Other) and block.kind == "html_block"


def _toggles(blocks: list[Block]) -> list[Block | _Toggle] | None:
    """`blocks` with each closed toggle in place of its blocks (one HTML block may close a toggle and
    open the next, or hold a whole toggle); None when there is no toggle (the common case)."""
    if not any(isinstance(b, Other) and _html(b) and "<details" in b.text.lower() for b in blocks):
        return None
    out: list[Block | _Toggle] = []
    current: _Toggle | None = None
    for index, block in enumerate(blocks):
        if not _html(block):
            (current.body if current is not None else out).append(block)
            continue
        assert isinstance(block, Other)
        for offset, raw in enumerate(block.text.split("\n")):
            rest, number = raw, block.line + offset
            while rest.strip():
                if current is None:
                    m = _OPEN.search(rest)
                    if m is None:
                        break  # HTML outside a toggle: left to the readers (a block not read)
                    current = _Toggle(line=number, first=index)
                    rest = rest[m.end():]
                    continue
                closed = _CLOSE.search(rest)
                said = rest[:closed.start()] if closed is not None else rest
                title = _SUMMARY.search(said)
                if title is not None:
                    current.title = " ".join(_TAG.sub(" ", title.group("title")).split())
                    said = said[title.end():]
                text = " ".join(_TAG.sub(" ", said).split())
                if text:  # the body written in the HTML block itself (no blank line after the summary)
                    last = current.body[-1] if current.body else None
                    if isinstance(last, Para) and last.line >= current.line and last.line + last.text.count("\n") \
                            == number - 1 and not _ITEM.match(text):
                        current.body[-1] = Para(line=last.line, text=f"{last.text}\n{text}")
                    else:
                        current.body.append(Para(line=number, text=text))
                if closed is None:
                    break
                current.end, current.last = number, index
                out.append(current)
                current = None
                rest = rest[closed.end():]
    if current is not None:  # never closed: not read as a toggle here
        return None
    return out


def is_record(title: str) -> bool:
    """A toggle's summary that says it holds a log, an example or an output, not steps."""
    return _RECORD.search(title) is not None


def _branch_text(toggle: _Toggle) -> tuple[str, str] | None:
    """(label, the first paragraph without its arrow) of a toggle that is a branch; None if not one."""
    label = clean_label(" ".join(_LABEL_SIGNS.sub(" ", toggle.title).split()))
    if not label or len(label) > 60 or is_record(toggle.title) or not toggle.body:
        return None
    first = toggle.body[0]
    if not isinstance(first, Para | Bullet):
        return None
    rest = _ARROW.sub("", first.text, count=1).strip()
    if not names_a_skill(rest.split(".")[0]):
        return None
    return label, rest


def toggle_branches(blocks: list[Block], src: Source) -> list[Block]:
    """`blocks` with each run of two or more toggles that are a choice read as branch items, and each
    record toggle (a log, an example) set aside with a warning (module docstring)."""
    found = _toggles(blocks)
    if found is None:
        return blocks
    out: list[Block] = []
    kept: set[int] = set()  # the blocks given back as they were (a toggle that is neither)
    k = 0
    while k < len(found):
        piece = found[k]
        if not isinstance(piece, _Toggle):
            out.append(piece)
            k += 1
            continue
        run: list[_Toggle] = []
        while k < len(found) and isinstance(found[k], _Toggle):
            run.append(found[k])  # type: ignore[arg-type]
            k += 1
        read = [_branch_text(t) for t in run]
        if len(run) >= 2 and all(r is not None for r in read):
            for t, r in zip(run, read, strict=True):
                assert r is not None
                label, rest = r
                first = t.body[0]
                out.append(Bullet(line=first.line, text=f"{label} → {rest}", value=f"{label} → {rest}",
                                  children=(*getattr(first, "children", ()), *t.body[1:])))
            cases = "; ".join(f"'{t.title[:40]}' (line {t.line})" for t in run)
            src.warn(run[0].line, f"the {len(run)} toggles {cases} read as the branches of a choice: each "
                                  "summary is its branch's condition, each body that branch's step", "spec.reading")
            continue
        for t in run:
            if is_record(t.title):
                src.warn(t.line, f"the toggle '{t.title[:60]}' (lines {t.line}-{t.end}) holds a record (a log, "
                                 "an example, an output), not steps: its lines are set aside, no step or policy "
                                 "is taken from them", "spec.unread")
                continue
            for index in range(t.first, t.last + 1):
                if index not in kept:
                    kept.add(index)
                    out.append(blocks[index])
    return out


_rx.save()
