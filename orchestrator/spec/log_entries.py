"""A log of timestamped entries (a shift handover, a ship's or bridge log, a lab notebook, an
on-call diary) in which one entry holds the procedure as lettered or numbered items.

    23:40  KM  Delivery confirmed for 10:00.           a remark: blank, warned once
    04:30  KM  For the 05:00 run, it wants the reading:  the entry's lead: prose before the steps
               a) fetch-reading on it, then              ->  1. `fetch-reading` on it, then
                  give up after 20 s.                    ->     give up after 20 s.
               b) file-report off the reading.           ->  2. `file-report` off the reading.
               Whole thing inside 10 min.                the entry's own lines after the items
    04:50  KM  Coffee machine dead.                      a remark

Read by the skill names it mentions, an item naming two skills, a condition naming an earlier
step's skill or a later entry's chatter put lines in the wrong step (a policy of one item read as
another's, a coffee-machine note as a policy). Here the entry whose items run a), b), c) ... (or
1), 2) ...) and name skills is the procedure: each item a step in its order, with the lines
indented under it as its text, and the skill it names first that no earlier item named as the one
it runs (in backticks; the others stay as written, but for an item that starts its two new skills
together, "x on A and y on B, neither waits for the other": both quoted, read as two steps by
`spec.pair_sentence`). The entry's lines before its items are prose
before the steps (what the run is given); its lines after them are read as the whole run's (a
limit, a success check). Every other entry, and the log's header above the first entry, is blank:
remarks, not instructions, warned once. What an item's wording leaves unread (a condition, "instead",
"whichever ran") is said by the readers of steps. Each line keeps its number.
"""

from __future__ import annotations

from orchestrator.spec.lettered_from30 import rewrite_letters
from orchestrator.spec.pair_item import together
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.skill_mentions import mentions, roles
from orchestrator.spec.vocabulary import Vocabulary

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "04:30  KM  text", "[23:05] text", "0430 text", "2026-01-14 09:12 text", "14:05Z text"
_ENTRY = _rx(r"(?i)^[ \t]*+\[?+(?:\d{4}-\d{2}-\d{2}[ T])?+(?:[01]?\d|2[0-3])(?::|\.|h)?+[0-5]\d(?::[0-5]\d)?+"
             r"(?:[ \t]*+(?:hrs|h|z|utc|am|pm)\b)?+\]?+[ \t]++(?P<rest>\S[^\n]*+)$")
_INITIALS = _rx(r"^(?:[A-Z0-9]{1,3}+[./][A-Z0-9]{1,3}+\.?+[ \t]++|[A-Z]{2,3}+\.?+[ \t]{2,}+|[A-Z][a-z]{1,15}+:[ \t]++)(?=\S)")
# "a) text", "(b) text", "c. text", "1) text", "2. text"
_ITEM = _rx(r"^(?P<indent>[ \t]*+)\(?+(?P<mark>[a-z]|\d{1,2}+)[).][ \t]++(?P<rest>\S[^\n]*+)$")
_SHAPED = _rx(r"(?<![\w`-])[a-z][a-z0-9]*+(?:-[a-z0-9]++)++(?![\w`-])")  # a skill-shaped name


def _indent(line: str) -> int:
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip())


def _items(lines: list[str], start: int, stop: int) -> list[tuple[int, int]]:
    """The items of the entry lines[start:stop] running a, b, c ... or 1, 2, 3 ...: (index, indent)."""
    found: list[tuple[int, int]] = []
    for i in range(start + 1, stop):
        m = _ITEM.match(lines[i])
        if m is None:
            continue
        mark = m.group("mark")
        want = (chr(ord("a") + len(found)), str(len(found) + 1))
        if mark in want and (not found or (_indent(lines[i]) == found[0][1]
                                           and mark.isdigit() == _ITEM.match(lines[found[0][0]]).group("mark").isdigit())):  # type: ignore[union-attr]
            found.append((i, _indent(lines[i])))
    return found


def _named(text: str, vocabulary: Vocabulary) -> list[str]:
    """The skills the text names, in order; with no catalog, names shaped like a skill's."""
    if vocabulary:  # any role: "no rain -> x instead" names the item's skill as a fallback would
        return list(dict.fromkeys(m.skill for m in roles(text, vocabulary) if m.role != "aside"))
    return list(dict.fromkeys(m.group(0) for m in _SHAPED.finditer(text)))


def _quote(line: str, skill: str, vocabulary: Vocabulary) -> str:
    """The line with its first mention of `skill` in backticks."""
    if vocabulary:
        for m in mentions(line, vocabulary):
            if m.skill == skill:
                return line if m.how != "plain" and line[m.start] == "`" else \
                    f"{line[:m.start]}`{m.written.strip('`')}`{line[m.end:]}"
        return line
    at = line.find(skill)
    return line if at < 0 or line[max(0, at - 1):at] == "`" else f"{line[:at]}`{skill}`{line[at + len(skill):]}"


def log_markdown(text: str, vocabulary: Vocabulary) -> tuple[str, list[tuple[int, str]]] | None:
    """The text with the procedure entry's items as a numbered list of steps, its other entries and
    header blank (module docstring), and (line, message) of the warnings that say so; None when the
    text is no log with such an entry."""
    lines = text.split("\n")
    entries = [i for i, line in enumerate(lines) if _ENTRY.match(line)]
    if len(entries) < 3:
        return None
    bounds = list(zip(entries, [*entries[1:], len(lines)], strict=True))
    best: tuple[int, int, list[tuple[int, int]]] | None = None
    for start, stop in bounds:
        items = _items(lines, start, stop)
        named = sum(1 for n, (i, _d) in enumerate(items) if _named("\n".join(
            lines[i:(items[n + 1][0] if n + 1 < len(items) else stop)]), vocabulary))
        if len(items) >= 2 and named >= 2 and (best is None or len(items) > len(best[2])):
            best = (start, stop, items)
    if best is None:
        return None
    start, stop, items = best
    out = list(lines)
    warns: list[tuple[int, str]] = []
    lead = _ENTRY.match(lines[start])
    rest = lead.group("rest") if lead is not None else lines[start].strip()
    out[start] = _INITIALS.sub("", rest, count=1)
    for j in range(start + 1, items[0][0]):
        out[j] = lines[j].strip()
    earlier: set[str] = set()
    runs: list[tuple[int, str]] = []
    end = items[0][0]
    for n, (index, indent) in enumerate(items):
        limit = items[n + 1][0] if n + 1 < len(items) else stop
        end = index + 1
        while end < limit and (not lines[end].strip() or _indent(lines[end]) > indent):
            end += 1
        said = _named("\n".join(lines[index:end]), vocabulary)
        new = [s for s in said if s not in earlier]
        doer = new[0] if new else (said[0] if said else None)
        m = _ITEM.match(lines[index])
        body = [m.group("rest") if m is not None else lines[index].strip(), *(lines[j].strip() for j in range(index + 1, end))]
        if doer is not None:
            at = next((k for k, b in enumerate(body) if doer in b or _quote(b, doer, vocabulary) != b), 0)
            body[at] = _quote(body[at], doer, vocabulary)
            runs.append((index + 1, doer))
        pair = len(new) == 2 and together(" ".join(body))  # "a on X and b on Y, neither waits": two steps
        if pair:  # the second skill quoted too: `spec.pair_sentence` reads the item as two steps (and says so)
            at = next((k for k, b in enumerate(body) if new[1] in b or _quote(b, new[1], vocabulary) != b), 0)
            body[at] = _quote(body[at], new[1], vocabulary)
        out[index] = f"{n + 1}. {body[0]}"
        for k, j in enumerate(range(index + 1, end), start=1):
            out[j] = f"   {body[k]}" if body[k] else ""
        if len(new) > 1 and not pair:
            warns.append((index + 1, f"item {n + 1} of the log entry names {', '.join(f'`{s}`' for s in new)}: it is "
                                     f"read as one step running `{new[0]}`, every line under it (its rules too) as "
                                     "that step's; the others are not run: give each skill its own item"))
        earlier.update(said)
    lettered = {_ITEM.match(lines[i]).group("mark"): n + 1 for n, (i, _d) in enumerate(items)}  # type: ignore[union-attr]
    if not any(mark.isdigit() for mark in lettered):  # "total_t from (a)": step 1's (`spec.lettered_from30`)
        for j in range(items[0][0], end):
            out[j] = rewrite_letters(out[j], lettered)
    for j in range(end, stop):  # the entry's own lines after its items: the whole run's
        out[j] = lines[j].strip()
    remarks = [i for i in range(len(lines)) if (i < start or i >= stop) and lines[i].strip()]
    for i in remarks:
        out[i] = ""
    head = next((i for i in range(entries[0]) if lines[i].strip() and not set(lines[i].strip()) <= set("-=_*~ ")), None)
    if head is not None:
        out[head] = f"# {lines[head].strip()}"
    marks = "".join(_ITEM.match(lines[i]).group("mark") for i, _ in items[:4])  # type: ignore[union-attr]
    warns.append((items[0][0] + 1, f"a log of timestamped entries: the entry at line {start + 1} holds the procedure, "
                                   f"its items ({', '.join(marks)}{', ...' if len(items) > 4 else ''}) read as steps "
                                   f"1-{len(items)} in their order, each with the lines indented under it as its "
                                   "text: to write it plainly use `## Step 1: Name` headings that name the skill in "
                                   "backticks"))
    others = [i + 1 for i in remarks if i != head]
    if others:
        shown = ", ".join(map(str, others[:10])) + (", ..." if len(others) > 10 else "")
        warns.append((others[0], f"the log's header and its other entries (lines {shown}) are read as remarks, not "
                                 "steps or rules: a rule said there is not read; write it in the procedure's items"))
    return "\n".join(out), warns


_rx.save()
