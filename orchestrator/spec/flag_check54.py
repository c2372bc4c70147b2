"""A run's success check said of a script's flag (round 54): the field and `1`/`0` with no operator, and what a
check `== 1` / `== 0` accepts.

Script authors say a yes/no the way their language writes it: "panel is good when post-to-mes returns posted 1",
"ok once the mailer says sent 1", "done when archive comes back with stored 0". A verb of answering (returns,
gives, reports, says, shows, comes back (with)), an output's name and `1` or `0` right after it is the check
`FIELD == 1` (`said_flag`); with a yes/no word it is `spec.salon38.reported_truth`'s.

Such a script's skill may answer its yes/no as JSON's `true`/`false`, and a check `const: 1` fails `true` (the
contract check keeps numbers and truths apart): a run's success check `FIELD == 1` (or `== 0`) written in the spec
accepts the number and the truth it stands for (`flag_keywords`: `enum: [1, true]`). Other numbers, and a check on
a step's own `- Success criteria:` line, are kept as written.

A comment line of a script read as its comments that states a success check on its own ("# panel is good when
...") is a sentence of its own, unless the comment line above runs on into it (`own_sentence`); the lines above
it are a usage line and a limit, not the check's words.
"""

from __future__ import annotations

from typing import Any

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_FLAG = _rx(r"(?i)(?<![\w-])(?:reports?|returns?|says|gives|shows|answers|comes[ \t]++back(?:[ \t]++with)?)[ \t]++"
            r"`?(?-i:(?P<field>[a-z_][a-z0-9_]{1,40}+))`?[ \t]++(?P<value>[01])(?![\w.%-])")
_COMMENTED = _rx(r"^[ \t]*+(?:#|//|--|;|%|'|rem\b|\*)", )


def said_flag(clause: str) -> str | None:
    """`FIELD == 1` (or `== 0`) for a clause that says a step answers with an output's name and `1`/`0` and no
    operator ("post-to-mes returns posted 1"); None otherwise (no such words, or several)."""
    found = list(_FLAG.finditer(clause))
    if len(found) != 1:
        return None
    return f"{found[0].group('field')} == {found[0].group('value')}"


def flag_keywords(keywords: dict[str, Any]) -> dict[str, Any]:
    """A run's success check's keywords per field, `const: 1`/`const: 0` made to accept the truth too."""
    out: dict[str, Any] = {}
    for name, said in keywords.items():
        const = said.get("const", None) if isinstance(said, dict) else None
        if isinstance(const, int) and not isinstance(const, bool) and const in (0, 1) and len(said) == 1:
            out[name] = {"enum": [const, bool(const)]}
        else:
            out[name] = said
    return out


def own_sentence(code: list[str], number: int, text: str, above: str) -> bool:
    """Whether line `number` of a script read as its comments (`code` its own lines) is a comment line that states
    a success check on its own (`text`), the comment line above (`above`) not running on into it."""
    from orchestrator.spec.script_runbook import GOES_ON
    from orchestrator.spec.whole_success import success_cue

    if not code or not 0 < number <= len(code) or _COMMENTED.match(code[number - 1]) is None:
        return False
    if number < 2 or _COMMENTED.match(code[number - 2]) is None or GOES_ON.search(above):
        return False
    return success_cue(text) is not None


_rx.save()
