"""HCL files as specs (`spec.hcl30`): a Nomad-style job file, a Packer-ish build, a Terraform-like file with
`check` and `postcondition`, and HCL files that are no workflow (refused with one clear error)."""

from __future__ import annotations

import pytest

from orchestrator.errors import SpecError
from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

# a Nomad-style job file of a lab's nightly sequencing run: groups holding tasks, `config { skill = ... }`
_NOMAD = """\
job "nightly-seq" {
  datacenters = ["lab"]

  variable "run_id" {
    description = "the flow cell's run id"
  }

  group "demux" {
    task "pull" {
      config {
        skill  = "fetch-run"
        run_id = var.run_id
      }
      timeout = "15m"
    }
    task "split" {
      skill = "demux-samples"
      reads = task.pull.bcl_path   // where the raw reads landed
      # the demuxer crashes now and then: 2 more goes, 30s apart
    }
  }
}
"""

# a Packer-ish build of a kiosk image: `source` blocks describe, `build` holds the provisioner steps
_PACKER = """\
locals {
  image_tag = "kiosk-2026"
}

variable "base" {
  type    = string
  default = "debian-12"
}

source "qemu" "kiosk" {
  iso_url = "https://example.invalid/debian.iso"
}

build {
  sources = ["source.qemu.kiosk"]

  provisioner "shell" "harden" {
    uses = "harden-image"
    base = var.base
    tag  = local.image_tag
  }

  provisioner "shell" "smoke" {
    uses       = "smoke-test"
    image      = provisioner.harden.image_path
    depends_on = [provisioner.harden]
    # never retry the smoke test
  }
}
"""

# a Terraform-like file of a newsletter: a fan-out, a gather, a postcondition and a check block
_TERRAFORM = """\
# newsletter.tf -- weekly digest
variable "week" {}

resource "step" "issues" {
  skill = "list-issues"
  week  = var.week
}

resource "step" "summaries" {
  skill    = "summarise-issue"
  for_each = step.issues.items
  issue    = each.value
}

resource "step" "send" {
  skill   = "send-digest"
  parts   = step.summaries[*]
  sender  = "Desk @ Weekly"

  lifecycle {
    postcondition {
      condition = self.recipients > 0
    }
  }
}

check "delivered" {
  assert {
    condition     = step.send.sent == true && step.send.recipients == step.issues.count
    error_message = "the digest did not go out"
  }
}
"""

_SKILLS = [
    skill("fetch-run", input_schema=obj(("run_id",), run_id="string"), output_schema=obj(("bcl_path",), bcl_path="string")),
    skill("demux-samples", input_schema=obj(("reads",), reads="string"), output_schema=obj(("samples",), samples="array")),
    skill("harden-image", input_schema=obj(("base", "tag"), base="string", tag="string"),
          output_schema=obj(("image_path",), image_path="string")),
    skill("smoke-test", input_schema=obj(("image",), image="string"), output_schema=obj(("ok",), ok="boolean")),
    skill("list-issues", input_schema=obj(("week",), week="string"),
          output_schema=obj(("items", "count"), items="array", count="integer")),
    skill("summarise-issue", input_schema=obj(("issue",), issue="object"), output_schema=obj(("text",), text="string")),
    skill("send-digest", input_schema=obj(("parts", "sender"), parts="array", sender="string"),
          output_schema=obj(("sent", "recipients"), sent="boolean", recipients="integer")),
]
_NAMES = frozenset(s.name for s in _SKILLS)


def _plan(text: str, path: str):  # type: ignore[no-untyped-def]
    spec = parse_spec_text(text, path, "hcl", Vocabulary(skills=_NAMES))
    return spec, build_plan(spec, FakeCatalog(*_SKILLS), settings=SETTINGS)  # type: ignore[arg-type]


def test_a_nomad_job_s_tasks_are_steps_its_config_their_skill_and_its_comments_their_policies() -> None:
    spec, plan = _plan(_NOMAD, "nightly.nomad")
    assert [s.id for s in plan.steps] == ["pull", "split"]
    assert [i.name for i in spec.inputs or ()] == ["run_id"]
    pull, split = plan.steps
    assert pull.skill == "fetch-run" and pull.inputs["run_id"].source == "input"
    assert pull.policy.attempt_timeout_s == 900.0
    assert split.inputs["reads"].step == "pull" and split.inputs["reads"].pointer == "/bcl_path"
    assert split.policy.retry.max_retries == 2 and split.policy.retry.delays_s[:1] == (30.0,)
    assert any(w.line == 2 and "datacenters" in w.message for w in plan.warnings)  # the group's setting: said


def test_a_packer_build_s_provisioners_are_steps_locals_literals_and_source_blocks_warned() -> None:
    _spec, plan = _plan(_PACKER, "kiosk.pkr.hcl")
    assert [s.id for s in plan.steps] == ["harden", "smoke"]
    harden, smoke = plan.steps
    assert harden.inputs["base"].source == "input"
    assert harden.inputs["tag"].source == "literal" and harden.inputs["tag"].value == "kiosk-2026"
    assert smoke.depends_on == ("harden",) and smoke.inputs["image"].step == "harden"
    assert smoke.policy.retry.max_retries == 0 and smoke.provenance["policy.retry"].where.endswith(":27")
    assert any(w.line == 10 and "qemu" in w.message for w in plan.warnings)  # `source "qemu"` runs nothing


def test_a_terraform_file_s_for_each_gather_postcondition_and_check_block() -> None:
    spec, plan = _plan(_TERRAFORM, "newsletter.tf")
    assert [i.name for i in spec.inputs or ()] == ["week"]
    _issues, summaries, send = plan.steps
    assert summaries.for_each is not None and summaries.inputs["issue"].source == "item"
    assert send.inputs["parts"].step == "summaries" and send.inputs["sender"].value == "Desk @ Weekly"
    assert send.policy.approval is None  # `sender`, like `sign_off`, is the skill's data
    schema = send.output_schema or {}
    assert schema["properties"]["sent"].get("const") is None  # the check block is the run's check, not send's own
    assert [(c.step, c.schema_["properties"]["sent"]) for c in plan.run_checks] == [("send", {"const": True})]
    assert schema["properties"]["recipients"].get("exclusiveMinimum") == 0  # its postcondition: its own check
    # the part comparing two outputs cannot be a check on one: warned at its line
    assert any(w.line == 29 and "two values" in w.message for w in plan.warnings)


def test_sign_off_in_a_job_is_an_input_not_an_approval() -> None:
    text = 'job "mail" {\n  skill    = "send-digest"\n  sign_off = "Priya"\n  parts    = []\n}\n'
    _spec, plan = _plan(text, "mail.hcl")
    assert plan.steps[0].inputs["sign_off"].value == "Priya" and plan.steps[0].policy.approval is None


def test_an_hcl_file_that_runs_no_skill_is_refused_with_one_clear_error() -> None:
    text = ('terraform {\n  required_version = ">= 1.5"\n}\n\nprovider "aws" {\n  region = "eu-west-1"\n}\n\n'
            'resource "aws_s3_bucket" "logs" {\n  bucket = "team-logs"\n}\n')
    with pytest.raises(SpecError) as exc:
        parse_spec_text(text, "main.tf", "hcl", Vocabulary(skills=_NAMES))
    said = str(exc.value)
    assert "not read as a workflow" in said and "aws_s3_bucket" in said and said.count("spec.no-steps") <= 1


def test_a_syntax_error_is_an_error_at_its_line_not_half_a_reading() -> None:
    text = 'job "a" {\n  skill = "list-issues"\n  week = "unclosed\n}\n'
    with pytest.raises(SpecError) as exc:
        parse_spec_text(text, "bad.hcl", "hcl", Vocabulary(skills=_NAMES))
    (said,) = exc.value.diagnostics
    assert said.line == 3 and "HCL syntax" in said.message


def test_a_block_that_is_not_closed_is_refused() -> None:
    with pytest.raises(SpecError) as exc:
        parse_spec_text('job "a" {\n  skill = "list-issues"\n', "open.hcl", "hcl", Vocabulary(skills=_NAMES))
    assert "not closed" in str(exc.value)
