"""A short failure question and the answer after it, one sentence for the policy reader.

    Fuel-price scraper down? Do that step with `fuel-price-manual`.
        -> one sentence: `fuel-price-manual` is the step's fallback
    Scanner broken? Use `scan-backup`.  ·  If the API's dead? Carry on without it.
    No answer from the lab? Carry on with an empty result.

A hurried writer asks the failure as a question ("X down?", "Scanner broken?", "If the
API's dead?", "No answer from the lab?") and answers it in the next sentence. Split at the
question mark, the answer lost its condition: "Do that step with `x`." alone is no fallback
(nor is it read as one), and `x` was refused as a skill no step runs. `join_questions` keeps
such a question joined to the ONE sentence after it, so the grammar reads the pair as the
recovery for that failure. A question joins only when it is short (at most ten words) and
says a failure (`_FAILURE`): "Ready? Run `x`." stays two sentences, and so does a question
followed by another question or by nothing.

    failure_question(sentence) -> bool
    join_questions([(text, line), ...]) -> the same, each failure question joined to the next
    join_question_texts(step texts) -> the same for a step's `SpecText` sentences
"""

from __future__ import annotations

from collections.abc import Sequence

from orchestrator.spec.model import SpecText
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_MAX_WORDS = 10
# what says a failure in a short question: a state ("down", "broken", "dead", "offline"), a
# verb ("fails", "crashed", "timing out", "hangs"), a negation ("not responding", "can't
# reach", "won't load") or a missing answer ("no answer from", "no response"); "no joy from", "no luck with" (round 45)
_FAILURE = _rx(
    r"(?i)(?<![\w-])(?:down|broken|dead|offline|unreachable|unavailable|unresponsive|stuck|jammed|flaky|"
    r"fail(?:s|ed|ing|ure)?|crash(?:es|ed|ing)?|errors?|erroring|erred|hang(?:s|ing)?|hung|"
    r"tim(?:es|ed|ing)\s++out|time\s++out|time-?outs?|misbehav(?:es|ed|ing)|"
    r"blows?\s++up|blew\s++up|falls?\s++over|fell\s++over|goes\s++wrong|went\s++wrong|"
    r"(?:not|n['’]t)\s++(?:working|responding|answering|loading|running|there|reachable|available)|"
    r"(?:can|could|won|wouldn|doesn|didn)['’]?t\s++(?:reach|connect|load|read|answer|respond|run|work|start|"
    r"finish|find|get|open|parse)|"
    r"no\s++(?:answer|response|reply|connection|result|results|data|signal)|no\s++(?:joy|luck|dice)\s++(?:from|with|on|out\s++of|"
    r"getting|reaching))(?![\w-])")


def failure_question(sentence: str) -> bool:
    """Whether `sentence` is a short question that says a failure ("Scanner broken?")."""
    s = sentence.strip()
    if not s.endswith("?") or "?" in s[:-1] or len(s.split()) > _MAX_WORDS:
        return False
    return _FAILURE.search(s) is not None


def _answers(sentence: str) -> bool:
    s = sentence.strip()
    return bool(s) and not s.endswith("?")


def join_questions(pieces: Sequence[tuple[str, int]]) -> list[tuple[str, int]]:
    """(text, line) sentences with each short failure question joined to the one sentence after
    it (module docstring); the joined sentence keeps the question's line."""
    out: list[tuple[str, int]] = []
    i = 0
    while i < len(pieces):
        text, line = pieces[i]
        if i + 1 < len(pieces) and failure_question(text) and _answers(pieces[i + 1][0]):
            out.append((f"{text.strip()} {pieces[i + 1][0].strip()}", line))
            i += 2
            continue
        out.append((text, line))
        i += 1
    return out


def join_question_texts(texts: Sequence[SpecText]) -> tuple[SpecText, ...]:
    """A step's texts with each short failure question (a `sentence` text) joined to the sentence
    text right after it, on the same line or the next."""
    out: list[SpecText] = []
    i = 0
    while i < len(texts):
        item = texts[i]
        after = texts[i + 1] if i + 1 < len(texts) else None
        if (after is not None and item.kind == "sentence" and after.kind == "sentence"
                and 0 <= after.line - item.line <= 1 and failure_question(item.text) and _answers(after.text)):
            out.append(item.model_copy(update={"text": f"{item.text.strip()} {after.text.strip()}"}))
            i += 2
            continue
        out.append(item)
        i += 1
    return tuple(out)


_rx.save()
