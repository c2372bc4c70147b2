"""A task tracker's task exported as plain text (Asana, Linear, ClickUp, Monday, Jira, Trello).

Such an export holds one task: a breadcrumb and an "Exported from" line, the task's title, a
block of its fields (`Assignee:`, `Due date:`, `Tags:`, `Status:` ...), a `Description`, a list of
subtasks or checklist items, each a glyph and a number with a title and often the skill after an
arrow, each with its notes indented under it, then `Comments` (or `Activity`):

    ☐ 1 · Log the casualty → log-casualty        ->  ## Step 1: Log the casualty (`log-casualty`)
        Do NOT re-run this if it errors.         ->  Do NOT re-run this if it errors.
    [ ] 2. Weigh in -> weigh-parcel              ->  ## Step 2: Weigh in (`weigh-parcel`)

Read by the skill names it mentions, a note that names an earlier step's skill, or a policy line
before the next item, fell into the wrong step (and made dependency cycles). Here the items are
the steps in their order, each with its indented notes as its text; the fields, the breadcrumb and
the Comments section are blank (the comments are chatter: remarks, not instructions), each warned
once at its first line. The items count only when two or more of them run 1, 2, 3 ... and they
carry a tracker's glyph ("☐", "◻", "[ ]", "✓") or stand under a `Subtasks`/`Checklist` line; a
markdown numbered list is left to the readers of lists. Each line keeps its number.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_GLYPHS = r"☐|☑|☒|✓|✔|✅|◻|◼|□|■|▢|▫|▪|○|●|◯|⬜|⬛|🔲|🔳|\[[ \txX✓]?+\]"
# "  ☐ 1 · Title → skill", "[ ] 2. Title -> skill", "◻ 3 — Title", "4) Title"
_ITEM = _rx(rf"^(?P<indent>[ \t]*+)(?P<glyph>{_GLYPHS})?+[ \t]*+(?P<num>\d{{1,3}}+)[ \t]*+(?:[·•.:)]|[-–—])"
            r"[ \t]++(?P<title>\S[^\n]*+)$")
# the skill after the title's last arrow: "→ log-casualty", "-> `weigh-parcel`", "⇒ skill: x"
_SKILL = _rx(r"(?i)^[ \t]*+(?:skill[ \t]*+:[ \t]*+)?+`?+(?P<skill>[a-z0-9][a-z0-9_.]*+(?:-[a-z0-9_.]++)*+)`?+[ \t.]*+$")
_ARROWS = ("→", "->", "=>", "⇒", "⟶", "»")
_LIST_HEAD = _rx(r"(?i)^[ \t]*+(?:sub-?tasks?|sub-?issues?|check-?lists?|child\s++(?:tasks|issues)|to-?dos?|"
                 r"action\s++items|items)\b[^\n]{0,30}+$")
_COMMENTS = _rx(r"(?i)^[ \t]*+(?:comments?|activity|activity\s++log|discussion|conversation|updates?|"
                r"history|attachments?)\b[ \t(\d)]*+:?+[ \t]*+$")
_FIELD = _rx(r"(?i)^[ \t]*+(?:assignee|assigned\s++to|owner|reporter|created(?:\s++by)?|updated|due(?:\s++date)?|"
             r"start\s++date|tags?|labels?|status|priority|projects?|sprint|cycle|estimate|story\s++points|"
             r"team|milestone|parent(?:\s++task)?|section|collaborators|followers|watchers|board|list|group|"
             r"column|epic|component)[ \t]*+:")
_DESCRIPTION = _rx(r"(?i)^[ \t]*+(?:description|details|notes|summary)[ \t]*+:?+[ \t]*+$")
_EXPORTED = _rx(r"(?i)^[ \t]*+(?:exported|printed|generated)\s++(?:from|by|on)\b")
_CRUMBS = _rx(r"^[^\n›»>/]*+(?:[›»>/][^\n›»>/]*+){2,}+$")  # "Team › Project › Task"
_TITLE = _rx(rf"^[ \t]*+(?:{_GLYPHS}|◆|▶|►|★|☆|✦)[ \t]*+(?P<title>[^\d\s][^\n]*+)$")


def _split_skill(title: str) -> tuple[str, str | None]:
    """The title and the skill after its last arrow, or the title and None."""
    at, arrow = max(((title.rfind(a), a) for a in _ARROWS), key=lambda p: p[0])
    if at < 1:
        return title.strip(), None
    m = _SKILL.match(title[at + len(arrow):])
    return (title[:at].strip(" \t·-–—:"), m.group("skill")) if m is not None else (title.strip(), None)


def _items(lines: list[str]) -> list[tuple[int, int, str, str | None]] | None:
    """The subtask items (index, indent, title, skill) running 1, 2, 3 ..., or None."""
    items: list[tuple[int, int, str, str | None]] = []
    glyphs = 0
    headed = False
    for i, line in enumerate(lines):
        if _LIST_HEAD.match(line):
            headed = headed or not items
            continue
        m = _ITEM.match(line)
        if m is None or int(m.group("num")) != len(items) + 1:
            continue
        indent = len(m.group("indent").expandtabs(4))
        if items and indent != items[0][1]:
            continue  # a numbered line in an item's notes
        title, skill = _split_skill(m.group("title"))
        items.append((i, indent, title, skill))
        glyphs += m.group("glyph") is not None
    if len(items) < 2 or not (glyphs >= 2 or headed) or (sum(1 for *_, s in items if s) < 2 and glyphs < 2):
        return None
    return items


def task_export_markdown(text: str) -> tuple[str, list[tuple[int, str]]] | None:
    """The text with its subtask items as `## Step N:` headings and their notes as their text, its
    fields, breadcrumb and comments blank (module docstring), and (line, message) of the warnings
    that say so; None when the text is no task tracker's export."""
    lines = text.split("\n")
    items = _items(lines)
    if items is None:
        return None
    first = items[0][0]
    fields = [i for i in range(first) if _FIELD.match(lines[i])]
    if not fields and not any(_LIST_HEAD.match(lines[i]) for i in range(first)):
        return None  # a list of numbered items with glyphs and no task around it: a checklist, read as ever
    out = list(lines)
    warns: list[tuple[int, str]] = []
    ends: list[int] = []
    for n, (index, indent, _title, _skill) in enumerate(items):
        stop = items[n + 1][0] if n + 1 < len(items) else len(lines)
        end = index + 1
        while end < stop and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) > indent):
            end += 1
        ends.append(end)
    for n, ((index, _indent, title, skill), end) in enumerate(zip(items, ends, strict=True), start=1):
        out[index] = f"## Step {n}: {title}" + (f" (`{skill}`)" if skill else "")
        for j in range(index + 1, end):
            out[j] = lines[j].strip()
    head = [i for i in range(first) if _FIELD.match(lines[i]) or _EXPORTED.match(lines[i])
            or (_CRUMBS.match(lines[i]) and lines[i].strip() and i < 3)]
    for i in head:
        out[i] = ""
    if head:
        warns.append((head[0] + 1, f"a task tracker's export: its task fields, breadcrumb and export line (lines "
                                   f"{', '.join(str(i + 1) for i in head[:8])}{', ...' if len(head) > 8 else ''}) "
                                   "are read as the task's details, not instructions"))
    for i in range(first):
        if i in head:
            continue
        if (t := _TITLE.match(lines[i])) is not None and not any(o.startswith("# ") for o in out[:i]):
            out[i] = f"# {t.group('title').strip()}"
        elif _DESCRIPTION.match(lines[i]):
            out[i] = "## Description"
        elif _LIST_HEAD.match(lines[i]):
            out[i] = ""
    after = ends[-1]
    comments = next((i for i in range(after, len(lines)) if _COMMENTS.match(lines[i])), None)
    if comments is not None:
        for j in range(comments, len(lines)):
            out[j] = ""
        warns.append((comments + 1, f"the '{lines[comments].strip()[:30]}' section (lines {comments + 1}-{len(lines)}) "
                                    "is read as remarks, not instructions: a rule said there is not read; write it "
                                    "in the step's notes"))
    named = "; ".join(f"{n}. {t[:30]}" for n, (_i, _d, t, _s) in enumerate(items[:3], start=1))
    warns.append((first + 1, f"a task tracker's export: its {len(items)} numbered subtasks ({named}"
                             f"{'; ...' if len(items) > 3 else ''}) are read as steps in their order, each with the "
                             "notes indented under it as its text: to write it plainly use `## Step 1: Name` "
                             "headings that name the skill in backticks"))
    missing = [n for n, (*_x, s) in enumerate(items, start=1) if s is None]
    if missing:
        warns.append((items[missing[0] - 1][0] + 1,
                      f"subtask {', '.join(map(str, missing))} names no skill after an arrow: its skill is looked "
                      "for in its notes; write 'Title → skill-name'"))
    return "\n".join(out), warns


_rx.save()
