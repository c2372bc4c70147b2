"""The run's success check said in words the other success readers miss: a contraction of being
good, a thing that "says" its state, a wish after the check, an either/or over two branches, and a
check written in a YAML file's comment.

    Sheet's good when D comes back published = true.         -> cue: "D comes back published = true"
    We're done when the health page says ok.                 -> `ok == true` on the step outputting `ok`
    DONE = OVEN LOADS says fits (last tray out by half six)  -> `fits == true` on the oven step
    done when the letter comes out with a per-pupil figure - ideally under 25 but not a deal breaker
                                                             -> the check, then the wish warned as not checked
    done when Tag comes back pushed=true, OR (if legal blocked it) when Legal hands back a ticket number
                                                             -> each half on its own step, checked when it runs
    # pipeline counts as green only when report comes back with status: posted   (a CI file's comment)

- `cue27`: "<thing>'s good / done / ready / finished when ..." (the contraction `whole_success` has no
  form for), and "it's good to go when ...".
- `says_state`: "<thing> says / shows / reads <word>", the word the name of a yes/no output of one step
  (the step the thing names, else the one step that outputs it): that output is true.
- `wish_tail`: "- ideally ...", ", ideally ...", "(ideally ...)", ", but ... not a deal breaker": a hope beside
  the check, warned at the line as not checked (a check that fails a run the author meant as good is worse).
- `either_or`: "A, or B" / "A OR B" / "either A or B", each half read on the step it names: when the two
  steps are branches of which one runs (one is the other's Otherwise, or their conditions are a
  condition and its negation), each half is checked on its own step, so the branch that ran meets its
  half; otherwise the sentence is warned as not checked (a check on both would fail a good run).
- `comment_sentences`: the `#` comment lines of a YAML file (which the document reader takes for
  headings), joined when they follow each other, given to the success reader only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from orchestrator.spec.model import ContractSpec, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.whole_doc import Said

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

CODE = "spec.success"
# "Sheet's good when ...", "it's good to go once ...", "Order's ready when ...", "That's done if ..."
_CONTRACTED = _rx(r"(?i)^\W{0,4}+(?P<subject>[\w -]{0,60}?)['’]s\s++(?:all\s++)?(?:good(?:\s++to\s++go)?|done|ready|"
                  r"finished|complete|sorted)\s++(?:only\s++)?(?:when|once|if|as\s++soon\s++as)\s++(?P<clause>\S.*)$")
# "<thing> says / shows / reads <word>"
_SAYS = _rx(r"(?i)^(?:the\s++|a\s++|an\s++|its\s++|our\s++)?(?P<thing>[\w' -]{1,60}?)\s++(?:says|shows|reads|reports|"
            r"comes\s++back|comes\s++out)\s++(?P<word>[A-Za-z_]\w{0,40}+)\s*+(?:\([^()]{0,120}+\))?\s*+\.?$")
# a wish beside the check: "- ideally under 25", ", ideally ...", "(ideally ...)", "but ... not a deal breaker"
_WISH = _rx(r"(?i)(?<!\s)(?:\s++[-–—]++\s++|\s*+[,;(]\s*+)(?=(?:ideally|preferably|hopefully|if\s+possible|nice\s+to\s+have)(?![\w-]))")
# "A, or B", "A; or B", "A OR B" (capitals: the author's own emphasis)
_OR = _rx(r"(?<!\s)(?:(?i:\s*+[,;]\s*+or\s++)|\s++OR\s++)")
_EITHER = _rx(r"(?i)^either\s++")
# what may open the second half: "(if legal blocked it) when ...", "when ...", "if ..."
_HALF_LEAD = _rx(r"(?i)^(?:\([^()]{0,120}+\)\s*+)?(?:(?:when|if|once)\s++)?")
# outputs that hold a value, never a yes/no ("the report says status ...")
_VALUE_NAMES = frozenset({"status", "state", "result", "outcome", "verdict", "count", "total", "name", "id", "url",
                          "message", "text", "value", "code", "summary", "report", "line", "note", "level", "score"})
_NOT = _rx(r"(?i)^\W*+(?:not|!)\W*+")
_YAML_PATH = _rx(r"(?i)\.(?:ya?ml|toml|cfg|ini|conf|jcl|nml|namelist|nlist)$|(?:^|/)(?:jenkinsfile|dockerfile|makefile)$")
_COMMENT = _rx(r"^\s*+#\s*+(?P<text>\S.*)$")


def cue27(sentence: str) -> str | None:
    """The check after "<thing>'s good / done / ready when", or None."""
    m = _CONTRACTED.match(sentence)
    if m is None:  # "Whole build has 30 mins. Sheet's good when ...": one sentence the splitter left joined
        parts = re.split(r"(?<=[a-z0-9][.!])\s++(?=[A-Z])", sentence)
        m = next((found for part in parts[1:] if (found := _CONTRACTED.match(part))), None)
    if m is None:
        return None
    clause = m.group("clause").strip().rstrip(".").strip()
    from orchestrator.spec.done_when import _NOT_RUN

    if _NOT_RUN.search(clause):  # "it's done when the approver signs off": no check
        return None
    return clause or None


def wish_tail(clause: str) -> tuple[str, str]:
    """(the check, the wish beside it) of a clause; the wish is "" when there is none."""
    m = _WISH.search(clause)
    if m is None or m.start() == 0:
        return clause, ""
    return clause[: m.start()].strip(), clause[m.end():].strip(" ()")


def says_state(clause: str, steps: list[StepSpec], outputs: Callable[[StepSpec], frozenset[str]],
               named: Callable[[str], int | None]) -> tuple[int, str] | None:
    """(step index, output) of "<thing> says <word>" where <word> is an output of the step the thing
    names (`named`), else of the one step that outputs it; None otherwise."""
    m = _SAYS.match(clause.strip())
    if m is None:
        return None
    word = m.group("word").lower()
    if value_name(word):
        return None  # "the report says status": a field that holds a value, not a yes/no
    at = named(m.group("thing"))
    if at is not None:
        return (at, word) if word in outputs(steps[at]) else None
    owners = [i for i, s in enumerate(steps) if word in outputs(s)]
    return (owners[0], word) if len(owners) == 1 else None


def named_exactly(text: str, steps: list[StepSpec]) -> int | None:
    """The one step whose name (three letters or more) the text writes as it is ("when Tag comes back"), or None."""
    hits = {i for i, s in enumerate(steps) if len(s.name) > 2 and re.search(rf"(?<![\w-]){re.escape(s.name)}(?![\w-])", text)}
    return hits.pop() if len(hits) == 1 else None


def value_name(word: str) -> bool:
    """Whether an output of this name holds a value rather than a yes/no (`status`, `invoice_id`)."""
    low = word.lower()
    return low in _VALUE_NAMES or low.endswith(("_id", "_count", "_no", "_url", "_text"))


def halves(clause: str) -> tuple[str, str] | None:
    """The two halves of "A, or B" / "A OR B" / "either A or B", the second without its aside and
    lead ("(if legal blocked it) when"); None when the clause is not one either/or."""
    body = _EITHER.sub("", clause.strip())
    parts = _OR.split(body)
    if len(parts) != 2:
        if clause.strip() != body:  # "either A or B" with a lower-case "or"
            parts = re.split(r"(?i)(?<!\s)\s++or\s++", body)
        if len(parts) != 2:
            return None
    first, second = parts[0].strip(" ,;"), _HALF_LEAD.sub("", parts[1].strip()).strip(" ,;")
    second = re.split(r"(?<=\w)\.\s", second)[0].rstrip(".")
    return (first, second) if first and second else None


def _norm(condition: str | None) -> str:
    return " ".join(re.sub(r"[{}()\s]+", " ", condition or "").split()).lower()


def exclusive(a: StepSpec, b: StepSpec) -> bool:
    """True when at most one of the two steps runs: one is the other's Otherwise, or one's
    condition is the negation of the other's."""
    for one, other in ((a, b), (b, a)):
        if other.otherwise_where and one.when and other.otherwise_of in (None, one.id, one.name):
            return True
        if one.when and other.when:
            bare = _NOT.sub("", _norm(other.when).replace("expression", "")).strip()
            if bare != _norm(other.when).replace("expression", "").strip() and bare == _norm(one.when).replace(
                    "expression", "").strip():
                return True
    return False


def either_or(clause: str, said: Said, steps: list[StepSpec], src: Source,
              read: Callable[[Said, list[StepSpec]], tuple[list[StepSpec], tuple[ContractSpec, ...]] | None]
              ) -> tuple[list[StepSpec], tuple[ContractSpec, ...]] | None:
    """An either/or check (module docstring): each half on its own branch step, or warned; None when
    the clause is no either/or."""
    pair = halves(clause)
    if pair is None:
        return None
    mark = len(src.warnings)
    out: list[StepSpec] = steps
    found: list[ContractSpec] = []
    for half in pair:
        got = read(Said(f"The run is done when {half}", said.line, said.last, said.lines), out)
        if got is None or len(got[1]) != 1:
            found = []
            break
        out, contracts = got
        found.extend(contracts)
    ids = [c.producer for c in found]
    by_id = {s.id: s for s in steps}
    if len(ids) == 2 and ids[0] != ids[1] and exclusive(by_id[ids[0]], by_id[ids[1]]):
        del src.warnings[mark:]
        written = [" and ".join(c.validation) for c in found]
        src.warn(said.line, f"'{clause[:80]}' is read as the run's success check, either of two checks, each on "
                            f"the branch that runs: {ids[0]} `{written[0]}` or {ids[1]} `{written[1]}` (a guess from "
                            "words): check the plan, or write `- Success criteria:` under each of the two steps", CODE)
        return out, tuple(found)
    del src.warnings[mark:]
    src.warn(said.line, f"the run's success check '{clause[:80]}' says either of two things, and its halves are not "
                        "checks on two steps of which only one runs, so it is not checked; the run succeeds without "
                        "it: write `- Success criteria:` under each branch's step", CODE)
    return steps, ()


def comment_sentences(src: Source) -> Iterator[Said]:
    """The comments of a YAML (or other settings) file, each run of `#` lines one sentence."""
    if _YAML_PATH.search(src.path) is None:
        return
    block: list[tuple[int, str]] = []
    for number, raw in enumerate([*src.lines, ""], start=1):
        m = _COMMENT.match(raw)
        if m is not None and not raw.lstrip().startswith("#!"):
            said = m.group("text").strip()
            if block and (said[:1].isupper() or said[:1] in "(-*" or block[-1][1][-1:] in ".!?:"):
                yield from _said(block)  # a comment line that starts a thought of its own
                block = []
            block.append((number, said))
            continue
        if block:
            yield from _said(block)
            block = []


def _said(block: list[tuple[int, str]]) -> Iterator[Said]:
    text = " ".join(t for _, t in block)
    for sentence in re.split(r"(?<=[.!?])\s++(?=[A-Z(])", text):
        yield Said(sentence, block[0][0], block[-1][0], tuple(block))


def warn_wish(wish: str, line: int, src: Source) -> None:
    """Say a wish beside the check at its line, as not checked."""
    src.warn(line, f"the run's success check: '{wish[:80]}' is a wish beside the check, not a condition of it, so it "
                   "is not checked", CODE)


_rx.save()
