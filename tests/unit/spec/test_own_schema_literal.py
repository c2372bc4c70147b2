"""Under the form's own `input:` key a text that happens to be a declared input's name stays the literal
it is (`mode: gate` beside an input `gate`); only the author's own input key (`takes:`, `feed_in`) reads
such a bare name as the input, warned (`spec.own_schema`)."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text

_HEAD = "name: slow\ninputs:\n  gate: {type: string}\nsteps:\n  - id: s1\n    skill: qa-act\n"


def test_a_literal_under_input_that_names_an_input_stays_a_literal() -> None:
    spec = parse_spec_text(_HEAD + "    input: {mode: gate, gate: \"{{ inputs.gate }}\"}\n", "s.yaml", "yaml")
    assert spec.steps[0].input_values.get("mode") == "gate"
    assert not any(w.code == "spec.input-name" for w in spec.warnings)


def test_the_author_s_own_input_key_reads_a_bare_input_name_as_that_input_warned() -> None:
    spec = parse_spec_text(_HEAD + "    takes: {mode: gate}\n", "s.yaml", "yaml")
    assert "mode" not in spec.steps[0].input_values
    assert any(w.code == "spec.input-name" for w in spec.warnings)
