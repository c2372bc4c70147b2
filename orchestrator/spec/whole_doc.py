"""The whole document as sentences, each with its line, whatever kind of document it is.

The readers of the document's shape (headings, lists, tables, YAML, admonitions, chat
transcripts...) each read the sentences they know where to look for. Two things an author says
about the whole run can be anywhere: when the run counts as a success, and how long the whole
run may take. `spec.whole_net` looks for them in every sentence this module yields, and reads
or warns those no reader took (a line with no reading and no warning about it).

A paragraph is a run of lines that are not blank and not headings; each line's leading marks
(quote marks, list bullets, a reST directive `.. note::`, an admonition label `NOTE:`, a
timestamp or a speaker of a transcript, a comment's `#`, `--` or `//`) are cut off first. A row
"LABEL ..... VALUE" is a sentence of its own, "LABEL: VALUE" (`spec.salon38.leader_row`). A line
comment of a code file read as text (`// ...`, `-- ...`, `; ...`, `% ...`) under another ends its
sentence, as a script's comments do (`spec.script_runbook`), unless that one runs on (a comma, "and",
"the" at its end): "// whole setup in 20 min" / "// ok when notify comes back posted = true" are two.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from orchestrator.spec import prose
from orchestrator.spec.flag_check54 import own_sentence
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.salon38 import leader_row
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# an outline number of a word processor's text ("3.4.2<TAB>", "3.4.2 "): a tab or two spaces after "3.4"
_OUTLINE_NUMBER = r"\d{1,2}+(?:\.\d{1,2}+){2,4}+\.?+[ \t]++|\d{1,2}+\.\d{1,2}+\.?+(?:\t|[ ]{2})[ \t]*+"
# the marks a line opens with, before what it says (each one optional, in this order)
_LEAD = _rx(r"^[ \t]*+(?:(?:>|#(?![#\s]*+$)|--|//|;|%)[ \t]*+)*+"
            r"(?:\[[\d:. ]{3,12}\][ \t]*+|\d{1,2}:\d{2}(?::\d{2})?[ \t]++)?"
            rf"(?:[-*+•][ \t]++|\d{{1,3}}[.)][ \t]++|\(?[a-zA-Z][.)][ \t]++|{_OUTLINE_NUMBER})?"
            r"(?:\.\.[ \t]++[\w-]++::[ \t]*+|(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION|TODO)[ \t]*+:[ \t]*+)?")
# a line comment of a code file read as text (`// ...`, `-- ...`, `; ...`, `% ...`): a sentence of its own
_COMMENT = _rx(r"^[ \t]*+(?://|--|;|%)")
# an editor's note in brackets on where the line was written ("[written sideways down the edge:] ..."), ended by a
# colon: the typist's, not the sentence's (`spec.arrow_items49`)
_PLACE_NOTE = _rx(r"^[ \t]*+\[(?:[^\[\]\n:]|:(?!\])){1,80}+:\][ \t]*+(?=\S)")
_HEADING = _rx(r"^[ \t]*+(?:#{1,6}[ \t]|=+[ \t]|[=\-~^*]{3,}[ \t]*+$|\.[A-Za-z])")
# a line that is only a label ("⚠️ **Warning**", "**Success criteria**"): a title of its own, not the start of a sentence
_LABEL = _rx(r"^(?:[^\w*]*+\*\*[^*]{1,40}+\*\*[^\w*]*+|\[[A-Za-z ]{1,30}+\])$")
# a clause's or a card's title in bold before its text ("**4.8 Successful performance.** The ...")
_BOLD_LEAD = _rx(r"^\*\*[^*]{1,60}+(?<=[.:])\*\*[ \t]++(?=\S)")
_FENCE = _rx(r"^[ \t>]*+(?:```|~~~)")
_ITEM = _rx(rf"^[ \t>]*+(?:[-*+•|][ \t]|\d{{1,3}}[.)][ \t]|\(?[a-zA-Z][.)][ \t]|\\[A-Za-z]{{2,}}|{_OUTLINE_NUMBER})")
# a setting of an INI or properties file (`finished_if = ...`): a sentence of its own, as an item is
_ASSIGN = _rx(r"^[ \t]*+[A-Za-z_][\w.-]{0,40}+[ \t]*+=(?!=)[ \t]*+\S")
_SPEAKER = _rx(r"^(?:\*\*)?(?!(?i:done|finished|complete|completed|success|acceptance)\b)[A-Z][\w.' -]{0,30}?(?:\*\*)?[ \t]*+(?:\d{1,2}:\d{2}[ \t]*+)?:[ \t]++(?=\S)")


@dataclass(frozen=True)
class Said:
    """One sentence of the document: its text (marks cut off, spaces joined), its first line and
    the lines it spans."""

    text: str
    line: int
    last: int
    lines: tuple[tuple[int, str], ...] = ()  # the paragraph's lines (number, text) it was cut from

    def at(self, words: str) -> Said:
        """The sentence, its line moved to the one where `words` (their first three) start, when
        the sentence runs on from a line before ("-- Procedure x\n-- It succeeds if ..."); to the line
        of the words that lead into them when those stand on a line before ("... shall be deemed complete
        when\n an invoice reference has been issued": the sentence's line, where its check is said)."""
        head = " ".join(words.split()[:3])
        flat = " ".join(self.text.split())
        cue = " ".join(flat[:flat.find(head)].split()[-2:]) if head and head in flat else ""
        for number, text in self.lines:
            if self.line < number <= self.last and head and head in text:
                led = next((n for n, t in self.lines if self.line <= n < number and cue and cue in " ".join(t.split())
                            and "[!" not in t), None)  # "deemed complete when" on the line before the words; a
                # callout's title ("> [!success] Done when") is a label over its body, which keeps its own line
                return self if led == self.line else Said(self.text, led or number, self.last, self.lines)
        return self


def _clean(line: str) -> str:
    rest = _BOLD_LEAD.sub("", _LEAD.sub("", _PLACE_NOTE.sub("", line, count=1), count=1), count=1)
    return _SPEAKER.sub("", rest, count=1) if len(rest) > 40 else rest


def document_sentences(src: Source) -> Iterator[Said]:
    """Every sentence of the document (module docstring), in order."""
    lines = src.lines
    block: list[tuple[int, str]] = []

    def flush() -> Iterator[Said]:
        if not block:
            return
        first = block[0][0]
        text = "\n".join(t for _, t in block)
        found = prose.sentences(text, first)
        for i, (sentence, at) in enumerate(found):
            end = found[i + 1][1] if i + 1 < len(found) else block[-1][0]
            yield Said(sentence, at, max(at, end), tuple(block))
        block.clear()

    fenced = False
    settings: set[int] = set()  # the lines that are settings (`key = value`)
    comments: set[int] = set()  # the lines that are line comments (`// ...`), unless one runs on from the one before
    from orchestrator.spec.script_runbook import GOES_ON
    from orchestrator.spec.success36 import one_cell, rows_of

    rows = rows_of(src.path)  # a CSV file: each row a sentence of its own (`spec.success36`)
    from orchestrator.spec.sms50 import sms_heads, sms_text

    texts = sms_heads(lines)  # a phone's text thread: each text a paragraph of its own
    from orchestrator.spec.radio_log53 import radio_messages

    radio = radio_messages(lines) if not texts else {}  # a radio log: each transmission a paragraph of its own
    from orchestrator.spec.chat_export import message_text

    for number, raw in enumerate(lines, start=1):
        if rows:
            yield from flush()
            raw = one_cell(raw, rows)
        if (message := message_text(raw)) is not None:  # a chat export's message: a paragraph of its own
            yield from flush()
            raw = message
        elif number in texts:  # a phone's text: its sender and clock time are no words of it (`spec.sms50`)
            yield from flush()
            raw = sms_text(raw)
        elif number in radio:  # a radio log's row: its time and callsigns are no words of it (`spec.radio_log53`)
            if radio[number][0]:
                yield from flush()
            raw = radio[number][1]
        if _FENCE.match(raw):
            fenced = not fenced
            yield from flush()
            continue
        if not raw.strip() or (_HEADING.match(raw) and not fenced):
            yield from flush()
            continue
        cleaned = _clean(raw).strip()
        if not cleaned or _LABEL.match(cleaned):
            yield from flush()
            continue
        if (row := leader_row(cleaned)) is not None:  # "WHOLE CHECKLIST ..... COMPLETE WITHIN 15 MIN": a sentence
            yield from flush()
            block.append((number, row))
            yield from flush()
            continue
        setting = _ASSIGN.match(_PLACE_NOTE.sub("", raw, count=1)) is not None
        commented = _COMMENT.match(raw) is not None
        if commented and block and block[-1][0] in comments and not GOES_ON.search(block[-1][1]):
            yield from flush()  # "// whole setup in 20 min" / "// ok when ... posted = true": a sentence a comment line
        if commented:
            comments.add(number)
        if _ITEM.match(raw) or setting or (block and block[-1][0] in settings and not raw[:1].isspace()):
            yield from flush()  # a list item, a table row or a setting starts a sentence of its own, and ends one
        if setting:
            settings.add(number)
        if block and len(src.code) == len(lines) and own_sentence(src.code, number, cleaned, block[-1][1]):
            yield from flush()  # "# panel is good when ..." under a script's usage line: a sentence of its own
        block.append((number, cleaned))
    yield from flush()


def lines_warned(src: Source, *codes: str, words: tuple[str, ...] = ()) -> set[int]:
    """The lines with a warning of one of `codes`, or one whose message has one of `words`."""
    out: set[int] = set()
    for d in src.warnings:
        if d.line is None or d.file != src.path:
            continue
        if d.code in codes or any(w in d.message for w in words):
            out.add(d.line)
    return out


def line_of(where: str | None) -> int | None:
    """The line of a `file:line` string, or None."""
    tail = (where or "").rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else None


_rx.save()
