"""A forum thread (a GitHub Discussion, an issue's comments, a Discourse topic) copied as markdown, read as a
pasted chat (`spec.chat`) (45th round).

    **kemi-o** · 3 days ago · Maintainer               a message's header: who, when, their role
    > **kemi-o** · yesterday · Maintainer              a reply's header, quoted under the comment it answers
    **sam_r** commented 2 days ago                     the same, said with a verb
    @lee-p replied on 3 Dec                            ... or an @handle and a date
    **kemi-o** started this conversation in Announcements · 3 days ago     the thread's own line
    > ✅ Marked as answer                              the forum's marks and the reactions under a post
    👍 11 🚀 3

A header is a line of its own: a handle (bold, `@`-prefixed or both), then a middle dot, a dash or a verb
of posting (commented, replied, wrote, posted, answered), then when it was posted ("3 days ago", "an hour
ago", "yesterday", "just now", "on 3 Dec", "Dec 3, 2026"), then only tags after middle dots ("Maintainer",
"edited"). Two headers or more make the text a thread: each header, the thread's "started this
conversation" / "opened this issue" line, a "Marked as answer" line and a line of reactions only (emoji
and counts) are blanked (the lines keep their numbers), so a message is a paragraph of what was said, an
author never a step's name and a mark never a reply. What is left is read as a chat: the steps proposed,
then each reply's sentences placed on the step they name, the later message first (`spec.chat`).

One bold name with a time ("**Alex** · 10:00") is no thread; a line with words after the time ("**Alex** ·
3 days ago said the export is broken") is a message, not a header.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]{0,6}+\.?+"
_UNIT = r"(?:second|sec|minute|min|hour|hr|day|week|month|year)s?+"
# when a message was posted, as forums print it
_WHEN = (rf"(?:(?:\d{{1,3}}+|an?+|a[ \t]++few)[ \t]++{_UNIT}[ \t]++ago|yesterday|today|just[ \t]++now"
         rf"|last[ \t]++(?:week|month|year)|(?:on[ \t]++)?+(?:\d{{1,2}}+[ \t]++{_MONTH}|{_MONTH}[ \t]++\d{{1,2}}+)"
         rf"(?:,?+[ \t]++\d{{4}}+)?+)")
_HANDLE = r"(?:\*\*|__)?+@?+[A-Za-z0-9][\w.-]{0,38}+(?:\*\*|__)?+"
_QUOTE = r"^[ \t]*+(?:>[ \t]*+)*+"
_SEP = r"[ \t]*+(?:[·•|—–-][ \t]*+)?+(?:(?:commented|replied|wrote|posted|answered)[ \t]++)?+"
_HEADER = _rx(rf"(?i){_QUOTE}{_HANDLE}[ \t]++{_SEP}{_WHEN}(?:[ \t]*+[·•|][ \t]*+[A-Za-z][\w' -]{{0,30}}+)*+[ \t]*+$")
# the thread's own first line: "**kemi-o** started this conversation in ...", "sam opened this issue on 3 Dec"
_OPENED = _rx(rf"(?i){_QUOTE}{_HANDLE}[ \t]++(?:started[ \t]++this[ \t]++(?:conversation|discussion)"
              r"|opened[ \t]++this[ \t]++(?:issue|discussion|topic))\b")
_MARK = _rx(r"(?i)^[ \t]*+(?:>[ \t]*+)*+(?:[^\w\s]{1,4}+[ \t]*+)?+(?:marked[ \t]++as[ \t]++(?:the[ \t]++)?+answer"
            r"|answer[ \t]++selected[ \t]++by[ \t]++\S++|accepted[ \t]++answer)[ \t.!]*+$")
_REACTIONS = _rx(r"^[ \t]*+(?:>[ \t]*+)*+(?:[^\w\s`*>#|-]{1,4}+[ \t]*+\d{1,5}+[ \t]*+)++$")


def forum_lines(lines: list[str]) -> list[int] | None:
    """The indexes of a forum thread's headers, marks and reactions (module docstring), or None when the
    lines hold fewer than two message headers."""
    heads = [i for i, line in enumerate(lines) if len(line) < 200 and _HEADER.match(line)]
    if len(heads) < 2:
        return None
    chrome = [i for i, line in enumerate(lines)
              if len(line) < 200 and (_OPENED.match(line) or _MARK.match(line) or _REACTIONS.match(line))]
    return sorted({*heads, *chrome})


_rx.save()
