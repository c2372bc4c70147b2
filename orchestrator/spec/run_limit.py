"""The whole run's limit, wherever a document puts it.

People state how long the whole run may take outside any step: a line of the
preamble ("Total time: no more than 3 hours"), a comment the markdown reader
takes for a second title (a Gherkin `# Whole run: ... within 25 minutes`), a
sentence left over in the steps section ("The whole job keeps its 15-minute hard
ceiling"), a paragraph of a section no reader knows. `read_run_limit` reads such a
text sentence by sentence with the grammar (`spec.phrase`, its `run_timeout`
rows): a sentence read as a whole-run limit becomes a reading in `src.readings`
(the plan's wall time, with its line); one that speaks of the whole run and a
duration but is not read is a warning at its line that says what to write. A
success check of the whole run ("it only counts as good when ...",
`spec.success.success_clause`) is tied to no step: a warning that says what to
write. Any other sentence is left to the caller, which reports it as it always did.
"""

from __future__ import annotations

from orchestrator.spec import prose
from orchestrator.spec.grammar import DURATION, WHOLE
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.success import read_criteria, success_clause, then_clauses
from orchestrator.spec.whole_limit import has_limit, record_limit, whole_limit

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_WHOLE_SAID = _rx(rf"(?i)\b(?:{WHOLE}|total\s+(?:time|run\s*time|duration)|end[- ]to[- ]end)\b[^.;]*?{DURATION}")
_DURATION = _rx(rf"(?i){DURATION}")
WHOLE_SAID = _WHOLE_SAID  # a sentence that speaks of the whole run and a duration (`spec.anchored_place`)


def write_as(sentence: str) -> str:
    """What to write instead, with the author's own duration when the sentence has one."""
    found = _DURATION.search(sentence)
    return f"write it as 'Whole run: {found.group(0) if found else '30 min'} max.'"


def read_run_limit(text: str, line: int, src: Source, *, who: str) -> list[tuple[str, int]]:
    """Read `text` (starting at `line`) for the whole run's limit and its success check; the
    sentences left, neither read nor reported, for the caller to report as it always did."""
    left: list[tuple[str, int]] = []
    for sentence, at in prose.sentences(text, line):
        if any(r.statement.whole_run and r.where == src.where(at) for r in src.readings):
            continue  # the same line met by two readers (a comment line is also a preamble's)
        phrase = read_phrase(sentence, src.vocabulary.skills)
        if phrase.statement.whole_run and phrase.statement.timeout_s is not None:
            prose.record(phrase, sentence, at, src, section="whole run", steps=(), who=who)
        elif (seconds := whole_limit(sentence)) is not None and has_limit(src) is None:
            record_limit(sentence, at, src, seconds)  # said in words the grammar has no row for
        elif _WHOLE_SAID.search(sentence):  # not read, or read as something else than the run's limit
            src.warn(at, f"{who}: '{sentence[:80]}' seems to limit the whole run, but the limit is not "
                         f"understood; {write_as(sentence)}", prose.UNREAD_CODE)
        elif (clause := success_clause(sentence)) is not None or then_clauses(sentence):
            for said in [clause] if clause is not None else then_clauses(sentence):
                success_not_placed(said, at, src)
        else:
            left.append((sentence, at))
    return left


# a sentence of the intent that bounds something by a duration ("MUST NOT exceed 15 minutes",
# "has to finish within an hour"): in the intent it can only be about the whole run
_BOUNDED = _rx(rf"(?i)(?<!\w)(?:exceed|not\s+(?:take|run|last)\s+(?:longer|more)|finish(?:es|ed)?\s+within|"
               rf"(?:at\s+most|no\s+more\s+than|no\s+longer\s+than|within|under)\s+(?:the\s+|a\s+|an\s+)?{DURATION})")


def intent_limit_unread(left: list[tuple[str, int]], src: Source) -> None:
    """The intent's sentences that `read_run_limit` left and that bound the run by a duration
    it did not read: warned at their line with what to write, never dropped."""
    for sentence, at in left:
        if (seconds := whole_limit(sentence, outside=True)) is not None and has_limit(src) is None:
            record_limit(sentence, at, src, seconds)
        elif _DURATION.search(sentence) and _BOUNDED.search(sentence):
            src.warn(at, f"whole run: '{sentence[:80]}' seems to limit the whole run, but the limit is not "
                         f"understood; {write_as(sentence)}", prose.UNREAD_CODE)


def success_warned(src: Source, line: int) -> bool:
    """Whether the line has its success-check warning already: one warning per line, whichever
    reader (this module's, `spec.elsewhere.run_success`) met the line first."""
    return any(w.code == "spec.success" and w.line == max(line, 1) and w.file == src.path for w in src.warnings)


def success_not_placed(clause: str, line: int, src: Source) -> None:
    """A success check of the whole run ("it only counts as good when `tag` is ..."): a check is
    on one step's output, so it is reported at its line with what to write, never dropped."""
    from orchestrator.spec.success_words import said_in_words
    from orchestrator.spec.whole_success import comparison, criteria_in_part

    if whole_limit(clause, outside=True) is not None:  # "Whole thing needs to be done within 15 min": the run's limit
        read_run_limit(clause, line, src, who="whole run")
        return
    some, left = criteria_in_part(clause)
    if comparison(clause) is not None or len(clause.split()) < 4 or len(some) >= 2 or (some and left):
        return  # comparisons: checked on a step once the steps are known (`spec.whole_net`); a sign-off is none
    checks, rest = read_criteria(clause)
    if checks and not rest:
        fields = ", ".join(f"`{f}`" for f in checks)
        how = f"write `- Success criteria: {clause}` under the step that outputs {fields}"
    else:
        how = ("it is not a comparison of an output field with a value; write one (`- Success criteria: "
               "FIELD == VALUE`) under the step that outputs the field")
    if success_warned(src, line) or said_in_words(clause, src.line_text(line)):  # outputs in words: read by `spec.whole_net`
        return
    from orchestrator.spec.success_halves import halves_said
    from orchestrator.spec.whole_success import success_cue

    if halves_said(clause) and success_cue(src.line_text(line)) is not None:  # read there too (`spec.success_halves`)
        return
    src.warn(line, f"success check '{clause[:80]}' is not tied to a step and is not checked; {how}", "spec.success")


_rx.save()
