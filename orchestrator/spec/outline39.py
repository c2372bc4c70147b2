"""Steps named by their outline number in a memo, a manual or an SOP, and a person's sign-off said as the
work going to them for it.

    II.  PROCEDURE / A. Load ... / B. Feed the list from II.A ...      "II.A" -> step 1 (`spec.anchored`)
    3.2  Quantify the extract from 3.1 with `qubit-read`.             "3.1" -> the step numbered 3.1
    Whichever document came out of II.C, pass it on                   "II.C" -> "step 3 or step 4"
    2. (a) ... (b) Order what 2(a) counted / once step 2(b) is done    "2(a)" -> step 1, "step 2(b)" -> step 2

    see II.C of the contract · clause 4.2 of the lease                no: another document's section
    built against version 2.1 · add 2.1 ml of buffer · rev 3.2        no: a version, an amount

The anchored reading writes an outline label of another step as "step N" (`anchored._references`); the
label's path is its items' markers joined by dots ("II" + "A" -> "II.A"), and an item whose marker is
itself a dotted number ("3.1", "3.2.1") is named by that number alone (`item_path`). `kept_as_written`
says when a match of such a label in a line is no reference to this document's step: a section "of" /
"in" another document ("of the contract", "in the lease"), a number after a version word ("version",
"v", "rev", "release", ...), or a number before a unit ("ml", "mg", "%", "min", ...).

    The brief goes to the CFO for sign-off before anything else happens.      a person's approval
    Send the draft to legal for approval first.                               the same
    Log in to the portal for approval status.                                 no: a thing, not a yes

`sent_for_sign_off` reads the second: the work sent, passed, handed or submitted "to <who> for sign-off /
approval / signature / go-ahead" (`condition.approval_sentence` takes it as the step's approval; its wait,
"if the CFO has not answered within 48 hours, treat it as declined", is read as any approval's).
"""

from __future__ import annotations

import re

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_SUB = _rx(r"[A-Za-z]{1,4}+|\d{1,3}+")  # a sub-item's marker: "b", "ii", "3"
_BRACKETED = _rx(r"\w\s?+\(\w{1,4}+\)$")  # "2(b)", "3 (ii)": an item path in brackets
_DOTTED = _rx(r"^[A-Za-z0-9]{1,6}+(?:\.[A-Za-z0-9]{1,6}+)++$")
_NUMERIC = _rx(r"^\d{1,4}+(?:\.\d{1,4}+)++$")
# "... II.C of the contract", "2.1 in the lease", "4.2 of Schedule B": another document's section
_OTHER_DOC = _rx(r"(?i)^[ \t]*+(?:of|in|under)[ \t]++(?:the[ \t]++|this[ \t]++|that[ \t]++|our[ \t]++|their[ \t]++|its[ \t]++)?+"
                 r"(?!(?:steps?|procedure|outline|list|above|below|memo|document|sop|runbook|manual)(?![\w-]))"
                 r"(?:(?-i:[A-Z])[\w-]*+|contract|agreement|lease|policy|standard|regulation|act|law|code|handbook|"
                 r"guidelines?|terms|msa|sow|nda|spec(?:ification)?|rfc|iso|schedule|annex|appendix|exhibit)(?![\w-])")
# a version or an edition before a number: "version 2.1", "v2.1", "rev 3.2", "release 1.4"
_VERSION_BEFORE = _rx(r"(?i)(?<![\w-])(?:version|ver|v|rev|revision|release|build|edition|ed|api|python|node|java|"
                      r"iso|rfc|pH|firmware|kernel|schema|patch|tag|r)[ \t.:#]{0,2}+$")
# a unit after a number: "2.1 ml", "3.5%", "1.5 h"
_UNIT_AFTER = _rx(r"^[ \t]?+(?:%|°|[xX](?![\w-])|(?:ml|mL|l|L|µl|µL|ul|uL|mg|g|kg|µg|ug|ng|mm|cm|m|km|s|sec|secs|min|mins|h|"
                  r"hr|hrs|mM|nM|µM|uM|M|rpm|bar|psi|V|mV|Hz|kHz|MHz|GB|MB|kB|TB|[Dd]ays?|[Hh]ours?|[Mm]inutes?|"
                  r"[Ss]econds?|[Ww]eeks?|percent|times|units?|EUR|USD|GBP|k|pts?|points?|ft|lbs?|oz)(?![\w-]))")
_SIGN_OFF = _rx(
    r"(?i)(?<![\w-])to[ \t]++(?:the[ \t]++|a[ \t]++|an[ \t]++|our[ \t]++|your[ \t]++|their[ \t]++)?+"
    r"(?:[\w&/'’-]++[ \t]++){0,3}?for[ \t]++(?:(?:their|his|her|a|an|the|final|formal|written)[ \t]++){0,2}?"
    r"(?:sign[ \t-]?+off|approval|signature|countersignature|go[ \t-]ahead|ok|okay)(?![\w-])"
    r"(?![ \t]++(?:status|history|queue|workflow|form|request|records?|log|process)(?![\w-]))")


def item_path(path: list[str], key: str) -> list[str]:
    """The path of an item marked `key` under the items of `path`: a dotted marker ("3.1", "3.2.1") is
    a whole number of its own, else the markers joined ("II" then "A": "II.A")."""
    return [key] if _DOTTED.match(key) and "." in key else [*path, key]


def path_patterns(path: list[str]) -> list[str]:
    """The ways another step's text writes the item of `path`, as regexes: its markers joined by dots
    ("II.A", "3.1"), and a number or numeral with its sub-item's letters in brackets ("2(b)", "step 2(b)",
    "3 (a)(ii)"), the word "step" before it taken with it (it is written "step N" for it)."""
    out = [rf"(?<![\w.]){re.escape('.'.join(path))}(?!\w)"]
    if len(path) >= 2 and "." not in path[0] and all(_SUB.fullmatch(p) for p in path[1:]):
        brackets = "".join(rf"[ \t]?+\({re.escape(p)}\)" for p in path[1:])
        out.append(rf"(?<![\w.])(?:(?i:step)[ \t]++)?{re.escape(path[0])}{brackets}")
    return out


def names_path(path: list[str]) -> bool:
    """Whether a path names an item another step's text may refer to: two markers or more, or a
    dotted number ("3.1")."""
    return len(path) >= 2 or (len(path) == 1 and "." in path[0])


def kept_as_written(line: str, start: int, end: int) -> bool:
    """Whether the outline label matched at `line[start:end]` is no reference to this document's step
    (module docstring): another document's section, a version, an amount."""
    said = line[start:end]
    if _BRACKETED.search(said):  # "2(b) of the lease": another document's item
        return _OTHER_DOC.match(line[end:end + 80]) is not None
    if not _DOTTED.match(said):
        return False  # a step's name, "(b)": the caller's own reading
    if _OTHER_DOC.match(line[end:end + 80]):
        return True
    if _NUMERIC.match(said):
        return bool(_VERSION_BEFORE.search(line[max(0, start - 20):start]) or _UNIT_AFTER.match(line[end:end + 12]))
    return False


def sent_for_sign_off(sentence: str) -> bool:
    """Whether the sentence sends the work to a person for their sign-off (module docstring)."""
    return _SIGN_OFF.search(sentence) is not None


_rx.save()
