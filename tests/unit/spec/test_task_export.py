"""A task tracker's task exported as plain text (a Linear bug-triage issue, a ClickUp podcast
episode, a Monday HR onboarding item, a Trello bakery card): the numbered subtasks are the steps in
their order, each with its indented notes as its text, the fields and the comments are remarks,
warned (`spec.task_export`)."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.task_export import task_export_markdown
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.spec.step_probe import lines as _lines
from tests.unit.spec.step_probe import skills as _skills
from tests.unit.spec.step_probe import texts as _texts
from tests.unit.spec.step_probe import warned as _warned

_VOCAB = Vocabulary.of([(n, None) for n in (
    "repro-bug", "label-issue", "notify-owner", "fetch-raw-audio", "cut-episode", "push-feed",
    "create-accounts", "order-laptop", "book-induction", "weigh-flour", "prove-dough", "bake-loaf")])

_LINEAR = """Platform › Bugs › ENG-2211
Exported from Linear on 3 Mar

● Crash when saving a draft
Status: Triage
Priority: Urgent
Labels: bug, editor
Assignee: tomasz

Description
New reports land here; the bot works through the sub-issues below.

Sub-issues
  [ ] 1. Reproduce -> repro-bug
       Give it 2 minutes at most, the sandbox is slow.
  [ ] 2. Label it -> label-issue
       Uses the crash signature from repro-bug.
       If the labeller errors, try again twice.
  [ ] 3. Tell the owner -> notify-owner
       Don't retry, people hate double pings.

Activity
tomasz changed status to Triage
mira: can we retry notify-owner 5 times? it flakes
"""


def test_a_linear_issue_reads_its_sub_issues_as_steps_with_their_notes() -> None:
    spec = parse_spec_text(_LINEAR, "issue.txt", "markdown", _VOCAB)
    assert _lines(spec) == ["14", "16", "19"]
    assert _skills(spec) == ["repro-bug", "label-issue", "notify-owner"]
    assert "2 minutes" in _texts(spec.steps[0])  # each note is its own item's rule
    assert "try again twice" in _texts(spec.steps[1]) and "Don't retry" in _texts(spec.steps[2])
    # a note naming an earlier step's skill stays with its own item: no cycle, no step moved
    assert "crash signature" in _texts(spec.steps[1]) and "crash signature" not in _texts(spec.steps[0])


def test_a_comment_asking_for_a_rule_is_a_remark_warned_never_a_policy() -> None:
    spec = parse_spec_text(_LINEAR, "issue.txt", "markdown", _VOCAB)
    assert "flakes" not in _texts(spec.steps[2])
    assert _warned(spec, "read as remarks") == [22]
    assert _warned(spec, "numbered subtasks") == [14]


def test_the_rewritten_text_keeps_its_lines_and_blanks_the_fields() -> None:
    out = task_export_markdown(_LINEAR)
    assert out is not None
    text, warns = out
    lines = text.split("\n")
    assert len(lines) == len(_LINEAR.split("\n"))
    assert lines[3] == "# Crash when saving a draft"
    assert lines[4] == lines[5] == lines[7] == lines[0] == lines[1] == ""
    assert lines[13] == "## Step 1: Reproduce (`repro-bug`)"
    assert lines[14] == "Give it 2 minutes at most, the sandbox is slow."
    assert lines[22] == lines[23] == ""
    assert any("task fields" in m for _, m in warns)


def test_a_clickup_podcast_task_with_middle_dots_and_unicode_arrows() -> None:
    text = ("Ep 88 ▸ Production\n"
            "☐ Edit and ship episode 88\n"
            "Assignee: Jo\n"
            "Due: Friday\n"
            "Tags: podcast\n"
            "\n"
            "Checklist (3)\n"
            "◻ 1 · Grab the tape → fetch-raw-audio\n"
            "    from the shared drive, whatever Jo uploaded\n"
            "◻ 2 · Edit → cut-episode\n"
            "    tape from fetch-raw-audio. if it fails wait 30 secs and try once more\n"
            "◻ 3 · Publish → push-feed\n"
            "    give up after 45 seconds\n"
            "\n"
            "Comments\n"
            "Jo · Tue\n"
            "  the cut-episode bit takes ages lol\n")
    spec = parse_spec_text(text, "ep88.txt", "markdown", _VOCAB)
    assert _skills(spec) == ["fetch-raw-audio", "cut-episode", "push-feed"]
    assert _lines(spec) == ["8", "10", "12"]
    assert "try once more" in _texts(spec.steps[1]) and "45 seconds" in _texts(spec.steps[2])
    assert "ages" not in _texts(spec.steps[1])


def test_a_monday_onboarding_item_with_a_subtask_that_names_no_skill_is_warned() -> None:
    text = ("New starter – Priya K\n"
            "Status: Working on it\n"
            "Owner: HR\n"
            "Subitems\n"
            "☐ 1 — Accounts → create-accounts\n"
            "     do this first, nothing else works without it\n"
            "☐ 2 — Laptop\n"
            "     order-laptop with the spec from IT\n"
            "☐ 3 — Induction → book-induction\n"
            "     first Tuesday they're in\n")
    out = task_export_markdown(text)
    assert out is not None
    assert out[0].split("\n")[6] == "## Step 2: Laptop"
    assert any("names no skill" in m for _, m in out[1])
    spec = parse_spec_text(text, "starter.txt", "markdown", _VOCAB)
    assert len(spec.steps) == 3 and _skills(spec)[0] == "create-accounts"


def test_a_trello_bakery_card_with_checkbox_brackets() -> None:
    text = ("Saturday sourdough\n"
            "Labels: bakery\n"
            "Due date: Sat 05:00\n"
            "\n"
            "Checklist\n"
            "[x] 1) Weigh -> weigh-flour\n"
            "      scale is on the left\n"
            "[ ] 2) Prove -> prove-dough\n"
            "      at least the night\n"
            "[ ] 3) Bake -> bake-loaf\n"
            "      stop after 50 minutes whatever happens\n")
    spec = parse_spec_text(text, "card.txt", "markdown", _VOCAB)
    assert _skills(spec) == ["weigh-flour", "prove-dough", "bake-loaf"]
    assert "50 minutes" in _texts(spec.steps[2]) and "night" in _texts(spec.steps[1])


def test_a_plain_markdown_numbered_list_is_no_export() -> None:
    text = "# Bake\n\n1. Weigh -> `weigh-flour`\n2. Bake -> `bake-loaf`\n"
    assert task_export_markdown(text) is None
    assert task_export_markdown("☐ 1 · a → weigh-flour\n☐ 2 · b → bake-loaf\n") is None  # no task around it
