"""A word processor's document saved as text with outline numbering (1 / 1.1 / 1.1.1), read as the
markdown it stands for.

    1<TAB>PURPOSE                           ->  ## PURPOSE                   a top number: a section
    1.1<TAB>Why the kitchen does this       ->  - Why the kitchen does this  (any section but the procedure)
    4<TAB>METHOD                            ->  ## METHOD                    the procedure: the section whose
    4.1<TAB>Weigh the flour                 ->  ### Step 1: Weigh the flour  title says so, its x.y items steps
    4.1.1<TAB>Run weigh-batch on 2.1.       ->  - Run weigh-batch on 2.1.   their sub-items: the step's text
    4.2.3<TAB>... from 4.1, then ...        ->  - ... from step 1, then ... its steps' numbers as "step N"
    4.5<TAB>Time allowed                    ->  ### Time allowed             an x.y item no sub-item of which
                                                                              asks for work: no step, read as ever

Each line opens with its number (a dot after it or not), then a tab or spaces, then its text; a line
with no number goes on with the item before it. A document is such an outline when it has two top
numbers or more, three x.y numbers or more, every x.y number's parent came before it, and no line is
markdown's own heading. The procedure is the top section whose title names one ("Procedure", "Method",
"Steps", "Instructions", "Process", "Work instruction"); an x.y item there is a step when a sub-item
(or its own line) asks for work: a verb of doing before a hyphenated name or a skill's name in
backticks or bold. An x.y item with no sub-items is a step whose text is its own line. How the document
was read is said once, at the procedure's line (a reading, warned). Without a procedure section, or
with no step in it, the document is left to the other readers. Lines keep their numbers.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_NUMBER = _rx(r"^[ ]{0,8}+(\d{1,2}+(?:\.\d{1,2}+){0,4}+)\.?+(?:\t[ \t]*+|[ ]{1,6}+)(\S.*+)$")
_HEADING = _rx(r"^#{1,6}[ \t]")
_PROCEDURE = _rx(r"(?i)(?<![\w-])(?:procedure|method|methods|steps|instructions|process|work\s++instructions?)(?![\w-])")
_WORK = _rx(r"(?i)(?<![\w-])(?:run|runs|call|calls|use|uses|invoke|execute|trigger|start|starts|pass|send|feed|hand)"
            r"\s++(?:the\s++|it\s++to\s++)?[`*_]{0,2}+[a-z0-9]++(?:-[a-z0-9]++)++|`[a-z0-9]++(?:-[a-z0-9]++)++`"
            r"|\*\*[a-z0-9]++(?:-[a-z0-9]++)++\*\*")


def _items(lines: list[str]) -> list[tuple[int, str, str]] | None:
    """(line index, number, text) of each numbered line; None when the document is no such outline."""
    found: list[tuple[int, str, str]] = []
    seen: set[str] = set()
    tops = subs = 0
    for i, line in enumerate(lines):
        if _HEADING.match(line):
            return None
        m = _NUMBER.match(line) if len(line) <= 4000 else None
        if m is None:
            continue
        number = m.group(1)
        parent = number.rpartition(".")[0]
        if parent and parent not in seen:
            return None  # "3.1" before any "3": no outline numbering
        seen.add(number)
        if parent:
            subs += 1
        else:
            tops += 1
        found.append((i, number, m.group(2).strip()))
    return found if tops >= 2 and subs >= 3 else None


def _refs(text: str, steps: dict[str, int]) -> str:
    """`text` with each step's outline number ("3.2", not "3.2.1" nor "0.2") written "step N"."""
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isdigit() and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] in ".-/,")):
            j = i
            while j < len(text) and (text[j].isdigit() or (text[j] == "." and j + 1 < len(text) and text[j + 1].isdigit())):
                j += 1
            number = text[i:j]
            out.append(f"step {steps[number]}" if number in steps else number)
            i = j
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def numbered_markdown(text: str) -> tuple[str, list[int], list[tuple[int, str]]] | None:
    """The outline as markdown, each markdown line's author's line (0-based), and the readings to warn
    (line, message); None when `text` is no outline-numbered document or has no procedure with steps."""
    lines = text.split("\n")
    items = _items(lines)
    if items is None:
        return None
    procedure = next(((i, n, t) for i, n, t in items if "." not in n and _PROCEDURE.search(t)), None)
    if procedure is None:
        return None
    top = procedure[1]
    children: dict[str, list[str]] = {}
    for _, number, words in items:
        parts = number.split(".")
        if parts[0] == top and len(parts) >= 3:
            children.setdefault(".".join(parts[:2]), []).append(words)
    steps: dict[str, int] = {}
    for _, number, words in items:
        if number.count(".") == 1 and number.split(".")[0] == top:
            texts = children.get(number, [words])
            if any(_WORK.search(w) for w in [words, *texts]):
                steps[number] = len(steps) + 1
    if not steps:
        return None
    out: list[str] = []
    origin: list[int] = []
    numbered = {i: (n, t) for i, n, t in items}
    current = ""  # the number of the item a line without a number goes on with
    for i, line in enumerate(lines):
        if i not in numbered:
            stripped = line.strip()
            inside = current.split(".")[0] == top
            out.append(("  " + (_refs(stripped, steps) if inside else stripped)) if stripped and current.count(".") else
                       (stripped if stripped else ""))
            origin.append(i)
            if not stripped:
                current = ""
            continue
        number, words = numbered[i]
        current = number
        depth = number.count(".")
        inside = number.split(".")[0] == top
        if depth == 0:
            out.append(f"## {words}")
        elif inside and number in steps and number not in children:  # a step on its own line
            out += [f"### Step {steps[number]}", f"- {_refs(words, steps)}"]
            origin.append(i)
        elif inside and depth == 1:
            out.append(f"### Step {steps[number]}: {words}" if number in steps else f"### {words}")
        elif inside:
            out.append(f"- {_refs(words, steps)}")
        else:
            out.append(("  " * (depth - 1)) + f"- {words}")
        origin.append(i)
    first, last = next(iter(steps)), list(steps)[-1]
    said = (f"an outline-numbered document: the items {first} to {last} under '{procedure[2]}' are read as steps 1 to "
            f"{len(steps)}, their numbered lines as each step's text, and '{first}' written in the text as step 1; "
            "check the plan, or write `## Step N:` headings")
    return "\n".join(out), origin, [(procedure[0] + 1, said)]


_rx.save()
