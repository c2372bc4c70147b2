"""JavaScript / TypeScript comparison and logic operators in a condition, said the way the
expression reader reads them (round 50).

    strip.angle === 'overhang'        -> strip.angle == 'overhang'
    a.n !== 0 && !b.closed            -> a.n != 0 and not b.closed
    x.late || y.late                  -> x.late or y.late

Only outside quotes; a `!` is `not` only right before a name or a bracket (a `!` ending a
sentence, `!!`, and `!=` stay as written). Text with none of these operators comes back as is.
"""

from __future__ import annotations

_OPS = (("===", "=="), ("!==", "!="), ("&&", " and "), ("||", " or "))


def js_operators(text: str) -> str:
    """`text` with its JS operators as the expression reader's (module docstring)."""
    if not any(op in text for op, _ in _OPS) and "!" not in text:
        return text
    out: list[str] = []
    quote = ""
    i, n = 0, len(text)
    changed = False
    while i < n:
        ch = text[i]
        if quote:
            out.append(ch)
            if ch == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 2
                continue
            if ch == quote:
                quote = ""
            i += 1
            continue
        if ch in "'\"`":
            quote = ch
            out.append(ch)
            i += 1
            continue
        for op, said in _OPS:
            if text.startswith(op, i):
                word = said.strip()
                if said != word:  # ` and `: one space either side, however it was spaced
                    word = ("" if out and out[-1].endswith(" ") else " ") + word + \
                        ("" if text[i + len(op):i + len(op) + 1] in (" ", "") else " ")
                out.append(word)
                i += len(op)
                changed = True
                break
        else:
            nxt = text[i + 1] if i + 1 < n else ""
            before = text[i - 1] if i else " "
            if ch == "!" and (nxt.isalpha() or nxt in "_$(") and (before.isspace() or before in "(&|"):
                out.append("not ")
                changed = True
            else:
                out.append(ch)
            i += 1
    if not changed:
        return text
    return "".join(out).strip()
