"""A Mermaid flowchart read as the steps: a node whose label names a skill is a step, an edge a
dependency, two edges from a start a parallel start, labelled edges out of a branching node a
condition and its otherwise, a node reached by both branches a join on whichever ran; each
guess is a warning at its line. Tested in a lab protocol, a recipe card, an HR onboarding
checklist and a podcast run sheet."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text

_LAB = """\
# Plate wash protocol

Run this after every ELISA. Inputs: the plate map and the reader export.

```mermaid
flowchart LR
    start((plate out of reader)) --> map & raw
    map["parse-plate-map<br/>the plate map"]
    raw["read-absorbance"]
    map --> fit
    raw -- od_values --> fit["fit-curve"]
    fit -->|curve_ok| report["write-report"]
    fit -->|no| redo["flag-rerun"]
    report --> done["notify-bench"]
    redo --> done
```

- **raw** — the reader PC is slow: 2 retries, 30s apart
"""


def test_a_lab_flowchart_gives_steps_parallel_start_branch_and_join() -> None:
    spec = parse_spec_text(_LAB, "lab.md", "markdown")
    by = {s.name: s for s in spec.steps}
    assert [s.skill for s in spec.steps] == ["parse-plate-map", "read-absorbance", "fit-curve", "write-report",
                                             "flag-rerun", "notify-bench"]
    assert by["map"].depends_on == () and by["raw"].depends_on == ()
    assert set(by["fit"].depends_on) == {by["map"].id, by["raw"].id}
    assert [(f.name, f.source) for f in by["fit"].inputs] == [("od_values", f"steps.{by['raw'].id}.output.od_values")]
    assert by["report"].when == f"steps['{by['fit'].id}'].output.curve_ok"
    assert by["redo"].otherwise_of == by["report"].id
    assert by["done"].join == "any"
    assert any(t.text.startswith("the reader PC is slow") for t in by["raw"].texts)
    lines = {w.line for w in spec.warnings if "flowchart:" in w.message}
    assert {11, 12, 13, 14} <= lines


_RECIPE = """\
# Sourdough bake day

```mermaid
graph TD
  A[feed-starter] --> B{Is the starter bubbly?}
  B -->|yes| C[mix-dough]
  B -->|no| D[wait-and-refeed]
  C --> E[bake-loaf]
```
"""


def test_a_recipe_card_s_question_node_gives_its_text_as_the_yes_condition() -> None:
    spec = parse_spec_text(_RECIPE, "bake.md", "markdown")
    by = {s.name: s for s in spec.steps}
    assert sorted(by) == ["A", "C", "D", "E"]
    assert by["C"].depends_on == (by["A"].id,) and by["C"].when == "Is the starter bubbly"
    assert by["D"].otherwise_of == by["C"].id
    assert by["E"].depends_on == (by["C"].id,) and by["E"].join == "all"
    assert any(w.line == 6 and "runs only when" in w.message for w in spec.warnings)


_HR = """\
# New hire onboarding

```mermaid
flowchart TD
    offer([offer signed]) --> acct["create-accounts"] & kit["order-laptop"]
    acct --> welcome["send-welcome-mail"]
    kit --> welcome
    %% welcome: give it 2 minutes at most
    %% remember to ping IT on slack
    lunch[team lunch]
```
"""


def test_an_onboarding_chart_s_comment_goes_to_the_node_it_names_and_the_rest_is_said() -> None:
    spec = parse_spec_text(_HR, "hr.md", "markdown")
    by = {s.name: s for s in spec.steps}
    assert by["acct"].depends_on == () and by["kit"].depends_on == ()
    assert set(by["welcome"].depends_on) == {by["acct"].id, by["kit"].id} and by["welcome"].join == "all"
    assert any(t.line == 8 for t in by["welcome"].texts)
    assert any(w.line == 9 and "names no node" in w.message for w in spec.warnings)
    assert any(w.line == 10 and "'lunch'" in w.message for w in spec.warnings)


_PODCAST = """\
# Episode run sheet

```mermaid
flowchart LR
    rec["record-episode"] == raw_audio ==> cut["edit-audio"]
    cut -- master --> pub["publish-episode"]
    cut -.->|duration > 3600| split["split-into-parts"]
```
"""


def test_a_podcast_chart_s_text_edges_and_a_written_condition() -> None:
    spec = parse_spec_text(_PODCAST, "pod.md", "markdown")
    by = {s.name: s for s in spec.steps}
    assert by["cut"].depends_on == (by["rec"].id,)
    assert [f.name for f in by["cut"].inputs] == ["raw_audio"]
    assert by["split"].when == "duration > 3600"
    assert by["pub"].when is None  # the other edge's label is no branch word: not a condition
    assert spec.steps[0].where == "pod.md:5"
