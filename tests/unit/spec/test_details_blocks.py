"""Folded notes about a step (`spec.details_blocks`): `<details>` toggles and titled callouts whose
title names a step are that step's text, warned once; one that names no step is said not read."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.details_blocks import set_aside


def _spec(text: str, path: str = "page.md"):  # type: ignore[no-untyped-def]
    return parse_spec_text(text, path, "markdown")


def _texts(spec, n: int) -> list[str]:  # type: ignore[no-untyped-def]
    return [t.text for t in spec.steps[n].texts]


RECIPE_CARD = """# Sourdough, weekend batch

## Steps

| Step | Skill | Gives back |
| --- | --- | --- |
| Feed the starter | feed-starter | starter |
| Mix the dough | mix-dough | dough |
| Bake it | bake-loaf | loaf |

<details>
<summary>Mix the dough - notes</summary>

- The mixer trips the fuse sometimes. If it fails try twice more, 30 seconds apart.
</details>

<details><summary><b>Bake it</b></summary>
Oven takes ages. Give it at most 50 minutes.
</details>
"""


def test_a_recipe_cards_toggles_are_the_notes_of_the_steps_they_name() -> None:
    spec = _spec(RECIPE_CARD)
    assert [s.skill.strip("`*") for s in spec.steps] == ["feed-starter", "mix-dough", "bake-loaf"]
    assert _texts(spec, 0) == []
    assert any("try twice more" in t for t in _texts(spec, 1))
    assert any("at most 50 minutes" in t for t in _texts(spec, 2))
    said = [w for w in spec.warnings if w.code == "spec.toggle"]
    assert [w.line for w in said] == [11, 17]
    assert "read as step-2's notes" in said[0].message
    assert not [w for w in spec.warnings if "not read (not a step)" in w.message]
    assert spec.steps[1].outputs and spec.steps[1].outputs[0].name == "dough"  # "Gives back": the outputs


SHIPS_LOG = """# Morning watch routine

1. Take the fuel soundings with `sound-tanks`
2. Log the weather with `log-weather`
3. Send the noon report with `send-noon-report`

> [!WARNING] Send the noon report
> The sat link drops a lot. If it fails, retry 3 times, 2 minutes apart.

> [!NOTE]
> Coffee is in the galley.
"""


def test_a_ships_log_callout_titled_with_a_step_is_that_steps_text() -> None:
    spec = _spec(SHIPS_LOG, "watch.md")
    assert len(spec.steps) == 3
    assert any("retry 3 times" in t for t in _texts(spec, 2))
    said = [w for w in spec.warnings if w.code == "spec.toggle"]
    assert [w.line for w in said] == [7] and "callout" in said[0].message
    assert not any("Coffee" in t for s in spec.steps for t in [x.text for x in s.texts])


RUN_SHEET = """# Podcast episode run sheet

## Steps

1. **Record** the interview: `record-call`
2. **Edit the tape**: `edit-audio`
3. **Publish**: `publish-episode`

> ⚠️ **Edit the tape:** the editor hangs on long files; no more than 20 minutes, then give up.

> 💡 Sponsors: read out the ad at minute 10, that is all.
"""


def test_a_podcast_run_sheets_emoji_callouts_go_to_the_step_they_name_or_are_said_not_read() -> None:
    spec = _spec(RUN_SHEET, "episode.md")
    assert any("no more than 20 minutes" in t for t in _texts(spec, 1))
    assert [w.line for w in spec.warnings if w.code == "spec.toggle"] == [9]
    unread = [w for w in spec.warnings if "names no step" in w.message]
    assert [w.line for w in unread] == [11]
    assert "Sponsors" in unread[0].message


LAB_PROTOCOL = """# Western blot, day 2

## Step 1: Block the membrane
Run `block-membrane`.

<details>
<summary>Why we block</summary>
Milk protein. If the shaker errors, do not retry; page the lab manager.
</details>

## Step 2: Primary antibody
Run `add-primary`.

## Bench notes

<details>
<summary>
Step 2
</summary>

Overnight at 4C. Give it at most 16 hours.
</details>

```html
<details><summary>Step 1</summary>not a toggle, a code sample</details>
```
"""


def test_a_lab_protocols_toggle_under_its_step_is_read_there_and_one_named_by_number_goes_to_it() -> None:
    spec = _spec(LAB_PROTOCOL, "blot.md")
    assert any("do not retry" in t for t in _texts(spec, 0))  # one html block under step 1: its notes
    assert any("at most 16 hours" in t for t in _texts(spec, 1))
    assert not any("code sample" in t for t in _texts(spec, 0))
    assert [w.line for w in spec.warnings if w.code == "spec.toggle"] == [6, 16]


def test_set_aside_leaves_the_text_fences_and_untitled_callouts() -> None:
    text = "a\n<details><summary>X</summary>\nbody\n</details>\n> [!TIP]\n> keep me\n```\n<details>\n```\n"
    out, found = set_aside(text)
    assert out == text
    assert [(t.title, t.line, t.end, t.body) for t in found] == [("X", 2, 4, [(3, "body")])]


def test_a_toggle_never_closed_runs_to_the_end() -> None:
    _, found = set_aside("<details>\n<summary>Y</summary>\nnotes\n")
    assert found[0].end == 4 and found[0].body == [(3, "notes")]
