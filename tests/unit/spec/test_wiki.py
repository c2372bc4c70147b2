"""A page in MediaWiki markup (a lab protocol, a ship's log, an HR onboarding page, a recipe card)
reads as its markdown would: `== h ==` headings, `'''bold'''`, `*` and `#` lists, `{{template|...}}`
fields and `[[links]]`, every finding at the author's line (`spec.wiki`)."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary
from orchestrator.spec.wiki import is_wiki, wiki_markdown

_VOCAB = Vocabulary.of([(n, None) for n in (
    "thaw-samples", "spin-down", "read-plate", "log-position", "send-noon-report",
    "create-accounts", "book-induction", "weigh-flour", "proof-dough", "bake-loaf")])


def _spec(text: str) -> object:
    return parse_spec_text(text, "page.wiki", "markdown", _VOCAB)


_LAB = """{{Protocol|lab=Bay 3}}
__TOC__
== Plate assay ==
Run nightly by whoever is on late shift.

== Steps ==
=== Step 1: Thaw ===
{{Step|skill=thaw-samples|after=none}}
* If the freezer door sticks, try again 2 times, 30 s apart.

=== Step 2: Spin ===
{{Step|skill=spin-down|after=1}}

=== Step 3: Read ===
{{Step|skill=read-plate|after=2}}
[[Category:Protocols]]
"""


def test_a_lab_protocol_page_reads_its_headings_and_step_templates_at_the_author_s_lines() -> None:
    spec = _spec(_LAB)
    steps = spec.steps  # type: ignore[attr-defined]
    assert [(s.name, s.skill) for s in steps] == [("Thaw", "thaw-samples"), ("Spin", "spin-down"), ("Read", "read-plate")]
    assert [s.where.rsplit(":", 1)[1] for s in steps] == ["7", "11", "14"]
    assert steps[2].depends_on == ("step-2",)
    assert steps[0].retries == 2 or any(r.where == "page.wiki:9" for r in spec.readings)  # type: ignore[attr-defined]
    assert not any("===" in w.message or "looks like a condition" in w.message
                   for w in spec.warnings)  # type: ignore[attr-defined]


def test_a_ship_s_log_page_numbers_its_hash_list_in_order() -> None:
    text = ("== Noon routine ==\n"
            "Every day at noon the officer of the watch does this.\n"
            "# Fix the position with '''log-position'''.\n"
            "# Then '''send-noon-report''' to the office.\n")
    steps = _spec(text).steps  # type: ignore[attr-defined]
    assert [s.number for s in steps] == [1, 2]
    assert [sorted({m.text for m in s.mentions}) for s in steps] == [["log-position"], ["send-noon-report"]]
    assert [s.where.rsplit(":", 1)[1] for s in steps] == ["3", "4"]


def test_an_onboarding_page_shows_link_words_and_template_text_and_reads_its_bullets() -> None:
    text = ("== New starter ==\n"
            "{{Note|Ask [[HR:Team|the people team]] first}}\n"
            "== Steps ==\n"
            "=== 1. Accounts ===\n"
            "* Run `create-accounts` for the [[Starter form|new starter]].\n"
            "=== 2. Induction ===\n"
            "* Run `book-induction`; it depends on step 1.\n")
    converted = wiki_markdown(text)
    assert converted is not None
    lines = converted[0].split("\n")
    assert lines[1] == "Ask the people team first"
    assert lines[4] == "- Run `create-accounts` for the new starter."
    spec = _spec(text)
    assert [[m.text for m in s.mentions] for s in spec.steps] == [  # type: ignore[attr-defined]
        ["create-accounts"], ["book-induction"]]


def test_a_recipe_card_template_s_uses_and_needs_are_what_the_step_takes_and_waits_for() -> None:
    text = ("== Steps ==\n"
            "=== Weigh ===\n"
            "{{Step|skill=weigh-flour|uses=flour_kg}}\n"
            "=== Proof ===\n"
            "{{Step|skill=proof-dough|needs=1}}\n"
            "=== Bake ===\n"
            "{{Step|skill=bake-loaf|needs=2|oven=hot}}\n")
    converted = wiki_markdown(text)
    assert converted is not None
    md, origin = converted
    assert md.split("\n")[2:4] == ["- Skill: weigh-flour", "- Input: flour_kg"]
    assert "- Depends on: step 1" in md and "- oven: hot" in md
    assert origin[:5] == [0, 1, 2, 2, 3]
    steps = _spec(text).steps  # type: ignore[attr-defined]
    assert [s.depends_on for s in steps][1:] == [("step-1",), ("step-2",)]


@pytest.mark.parametrize("text", [
    "# Title\n\nSome text\n=====\n\n## Steps\n1. Run `x`.\n",  # a setext underline
    "== only one heading ==\nand plain text after it\n",
    "Totals == 4 == expected\n",
])
def test_markdown_and_plain_text_are_no_wiki_page(text: str) -> None:
    assert not is_wiki(text)
