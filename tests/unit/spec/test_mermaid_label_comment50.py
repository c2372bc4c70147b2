"""A flowchart comment that names its step by a word of the step's label (`spec.mermaid_label_comment50`): read
as that step's text and warned; a word two labels share, or none does, leaves it unread (warned as before).
Tested in a print shop's chart and a bakery's."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.mermaid_label_comment50 import node_by_label

_PRINT = """\
# Poster run

```mermaid
flowchart TD
    rip["rip-artwork<br/>Onyx RIP queue"]
    cut["cut-sheets<br/>Zund table"]
    rip --> cut
    %% Onyx freezes sometimes: 3 retries, 20s apart
    %% the guillotine is picky on Mondays
```
"""


def test_a_print_shop_comment_names_its_step_by_a_word_of_its_label() -> None:
    spec = parse_spec_text(_PRINT, "print.md", "markdown")
    by = {s.name: s for s in spec.steps}
    assert any(t.line == 8 and "3 retries" in t.text for t in by["rip"].texts)
    assert any(w.line == 8 and "read for 'rip', whose label has 'Onyx'" in w.message for w in spec.warnings)
    assert not any(t.line == 9 for s in spec.steps for t in s.texts)  # "guillotine" is a word of no label
    assert any(w.line == 9 and "names no node" in w.message for w in spec.warnings)


def test_a_bakery_comment_takes_the_step_whose_label_says_its_subject() -> None:
    labels = {"mix": "mix-dough<br/>spiral mixer", "bake": "bake-loaves<br/>deck oven"}
    assert node_by_label("deck oven runs hot: cap it at 40 min", labels) == ("bake", "deck")
    assert node_by_label("the mixer stalls", labels) == ("mix", "mixer")


def test_a_word_two_labels_share_or_only_a_skill_s_name_names_no_step() -> None:
    labels = {"mix": "mix-dough<br/>main oven hall", "bake": "bake-loaves<br/>deck oven"}
    assert node_by_label("oven is slow: 2 retries", labels) is None  # both labels say "oven"
    assert node_by_label("dough is slow: 2 retries", labels) is None  # only the skill's name says "dough"
    assert node_by_label("2 retries, 30s gap", labels) is None
