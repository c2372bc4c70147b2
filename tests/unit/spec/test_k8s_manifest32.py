"""Kubernetes manifests as specs (`spec.k8s_manifest32`): a Job whose annotations hold the workflow, a
ConfigMap whose data does, an Argo-like Workflow (still the dialect reader's), a Deployment that is no
workflow (refused naming the keys looked at), and units glued to digits (`k8s`) never read as times."""

from __future__ import annotations

import pytest

from orchestrator.errors import SpecError
from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.k8s_manifest32 import key_units, split_step
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.silence_words30 import silence_skips
from orchestrator.spec.vocabulary import Vocabulary
from orchestrator.spec.whole_limit import whole_limit
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

# a lab's nightly backup Job: the steps in the pod template's annotations, inputs as empty env vars
_JOB = """\
apiVersion: batch/v1
kind: Job
metadata:
  name: nightly-backup
spec:
  activeDeadlineSeconds: 1200   # the lot, then k8s kills the pod
  backoffLimit: 2
  template:
    metadata:
      annotations:
        backup.lab.example/about: "snapshot the volume, then copy it off-site and tell the on-call"
        backup.lab.example/step-1: "snap-volume <- VOLUME_ID"
        backup.lab.example/step-2: "copy-offsite <- snapshot = step-1 snap_id, bucket=cold-store-eu"
        backup.lab.example/step-3: "tell-oncall <- step-2 copied + bytes, VOLUME_ID"
    spec:
      restartPolicy: Never
      containers:
        - name: backup
          image: lab/backup:1.4
          env:
            - name: VOLUME_ID
              value: ""
            - name: REGION
              value: eu-west-1
"""

# a ConfigMap holding a bakery's morning run, the approval and the done-when in its data
_CONFIGMAP = """\
apiVersion: v1
kind: ConfigMap
metadata:
  name: bakery-morning
data:
  step.1: "count-stock <- SHOP"
  step.2: "order-flour <- step.1 shortfall, SHOP   (retry 2x: 5s, 20s)"
  step.2.approval: >-
    if the shortfall is over 40, the head baker has to OK it first. give him 1h.
    no answer = don't order, just carry on to the rota with ordered=false.
  step.3: "post-rota <- ordered = step.2 ordered, SHOP  -- post it ONCE"
  done-when: "the rota went up (posted: true)"
"""

# an Argo-like Workflow: its dag is the dialect reader's; its deadline the whole run's
_ARGO = """\
apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata:
  generateName: sample-sort-
spec:
  entrypoint: main
  activeDeadlineSeconds: 900
  arguments:
    parameters:
      - name: tray
  templates:
    - name: main
      dag:
        tasks:
          - name: sort
            template: sort-samples
            arguments:
              parameters: [{name: tray, value: "{{workflow.parameters.tray}}"}]
"""

# a Deployment: a web service, no workflow anywhere
_DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: storefront
  annotations:
    owner: web-team
spec:
  replicas: 3
  template:
    spec:
      containers:
        - name: web
          image: shop/web:5.2
"""

_SKILLS = [
    skill("snap-volume", input_schema=obj(("volume_id",), volume_id="string"), output_schema=obj(("snap_id",), snap_id="string")),
    skill("copy-offsite", input_schema=obj(("snapshot", "bucket"), snapshot="string", bucket="string"),
          output_schema=obj(("copied",), copied="boolean", bytes="integer")),
    skill("tell-oncall", input_schema=obj(("copied", "bytes", "volume_id"), copied="boolean", bytes="integer",
                                          volume_id="string"), output_schema=obj(("sent",), sent="boolean")),
    skill("count-stock", input_schema=obj(("shop",), shop="string"), output_schema=obj(("shortfall",), shortfall="integer")),
    skill("order-flour", input_schema=obj(("shortfall", "shop"), shortfall="integer", shop="string"),
          output_schema=obj(("ordered",), ordered="boolean")),
    skill("post-rota", input_schema=obj(("ordered", "shop"), ordered="boolean", shop="string"),
          output_schema=obj(("posted",), posted="boolean")),
    skill("sort-samples", input_schema=obj(("tray",), tray="string"), output_schema=obj(("ok",), ok="boolean")),
]
_INPUTS = {s.name: frozenset((s.input_schema or {}).get("properties", {})) for s in _SKILLS}
_OUTPUTS = {s.name: frozenset((s.output_schema or {}).get("properties", {})) for s in _SKILLS}
_VOCABULARY = Vocabulary(skills=frozenset(_INPUTS)).with_outputs(lambda n: _OUTPUTS[n], lambda n: _INPUTS[n])


def _plan(text: str, path: str = "job.yaml"):  # type: ignore[no-untyped-def]
    spec = parse_spec_text(text, path, "yaml", _VOCABULARY)
    return spec, build_plan(spec, FakeCatalog(*_SKILLS), settings=SETTINGS)  # type: ignore[arg-type]


def test_a_job_s_annotations_are_its_steps_env_vars_its_inputs_and_its_deadline_the_whole_run() -> None:
    spec, plan = _plan(_JOB)
    assert [s.id for s in plan.steps] == ["step-1", "step-2", "step-3"]
    assert [(i.name, i.required) for i in spec.inputs or ()] == [("VOLUME_ID", True), ("REGION", False)]
    snap, copy, tell = plan.steps
    assert snap.skill == "snap-volume" and snap.inputs["volume_id"].source == "input"
    assert snap.inputs["volume_id"].name == "VOLUME_ID"
    assert copy.inputs["snapshot"].step == "step-1" and copy.inputs["snapshot"].pointer == "/snap_id"  # renamed
    assert copy.inputs["bucket"].source == "literal" and copy.inputs["bucket"].value == "cold-store-eu"
    assert tell.inputs["copied"].step == "step-2" and tell.inputs["bytes"].pointer == "/bytes"
    assert plan.limits.wall_time_s == 1200.0  # not 8 s from "k8s" in its comment
    assert all(s.policy.retry.max_retries == 2 for s in plan.steps)  # backoffLimit: no step says its own


def test_a_configmap_s_data_holds_steps_a_gate_whose_silence_skips_and_a_done_when() -> None:
    _spec, plan = _plan(_CONFIGMAP, "bakery.yaml")
    count, order, rota = plan.steps
    assert order.depends_on == ("step-1",) and order.inputs["shortfall"].pointer == "/shortfall"
    assert order.policy.retry.max_retries == 2 and order.policy.retry.delays_s[:2] == (5.0, 20.0)
    gate = order.policy.approval
    assert gate is not None and gate.timeout_s == 3600.0 and gate.on_timeout == "skip" and gate.when
    assert rota.inputs["ordered"].if_skipped is False  # "carry on ... with ordered=false"
    assert rota.policy.retry.max_retries == 0  # "post it ONCE"
    [check] = [c for c in plan.run_checks if c.step == rota.id]  # the run's done-when: after the run (`run_checks37`)
    assert check.schema_["properties"]["posted"].get("const") is True
    assert count.skill == "count-stock"


def test_an_argo_workflow_is_still_the_dialect_reader_s() -> None:
    spec, plan = _plan(_ARGO, "wf.yaml")
    assert [s.skill for s in plan.steps] == ["sort-samples"]
    assert [i.name for i in spec.inputs or ()] == ["tray"]


def test_a_deployment_is_refused_naming_the_keys_looked_at() -> None:
    with pytest.raises(SpecError) as exc:
        parse_spec_text(_DEPLOYMENT, "deploy.yaml", "yaml", _VOCABULARY)
    said = str(exc.value)
    assert "Kubernetes Deployment" in said and "metadata.annotations" in said and "step.N" in said


def test_a_step_value_splits_into_skill_inputs_and_notes() -> None:
    assert split_step("ledger-pull <- CLINIC, RUN_DATE   (retry 3x: 10s, 30s, 90s)") == (
        "ledger-pull", ["CLINIC", "RUN_DATE"], "retry 3x: 10s, 30s, 90s")
    assert split_step("mail-out ← to=ops@example.org -- send ONCE") == ("mail-out", ["to=ops@example.org"], "send ONCE")


@pytest.mark.parametrize("text", [
    "the whole run must be done in time, then k8s kills it",
    "use the v1beta1 API for the entire run",
    "the whole job runs on arm64 nodes",
    "x86_64 builds: the whole run is capped",
    "ipv4 only, the whole pipeline",
])
def test_a_unit_glued_to_a_digit_is_never_a_time(text: str) -> None:
    assert whole_limit(text) is None and whole_limit(text, outside=True) is None
    statement = read_phrase(text).statement
    assert statement.timeout_s is None and statement.for_up_to_s is None


def test_a_key_that_names_its_unit_gives_its_number_that_unit() -> None:
    assert key_units("activeDeadlineSeconds: 1800  # then k8s kills it") == "activeDeadlineSeconds: 1800 s  # then k8s kills it"
    assert key_units("timeout_minutes = 5") == "timeout_minutes = 5 min"
    assert key_units("replicas: 3, image: arm64") == "replicas: 3, image: arm64"  # no unit in the key's name
    assert whole_limit("activeDeadlineSeconds: 1800  # the whole pipeline, then k8s kills it") == 1800.0


def test_silence_that_refuses_the_act_and_goes_on_is_a_skip() -> None:
    assert silence_skips("No answer = don't post, just carry on to the mail.")
    assert silence_skips("no reply: do not send, and move on")
    assert not silence_skips("No answer = don't post, stop the run.")
    assert not silence_skips("Don't post twice, carry on with the rest.")  # no silence said
