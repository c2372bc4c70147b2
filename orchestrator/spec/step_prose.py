"""Structure written as sentences: step lists, dependencies, joins, roots and routes.

    Steps 2, 4, 6 and 8 · after 2–4 · Stage 3, 4 or 5 · steps one and two     step lists
    Depends on: none · Independent of step 1 · can start straight away         a root
    Runs after Step 2 · once Steps 1 and 2 have finished                       dependencies
    Step 2 or Step 3 (whichever ran) · whichever resolver ran (Step 2, 3 or 4) a join over branches
    `billing` goes to Step 2, `technical` to Step 3, anything else to Step 4   routes with a default

Numbers stand for steps only next to a step word ("Step", "Stage", "Phase",
"Task") or, for digits, right after "after" or in a `Depends on:` value; a number
word ("one") counts only after a step word, so "the one that ran" names no step.
The readers here return what they found and leave reporting to the caller,
which records each reading (`Reading`) with its line.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

from orchestrator.spec.fields import NUMBER, NUMBER_WORDS, STEP_WORD, STEP_WORDS, number_of
from orchestrator.spec.markup_words import unmarked
from orchestrator.spec.policy_carry24 import label_line_end
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.steps34a import plural_of

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_TOKEN = _rx(r"`[^`]*`|\d+(?:\.\d+)?[A-Za-z]*|[A-Za-z][\w'’]*|\.\.|[–—-]|[,;&/()]")
_UNIT = _rx(r"(?i)(?:(?<!\s)\s+)?(?:s|secs?|seconds?|ms|m|mins?|minutes?|h|hrs?|hours?|days?|x|times|tries|"
            r"attempts?|retries|goes|shots|bashes|cracks|stabs|%|percent)\b")
# numbers before a unit: "20 and 40", "3 failed", "2 more" (the unit follows: no steps)
# "after 2 and a half hours", "after 1 and three-quarter hours": a count with its fraction said in words is a time too
_COUNTED = _rx(r"(?<!\s)\s*+\d{1,9}+(?:\s*+(?:,|and|or|-|to)\s*+\d{1,9}+){0,8}+(?:\s++and\s++(?:an?|one|three)[\s-]++(?:half|quarters?|"
               r"third))?+(?:\s++(?:failed|more|further|unsuccessful|extra))?+")
_STEP_WORDS = {*STEP_WORDS, *(f"{w}s" for w in STEP_WORDS), "activities"}
_RANGE = {"-", "–", "—", "to", "through", "thru", "..", "till", "until"}
_LIST_SEP = {",", "&", "/", "and", "or", "plus", ";"}
JOIN_ANY = _rx(
    r"(?i)\bwhichever\b|\bthe one that (?:ran|runs|finished|was taken)\b|\beither\b|\bany (?:one )?of\b"
    r"|\bone of\b|\bfirst (?:one )?to finish\b|\bwhatever ran\b"
)
_ROOT_VALUE = _rx(
    r"(?i)^\s*+[`*_(]*\s*+(?:none|nothing|no ?one|-|—|–|n/?a|no dependenc(?:y|ies)|no deps|root|"
    r"independent|\(none\)|nil|null|(?:straight|right)\s++away|immediately|at\s++once|asap|first\s++thing|"
    r"(?:at|from)\s++the\s++(?:start|beginning|off)|(?:at|on)\s++start)\s*+[`*_)]*\s*+(?:[.;,(].*)?$"
)
# a root said beside the step it starts with: "straight away, alongside #1", "at once, with step 2"
_BESIDE = _rx(r"(?i)[,;(]\s*+(?:alongside|beside|with|together\s++with|at\s++the\s++same\s++time\s++as|in\s++parallel"
              r"\s++(?:with|to)|same\s++time\s++as|next\s++to)\s")
_ROOT_PHRASE = _rx(
    r"(?i)\bindependent (?:of|from)\b|\b(?:can|may|should|will) (?:start|run|begin|go) (?:straight|right) away\b"
    r"|\bstarts? (?:straight|right) away\b|\bside by side\b|\bin parallel with\b|\bno dependencies\b"
    r"|\bdoes(?:n['’]t| not) (?:depend|wait) on\b|\bdepends on nothing\b|\bdepends on: ?none\b"
    r"|\bneeds nothing\b|\bis a root\b"
    r"|\b(?:start|run|kick|fire|launch)\w*\s+(?:it\s+|this\s+|them\s+)?(?:off\s+)?(?:alongside|at the same time as|"
    r"concurrently with|together with)\b|\balongside\b[^.;]{0,40}\b(?:not|no need|without waiting)\b"
    r"|\bdoes(?:n['’]t| not) need\b[^.;]{0,60}\bat all\b"
    # "same time as the invoices one, they don't touch each other"
    r"|\b(?:at )?the same time as\b|\b(?:do|does)(?:n['’]t| not) (?:touch|need|affect|wait for) each other\b"
    # "you don't have to wait for the cleaning", "no need to wait on the export", "independently of the build"
    r"|\b(?:do(?:n['’]t| not)|does(?:n['’]t| not)|need(?:n['’]t| not)|no need to|without)\s(?:(?:have|has|need)\sto\s)?"
    r"(?:wait|waiting)\s(?:for|on)\b|\bindependently (?:of|from)\b"
)
_DEPEND_TRIGGER = _rx(
    r"(?i)\b(?:depends? on|depending on|runs? after|run only after|only after|after|once|"
    r"waits? for|wait until|needs|requires|following|when)\b"
)
_SENTENCE_END = _rx(r"[\"')\]]?(?<!\s)\s++(?=[A-Z`\"'(*_#\[]|\d+[.)]?\s|[▲△■□●○◆◇►▶⚠✓✔✗✘☐☑★☆→⇒]\s*[A-Z?!]"
                    # a note in lower case that opens with a limit: "... isn't empty. max 1hr for the lot" (round 46)
                    r"|(?:max|at\s+most|no\s+more\s+than|cap(?:ped)?|limit)\s+(?:of\s+|at\s+)?\d)")
# a time with its unit cut short ends the sentence when a capital opens the next: "Whole build has 30 mins. Sheet's ..."
_TIME_ENDS = _rx(r"(?i)\d\s{0,2}+(?:mins?|secs?|hrs)\.$")
_ABBREV = _rx(r"(?i)(?:\be\.g|\bi\.e|\betc|\bvs|\bcf|\bapprox|\bno|\bfig|\bmin|\bsec|\bmax|\bmins|\bsecs|\bhrs|\bincl|\besp|(?-i:\b(?:Mrs?|Ms|Dr|Prof|Capt)))\.$")  # "Ms. Adeyemi must approve"


class StepList(BaseModel):
    """Steps named in a text: numbers (as `step-N` ids) and other names, and how they join."""

    model_config = ConfigDict(frozen=True)

    ids: tuple[str, ...] = ()  # `step-N` for each number, in order, without repeats
    names: tuple[str, ...] = ()  # other names (an id, a step's name), to resolve later
    any: bool = False  # "whichever ran", "Step 2 or Step 3"
    root: bool = False  # "none", "-", "nothing"


def sentences(text: str) -> list[tuple[int, str]]:
    """(line offset, sentence) for each sentence of a paragraph; soft line breaks joined.
    A sentence ends at `.`, `!` or `?` outside brackets and backticks, before a capital, a
    backtick, a quote or a number (not after "e.g." or inside "1.5")."""
    pieces: list[tuple[int, int]] = []
    start = 0
    last = len(text.rstrip())  # past the last character that is not a space
    depth = 0
    tick = False
    for i, ch in enumerate(text):
        if ch == "`":
            tick = not tick
        elif not tick and ch in "([{":
            depth += 1
        elif not tick and ch in ")]}":
            depth = max(depth - 1, 0)
        elif not tick and depth == 0 and ch in ".!?":
            end = _SENTENCE_END.match(text, i + 1) or label_line_end(text, i + 1)  # "\n 1b. ..." (`spec.policy_carry24`)
            at_end = i + 1 >= last
            if (end or at_end) and (not _ABBREV.search(text[max(0, i - 8): i + 1])
                                    or (end is not None and _TIME_ENDS.search(text[max(0, i - 12): i + 1]) is not None
                                        and text[end.end():end.end() + 1].isupper())):  # "has 30 mins. Sheet's good"
                pieces.append((start, i + 1))
                start = end.end() if end else len(text)
    if text[start:].strip():
        pieces.append((start, len(text)))
    out: list[tuple[int, str]] = []
    for a, b in pieces:
        raw = text[a:b]
        lead = len(raw) - len(raw.lstrip())
        sentence = unmarked(" ".join(raw.split()))  # "For **each** accession": For each (`spec.markup_words`)
        if sentence:
            out.append((text[: a + lead].count("\n"), sentence))
    return out




def _words(token: str) -> str:
    return token.lower().strip("'’")


def read_step_list(text: str, *, bare_digits: bool) -> StepList:
    """The steps a text names. `bare_digits`: digits without a step word are steps too
    (a `Depends on:` value, or right after "after"). Names are kept only when no number is."""
    root = bool(_ROOT_VALUE.match(text))
    if root and _BESIDE.search(text):  # "straight away, alongside #1": started with step 1, after nothing
        return StepList(ids=(), names=(), any=False, root=True)
    numbers: list[int] = []
    names: list[str] = []
    current: list[str] = []
    step_ctx = False
    pending_range = False
    any_join = bool(JOIN_ANY.search(text))
    for raw in _TOKEN.findall(text):
        word = _words(raw)
        if raw.startswith("`"):
            inner = raw.strip("`").strip()
            n = _step_number(inner)
            if n is not None:
                _add(numbers, n, pending_range)
                pending_range = False
            elif inner:
                names.append(inner)
            continue
        if word in _STEP_WORDS:
            step_ctx = True
            _flush(current, names)
            continue
        n = int(raw) if raw.isdigit() else (NUMBER_WORDS.get(word) if step_ctx else None)
        if n is not None and (step_ctx or bare_digits):
            _flush(current, names)
            _add(numbers, n, pending_range)
            pending_range = False
            continue
        if word in _RANGE and numbers:
            pending_range = True
            continue
        if word in _LIST_SEP or raw in "()":
            if word == "or":
                any_join = True
            _flush(current, names)
            continue
        pending_range = False
        step_ctx = step_ctx and word in {"the", "s"}
        current.append(raw)
    _flush(current, names)
    if numbers:
        names = [n for n in names if re.fullmatch(r"[A-Za-z_][\w-]*", n) and "-" in n]
    return StepList(ids=tuple(dict.fromkeys(f"step-{n}" for n in numbers)),
                    names=tuple(dict.fromkeys(names)) if not root else (),
                    any=any_join and (len(numbers) + len(names)) > 1, root=root and not numbers)


def _step_number(text: str) -> int | None:
    m = re.fullmatch(rf"(?i){STEP_WORD}[\s_-]*(\w+)", text.strip())
    return number_of(m.group(1)) if m else None


def _add(numbers: list[int], n: int, as_range: bool) -> None:
    if as_range and numbers and 0 < n - numbers[-1] <= 100:
        numbers.extend(range(numbers[-1] + 1, n + 1))
    else:
        numbers.append(n)


_FILLER = {
    "the", "a", "an", "step", "steps", "whichever", "ran", "run", "runs", "that", "one", "of", "is",
    "was", "has", "have", "finished", "done", "completed", "after", "before", "on", "depends",
    "both", "all", "these", "those", "them", "it", "its", "any", "either", "first", "to", "finish",
    "output", "outputs", "results", "result", "from", "with", "only", "once", "which", "ever",
}


def _flush(current: list[str], names: list[str]) -> None:
    words = [w for w in current if _words(w) not in _FILLER]
    if words:
        names.append(" ".join(words))
    current.clear()


def is_root_value(text: str) -> bool:
    """`none`, `-`, `nothing`, `none (can run while building)`: the step depends on nothing."""
    return bool(_ROOT_VALUE.match(text))


def root_phrase(sentence: str) -> bool:
    """"Independent of step 1", "can start straight away", "meanwhile ...": the step depends on nothing."""
    from orchestrator.spec.branch_parallel import parallel_start

    return bool(_ROOT_PHRASE.search(sentence)) or parallel_start(sentence)


def spell_enclosed(text: str) -> str:
    """"Whichever of ② / ③ ran" -> "Whichever of step 2 / step 3 ran": a circled, parenthesised or
    full-stop digit (①, ❷, ➂, ⑷, ⒌) is the step of that number, as the slides' "② Score ..." titles are."""
    if text.isascii():
        return text
    import unicodedata

    def spelled(c: str) -> str:
        if c.isascii() or not c.isnumeric() or not any(w in unicodedata.name(c, "") for w in _ENCLOSED):
            return c
        return f"step {int(unicodedata.numeric(c))}"

    return "".join(spelled(c) for c in text)


_ENCLOSED = ("CIRCLED", "PARENTHESIZED", "FULL STOP")


def dependency_phrase(sentence: str) -> StepList | None:
    """"Runs after 1–2", "once Step 3 has finished", "whichever resolver ran (Stage 3, 4 or 5)":
    the steps this sentence makes its step wait for; None when it names none. After a
    trigger word the steps must come first ("after Step 2", not "after its retries")."""
    sentence = spell_enclosed(sentence)
    joins = JOIN_ANY.search(sentence)
    starts = [(m.end(), m.group(0).lower()) for m in _DEPEND_TRIGGER.finditer(sentence)]
    if joins and re.search(r"(?i)\b(?:ran|runs|finished|was taken|run)\b", sentence):
        starts.append((joins.start(), "whichever"))
    for start, trigger in starts:
        if _NEGATED_BEFORE.search(sentence[max(0, start - 40):start]):
            continue  # "doesn't wait for 5", "not after step 2"
        clause = _CLAUSE_END.split(sentence[start:start + _CLAUSE_MAX], maxsplit=1)[0]
        clause = _NEGATED_PART.sub(" ", clause)  # "after 4 (doesn't wait for 5)": 4 only
        if trigger != "whichever" and not _LEADS_WITH_STEP.match(clause):
            continue
        digits = _COUNTED.match(clause)  # "after 2 attempts", "after 20 and 40 seconds", "after 3 failed tries"
        if digits is not None and _UNIT.match(clause, digits.end()):
            continue  # "after 2 attempts", "once 5 seconds have passed"
        digits = re.match(r"\s*\d+", clause)
        bare = trigger.endswith("after") and digits is not None
        if bare and _RETRY_SAID.search(sentence) and _WAIT_SAID.search(sentence):
            continue  # "retry after 1 minute, then after 10, then after 60": a wait whose unit is said once
        found_list = read_step_list(clause, bare_digits=bare)
        if found_list.ids:
            any_join = found_list.any or bool(joins)
            return found_list.model_copy(update={"names": (), "any": any_join and len(found_list.ids) > 1})
    return None


# a retry and a wait said with its unit: a bare number after "after" is the next wait, not a step
_RETRY_SAID = _rx(r"(?i)\b(?:retr\w*+|re-?try|try\s+(?:it\s+)?again|re-?run|again|wait|pause)\b")
_WAIT_SAID = _rx(r"(?i)\bafter\s+\d{1,6}+(?:\.\d{1,3}+)?+\s*+(?:ms|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)\b")
_NEGATION = r"(?:does(?:n['’]t| not)|do(?:n['’]t| not)|is(?:n['’]t| not)|not|never|without|no need to)"
_NEGATED_BEFORE = _rx(rf"(?i)\b{_NEGATION}\s+(?:\w+\s+){{0,3}}\w*$")  # "doesn't have to wait for"
# a blank run is read once, from its start (`(?<!\s)|(?!\s)`: not again from each of its blanks)
_NEGATED_PART = _rx(rf"(?i)(?:(?<!\s)|(?!\s))[(,;]?\s*+(?:but\s+)?\b{_NEGATION}\s+(?:wait\w*|depend\w*|need\w*|after|on)\b[^)]*\)?")
_CLAUSE_MAX = 240  # a dependency names its steps right after its word: longer text is not looked at
_CLAUSE_END = _rx(r"[;:]|\.\s|, (?:then|and then|so|but)\b")
_LEADS_WITH_STEP = _rx(
    rf"(?i)^\s*(?:the\s+|both\s+|all\s+(?:of\s+)?|either\s+)?(?:{STEP_WORD}s?\s+{NUMBER}\b|\d+\b|`)"
)


_BARE_WORDS = {
    "runs", "run", "it", "this", "step", "steps", "stage", "stages", "once", "after", "has", "have",
    "finished", "done", "completed", "ran", "the", "only", "depends", "on", "and", "or", "whichever",
    "of", "them", "both", "all", "waits", "wait", "for", "is", "are", "needs", "need", "when",
    "starts", "start", "can", "straight", "right", "away", "independent", "from", "in", "parallel",
    "with", "side", "by", "no", "dependencies", "nothing", "none", "resolver", "one", "that", "then",
}


def is_bare_structure(sentence: str) -> bool:
    """The sentence says nothing but a dependency or a root ("Runs after Step 2.", "Independent
    of step 1"), so reading it leaves nothing unread ("only when Step 4 reported valid" does)."""
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", sentence)]
    rest = [w for w in words if w not in _BARE_WORDS and w not in NUMBER_WORDS]
    return len(rest) <= 1


# --- routes ------------------------------------------------------------------------------

_TARGET = rf"(?:{STEP_WORD}\s+(?:\d+|{'|'.join(NUMBER_WORDS)})|`[^`]+`)"
_VERB = r"(?:goes|go|is sent|are sent|gets sent|get sent|is routed|are routed|routes|route|is handled|are handled|→|->|=>)"
_CLAUSE = _rx(
    rf"(?i)^\s*(?:and\s+|or\s+|while\s+|whereas\s+)?(?P<branch>.+?)\s*(?:\((?P<aside>[^)]*)\)\s*)?"
    rf"(?:(?P<verb>{_VERB})\s*)?(?:to\s+|into\s+|→\s*|->\s*|=>\s*)?(?:the\s+)?(?P<target>{_TARGET})\s*\.?\s*$"
)
_TARGET_NEAR = _rx(rf"(?i)(?:\bto\s+(?:the\s+)?|→\s*|->\s*|=>\s*){_TARGET}")
_DEFAULT = _rx(
    r"(?i)^(?:anything|everything|any|all)\s+else\b|^(?:any|all)\s+others?\b|^otherwise\b|^else\b"
    r"|^the rest\b|^default\b|^any other\b|^everything other\b|^other\s+\w+$|^others$"
)
_BRANCH_LEAD = _rx(r"(?i)^(?:if|when|where)\s+(?:it(?:'s| is)|the\s+\w+\s+is|they(?:'re| are))\s+")
_ROUTE_ON = _rx(
    r"(?i)\b(?:depends on|depending on|based on|according to|decided by|by|on)\s+(?:the\s+|its\s+|their\s+)?"
    r"`?([A-Za-z_][\w-]*)`?"
)
_NOT_FIELDS = {"model", "branch", "result", "output", "answer", "choice", "step", "stage", "value", "which",
               "what", "whether", "this", "that", "these", "it", "one", "type", "kind"}


class RouteReading(BaseModel):
    """A routing sentence: branch name -> step id, a default, the router and the field."""

    model_config = ConfigDict(frozen=True)

    branches: dict[str, str]
    default: str | None = None
    router: str | None = None  # a step the lead-in names ("the category from Stage 1")
    on: str | None = None  # the field the choice is read from ("depends on the category")


def _target_id(text: str) -> str | None:
    t = text.strip().strip("`").strip()
    m = re.fullmatch(rf"(?i){STEP_WORD}\s+(\w+)", t)
    if m and (n := number_of(m.group(1))) is not None:
        return f"step-{n}"
    return t if re.fullmatch(r"[A-Za-z_][\w-]*", t) else None


_VERBS_NOT_BRANCHES = {"go", "continue", "run", "jump", "proceed", "move", "move on", "skip", "then go",
                       "carry on", "send it", "route it", "return", "then", "and then", "it goes", "it"}


def _branch_name(text: str) -> str | None:
    if text.strip().lower() in _VERBS_NOT_BRANCHES or re.match(r"(?i)^(?:if|when|unless)\b", text.strip()):
        return None
    t = _BRANCH_LEAD.sub("", text.strip())
    ticked = re.findall(r"`([^`]+)`|\"([^\"]+)\"|'([^']+)'|“([^”]+)”", t)
    if ticked:
        return str(next(x for x in ticked[0] if x)).strip()
    t = re.sub(r"(?i)^(?:a|an|the)\s+", "", t).strip(" ,.:")
    if not t or len(t.split()) > 4 or not re.fullmatch(r"[\w][\w .-]*", t):
        return None
    return t


def route_sentence(sentence: str) -> RouteReading | None:
    """"`billing` goes to Step 2, `technical` to Step 3, anything else to Step 4" → branches
    with a default; None unless at least two clauses name a target and one has a verb."""
    if not _TARGET_NEAR.search(sentence):
        return None
    conditional = _if_routes(sentence)
    if conditional is not None:
        return conditional
    head, sep, body = sentence.partition(":")
    if not sep or not re.search(_VERB, body, re.I):
        head, body = "", sentence
    clauses = [c for c in re.split(r"[,;]\s*|(?<!\s)\s+and\s+(?=[`\"'\w]+\s+(?:\w+\s+)?(?:to|goes|go)\b)", body) if c.strip()]
    branches: dict[str, str] = {}
    default: str | None = None
    verbs = 0
    lead: list[str] = [head] if head else []
    for clause in clauses:
        m = _CLAUSE.match(clause.rstrip(". ")) if len(clause) <= _CLAUSE_MAX else None
        if not m:
            if branches or default:
                return None  # a clause in the middle that is not a branch: not a route list
            lead.append(clause)
            continue
        target = _target_id(m.group("target"))
        if target is None:
            return None
        verbs += bool(m.group("verb")) or bool(re.search(r"→|->|=>", clause))
        raw = m.group("branch")
        if _DEFAULT.match(raw.strip().strip("`")):
            default = target
            continue
        name = _branch_name(raw)
        if name is None:
            if branches or default:
                return None
            lead.append(clause)
            continue
        branches[name] = target
    if verbs == 0 or len(branches) + (default is not None) < 2 or not branches:
        return None
    lead_text = " ".join(lead)
    router = next(iter(read_step_list(lead_text, bare_digits=False).ids), None) if lead_text else None
    on = None
    for m in _ROUTE_ON.finditer(lead_text):
        if m.group(1).lower() not in _NOT_FIELDS and not re.fullmatch(STEP_WORD, m.group(1), re.I):
            on = m.group(1)
            break
    return RouteReading(branches=branches, default=default, router=router, on=on)


_IF_BRANCH = _rx(
    rf"(?i)\b(?:if|when)\s+(?:the\s+(?P<on>\w+)\s+is\s+|it(?:'s|\s+is)\s+|its\s+(?P<on2>\w+)\s+is\s+)?"
    rf"(?P<branch>`[^`]+`|\"[^\"]+\"|'[^']+'|\w[\w-]*)\s*,?\s*(?:then\s+)?"
    rf"(?:go(?:es)?|send\s+it|route\s+it|continue|jump|run|carry\s+on)\s+(?:on\s+)?(?:to|with)\s+(?:the\s+)?"
    rf"(?P<target>{_TARGET})"
)
_ELSE_BRANCH = _rx(
    rf"(?i)\b(?:otherwise|else|in\s+any\s+other\s+case|for\s+anything\s+else)\s*,?\s*(?:then\s+)?"
    rf"(?:go(?:es)?|send\s+it|route\s+it|continue|jump|run|carry\s+on)\s+(?:on\s+)?(?:to|with)\s+(?:the\s+)?"
    rf"(?P<target>{_TARGET})"
)


def _if_routes(sentence: str) -> RouteReading | None:
    """"If the category is billing, go to Step 2; if technical, go to Step 3; otherwise go to
    Step 4." → branches, a default and the field ("category"). The values must be quoted or
    the field named: "if it fails, go to Step 3" is a condition, not a route."""
    branches: dict[str, str] = {}
    on: str | None = None
    quoted = True
    for m in _IF_BRANCH.finditer(sentence[:2000]):
        target = _target_id(m.group("target"))
        name = _branch_name(m.group("branch"))
        if target is None or name is None:
            return None
        branches[name] = target
        on = on or m.group("on") or m.group("on2")
        quoted = quoted and m.group("branch")[:1] in "`\"'"
    if not (quoted or (on and on.lower() not in _NOT_FIELDS)):
        return None  # "if it fails, go to Step 3": a condition, not a named choice
    other = _ELSE_BRANCH.search(sentence[:2000])
    default = _target_id(other.group("target")) if other else None
    if not branches or len(branches) + (default is not None) < 2:
        return None
    return RouteReading(branches=branches, default=default, on=on if on and on.lower() not in _NOT_FIELDS else None)


# --- names of steps written as prose -------------------------------------------------------

_SEQUENCE = _rx(
    r"(?i)^(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|then|next|after that|afterwards|finally|lastly|"
    r"last|to start|to finish|start by|begin by|start with|begin with|now|once [^,]{1,60},|when [^,]{1,60},|"
    r"after [^,]{1,60},)\s*,?\s*"
)
SEQUENCE_START = _rx(
    r"(?i)^(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|then|next|after that|afterwards|finally|lastly|"
    r"to start|to finish|once\b|start by|begin by|start with|begin with|now|" + STEP_WORD + r" \w+)\b"
)


def name_of_sentence(sentence: str) -> str:
    """A short name for a step written as a sentence: its first clause, sequence words off.
    "First pull the tarball using `fetch-mirror`, with ..." → "Pull the tarball"."""
    text = _SEQUENCE.sub("", sentence.strip())
    text = re.split(r"(?i)(?<!\s)\s+(?:using|with|via|through|by calling|by running)\s+|[,:;(.]|(?<!\s)\s+[-–—]\s+|`",
                    text)[0].strip(" *_")
    words = text.split()
    name = " ".join(words[:8]) if words else sentence.strip()[:40]
    return name[:1].upper() + name[1:]


# --- a fan-out said in a sentence ------------------------------------------------------------

_FOR_EACH_LEAD = _rx(
    r"(?i)^\s*(?:and\s+|given\s+|with\s+)?(?:(?:for\s+(?:each|every)|once\s+(?:per|for\s+each|for\s+every)|per|on\s+each|"
    r"over\s+each)\s+(?:single\s+)?`?(?P<item>[A-Za-z_]\w*)`?"
    # "Given each <invoice> in ...", "each `row` of ...": a bare each/every only with its item set apart
    r"|(?:each|every)\s+(?:<(?P<angled>[A-Za-z_]\w*)>|[`\"“](?P<quoted>[A-Za-z_]\w*)[`\"”]))"
    r"\s+(?:in|of|from|out\s+of|among|on)\s+(?:the\s+)?(?P<source>.+)$",
    re.S)
# the list the step before gave, named by a pointing word alone: "on that list", "in those results"
_THAT_LIST = _rx(r"(?i)^(?:that|this|those|these|its|their)\s++(?:list|lot|batch|set|results?|outputs?|rows?|items?|ones)"
                 r"(?![\w-])")
_FOR_EACH_SOURCE = _rx(
    rf"(?i)^(?:(?:all\s+)?(?:the\s+)?(?:results?|outputs?|items?)\s+(?:of|from)\s+)?(?P<step>{STEP_WORD}[\s_-]*{NUMBER})"
    r"(?:['’]s)?(?:\s+(?:results?|outputs?|items?))?\b|^[`\"“]?(?P<name>[A-Za-z_][\w.-]*)[`\"”]?")
# after a list's name, the step that makes it: `from "Read the export"`, `from **Parse**`, `of `parse-csv``
_FROM_STEP = re.compile(r"(?i)^\s*(?:from|of|made\s+by|produced\s+by|returned\s+by)\s+(?:the\s+)?"
                        r"(?:[\"“](?P<q>[^\"”]{1,80})[\"”]|\*\*(?P<b>[^*]{1,80})\*\*|__(?P<u>[^_]{1,80})__)"
                        r"(?:\s+(?:step|stage|scenario))?")


_FOR_EACH_CAME = _rx(
    r"(?i)^\s*(?:and\s+)?for\s+(?:each|every)\s+(?:single\s+)?`?(?P<item>[A-Za-z_]\w*)`?\s+(?:that|which)\s+"
    r"(?:came|comes|come)\s+(?:back\s+)?(?:out\s+)?(?:from|of)\s+(?P<step>`[^`]+`|\*\*[^*]+\*\*|[\w-]+(?:\s+\d+)?)"
    r"\s*[,;:]?\s*(?P<rest>.*)$", re.S)


# "in the list produced by **Inventory**", "in the results returned by `scan-hosts`", "from the output of step 1"
_FOR_EACH_MADE = _rx(
    r"(?i)^(?:list|array|set|results?|outputs?|items?|rows?)\s+(?:(?:produced|returned|made|built|given|"
    r"generated|found|output)\s+by|from|of)\s+(?:the\s+)?(?P<step>`[^`]+`|\*\*[^*]+\*\*|__[^_]+__|"
    rf"{STEP_WORD}\s*{NUMBER})(?:\s+(?:step|skill))?\s*(?P<rest>[,;:].*|\s.*)?$", re.S)


# "For each account that comes back at risk, ...": the items the step before gave back
_FOR_EACH_BACK = re.compile(
    r"(?i)^\s*(?:and\s+)?for\s+(?:each|every)\s+(?:single\s+)?`?(?P<item>[A-Za-z_]\w*)`?\s+(?:that|which)\s+"
    r"(?:came|comes|come)\s+(?:back|out)\b(?!\s+(?:from|of)\b)[^,;:]{0,40}?\s*[,;:]\s*(?P<rest>.+)$", re.S)
# "run `classify-pr` on every PR that came out of it": the same, said after the verb
_ON_EVERY_BACK = re.compile(
    r"(?i)\b(?:on|over|for|to)\s+(?:each|every)\s+(?:single\s+)?`?(?P<item>[A-Za-z_]\w*)`?\s+(?:that|which)\s+"
    r"(?:came|comes|come)\s+(?:back\s+)?(?:out\s+)?(?:of|from)\s+(?:it|that|them|this)\b")


def for_each_phrase(sentence: str, previous: str | None = None) -> tuple[str, str, str] | None:
    """"for each doc in documents (the workflow input), run ..." → ("doc", "documents", "run ...");
    "for each translation from step 2, run ..." → ("translation", "steps.step-2.output", "run ...");
    with `previous` (the step before, by number), "for each account that comes back at risk, ..."
    and "run `x` on every PR that came out of it" loop over that step's output (the item named by
    the noun, lower case). None when the sentence says no fan-out."""
    if previous is not None:
        back = _FOR_EACH_BACK.match(sentence)
        if back is not None:
            return back.group("item").lower(), f"steps.{previous}.output", back.group("rest")
        on = _ON_EVERY_BACK.search(sentence)
        if on is not None:
            rest = f"{sentence[:on.start()].rstrip()} {sentence[on.end():].lstrip()}".strip()
            return on.group("item").lower(), f"steps.{previous}.output", rest
    came = _FOR_EACH_CAME.match(sentence)
    if came is not None:  # "For every line that came back from validate-claim, run ...": its `lines`
        said = came.group("step").strip("`*")
        numbered = re.fullmatch(rf"(?i){STEP_WORD}\s*({NUMBER})", said)
        step = f"step-{number_of(numbered.group(1))}" if numbered else said
        item = came.group("item")
        return item, f"steps.{step}.output.{plural_of(item)}", came.group("rest")  # `countries` (`spec.steps34a`)
    m = _FOR_EACH_LEAD.match(sentence)
    if m is None:
        mid = _FOR_EACH_THROUGH.search(sentence)
        if mid is not None and mid.group("source").lower() not in _NOT_LISTS:
            # "rinse every address in admin_emails through *check-address*": the list, item by item
            return mid.group("item"), mid.group("source").rstrip("."), sentence[:mid.start()] + sentence[mid.end("source"):]
        return _per_element(sentence)
    item = m.group("item") or m.group("angled") or m.group("quoted")
    tail = m.group("source")
    made = _FOR_EACH_MADE.match(tail)
    if made is not None:  # "in the list produced by **Inventory certs**": that step's whole output
        said = made.group("step").strip("`*_ ")
        numbered = re.fullmatch(rf"(?i){STEP_WORD}\s*({NUMBER})", said)
        step = f"step-{number_of(numbered.group(1))}" if numbered else re.sub(r"[^\w-]+", "-", said).strip("-")
        return item, f"steps.{step}.output", re.sub(r"^\s*[,;:]?\s*", "", made.group("rest"))
    back = _THAT_LIST.match(tail)
    if back is not None and previous is not None:  # "for each accession on that list": the step before's list
        return item, f"steps.{previous}.output", re.sub(r"^\s*[,;:]?\s*", "", tail[back.end():])
    tail = re.sub(r"(?i)^(?:that|this|those|these|the)\s+(`?[A-Za-z_]\w*`?)\s+(?:list|array|set|collection)\b",
                  r"\1", tail)  # "in that `low` list"
    src = _FOR_EACH_SOURCE.match(tail)
    if src is None:
        return None
    if src.group("step"):
        n = number_of(re.split(r"[\s_-]+", src.group("step").strip())[-1])
        if n is None:
            return None
        source = f"steps.step-{n}.output"
    else:
        source = src.group("name").rstrip(".")
        if source.lower() in _NOT_LISTS:
            return None
    rest = tail[src.end():]
    maker = _FROM_STEP.match(rest) if src.group("name") else None
    if maker is not None:  # `the "invoices" from "Read the export"`: that field of the step so named
        said = maker.group("q") or maker.group("b") or maker.group("u")
        maker_id = re.sub(r"[^\w-]+", "-", said.strip()).strip("-")
        source = f"steps.{maker_id}.output.{source}"
        rest = rest[maker.end():]
    rest = re.sub(r"^\s*\([^()]*\)", "", rest)  # "(the workflow input, not a step output)"
    rest = re.sub(r"^\s*[,;:]?\s*", "", rest)
    return item, source, rest


# a fan-out said in the middle of a sentence, the list then the skill it goes through
_FOR_EACH_THROUGH = re.compile(
    r"(?i)\b(?:every|each)\s+(?:single\s+)?`?(?P<item>[A-Za-z_]\w*)`?\s+(?:in|of|from)\s+(?:the\s+)?"
    r"`?(?P<source>[A-Za-z_]\w*(?:\.\w+)*)`?(?=\s+(?:through|with|using|via|into|against|past|to|by)\s+"
    r"(?:the\s+)?(?:\*\*|\*|`|__|_)[a-z0-9]+(?:-[a-z0-9]+)+)")
_NOT_LISTS = {"it", "them", "this", "that", "which", "turn", "case", "order", "a", "an", "one"}

# "once per element of ``rows`` from stage 1", "for every single one of the cleaned items": the list
# named after the words, its item unnamed ("(pass the row as ``row``)" names it, else the list's singular)
_PER_ELEMENT = _rx(
    r"(?i)(?<!\w)(?:once\s++(?:per|for\s++(?:each|every))\s++(?:element|item|entry|member|value|one)\s++(?:of|in)"
    r"|(?:for|on|over)\s++(?:each|every)\s++(?:single\s++)?one\s++of)\s++(?:the\s++)?(?:[a-z]++\s++(?=`{0,2}[a-z_]\w*s\b))?"
    r"`{0,2}(?P<list>[A-Za-z_]\w*+)`{0,2}(?:\s++(?:from|of|out\s++of)\s++(?P<step>(?:stage|step|phase)\s++\d++))?"
)
_PASS_AS = _rx(r"(?i)\bpass(?:ing)?\s++(?:the|each|that)\s++\w++\s++as\s++`{1,2}(?P<as>[A-Za-z_]\w*+)`{1,2}")


def _singular(word: str) -> str:
    if word.endswith("ies"):
        return word[:-3] + "y"
    return word[:-2] if word.endswith(("ches", "shes", "sses", "xes")) else word[:-1]


def _per_element(sentence: str) -> tuple[str, str, str] | None:
    m = _PER_ELEMENT.search(sentence)
    if m is None or m.group("list").lower() in _NOT_LISTS or not m.group("list").lower().endswith("s"):
        return None  # a list is named in the plural ("items", "rows"): "once per element of the way" is none
    said = m.group("list")
    source = f"steps.step-{m.group('step').split()[-1]}.output.{said}" if m.group("step") else said
    named = _PASS_AS.search(sentence)
    item = named.group("as") if named is not None else _singular(said.lower())
    return item, source, (sentence[:m.start()] + sentence[m.end():]).strip()


_rx.save()
