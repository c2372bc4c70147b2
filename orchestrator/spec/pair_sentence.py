"""One sentence that starts two skills together: "Kick off `a` on X and `b` on Y at the same time".

    - Start `weigh-flour` on the sacks and `warm-ovens` on the oven list together, neither waits
      for the other. If the scale hangs, try the weighing again twice.
        -> step A (`weigh-flour` on the sacks, with the retry: "weighing" is a word of its half)
           step B (`warm-ovens` on the oven list), which starts together with A

`spec.pair_item` splits an item whose paragraphs each open with a skill; a hurried writer puts both
in one sentence joined by "and" (or a comma, "plus", "while", "as well as") and says in it, or in
the sentence right after, that they start together (`pair_item.together`: "at the same time",
"side by side", "neither needs the other"; in the sentence itself also a bare "together": "fire
`a` and `b` off together"). Before, such an item was ONE step: the second skill never ran (`spec.skill-not-run`).

`sentence_pair` reads it as two steps. The first sentence is cut at the joining word before the
second skill; the words that say they start together (and a clause they end, "both go off at
05:00") are no step's text. Each later sentence and sub-block goes with the half whose skill it
names, else the half that shares one of its words (a word of four letters or more, plural or not:
"the tally" with `tally-donations`, "the tank sensors" with "`check-glycol` on the tanks"), else
the first half; where it went by a word or by default is said in the warning at the item's line.
No split when the words between the skills say an order or a choice ("then", "or", "if",
"instead", "after", "into"): that is a step and its fallback, or a chain.
"""

from __future__ import annotations

from orchestrator.spec.blocks import Block, Para
from orchestrator.spec.model import Reading, StepForm, StepSpec
from orchestrator.spec.pair_item import Half, Pair, pair_steps, together
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

CODE = "spec.pair-sentence"

_SKILL = _rx(r"`([a-z0-9]++(?:-[a-z0-9]++)++)`|(?<![\w*])(?:\*\*|__)([a-z0-9]++(?:-[a-z0-9]++)++)(?:\*\*|__)")
# the words right before the second skill that join it to the first: "and", "&", ",", "plus", "while"
_JOIN = _rx(r"(?i)(?:,|(?<!\w)and|&|\+|(?<!\w)plus|(?<!\w)while|(?<!\w)as\s++well\s++as|(?<!\w)alongside)"
            r"(?:\s++(?:also|start|run|kick\s++off|fire\s++off|launch|the))*+\s*+$")
# words between the two skills that say an order, a choice or a feed: no pair
_NOT_PAIR = _rx(r"(?i)(?<!\w)(?:then|or|if|unless|instead|after|before|once|into|feeds?|fails?|failing|otherwise|"
                r"else|backup|fallback)(?!\w)")
# the words that say they start together (`pair_item.together`'s, found again for their span)
_TOGETHER = _rx(
    r"(?i)(?<!\w)(?:at\s++the\s++same\s++time|side\s++by\s++side|in\s++parallel|simultaneously|concurrently|"
    r"(?:both|two|them|these)\s++(?:at\s++once|together)|alongside\s++each\s++other|together|"
    r"(?:two|three|four|both)\s++(?:things|jobs|checks|tasks|lookups)\s++(?:at\s++once|at\s++the\s++same\s++time)|"
    r"neither\s++(?:one\s++)?+(?:needs|waits|depends|blocks|is\s++blocked)|"
    r"(?:don['’]?t|do\s++not|doesn['’]?t|does\s++not)\s++(?:need|wait\s++(?:on|for)|depend\s++on)\s++each\s++other|"
    r"independent(?:ly)?+\s++of\s++each\s++other|no\s++order\s++between\s++them)(?!\w)")
# a count of things said together before either skill ("does two things at once:")
_COUNTED = ("two ", "three ", "four ", "both ")
_CLAUSE_END = _rx(r"(?<!\s)\s*+(?:,|;|[—–-]{1,2}\s|\()")
_WORD = _rx(r"[A-Za-z][a-z]{3,}+")
# words too common to tie a line to one half
_COMMON = frozenset((
    "that", "this", "them", "then", "they", "their", "there", "with", "from", "have", "give", "giving", "gives",
    "more", "most", "than", "when", "what", "each", "every", "both", "other", "another", "once", "time", "times",
    "step", "steps", "list", "lists", "file", "files", "data", "value", "values", "result", "results", "output",
    "outputs", "input", "inputs", "kick", "start", "starts", "same", "needs", "need", "neither", "wait", "waits",
    "make", "makes", "take", "takes", "says", "into", "onto", "over", "under", "after", "before", "about", "just",
    "also", "only", "again", "anything", "something", "line", "lines", "work", "works", "minute", "minutes",
    "second", "seconds", "hour", "hours", "fails", "fail", "failed", "down", "retry", "tries", "goes", "half",
))


def _one(word: str) -> str:
    w = word.lower()
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    return w[:-1] if w.endswith("s") and not w.endswith("ss") else w


def _words(text: str) -> set[str]:
    return {_one(w) for w in _WORD.findall(text.replace("-", " ").replace("_", " ")) if w.lower() not in _COMMON}


def _named(text: str) -> list[str]:
    return [a or b for a, b in _SKILL.findall(text)]


def _cut(first: str) -> tuple[str, str, str] | None:
    """The first sentence cut into its two halves and the words said about starting together; None
    when it names other than two skills joined by "and" (or the like) and said to start together."""
    marks = list(_SKILL.finditer(first))
    if len(marks) != 2 or _named(first)[0] == _named(first)[1]:
        return None
    one, two = marks
    mid = first[one.end():two.start()]
    join = _JOIN.search(mid)
    if join is None:
        return None
    lead = _TOGETHER.search(first, 0, one.start())
    # "it does two things at once: `a` checks the TPO or conservation area, and `b` ...": said together before
    # either, the first half's own words ("or") say no order between them; only the joining words are asked
    if _NOT_PAIR.search(mid[join.start():] if lead is not None and lead.group(0).lower().startswith(_COUNTED)
                        else mid[:join.start()] + " " + mid[join.start():]) is not None:
        return None
    cue = _TOGETHER.search(first, two.end()) or lead
    if cue is None:
        return None
    if cue.start() >= two.end():
        stop = _CLAUSE_END.search(first, two.end(), cue.start())
        end = stop.start() if stop is not None else cue.start()
        second, said = first[two.start():end], first[end:]
        head = first[:one.start()]
    else:  # "At the same time, run `a` and `b`": the cue leads the sentence
        second, said = first[two.start():], first[cue.start():cue.end()]
        head = first[:cue.start()] + first[cue.end():one.start()]
    head = head.strip(" ,;:-—–")
    half = (head[:1].upper() + head[1:] + " " if head else "") + first[one.start():one.end() + join.start()]
    return half.strip(" ,;.") + ".", second.strip(" ,;.") + ".", said.strip(" ,;.")


def halves(sentence: str, bare: list[str] | tuple[str, ...] = ()) -> tuple[str, str, str] | None:
    """The two halves of a sentence that starts two skills together and the words saying so (module
    docstring), or None. `bare`: skill names the sentence writes unquoted (the anchored reader's:
    quoted here to find them, left as written in the halves)."""
    quoted = sentence
    for name in bare:
        quoted = _quote(quoted, name)
    cut = _cut(quoted)
    if cut is None:
        return None
    return tuple(_unquote(part, bare) for part in cut)  # type: ignore[return-value]


def _quote(text: str, name: str) -> str:
    """`text` with each bare `name` (not inside a longer word or name, not quoted) in backticks."""
    out: list[str] = []
    at = 0
    while (found := text.find(name, at)) >= 0:
        end = found + len(name)
        before = text[found - 1] if found else " "
        after = text[end] if end < len(text) else " "
        out.append(text[at:found])
        edge = (before.isalnum() or before in "_-`") or (after.isalnum() or after in "_-`")
        out.append(name if edge else f"`{name}`")
        at = end
    return "".join(out) + text[at:]


def _unquote(text: str, bare: list[str] | tuple[str, ...]) -> str:
    for name in bare:
        text = text.replace(f"`{name}`", name)
    return text


def sentence_pair(text: str, line: int, children: list[Block] | tuple[Block, ...] = ()) -> tuple[Pair, str] | None:
    """The two steps an item's `text` (at `line`, with its sub-blocks `children`) starts together in
    its first sentence (module docstring), and a note on where its other lines went; None else."""
    from orchestrator.spec.step_prose import (  # step_prose imports the step readers
        name_of_sentence,
        sentences,
    )

    parts = sentences(text)
    if not parts:
        return None
    cut = _cut(parts[0][1])
    rest = parts[1:]
    if cut is None and rest and len(_named(parts[0][1])) == 2 and not _named(rest[0][1]) \
            and together(rest[0][1]):  # "Run `a` on X and `b` on Y. Both together."
        cut = _cut(f"{parts[0][1].rstrip(' .')}, {rest[0][1]}")
        rest = rest[1:]
    if cut is None:
        return None
    first, second, said = cut
    skills = _named(first) + _named(second)
    halves: list[list[Block]] = [[Para(line=line, text=first)], [Para(line=line, text=second)]]
    words = [_words(first), _words(second)]
    how: list[str] = []
    later: list[Block] = [Para(line=line + offset, text=sentence) for offset, sentence in rest]
    for block in [*later, *children]:
        said_text = str(getattr(block, "text", ""))
        named = [skills.index(n) for n in _named(said_text) if n in skills]
        if named:
            halves[named[0]].append(block)
            continue
        shared = [bool(words[0] & _words(said_text)), bool(words[1] & _words(said_text))]
        side = 1 if shared == [False, True] else 0
        if shared == [True, True] or shared == [False, False]:
            how.append(f"line {block.line} with `{skills[0]}` (it names neither: check it)")
        else:
            common = sorted(words[side] & _words(said_text))[0]
            how.append(f"line {block.line} with `{skills[side]}` (it says '{common}')")
        halves[side].append(block)
    names = [name_of_sentence(first.replace("`", "")), name_of_sentence(second.replace("`", ""))]
    pair = Pair(first=Half(name=names[0], line=line, blocks=tuple(halves[0]), skill=skills[0]),
                second=Half(name=names[1], line=line, blocks=tuple(halves[1]), skill=skills[1]), together=True)
    note = f"'{said}' read as saying they start together" + (f"; {', '.join(how)}" if how else "")
    return pair, note


def sentence_pair_steps(number: int, found: tuple[Pair, str], line: int, kind: str, src: Source,
                        sink: list, form: StepForm = "list",  # type: ignore[type-arg]
                        second: int | None = None) -> list[StepSpec]:
    """The two steps of `sentence_pair`'s pair, numbered `number` and `second` (else the next), the
    split warned at `line`."""
    pair, note = found
    steps = pair_steps(number, pair, line, kind, src, sink, form=form, second=second, warn=False)
    src.warn(line, f"this {kind} starts two skills in one sentence, `{pair.first.skill}` and `{pair.second.skill}`: "
                   f"read as two steps, {steps[0].id} ({pair.first.name}) and {steps[1].id} ({pair.second.name}), "
                   f"which start together (the second waits for what the first waits for); {note}. To say so "
                   "plainly give each step its own item (or heading) and write `at the same time as step N` on the second", CODE)
    return steps


def started_with(step: StepSpec, before: StepSpec, said: str, line: int, src: Source,
                 skills: tuple[str, str]) -> StepSpec:
    """`step`, read from the second half of a sentence (at `line`) whose first half is `before`
    (their `skills`): it starts together with it (unless its text says what it waits for), the
    reading warned at the line."""
    where = src.where(line)
    src.warn(line, f"{before.id} and {step.id} are started in one sentence (`{skills[0]}` and `{skills[1]}`): "
                   f"'{said}' read as saying they start together, so {step.id} does not wait for {before.id}. To "
                   f"say so plainly write each step on its own line and `at the same time as "
                   f"{before.id.replace('-', ' ')}` on the second", CODE)
    if step.depends_where is not None or step.starts_with is not None:
        return step
    return step.model_copy(update={
        "starts_with": before.id, "unordered_where": where,
        "readings": (*step.readings, Reading(what="depends_on", where=where, text=said[:160], note=(
            f"starts together with {before.id}: waits for what {before.id} waits for (and the steps whose outputs "
            "it reads), not for it"))),
    })


_rx.save()


def nearer_half(sentence: str, first: str, second: str) -> int | None:
    """0 when a sentence after a pair shares a word (four letters or more, plural or not) with the first half's
    text and none with the second's ("The council map site falls over a lot" after "`a` checks the council map,
    and `b` ..."), 1 the other way round, None when it shares with both or neither."""
    said = _words(sentence)
    one, two = bool(said & _words(first)), bool(said & _words(second))
    return None if one == two else (0 if one else 1)
