"""`pass_if:` / `green_when:` on a YAML step is its success check, as `success:` is (`spec.yaml_keys`): a
nightly cert check whose RED state nothing errors on (holdout10 65 said `succeeded` with its check broken)."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text

_SPEC = """\
name: nightly-cert-check
steps:
  - id: verify
    skill: cert-verify
    {key}: verify.min_days_left >= 30   # otherwise RED even if nothing errored
"""


def test_pass_if_and_green_when_are_the_step_s_success_check() -> None:
    for key in ("pass_if", "green_when"):
        spec = parse_spec_text(_SPEC.format(key=key), "certs.yaml", "yaml")
        assert not any(f"'{key}' not understood" in w.message for w in spec.warnings), key
        assert "min_days_left >= 30" in str(spec.steps[0].model_dump()), key


def test_an_unknown_pass_key_is_still_said() -> None:
    spec = parse_spec_text(_SPEC.format(key="passes_eventually"), "certs.yaml", "yaml")
    assert any("'passes_eventually' not understood" in w.message for w in spec.warnings)
