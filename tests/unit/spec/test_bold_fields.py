"""A paragraph of bold field lines is split back into its fields: each line with a bold label
starts one, a line without goes on with the one before; fewer than two labels is no such
paragraph. Kinds: a payroll runbook, a greenhouse log, a podcast run sheet, a kitchen card."""

from __future__ import annotations

from orchestrator.spec.bold_fields import bold_fields


def lines(text: str, first: int = 10) -> list[tuple[int, str]]:
    return list(enumerate(text.split("\n"), start=first))


def test_each_bold_label_starts_a_field_and_a_plain_line_goes_on_with_the_one_before() -> None:
    payroll = lines("**Bot:** build-wire-batch\n**Only when:** abroad_count is more than 0\n"
                    "**Sign-off:** over $20,000 the controller approves.\nShe gets a day.")
    assert bold_fields(payroll) == [(10, "**Bot:** build-wire-batch"), (11, "**Only when:** abroad_count is more than 0"),
                                    (12, "**Sign-off:** over $20,000 the controller approves.\nShe gets a day.")]


def test_the_label_may_close_before_or_after_its_colon_and_be_underscored() -> None:
    greenhouse = lines("__Sensor:__ read-humidity\n**Skip if**: the vents are shut\n__Alarm__: above 90 %", 3)
    assert [n for n, _ in bold_fields(greenhouse) or []] == [3, 4, 5]


def test_a_paragraph_with_one_label_or_none_is_left_as_it_is() -> None:
    podcast = lines("**Note:** the guest mic hums.\nRecord the intro twice, keep the better take.")
    kitchen = lines("Whisk the eggs with `fold-batter` until they hold a peak.\nRest the batter ten minutes.")
    assert bold_fields(podcast) is None
    assert bold_fields(kitchen) is None


def test_bold_words_inside_a_sentence_start_no_field() -> None:
    podcast = lines("**Edit:** cut-episode\nThen **really** check the levels: they clip.\n**Publish:** push-feed")
    assert bold_fields(podcast) == [(10, "**Edit:** cut-episode\nThen **really** check the levels: they clip."),
                                    (12, "**Publish:** push-feed")]
