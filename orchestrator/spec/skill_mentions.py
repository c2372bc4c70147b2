"""Where a spec names its catalog skills, in any quoting, and in which role.

A catalog skill, or a tool one skill wraps (`spec.vocabulary`), named `x`, **x**, *x*, 'x', "x",
as a link's text or target ([x](skills/x)), or as a bare word (only a name with a hyphen or
underscore, or one next to "skill", "module", "tool" or "script"). In a sentence that names a
fallback ("instead", "fall back to", "if that fails use") the names are the fallback; a name a
failure is said of ("if x falls over") is its subject; one a value is said to come from ("the
max_trips that x gave back") its source; one in a remark ("NOTE: ...") is an aside;
any other does the work (`roles`, `doers`). Used by the anchored reading (`spec.anchored`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from orchestrator.spec.otherwise_opening import otherwise_opening
from orchestrator.spec.phrasing53 import FAILED_THEN_USE
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.step_prose import sentences
from orchestrator.spec.vocabulary import Vocabulary

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# quotings a name may be written in: (pattern with one group, how); a link comes first so that
# its target is not met again as a bare word
_QUOTED: tuple[tuple[str, str], ...] = (
    (r"`([^`\n]{1,80})`", "backticks"),
    (r"\*\*([^*\n]{1,80})\*\*", "bold"),
    (r"__([^_\n]{1,80})__", "bold"),
    (r"(?<![\w*])\*([^*\n]{1,80})\*(?![\w*])", "italics"),
    (r"(?<![\w_])_([^_\n]{1,80})_(?![\w_])", "italics"),
    (r"(?<![\w'’])['‘]([^'’\n]{1,80})['’](?![\w'’])", "quotes"),
    (r"[\"“]([^\"”\n]{1,80})[\"”]", "quotes"),
)
_TICKED = _rx(r"`([a-z0-9]+(?:-[a-z0-9]+)+)`")  # a skill's name in backticks, as `only_fallbacks` reads it
_LINK = _rx(r"\[([^\]\n]{1,120})\]\(([^)\s]{1,300})\)")
_WORD = _rx(r"(?<![\w./#@-])([A-Za-z][\w]*(?:[-_.][A-Za-z0-9]+)*)(?![\w-])")
_SKILL_WORD = _rx(r"(?i)^\s*(?:skill|module|tool|script|job|task)\b|\b(?:skill|module|tool|script)\s*$")
# a sentence that names what to use when the step fails: its names are the fallback
# no answer said as a failure ("if nothing comes back", "no reply", "it doesn't respond"; round 47)
_NO_ANSWER = (r"(?:nothing\s+(?:(?:comes?|came|is|gets)\s+)?back|no\s+(?:answer|reply|response)|"
              r"does\s*n[o']t\s+(?:come\s+back|respond|answer|reply)|never\s+(?:comes\s+back|answers|responds|replies))")
_FALLBACK = _rx(
    r"(?i)\binstead\b|\bfall(?:s|ing)?\s*back\b|\bfallback\b|\bfailing\s+that\b|\bas\s+a\s+(?:backup|fallback)\b"
    r"|\bplan\s+b\b|\bif\s+(?:that|this|it)\s+(?:fails|errors|breaks|does\s*n[o']t\s+work)\b[^.;]{0,60}\buse\b"
    r"|\bif\s+(?:(?:that|this|it)\s+)?" + _NO_ANSWER + r"\b[^.;]{0,60}\b(?:use|switch\s+to)\b"
    r"|\botherwise\s+use\b|" + FAILED_THEN_USE)  # "if the site is down use `x` ..." (`spec.phrasing53`)
# a name the failure is said of ("if rank-hosts falls over"): no doer
_FAILS_AFTER = _rx(
    r"\W{0,3}(?:\s*\([^)]{0,40}\))?\s*(?:fails|failed|falls\s+over|errors|errored|breaks|crashes|chokes|times\s+out|"
    r"is\s+down|is\s+unavailable|does\s*n[o']t\s+(?:work|answer)|can\s*n[o']t)")

# a name said as where a value came from ("the max_trips that road-weather gave back"): no doer
_GAVE_BEFORE = _rx(r"(?i)\b(?:that|which|what|whatever)\s*+$")
_GAVE_AFTER = _rx(r"\W{0,2}\s++(?:gave|gives|handed|hands|returned|returns|produced|produces|reported|reports|came\s+back\s+with|"
                  r"spat\s+out|put\s+out|worked\s+out|found)\b")

# a clause: up to a comma, semicolon, colon or dash (brackets kept whole)
_CLAUSE = _rx(r"(?:\([^)]*\)|[^,;:—–(])+(?:[,;:—–]|$)")
# a clause that says the work failed ("if that fails", "if `x` is down"): the next one names the fallback
_FAILED = _rx(r"(?i)\b(?:if|when|should|in\s+case)\b[^.]{0,80}?\b(?:fails?|failed|falls\s+over|errors?(?:\s+out)?|errored|breaks|"
              r"crash(?:es)?|chokes|times\s+out|is\s+down|is\s+unavailable|does\s*n[o']t\s+work|no\s+good|" + _NO_ANSWER + r")\b")
# a sentence that opens on a condition ("If no block is ready, then instead x ..."): its "instead" sets
# the other branch against that condition, so a name after it does the work, unless the condition
# is a failure ("if it fails, x instead")
_CONDITION_OPENS = _rx(r"(?i)^\W{0,3}+(?:if|when|where|should|in\s++case)\s++(?P<cond>(?:[^,;:.\n]|\.(?=\d)){1,120}+)[,;:]")
_ONLY_INSTEAD = _rx(r"(?i)^(?:(?!\bfall(?:s|ing)?\s*+back\b|\bfallback\b|\bfailing\s++that\b|\bbackup\b|\bplan\s++b\b|"
                    r"\buse\b)[^\n])*+$")
# a remark, not work: "NOTE: x has its own retries", "FYI ..."
_ASIDE_LEAD = _rx(r"(?i)^\W*(?:note|nb|n\.b\.|tip|fyi|warning|caution|important|hint|ps|p\.s\.|aside|heads[\s-]up|"
                  r"side\s+note|pro[\s-]tip|gotcha)\b\W")
# a sentence that says when the run is done names a skill for its output, not to run it
_CHECK = _rx(r"(?i)\b(?:done|finished|successful|succeeds?|passes|complete|counts\s+as\s+\w+|accepted)\s+(?:when|if|once)\b")


@dataclass
class Mention:
    start: int
    end: int
    written: str  # the name as written (a tool's name stays the tool's)
    skill: str
    how: str
    role: str = "doer"  # doer, fallback, subject (the failure is said of it)


def mentions(text: str, vocabulary: Vocabulary) -> list[Mention]:
    """The catalog names in `text` (one line or a sentence), in order, each with how it was quoted."""
    found: list[Mention] = []
    taken = bytearray(len(text))  # the characters a mention already covers

    def add(a: int, b: int, name: str, how: str) -> None:
        skill = vocabulary.skill_for(name)
        if skill is not None and not any(taken[a:b]):
            found.append(Mention(a, b, name, skill, how))
            taken[a:b] = b"\x01" * (b - a)

    for m in _LINK.finditer(text):
        said = m.group(1).strip("`*_'\" ")
        if vocabulary.skill_for(said) is None:  # [the skill](skills/x/SKILL.md): the target names it
            said = next((p for p in reversed(re.split(r"[/#?]", m.group(2))) if vocabulary.skill_for(p)), said)
        add(m.start(), m.end(), said, "link")
    for pattern, how in _QUOTED:
        for m in re.finditer(pattern, text):
            add(m.start(), m.end(), m.group(1).strip(), how)
    for m in _WORD.finditer(text):
        name = m.group(1)
        if vocabulary.skill_for(name) is None:
            continue
        plain = not re.search(r"[-_]", name)
        if plain and not (_SKILL_WORD.search(text[max(0, m.start() - 12):m.start()])
                          or _SKILL_WORD.search(text[m.end():m.end() + 12])):
            continue  # a one-word name written bare is a word, unless called a skill
        add(m.start(), m.end(), name, "bare word")
    found.sort(key=lambda x: x.start)
    return found


def roles(text: str, vocabulary: Vocabulary) -> list[Mention]:
    """The mentions of a unit's text, clause by clause, each with its role (module docstring): in a
    clause that names a fallback, or that follows a clause saying something failed, a fallback; the
    name a failure is said of, or one in a sentence that says when the run is done, a subject;
    in a remark ("NOTE: ..."), an aside; any other, a doer."""
    out: list[Mention] = []
    aside = _ASIDE_LEAD.match(text) is not None
    branch = otherwise_opening(text) or 0  # "3) failing that `x`": the other branch, `x` its doer
    at = 0
    for _offset, sentence in sentences(text):
        start = text.find(sentence, at)
        start = at if start < 0 else start
        at = start + len(sentence)
        pending = False  # the clause before said something failed: this one says what to do then
        check = _CHECK.search(sentence)
        opening = _CONDITION_OPENS.match(sentence)
        branch_cond = opening is not None and _FAILED.search(opening.group(0)) is None \
            and _ONLY_INSTEAD.match(sentence) is not None  # "if no block is ready, then instead `x` ..."
        checked_from = check.start() if check is not None else len(sentence) + 1
        for clause in _CLAUSE.finditer(sentence):
            part = clause.group(0)
            failed = _FAILED.search(part) is not None
            head = start + clause.start()
            fallback = pending or (_FALLBACK.search(part, max(0, branch - head)) is not None and not branch_cond)
            for m in mentions(part, vocabulary):
                m.start, m.end = m.start + start + clause.start(), m.end + start + clause.start()
                if aside:
                    m.role = "aside"
                elif _FAILS_AFTER.match(part, m.end - start - clause.start()) or m.start - start > checked_from:
                    m.role = "subject"
                elif _GAVE_AFTER.match(part, m.end - start - clause.start()) and _GAVE_BEFORE.search(
                        part[max(0, m.start - start - clause.start() - 12):m.start - start - clause.start()]):
                    m.role = "source"  # "the max_trips that road-weather gave back": its output, read elsewhere
                elif fallback:
                    m.role = "fallback"
                out.append(m)
            pending = failed and not fallback
    return out


def doers(text: str, vocabulary: Vocabulary) -> list[str]:
    """The skills `text` names as doing the work, in order, once each."""
    return list(dict.fromkeys(m.skill for m in roles(text, vocabulary) if m.role == "doer"))


def cut_at_doers(sentence: str, vocabulary: Vocabulary) -> list[str]:
    """The sentence cut before each clause whose first doer is one it has not named yet ("Then `a`
    pushes it out, and last `b` mails it, quoting what a hands back" -> two pieces); one piece
    when it names one doer (a later mention of a doer already named stays where it is)."""
    said = [m for m in roles(sentence, vocabulary) if m.role == "doer"]
    if len({m.skill for m in said}) < 2:
        return [sentence]
    clauses = [c.start() for c in _CLAUSE.finditer(sentence)]
    cuts: list[int] = []
    seen: set[str] = set()
    for m in said:
        if seen and m.skill not in seen:
            at = max((c for c in clauses if c <= m.start), default=0)
            if at > (cuts[-1] if cuts else 0):
                cuts.append(at)
        seen.add(m.skill)
    bounds = [0, *cuts, len(sentence)]
    return [p for a, b in pairwise(bounds) if (p := sentence[a:b].strip())]


def in_backticks(line: str, vocabulary: Vocabulary) -> str:
    """The line with every catalog name it writes in another quoting put in backticks."""
    for m in reversed(mentions(line, vocabulary)):
        line = f"{line[:m.start]}`{m.written}`{line[m.end:]}"
    return line


def only_fallbacks(text: str) -> bool:
    """Whether every skill `text` names in backticks is said as what to use when the step fails ("The
    quote service goes down. If it errors, switch to `flat-rate-cover`."): that step's fallback, no
    step of its own. Names are taken as written, with no catalog (any hyphenated name in backticks)."""
    names = frozenset(m.group(1) for m in _TICKED.finditer(text))
    if not names:
        return False
    found = roles(text, Vocabulary(skills=names))
    return bool(found) and all(m.role == "fallback" for m in found)
