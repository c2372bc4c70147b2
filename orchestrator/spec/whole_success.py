"""The run's success check said in any words, anywhere in the document.

People say when a run counts as a success in their own words and in their own place: a lesson
plan's "The lesson is a success only when every pupil's `score` is at least 5", an RFC's "A
sweep is successful if and only if ...", a voice memo's "we'll call it a success if ...", a
docstring's `.. important::`, a handover table's last row. The cue is the meaning of the
sentence: something (any subject) *counts as* / *is* / *passes as* done, successful, a success,
accepted, green, or *passes*, *succeeds*, *worked*, *only when* / *if* / *once* what follows
(`success_cue`). What follows is the check:

- one comparison of an output field with a literal (`ok: true`, `verified = true`, `count >= 3`,
  "`status` is \"PASS\"") is checked on one step's output: the step the sentence names (its skill,
  its number, a word of its name only it has), else "this step" (the step whose text holds the
  line), else the one step whose output has the field, else the last step; the plan shows where
  it went (a warning at the line and a reading on the step);
- a comparison of two values (an output with another step's output or a workflow input: "the
  summary's `count` equals `row_count` from split"), or a check in words ("the digest mentions
  the team"), cannot be written as a check on one output: it is warned at its line as not checked (a
  comparison of two values is then read again as one, checked after the run: `spec.success_compare31`).

A sentence some reader already took (a success warning or check at its line) is left alone.
"""

from __future__ import annotations

import json
import re
from typing import Any

from orchestrator.spec.done_when import done_clause, script_check
from orchestrator.spec.elsewhere import keys_of, named_step
from orchestrator.spec.flag_check54 import flag_keywords, said_flag
from orchestrator.spec.model import ContractSpec, Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.salon38 import closed_cue, reported_truth
from orchestrator.spec.source import Source
from orchestrator.spec.success import check_schema, compared_names, read_comparison, read_criteria
from orchestrator.spec.success_halves import read_halves
from orchestrator.spec.vocabulary import Vocabulary
from orchestrator.spec.whole_doc import Said, line_of

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

CODE = "spec.success"
_STATE = (r"[\"“'`*_]?(?:done|finished|good|ready|successful|a\s+success|a\s+pass|passed|ok|complete|completed|accepted|green|"
          r"successfully\s+(?:performed|completed|done|run|executed|finished))[\"”'`*_]?")
# "... counts as done when", "... is only "done" when", "... is successful if and only if", "... passes only when",
# "it's a good run when ...", "that's a clean job once ..."
_CUE = _rx(r"(?i)^(?P<subject>[^.;:]{0,80}?)(?<![\w-])(?:(?:only\s+)?(?:counts?|is\s+counted|is\s+marked|is\s+considered|"
           rf"is\s+deemed|passes)\s+as\s+{_STATE}|(?:is|are|was|(?:will|shall|must|should|can)\s+(?:only\s+)?be)\s+(?:only\s+)?(?:(?:considered|deemed|judged|"
           rf"regarded|counted|marked|taken)\s+(?:as\s+)?)?{_STATE}|"
           r"(?:only\s+)?(?:passes|succeeds|succeeded|worked|is\s+a\s+success)|(?:call|consider|count|deem|mark)\s+(?:it|this|"
           rf"that|the\s+\w+)\s+(?:as\s+)?{_STATE}|(?:we|you)['’]?(?:re|\s+are)\s+{_STATE}|"
           r"(?:(?:it|that|this)['’]s|is|was)\s+a\s+(?:good|successful|clean|green|proper)\s+(?:run|job|one|day|batch|round|"
           r"night|shift))\s+(?:only\s+)?(?P<when>when|if\s+and\s+only\s+if|if|once|provided|where)(?![\w-])\s*+"
           r"(?P<clause>.+)$")
# a subject that makes the sentence about something else than the run ("the step is done when ..." is fine)
_NOT_RUN = _rx(r"(?i)(?<![\w-])(?:retry|retries|attempt|timeout|approval|request|call|it\s+times|nobody|no\s+one)(?![\w-])")
_IDENT = r"(?:``?|\*\*)?(?<![\w.])(?P<{n}>[A-Za-z_][\w]*+(?:\.[A-Za-z_]\w*+)*+)(?:``?|\*\*)?"
_LITERAL = r"(?P<value>true|false|null|yes|no|-?\d+(?:\.\d+)?|\"[^\"]{0,60}\"|'[^']{0,60}'|“[^”]{0,60}”|(?-i:[A-Z][A-Z_]{1,30}+))"
# `ok: true`, verified = true, `count` >= 3, "status is "PASS"", `all_ok == true` (in or out of backticks)
_FIELD_VALUE = _rx(rf"(?i)`?{_IDENT.format(n='field')}\s*+(?P<op>==|=|:|>=|<=|!=|>|<|≥|≤|\s(?:is|equals)\s)\s*+`?"
                   rf"{_LITERAL}`?(?![\w-])")
# two named values compared: "`count` equals `row_count`", "packages_scanned ... equals the `count`"
_TWO = _rx(r"(?i)(?P<a>``?[A-Za-z_]\w*+``?)[^`]{0,80}?(?<![\w-])(?:equals?|==|matches|is\s+the\s+same\s+as|is\s+equal\s+to)"
           r"(?![\w-])[^`]{0,40}?(?P<b>``?[A-Za-z_]\w*+``?)")
# an algorithm's postcondition is the run's success check: `\Ensure ...`, "Postcondition: ..."
_ENSURE = _rx(r"(?i)^\W*(?:\\?ensure|post-?condition\s*:)\s*+(?P<clause>.+)$")
_LATEX = _rx(r"\\[A-Za-z]+\{([^{}]{0,80}+)\}")
# "bears the status READY", "has the state DONE": a field and its value in words
_HAS = _rx(r"(?i)(?<![\w-])(?:bears|has|carries|shows|with)\s+(?:the\s+|a\s+)?(?P<field>[a-z_]\w*+)\s+(?P<value>(?-i:[A-Z][A-Z_]{1,30}+))(?![\w-])")
# "comes back starting with sch_", "starts with `INV-`": a prefix
_STARTS = _rx(r"(?i)`?(?<!\w)(?P<field>[A-Za-z_]\w*+)`?\s+(?:comes\s+back\s+|is\s+returned\s+)?(?:starting|starts|beginning|begins)\s+with\s+"
              r"[`\"'“]?(?P<prefix>[\w-]{1,40}+)")
# "Done = ...", "Finished if: ...", `finished_if:` ("Done:" alone is a report of what was done, never a check)
_DONE_LABEL = _rx(r"(?i)^\W{0,4}+(?:(?:the\s+)?(?:job|run|task|work|macro|script|sweep|workflow|batch|all|everything)\s+)?(?:done|finished|complete|completed|success|settled|sorted|closed|(?P<ok>ok|okay))(?:[\s_-]?+(?:when|if|once|means)\s*+(?:[:=]|==)|"
                  r"\s*+==?)(?!=)\s*+(?P<clause>\S.*)$")
# a card's or a form's label before the sentence ("Description: ...", "Notes: ...")
_LABEL = _rx(r"(?i)^\W{0,4}+[A-Za-z][\w ]{0,30}+:\s++(?=\S)")
_AND = _rx(r"(?i)(?<!\s)\s++and\s++|(?<!\s)\s*+[,;]\s*+")
# a field in backticks and the truth it has, no verb between: "reports `done` true", "`passed` false"
_TICKED_TRUTH = _rx(r"(?i)`([A-Za-z_]\w{0,60}+)`\s++(true|false|yes|no)(?![\w-])")
# R's `up$uploaded`: the field `uploaded` of what `up` holds, read as `up.uploaded`
_R_FIELD = _rx(r"(?<![\w$.])([A-Za-z_]\w{0,60}+)\$(?=[A-Za-z_])")
_IS_VALUE = _rx(r"(?i)`?([A-Za-z_]\w{0,60}+(?:\.[A-Za-z_]\w{0,60}+)?+)`?\s++is\s++(true|false)")
_THIS_STEP = _rx(r"(?i)(?<![\w-])this\s+(?:step|stage|task|job)(?![\w-])")
_WORDS_TO_BOOL = {"yes": True, "no": False}


# "Sheet's good when ...", "the docket's done once ...": the thing the run makes "is" in the success state
_IS_SAID = _rx(r"(?<![\w'’-])(?!(?i:it|that|what|there|here|he|she|who|everything|all)['’])(?P<w>[A-Za-z][\w-]{1,30}+)['’]s\s++"
               r"(?=(?:ready|done|good|finished|complete)\s++(?:only\s++)?(?:when|once)\b)")


def success_cue(sentence: str, *, outside: bool = True) -> str | None:
    """The check of a sentence that says when the run (or any thing) counts as a success, or None
    (`outside`: the sentence is outside every step's text)."""
    sentence = _LATEX.sub(r"\1", _R_FIELD.sub(r"\1.", sentence)).replace("$", "")  # `\mathit{digest.ok} = \textsc{true}`: what it shows
    from orchestrator.spec.success_restated43 import callout_check

    if (body := callout_check(sentence)) is not None:  # "> [!success] Done when" over its body (`success_restated43`)
        return body
    sentence = _IS_SAID.sub(r"\g<w> is ", sentence)  # "Sheet's good when ...": "Sheet is good when ..."
    ensure = _ENSURE.match(sentence)
    if ensure is not None:
        clause = re.split(r"(?i),?(?<!\s)\s++(?:else|otherwise)\b", ensure.group("clause"))[0]
        return clause.strip().rstrip(".").strip() or None
    m = _CUE.match(sentence)
    if m is None and (label := _LABEL.match(sentence)) is not None:  # "Description: Close-out is done when ..."
        m = _CUE.match(sentence[label.end():])
    if m is None:  # "Done = ...", "Finished if: ...", `finished_if:`: a label of being done, then the check
        said = _DONE_LABEL.match(sentence)
        clause = said.group("clause").strip().rstrip(".").strip().lstrip("*_ ") if said else ""
        # "Done = E hands back ...": the check, read or warned; else "and it's done when ..." (`spec.done_when`)
        if said is not None and said.group("ok") and comparison(clause) is None and not criteria_in_part(clause)[0]:
            clause = ""  # "OK = job-log says logged=true" a check; "OK = fine, carry on" none
        if not (clause and (criteria_in_part(clause)[0] or "=" in sentence[: said.start("clause")] if said else False)):
            clause = done_clause(sentence, outside=outside) or ""
        if not clause and outside:  # "CARD COMPLETE WHEN: ..." (`spec.success_checks23`)
            from orchestrator.spec.success_checks23 import titled_cue

            clause = titled_cue(sentence) or ""
        if not clause:  # "Sheet's good when ..." (`spec.success_words27`)
            from orchestrator.spec.success_words27 import cue27

            clause = cue27(sentence) or ""
        if not clause:  # "We consider the night closed when ..." (`spec.salon38`)
            clause = closed_cue(sentence) or ""
        if not clause and outside:  # "it's booked when X comes back sent == true" (`spec.success_done54`)
            from orchestrator.spec.success_done54 import done_state_cue

            clause = done_state_cue(sentence) or ""
        if clause:  # "came back emailed true": `emailed == true` (`spec.success_done54`)
            from orchestrator.spec.success_done54 import bare_compare

            clause = bare_compare(clause)
        return (script_check(clause) or clause) if clause else None
    if _NOT_RUN.search(m.group("subject")):
        return None
    clause = m.group("clause").strip().rstrip(".").strip()
    return (script_check(clause) or clause) if clause else None


def _value(raw: str) -> str:
    low = raw.lower()
    if low in ("true", "false", "null"):  # R's TRUE / FALSE
        return low
    if low in _WORDS_TO_BOOL:
        return "true" if _WORDS_TO_BOOL[low] else "false"
    if raw[:1] == "“":
        return f'"{raw[1:-1]}"'
    return raw


def comparison(clause: str) -> str | None:
    """The clause's one comparison of a field with a literal, as `spec.success` reads it
    ("`ok: true`" -> "ok == true"), or None when it has none or several."""
    found = list(_FIELD_VALUE.finditer(clause))
    if not found and (has := _HAS.search(clause)) is not None:
        return f"{has.group('field')} == \"{has.group('value')}\""
    if not found and (bare := _TICKED_TRUTH.search(clause)) is not None:  # "reports `done` true"
        return f"{bare.group(1)} == {_value(bare.group(2).lower())}"
    if not found and (told := reported_truth(clause)) is not None:  # "DUTY BOARD POST REPORTS posted TRUE"
        return told
    if not found and (flag := said_flag(clause)) is not None:  # "post-to-mes returns posted 1" (`spec.flag_check54`)
        return flag
    if not found and (whole := _IS_VALUE.fullmatch(clause.strip())) is not None:  # "up.uploaded is TRUE", the whole clause
        return f"{whole.group(1)} == {_value(whole.group(2))}"
    if len(found) != 1:
        return None
    m = found[0]
    op = m.group("op").strip().lower()
    op = {":": "==", "=": "==", "is": "==", "equals": "==", "≥": ">=", "≤": "<="}.get(op, op)
    text = f"{m.group('field')} {op} {_value(m.group('value'))}"
    checks, rest = read_criteria(text)
    return text if checks and not rest else None


def prefix(clause: str) -> tuple[str, dict[str, Any]] | None:
    """A check that a field starts with a text ("comes back starting with sch_"): (field, keywords)."""
    m = _STARTS.search(clause)
    return (m.group("field"), {"type": "string", "pattern": "^" + re.escape(m.group("prefix"))}) if m else None


def two_values(clause: str) -> tuple[str, str] | None:
    """The two named values a clause compares ("`count` equals `row_count`"), or None."""
    m = _TWO.search(clause)
    return (m.group("a").strip("`"), m.group("b").strip("`")) if m else None


def _skill(step: StepSpec, vocabulary: Vocabulary) -> str | None:
    said = (step.skill or "").strip().strip("`").strip()
    return said or next((s for m in step.mentions if (s := vocabulary.skill_for(m.text))), None)


def _line(step: StepSpec) -> int:
    return line_of(step.where) or 0


_KNOWN: dict[tuple[int, int], tuple[StepSpec, Vocabulary, frozenset[str]]] = {}
_KNOWN_MAX = 1 << 15


def outputs_of(step: StepSpec, vocabulary: Vocabulary) -> frozenset[str]:
    """The names `step` outputs: its declared outputs and its skill's. Each success sentence asks it of
    every step, so the answer is kept per (step, vocabulary) object (both held, so their ids stay theirs;
    the steps are frozen); the store is emptied when full, so it stays bounded."""
    key = (id(step), id(vocabulary))
    hit = _KNOWN.get(key)
    if hit is not None and hit[0] is step and hit[1] is vocabulary:
        return hit[2]
    skill = _skill(step, vocabulary)
    known = frozenset(f.name for f in step.outputs) | ((vocabulary.outputs_of(skill) or frozenset()) if skill else frozenset())
    if len(_KNOWN) >= _KNOWN_MAX:
        _KNOWN.clear()
    _KNOWN[key] = (step, vocabulary, known)
    return known


def _owner(field: str, steps: list[StepSpec], vocabulary: Vocabulary) -> int | None:
    owners = [i for i, s in enumerate(steps) if field in outputs_of(s, vocabulary)]
    return owners[0] if len(owners) == 1 else None


def held_by(name: str, steps: list[StepSpec]) -> int | None:
    """The one step whose output a script's variable `name` holds (`up <- run("upload-x")`: a reading
    "variable" the script reader gave it, `spec.script_runbook`), or None."""
    hits = {i for i, s in enumerate(steps) for r in s.readings if r.what == "variable" and r.text == name}
    return hits.pop() if len(hits) == 1 else None


def _by_words(thing: str, steps: list[StepSpec], src: Source) -> int | None:
    """The one step the words of a thing name ("OVEN LOADS", "the health page"), or None."""
    hits = {at for word in thing.split() if len(word) > 2 and (at := _by_word(word, steps, src)) is not None}
    return hits.pop() if len(hits) == 1 else None


def _by_word(head: str, steps: list[StepSpec], src: Source) -> int | None:
    """The one step a word names (`digest` in `digest.ok`): a word of its name or skill only it has."""
    keys = keys_of([(i + 1, s.name, _skill(s, src.vocabulary)) for i, s in enumerate(steps)])
    hits = [k.number - 1 for k in keys if head.lower() in k.words]
    return hits[0] if len(hits) == 1 else None


def place(said: Said, field: str, steps: list[StepSpec], src: Source) -> tuple[int, str]:
    """The step a one-field check goes on (module docstring), and how it was found."""
    keys = keys_of([(i + 1, s.name, _skill(s, src.vocabulary)) for i, s in enumerate(steps)])
    named = named_step(said.text, keys, src.vocabulary)
    if named is not None:
        return named[0] - 1, named[1]
    from orchestrator.spec.success_words27 import named_exactly

    exact = named_exactly(said.text, steps)
    known = outputs_of(steps[exact], src.vocabulary) if exact is not None else frozenset()
    if exact is not None and (field.partition(".")[0] in known or not known):
        # "when Tag comes back pushed=true": the step by its name as written, when it outputs the field
        return exact, f"its name '{steps[exact].name}'"
    if _THIS_STEP.search(said.text):
        before = [i for i, s in enumerate(steps) if 0 < _line(s) <= said.line]
        if before:
            return max(before, key=lambda i: _line(steps[i])), "'this step': the step whose text holds it"
    owner = _owner(field, steps, src.vocabulary)
    if owner is not None:
        return owner, f"the one step whose output has `{field}`"
    return len(steps) - 1, "the last step (the run's final output)"


def _check(clause: str, said: Said, steps: list[StepSpec], src: Source) -> tuple[int, str, str, dict[str, Any]] | None:
    """(step index, how it was found, the check as written, its keywords) of a one-field check."""
    one = comparison(clause)
    if one is not None:
        from orchestrator.spec.success37 import renamed

        one = renamed(one, clause, steps, src.vocabulary, outputs_of)  # "CV ≤ 15 %": `cv_pct`
        field, _, rest = one.partition(" ")
        checks, _ = read_criteria(one)
        keywords = checks.get(field, {})
    elif (starts := prefix(clause)) is not None:
        field, keywords = starts
        rest = f"starts with {keywords['pattern'][1:]}"
    else:
        return None
    head, dot, tail = field.partition(".")
    if dot and tail and "." not in tail and (at := _by_word(head, steps, src)) is not None:  # `digest.ok`
        return at, f"`{head}` names it", f"{tail} {rest}", {tail: keywords}
    if dot and tail and "." not in tail and (at := held_by(head, steps)) is not None:  # R's `up$uploaded`
        return at, f"`{head}` holds its output", f"{tail} {rest}", {tail: keywords}
    at, how = place(said, field, steps, src)
    return at, how, f"{field} {rest}", {field: keywords}


def read_success(said: Said, steps: list[StepSpec], src: Source, *,
                 outside: bool = True) -> tuple[list[StepSpec], tuple[ContractSpec, ...]] | None:
    """A sentence that states the run's success check (`success_cue`): checked on a step (the steps
    updated, with the check's contract) or warned at its line; None when it states none."""
    clause = success_cue(said.text, outside=outside)
    if clause is None and steps:  # its label, which the sentence reader cut off: "CARD COMPLETE WHEN: ..."
        from orchestrator.spec.success_checks23 import titled_line

        clause = titled_line(said.text, src.line_text(said.line))
    if clause is None or not steps:
        return None
    from orchestrator.spec.success_restated43 import emptied, restated_empty, restatement

    said = said.at(clause)
    from orchestrator.spec.success_cut44 import cut

    clause = cut(clause, said)  # "... not done\n# the whole run has to be over in 15 mins": the limit's own line
    given = [outputs_of(s, src.vocabulary) for s in steps]
    again = restatement(clause, frozenset().union(*given))
    clause = again[0] if again is not None else clause  # "... is written (logged comes back true)": the parenthesis
    if again is None and (inner := restated_empty(clause, given)) is not None:
        clause = inner  # "every route has a driver (nothing left in unassigned)": the parenthesis
    empty = emptied(clause, given)  # "nothing is left on the unplaced pile": `unplaced` is empty
    from orchestrator.spec import success_words27 as w27

    either = w27.either_or(clause, said, steps, src, lambda s, now: read_success(s, now, src, outside=outside))
    if either is not None:  # "done when Tag comes back pushed=true, OR ... Legal has handed back a ticket number"
        return either
    clause, wish = w27.wish_tail(clause)  # "... - ideally under 25": a wish, said as not checked
    if wish:
        w27.warn_wish(wish, said.line, src)
    two = two_values(clause)
    if two is None and (named := compared_names(clause)) is not None:  # "accuracy >= min_accuracy"
        two = named[0], named[2]
    if two is None and (several := _several(clause, said, steps, src)) is not None:
        return several[0], (several[1],)  # "x is not empty and ok == true": every part, never the one `comparison` finds
    check = _check(clause, said, steps, src) if two is None else None
    if check is None and empty is not None:
        at, how = place(said, empty, steps, src)
        check = at, how, f"{empty} is empty", read_criteria(f"{empty} is empty")[0]
    if check is None and two is None and (halved := _halves_only(clause, said, steps, src)) is not None:
        return halved  # "posted comes back true and there's at least one batch on it" (`spec.success_halves`)
    if check is None and two is None:  # "the health page says ok": a yes/no output (`spec.success_words27`)
        state = w27.says_state(clause, steps, lambda s: outputs_of(s, src.vocabulary),
                               lambda thing: _by_words(thing, steps, src))
        if state is not None:
            check = state[0], f"it outputs `{state[1]}`, which the words say", f"{state[1]} == true", {
                state[1]: read_criteria(f"{state[1]} == true")[0][state[1]]}
    if check is None and two is None:  # "the receipt has a receipt number": outputs said in words
        from orchestrator.spec.success_words import word_checks

        worded = word_checks(clause, said.line, steps, src)
        if worded is not None:
            return worded
        from orchestrator.spec.success_checks23 import read_on_outputs

        on_outputs = read_on_outputs(clause, said, steps, src)  # "④ has handed back a certificate number and ..."
        if on_outputs is not None:
            return on_outputs
    if check is None:
        if two is not None:
            why = (f"it compares two values (`{two[0]}` with `{two[1]}`), and a check compares one output field "
                   "with a value written in the spec")
        else:
            why = "it is not a comparison of an output field with a value (`ok == true`, `count >= 3`)"
        src.warn(said.line, f"the run's success check '{clause[:80]}' is not checked: {why}; the run succeeds "
                            "without it", CODE)
        return steps, ()
    at, how, written, keywords = check
    step = steps[at]
    field = next(iter(keywords))
    known = outputs_of(step, src.vocabulary)
    folded, as_written = [k for k in known if k.casefold() == field.casefold()], field.partition(".")[0]
    if field not in known and len(folded) == 1:  # `LOGGED` in a deck written in capitals: the output `logged`
        written = written.replace(field, folded[0], 1)
        keywords = {folded[0]: keywords[field]}
        field = folded[0]
    if known and field not in known:  # a check on a field the step never returns would fail every run
        src.warn(said.line, f"the run's success check '{clause[:80]}' is not checked: it names `{field}`, which "
                            f"{step.id} ({how}) does not output ({', '.join(sorted(known))}); write `- Success "
                            "criteria: FIELD == VALUE` under the step that outputs the field", CODE)
        return steps, ()
    halves, unread = read_halves(clause, known, skip=as_written) if known and empty is None else ([], [])
    for half in halves:  # "... with at least one species in it": the other parts, on the same output
        keywords = {**keywords, half.field: half.keywords}
        written = f"{written} and {half.written}"
    src.warn(said.line, f"{step.id} ({step.name}): '{clause[:60]}' is read as the run's success check ({written}), on "
                        f"this step's output ({how}): check the plan, or write `- Success criteria: {written}` "
                        "under the step", CODE)
    for part in unread:
        src.warn(said.line, f"the run's success check: '{part[:80]}' is not a comparison of an output field with a "
                            "value, so that part is not checked", CODE)
    reading = Reading(what="success", where=src.where(said.line), text=" ".join(said.text.split())[:160],
                      note=f"the run's success check `{written}`, checked on {step.id}'s output ({how})")
    out = list(steps)
    out[at] = step.model_copy(update={"readings": (*step.readings, reading)})
    keywords = flag_keywords(keywords)  # `posted == 1` accepts the truth too (`spec.flag_check54`)
    contract = ContractSpec(producer=step.id, consumer=None, where=src.where(said.line), validation=(written,),
                            constraints={"": check_schema(keywords)})
    return out, (contract,)


def _halves_only(clause: str, said: Said, steps: list[StepSpec],
                 src: Source) -> tuple[list[StepSpec], tuple[ContractSpec, ...]] | None:
    """A check said in parts of words (`spec.success_halves`), every part read against one step's outputs:
    on the one step whose outputs read them all (the last such step when several do); None when no step does."""
    fits = [(i, h) for i, s in enumerate(steps) if (known := outputs_of(s, src.vocabulary))
            for h, left in [read_halves(clause, known)] if h and not left]
    heads = {h.head.lower() for _, halves in fits for h in halves}
    if heads and heads != {""}:  # `post.posted comes back true`: only the step it is written on
        head = next(iter(heads)) if len(heads) == 1 else ""
        named = next((i for i, s in enumerate(steps) if s.id.lower() == head), None) if head else None
        named = _by_word(head, steps, src) if head and named is None else named
        fits = [(i, h) for i, h in fits if i == named]
    if not fits:
        return None
    at, halves = fits[-1]
    step = steps[at]
    checks = {h.field: h.keywords for h in halves}
    written = " and ".join(h.written for h in halves)
    how = "the one step whose outputs it names" if len(fits) == 1 else "the last of the steps whose outputs it names"
    src.warn(said.line, f"{step.id} ({step.name}): '{clause[:60]}' is read as the run's success check ({written}), on "
                        f"this step's output ({how}, read from words: a guess): check the plan, or write `- Success "
                        f"criteria: {written}` under the step", CODE)
    reading = Reading(what="success", where=src.where(said.line), text=" ".join(said.text.split())[:160],
                      note=f"the run's success check `{written}`, checked on {step.id}'s output ({how})")
    out = list(steps)
    out[at] = step.model_copy(update={"readings": (*step.readings, reading)})
    return out, (ContractSpec(producer=step.id, consumer=None, where=src.where(said.line), validation=(written,),
                              constraints={"": check_schema(checks)}),)


def _several(clause: str, said: Said, steps: list[StepSpec], src: Source) -> tuple[list[StepSpec], ContractSpec] | None:
    """A check of several fields ("gives back a lims_ref and posted is true"): checked on the one step
    whose output has them all (`place` by the first); a part that is no comparison is warned at the line.
    None when no field is compared, or the fields are not one step's outputs."""
    checks, rest = criteria_in_part(clause)
    if len(checks) < 2 and not (checks and rest):
        return None
    fields = list(checks)
    heads = {f.partition(".")[0] for f in fields if "." in f}
    named = _by_word(next(iter(heads)), steps, src) if len(heads) == 1 and all("." in f for f in fields) else None
    if named is not None:  # `post.posted is true`: the step `post` names, its field `posted`
        checks = {f.partition(".")[2]: k for f, k in checks.items()}
        fields, (at, how) = list(checks), (named, f"`{next(iter(heads))}` names it")
    else:
        at, how = place(said, fields[0], steps, src)
    known = outputs_of(steps[at], src.vocabulary)
    if known and any(f not in known for f in fields):
        return None
    worded = [(part, read_halves(part, known)[0]) for part in rest] if known else []
    for _, halves in worded:  # "... and there are at least 2 alerts": on the same output (`spec.success_halves`)
        checks.update({h.field: h.keywords for h in halves})
    rest = [part for part, halves in worded if not halves] if known else rest
    written = " and ".join(f"{f} {_shown(k)}" for f, k in checks.items())
    step = steps[at]
    src.warn(said.line, f"{step.id} ({step.name}): '{clause[:60]}' is read as the run's success check ({written}), on "
                        f"this step's output ({how}): check the plan, or write `- Success criteria: {written}` "
                        "under the step", CODE)
    for part in rest:
        src.warn(said.line, f"the run's success check: '{part[:80]}' is not a comparison of an output field with a "
                            "value, so that part is not checked", CODE)
    reading = Reading(what="success", where=src.where(said.line), text=" ".join(said.text.split())[:160],
                      note=f"the run's success check `{written}`, checked on {step.id}'s output ({how})")
    out = list(steps)
    out[at] = step.model_copy(update={"readings": (*step.readings, reading)})
    return out, ContractSpec(producer=step.id, consumer=None, where=src.where(said.line), validation=(written,),
                             constraints={"": check_schema(checks)})


def criteria_in_part(clause: str) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """The comparisons of a check ({field: keywords}) and its parts that are none, each part of an
    "a and b" read apart ("loaf_ok is true and it smells right": one check, one part not read)."""
    checks, rest = read_criteria(clause)
    if checks or len(rest) != 1:
        return checks, rest
    checks, rest = {}, []
    for piece in _AND.split(clause):
        if not piece.strip():
            continue
        found = read_comparison(piece)
        if found is None:
            rest.append(piece.strip())
        else:
            checks.setdefault(found[0], {}).update(found[1])
    return checks, rest


def _shown(keywords: dict[str, Any]) -> str:
    """One field's check as written back ("== true", "is not empty")."""
    if "const" in keywords:
        value = keywords["const"]
        return "== " + ("true" if value is True else "false" if value is False else json.dumps(value))
    for key, op in (("minimum", ">="), ("maximum", "<="), ("exclusiveMinimum", ">"), ("exclusiveMaximum", "<")):
        if key in keywords:
            return f"{op} {keywords[key]}"
    if isinstance(keywords.get("not"), dict) and "const" in keywords["not"]:
        return "!= " + json.dumps(keywords["not"]["const"])
    if keywords.get("maxLength") == 0:
        return "is empty"
    return "is not empty" if keywords.get("minLength") or keywords.get("minItems") else "is checked"


_rx.save()
