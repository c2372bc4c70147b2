"""A run's success check said of a script's flag (`spec.flag_check54`): "returns posted 1" is `posted == 1`, a
run's check `== 1`/`== 0` accepts the truth too, and a script's comment line that states the check on its own is a
sentence of its own."""

from __future__ import annotations

from orchestrator.contracts import ContractChecker
from orchestrator.spec import parse_spec_text
from orchestrator.spec.flag_check54 import flag_keywords, own_sentence, said_flag
from orchestrator.spec.success import check_schema
from orchestrator.spec.vocabulary import Vocabulary
from orchestrator.spec.whole_success import comparison

INPUTS = {"fetch-order": {"order_id"}, "ship-order": {"order_id", "carrier"}}
OUTPUTS = {"fetch-order": {"lines", "total"}, "ship-order": {"shipped", "label"}}
VOCAB = Vocabulary.of((name, None) for name in INPUTS).with_outputs(
    lambda s: frozenset(OUTPUTS[s]), lambda s: frozenset(INPUTS[s]))


def test_a_field_and_one_or_zero_after_a_verb_of_answering() -> None:
    assert said_flag("ship-order comes back with shipped 1") == "shipped == 1"
    assert said_flag("the mailer says sent 1") == "sent == 1"
    assert said_flag("archive reports `stored` 0") == "stored == 0"
    assert comparison("ship-order returns shipped 1") == "shipped == 1"
    assert said_flag("ship-order returns shipped 12 labels") is None  # near-miss: a count, not a flag
    assert said_flag("ship-order returns 1 label") is None  # near-miss: no field before the number
    assert said_flag("returns shipped 1 and says sent 1") is None  # two of them: not one check


def test_one_or_zero_accepts_the_truth_and_other_values_stay() -> None:
    assert flag_keywords({"shipped": {"const": 1}}) == {"shipped": {"enum": [1, True]}}
    assert flag_keywords({"stored": {"const": 0}}) == {"stored": {"enum": [0, False]}}
    assert flag_keywords({"count": {"const": 2}}) == {"count": {"const": 2}}  # near-miss: no flag
    assert flag_keywords({"ok": {"const": True}}) == {"ok": {"const": True}}
    schema = check_schema(flag_keywords({"shipped": {"const": 1}}))
    checker = ContractChecker()
    assert checker.is_valid(schema, {"shipped": True}) and checker.is_valid(schema, {"shipped": 1})
    assert not checker.is_valid(schema, {"shipped": False}) and not checker.is_valid(schema, {"shipped": 0})


def test_a_comment_line_stating_the_check_is_a_sentence_of_its_own() -> None:
    code = ["# usage: ship.rb <order>", "# whole job 10 min max, then kill it", "# the order is good when ship-order says shipped 1"]
    assert own_sentence(code, 3, "the order is good when ship-order says shipped 1", "whole job 10 min max, then kill it")
    # near-misses: the line above runs on into it; a line that states no check; a line of code
    assert not own_sentence(code, 3, "the order is good when ship-order says shipped 1", "whole job 10 min max, and")
    assert not own_sentence(code, 2, "whole job 10 min max, then kill it", "usage: ship.rb <order>")
    assert not own_sentence(["x = 1", "y = 2"], 2, "the order is done when ship-order says shipped 1", "")


RUBY = """\
#!/usr/bin/env ruby
# ship.rb -- send one order out
# run as: ruby ship.rb <order>
# the order is done when ship-order comes back with shipped 1
order = ARGV[0]
o = skill("fetch-order", order_id: order)
skill("ship-order", order_id: order, carrier: "DPD")
"""

SHELL = """\
#!/bin/sh
# ship one order, run as: ship.sh ORDER
# whole job 10 min max
# it's good when ship-order says shipped 1
order="$1"
sw-call fetch-order order_id "$order"
sw-call ship-order order_id "$order" carrier DPD
"""


def test_the_check_of_a_script_header_line_in_two_languages() -> None:
    for text, path in ((RUBY, "ship.rb"), (SHELL, "ship.sh")):
        spec = parse_spec_text(text, path, "markdown", VOCAB)
        checks = [c for c in spec.contracts if c.consumer is None]
        assert [c.validation for c in checks] == [("shipped == 1",)], path
        ship = next(s for s in spec.steps if s.skill == "ship-order")
        assert checks[0].producer == ship.id, path
        assert checks[0].constraints[""]["properties"]["shipped"] == {"enum": [1, True]}, path
