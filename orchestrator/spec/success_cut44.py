"""A success check run on into the next line's whole-run limit: the check ends where that line starts.

Comments typed with no stop at the line's end join into one sentence (`spec.whole_doc`): "# done = publish
comes back published: true. anything else its not done" then "# the whole `task publish` has to be over in 15
mins, portal locks the dataset at 01:00" gave one check whose parts after the first line were warned as parts
"not a comparison ... not checked", though they are the run's time limit, read at their own line. `cut`
ends the check's words before a later line of the sentence that, read on its own, limits the whole run
(`spec.whole_limit`); the check's other side said again at its end ("anything else its not done",
"otherwise it's a fail") is no part of it either. A line that only carries on the check ("... and\\n count >= 3") is no limit and stays.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.whole_doc import Said

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "... anything else its not done", "; otherwise it's a fail": the check's other side, said again, at its end
_ELSE_NOT = _rx(r"(?i)\b(?:(?:anything|everything)\s++else|otherwise|if\s+not)[\s,]++(?:(?:it'?s|its|it\s+is|is|=|means|"
                r"we'?re|we\s+are)\s++)?+(?:not\s+(?:done|finished|complete|ok)|a\s+fail(?:ure)?|failed|no\s+good)[.!]?+$")


def cut(clause: str, said: Said) -> str:
    """`clause` up to the words of the first later line of `said` read as a whole-run limit (module docstring)."""
    from orchestrator.spec.whole_limit import whole_limit

    flat = " ".join(clause.split())
    for number, text in said.lines:
        if number <= said.line or number > said.last:
            continue
        words = " ".join(text.split())
        head = " ".join(words.split()[:3])
        at = flat.find(head) if head else -1
        if at > 0 and whole_limit(words, outside=True) is not None:
            return _bare(flat[:at].rstrip())
    return _bare(clause)


def _bare(clause: str) -> str:
    """`clause` without its other side said again at its end ("... anything else its not done")."""
    m = _ELSE_NOT.search(clause)
    return clause[:m.start()].rstrip(" \t.;,:-") if m is not None and m.start() > 0 else clause


_rx.save()
