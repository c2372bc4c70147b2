"""A document holding a superseded draft beside the version that counts is read as that version:
the draft and the talk about it are set aside, warned with their lines, and none of their counts
or policies mix into the version (`spec.agreed_version27`). Kinds: an email thread whose last
message says "final version:", a shared doc with a struck-through list and a "Revised plan"
heading, an issue whose later comment says "updated plan", a wiki talk page; negatives: a
"Final steps" section, an input named `version`, a changelog of versions."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.agreed_version27 import superseded_aside
from orchestrator.spec.model import StepSpec
from orchestrator.spec.vocabulary import Vocabulary


def _vocab(*names: str) -> Vocabulary:
    return Vocabulary.of([(n, None) for n in names])


def _said(step: StepSpec) -> str:
    return " ".join(t.text for t in step.texts)


def _aside(text: str) -> list[int]:
    """1-based lines blanked."""
    out = superseded_aside(text)
    assert out is not None
    return [n for n, (was, now) in enumerate(zip(text.split("\n"), out.text.split("\n"), strict=True), start=1)
            if was.strip() and not now.strip()]


EMAIL = """Hi both,
Proposal for the stock run:
1. Pull the counts with `pull-counts`
2. Price them with `price-list`, retry 5 times
3. Mail it with `mail-report`

Ben: make it 2 retries, and skip the mail.

OK, final version:
1. Pull the counts with `pull-counts`
2. Reorder with `reorder-stock`, retry 3 times
Thanks
"""


def test_an_email_whose_last_message_says_final_version_is_read_as_that_list() -> None:
    assert _aside(EMAIL) == [3, 4, 5, 7]
    spec = parse_spec_text(EMAIL, "thread.txt", "markdown", _vocab("pull-counts", "price-list", "mail-report",
                                                                   "reorder-stock"))
    assert [s.where for s in spec.steps] == ["thread.txt:10", "thread.txt:11"]
    assert "retry 3 times" in _said(spec.steps[1]) and "5" not in _said(spec.steps[1])  # not the draft's 5
    said = [w for w in spec.warnings if "superseded by 'OK, final version'" in w.message]
    assert [w.line for w in said] == [3] and "lines 3-7" in said[0].message


DOC = """# Kiln firing

## Inputs
- kiln_id: which kiln

## Plan (draft)
~~1. Load with `load-kiln`~~
~~2. Fire with `fire-kiln`, timeout 2 hours~~

## Revised plan
1. Check the shelves with `check-shelves`
2. Load with `load-kiln`
3. Fire with `fire-kiln`, timeout 8 hours
"""


def test_a_shared_doc_with_a_struck_list_and_a_revised_plan_keeps_its_inputs() -> None:
    assert _aside(DOC) == [7, 8]
    spec = parse_spec_text(DOC, "kiln.md", "markdown", _vocab("check-shelves", "load-kiln", "fire-kiln"))
    assert [s.name for s in spec.steps] == ["Check the shelves", "Load", "Fire"]
    assert "8 hours" in _said(spec.steps[2]) and "2 hours" not in _said(spec.steps[2])
    assert [i.name for i in spec.inputs] == ["kiln_id"]
    struck = [w for w in spec.warnings if "struck through" in w.message]
    assert [w.line for w in struck] == [7, 8]


ISSUE = """### Nightly export is flaky

Steps right now:
- `dump-db` then `upload-dump`
- then `notify-team`

**@ana** commented: the upload needs retries, say 6.

**@ben** commented:

Updated plan:
- `dump-db`
- `compress-dump`
- `upload-dump`, retry 2 times
"""


def test_an_issue_whose_later_comment_says_updated_plan_reads_that_comment() -> None:
    assert _aside(ISSUE) == [4, 5, 7, 9]
    spec = parse_spec_text(ISSUE, "issue.md", "markdown", _vocab("dump-db", "upload-dump", "notify-team",
                                                                 "compress-dump"))
    assert [s.where for s in spec.steps] == ["issue.md:12", "issue.md:13", "issue.md:14"]
    assert "6" not in " ".join(_said(s) for s in spec.steps)  # ana's count is talk about the old list


TALK = """== Rota idea ==
Rough idea, pick holes. --[[User:Kim|Kim]] 10:01, 3 May 2026 (UTC)
# sort the volunteers with sort-rota
# text them with send-sms
: Retry the texts 5 times? --[[User:Lee|Lee]] 10:20, 3 May 2026 (UTC)

== Agreed version ==
* [[Skill:sort-rota|sort-rota]] with the week
* [[Skill:send-sms|send-sms]] with the rota
: {{done}} --[[User:Lee|Lee]] 11:00, 3 May 2026 (UTC)
"""


def test_a_wiki_talk_page_reads_only_its_agreed_version() -> None:
    assert _aside(TALK) == [3, 4, 5, 10]
    out = superseded_aside(TALK)
    assert out is not None and [line for line, _ in out.warnings] == [3, 10]
    spec = parse_spec_text(TALK, "talk.wiki", "markdown", _vocab("sort-rota", "send-sms"))
    assert [s.where for s in spec.steps] == ["talk.wiki:8", "talk.wiki:9"]
    assert "5" not in " ".join(_said(s) for s in spec.steps)


def test_a_final_steps_section_an_input_named_version_and_a_changelog_mark_nothing() -> None:
    final_steps = ("# Release\n\n## Steps\n1. Build with `build-app`\n2. Test with `run-tests`\n\n"
                   "## Final steps\n1. Tag with `tag-release`\n")
    assert superseded_aside(final_steps) is None
    version_input = ("# Publish\n\nInputs:\n- version: the release version\n- current version: what is live\n\n"
                     "1. Build with `build-app`\n2. Publish with `publish-app`\n")
    assert superseded_aside(version_input) is None
    changelog = ("# Changelog\n\n## Version 2.1.0\n- faster builds\n- new cache\n\n"
                 "## Current version: 2.0.3\n- first release\n")
    assert superseded_aside(changelog) is None
    no_rival = "# Plan\n\n## Final plan\n1. Build with `build-app`\n2. Ship with `ship-app`\n"
    assert superseded_aside(no_rival) is None  # nothing replaced: nothing set aside
