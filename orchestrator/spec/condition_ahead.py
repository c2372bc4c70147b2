"""A condition said before the sentence that names the step it governs.

People talking a workflow through often say the condition first and the step after it, in a
sentence of its own: "If anyone is still short on forms, we have to chase them. Run `chase-up`
with the list." The anchored reading (`spec.anchored`) gives a paragraph's sentences to the step
named before them, so that condition fell to the step before and was dropped. `leading_condition`
finds it: the last of a step's sentences (or the last but a filler of a few words, "Um.") when
it opens with a condition word (if, when, unless, in case, otherwise, else, if not). The caller
moves it onto the next step and warns at its line.

Not moved: a condition about the step before failing or its own result ("if it errors, try
again", "if that's slow, ...", "when it times out"): the subject is the step just said, and the
sentence is its recovery policy. Nor "otherwise nothing to do", "else skip it": no branch is said.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)

# a timestamp or filler words, then the condition word
_OPENS = _rx(r"(?i)^(?:\[[\d:.]{1,12}+\]\s*+)?(?:(?:okay|ok|so|and|then|um|uh|now|but|right)\b[\s,.—–-]*+){0,4}"
             r"(?:if|when|whenever|unless|in\s++case|otherwise|else|if\s++not|only\s++if|only\s++when)\b")
# about the step just said: its failure, or "it"/"that" as the subject
_ABOUT_BEFORE = _rx(r"(?i)\b(?:if|when|whenever|unless|in\s++case)\s++(?:it|that|this|they|those)(?:'s|’s)?\b"
                    r"|\b(?:fail(?:s|ed|ing)?|errors?(?:ed)?|break(?:s)?|broke|crash(?:es|ed)?|times?\s++out|timed\s++out"
                    r"|hiccups?|is\s++down|goes\s++down|flak(?:y|es))\b")
# "otherwise nothing to do", "else skip it": no branch of its own, so nothing to carry
_NOTHING = _rx(r"(?i)\b(?:otherwise|else|if\s++not)\b[\s,:—–-]*+(?:\w++[\s,]++){0,3}?"
               r"(?:nothing|skip|no\s++need|leave\s++it|don't|do\s++not|stop|we're\s++done|that's\s++it|no\s++action)\b")
_FILLER_WORDS = 4


def leading_condition(parts: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The sentences at the end of `parts` that say the condition of the step after them (module
    docstring): the condition and any short filler after it; [] when there is none."""
    if len(parts) < 2:  # the step's own sentence stays its own
        return []
    for back in (1, 2):
        if back >= len(parts):
            break
        _, text = parts[-back]
        if _OPENS.match(text):
            if _ABOUT_BEFORE.search(text) or _NOTHING.search(text):
                return []
            return parts[-back:]
        if len(text.split()) > _FILLER_WORDS:
            return []
    return []


_rx.save()


# "If <condition>, <what to do with `skill`>": the condition ends at the last clause mark before the skill
_IF_SENTENCE = _rx(r"(?i)^(?:\[[\d:.]{1,12}+\]\s*+)?(?:(?:okay|ok|so|and|then|um|uh|now|but|right)\b[\s,.—–-]*+){0,4}"
                   r"(?P<w>if|when|whenever|only\s++if|only\s++when)\s++(?P<c>[^`]{3,200}+)")
_STAMP = _rx(r"\[\d[\d:.]{0,11}+\]")
# entered at the mark, not at the spaces before it (`strip` takes those off the condition)
_CLAUSE_MARK = _rx(r"(?:,|—|–|(?<=\s)-(?=\s)|;)\s*+(?:then\s++)?|(?<=\s)then\s++")
_OTHER = _rx(r"(?i)^(?:\[[\d:.]{1,12}+\]\s*+)?(?:(?:okay|ok|so|and|then|um|uh|now|but|right)\b[\s,.—–-]*+){0,4}"
             r"(?=otherwise|else\b|if\s++not\b)")


def as_lead(sentence: str, carried: bool = False) -> str | None:
    """The first sentence of a step read in prose as the lead the step readers take: "If
    <condition>: <rest>" when it opens with if/when and a clause mark parts the condition from
    the words naming the skill; "Otherwise ..." without a timestamp or filler before it; None
    when it opens with neither. `carried`: the sentence was said before the one naming the skill
    (`leading_condition`), so what follows its clause mark need not name it."""
    if (other := _OTHER.match(sentence)) is not None:
        return sentence[other.end():]
    m = _IF_SENTENCE.match(sentence)
    if m is None or ("`" not in sentence[m.end("c"):] and not carried):
        return None
    head = m.group("c")
    marks = list(_CLAUSE_MARK.finditer(head))
    if not marks:
        return None
    cut = marks[-1]
    condition = " ".join(_STAMP.sub(" ", head[:cut.start()]).split())  # a transcript's "[01:06]" is no word
    rest = head[cut.end():] + sentence[m.end("c"):]
    return f"{m.group('w')} {condition}: {rest.strip()}" if condition and rest.strip() else None
