"""The skill-anchored reading (`spec.anchored`): documents whose shape the rules do not know are read
anchored on the catalog skills they name, each step a warning; what the rules read stays as it was."""

from __future__ import annotations

import pytest

from orchestrator.errors import SpecError
from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.outline import outline
from orchestrator.spec.skill_mentions import mentions, roles
from orchestrator.spec.vocabulary import Vocabulary

WORDS = Vocabulary.of([(n, None) for n in (
    "pull-overdue", "draft-reminder", "send-mail", "dump-db", "compress-file", "gzip-file", "upload-s3",
    "list-keys", "revoke-key", "report-rotation", "denoise-audio", "transcribe-audio", "transcribe-basic",
    "publish-episode", "fetch-rates", "convert-prices", "publish-prices", "tag-photos", "resize")]
    + [("lookup-fx", "get_rate")])


def _read(text: str, words: Vocabulary = WORDS) -> WorkflowSpec:
    return parse_spec_text(text, "doc.md", "markdown", words)


def _skills(spec: WorkflowSpec) -> list[str]:
    """Each step's first backticked name the catalog holds: the one the binder takes."""
    return [next(m.text for m in s.mentions if WORDS.skill_for(m.text)) for s in spec.steps]


def _anchored_lines(spec: WorkflowSpec) -> list[int]:
    return [w.line or 0 for w in spec.warnings if w.code == "spec.anchored"]


KANBAN = """Board: weekly invoice chase (export)

TODO
- [ ] Pull overdue list - run pull-overdue on the ledger export (`ledger`)
- [ ] Draft reminders - *draft-reminder* for each invoice
DOING
- [ ] Send — 'send-mail' with the drafts
DONE
- [x] set up SMTP creds (ticket OPS-12)
"""


def test_a_kanban_exports_cards_are_steps_each_warned_and_a_done_card_without_a_skill_is_none() -> None:
    spec = _read(KANBAN)
    assert [(s.name, _skills(spec)[i]) for i, s in enumerate(spec.steps)] == [
        ("Pull overdue list", "pull-overdue"), ("Draft reminders", "draft-reminder"), ("Send", "send-mail")]
    assert _anchored_lines(spec) == [4, 5, 7]
    assert all("because it names" in s.readings[0].note for s in spec.steps)


ADOC = """= Nightly backup runbook

== Procedure

. Dump the database with dump-db (input: `db_url`). Timeout 10 minutes.
. Compress the dump: compress-file on the dump.
.. if compress-file fails, use gzip-file instead
. Upload it with upload-s3 to `bucket`.

NOTE: upload-s3 retries on its own.
"""


def test_an_asciidoc_list_is_read_and_a_fallback_sub_item_and_a_note_make_no_step() -> None:
    spec = _read(ADOC)
    assert _skills(spec) == ["dump-db", "compress-file", "upload-s3"]
    assert spec.steps[0].field_where == {} and any("10 minutes" in r.text for r in spec.readings)
    fallback = [r for r in spec.readings if r.statement.on_failure is not None]
    assert [(r.steps, r.statement.on_failure.skill) for r in fallback] == [(("step-2",), "gzip-file")]  # type: ignore[union-attr]


MAN = """NAME
       rotate-keys - monthly key rotation

DESCRIPTION
       First list-keys lists the keys older than 30 days.

       Then revoke-key revokes each of them. Give each revoke 20 seconds at most.

       Finally report-rotation posts what was revoked.

SEE ALSO
       vault(1), the list-keys README
"""


def test_a_man_pages_paragraphs_are_steps_and_its_see_also_names_no_work() -> None:
    spec = _read(MAN)
    assert _skills(spec) == ["list-keys", "revoke-key", "report-rotation"]
    assert [r.statement.timeout_s for r in spec.readings if r.steps == ("step-2",)] == [20.0]


ORG = """#+TITLE: Podcast publishing
* Pipeline
** Clean audio
   Run denoise-audio on `audio`. Retry 2 times.
** Transcribe
   transcribe-audio on the cleaned audio; if it fails fall back to transcribe-basic.
** Publish
   publish-episode with the transcript and `title`.
* Notes
  - transcribe-basic is the old model, slower
"""


def test_an_org_outlines_headings_are_steps_and_a_skill_named_as_the_fallback_is_no_step_of_its_own() -> None:
    spec = _read(ORG)
    assert [s.name for s in spec.steps] == ["Clean audio", "Transcribe", "Publish"]
    assert _anchored_lines(spec) == [3, 5, 7]
    used = {r.statement.on_failure.skill for r in spec.readings if r.statement.on_failure}
    assert used == {"transcribe-basic"}


HISTORY = """# what I ran on tuesday, please automate
$ fetch-rates --day today        # sometimes times out, retry 3x
$ convert-prices --rates rates.json
$ publish-prices --env prod
"""


def test_a_shell_history_is_a_step_a_line() -> None:
    spec = _read(HISTORY)
    assert _skills(spec) == ["fetch-rates", "convert-prices", "publish-prices"]
    assert [s.where for s in spec.steps] == ["doc.md:2", "doc.md:3", "doc.md:4"]


LEAD = """Photo batch, how we do it

Both of these start together, neither waits:

- **Tags** — tag-photos on `folder`
- **Thumbs** — resize on `folder` (the resize skill)
"""


def test_a_lead_that_says_the_steps_start_together_makes_them_roots() -> None:
    spec = _read(LEAD)
    assert _skills(spec) == ["tag-photos", "resize"]
    assert spec.steps[1].depends_where == "doc.md:3" and spec.steps[1].depends_on == ()


def test_each_quoting_and_a_wrapped_tool_name_a_skill_and_a_plain_word_only_when_called_a_skill() -> None:
    said = mentions("use 'send-mail', *resize*, [x](skills/upload-s3/SKILL.md), **dump-db**, get_rate and resize",
                    WORDS)
    assert [(m.skill, m.how) for m in said] == [("send-mail", "quotes"), ("resize", "italics"), ("upload-s3", "link"),
                                               ("dump-db", "bold"), ("lookup-fx", "bare word")]
    assert [m.skill for m in mentions("the resize skill", WORDS)] == ["resize"]


def test_the_name_a_failure_is_said_of_and_the_fallback_are_no_doers() -> None:
    found = roles("If `fetch-rates` is down, use `convert-prices` instead. Run `publish-prices`.", WORDS)
    assert [(m.skill, m.role) for m in found] == [("fetch-rates", "subject"), ("convert-prices", "fallback"),
                                                 ("publish-prices", "doer")]


def test_outline_units_nest_by_marker_indentation_and_read_definition_terms() -> None:
    root = outline(["II.  PROCEDURE", "     A. Load.", "        1. Run it.", "     B. Model.", "", "Term",
                    ":   its text", "    more of it"])
    procedure, term = root.children
    assert [c.label for c in procedure.children] == ["A.", "B."]
    assert [c.label for c in procedure.children[0].children] == ["1."]
    assert (term.kind, term.name, [t for _, t in term.lines]) == ("term", "Term", ["its text", "more of it"])


RULES_READ = """# Sync

## Step 1: Pull
- Skill: `fetch-rates`

## Step 2: Push
- Skill: `publish-prices`
"""


def test_a_spec_the_rules_read_is_not_read_again() -> None:
    spec = _read(RULES_READ)
    assert [s.skill for s in spec.steps] == ["`fetch-rates`", "`publish-prices`"]
    assert _anchored_lines(spec) == [] and not any(r.note.endswith("(anchored reading)") for s in spec.steps
                                                   for r in s.readings)


def test_without_a_vocabulary_nothing_is_anchored_and_the_rules_refuse_as_before() -> None:
    with pytest.raises(SpecError) as refused:
        parse_spec_text(KANBAN.replace("pull-overdue", "pull overdue"), "doc.md", "markdown")
    assert [d.code for d in refused.value.diagnostics] == ["spec.no-steps"]


def test_the_anchored_reading_is_off_when_asked() -> None:
    with pytest.raises(SpecError):
        parse_spec_text(HISTORY, "doc.md", "markdown", WORDS, anchored=False)


def test_a_persons_yes_said_in_words_no_reader_takes_is_warned_on_an_anchored_step() -> None:
    spec = _read(HISTORY.replace("--env prod", "--env prod   # finance has to give a thumbs-up before this"))
    assert spec.steps[2].approval is None
    assert [(w.line, w.code) for w in spec.warnings if w.code == "spec.approval-not-read"] == [(4, "spec.approval-not-read")]
