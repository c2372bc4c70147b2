"""Ansible-style playbooks: `loop_control: {loop_var: x}` names the loop's item, `vars:` beside a
`vars_prompt` list are inputs with defaults, and a task's comment stating a policy on no key is the
task's own words (`spec.ansible28`)."""

from __future__ import annotations

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

_SKILLS = [skill("list-hosts", input_schema=obj(), output_schema=obj(("hosts",), hosts="array")),
           skill("patch-host", input_schema=obj(("host",), host="object"), output_schema=obj(("ok",), ok="boolean")),
           skill("mail-report", input_schema=obj(), output_schema=obj(("sent",), sent="boolean"))]

# a patching role of a school's IT team
_ROLE = """\
- name: monthly patching
  hosts: labs
  vars_prompt:
    - name: site
      prompt: which campus
  vars:
    mail_from: it-desk
  tasks:
    - name: list the lab machines
      skill: list-hosts
      args: {site: "{{ site }}"}
      register: found
    - name: patch each machine
      skill: patch-host
      with_items: "{{ found.hosts }}"
      loop_control: {loop_var: machine, label: "{{ machine.name }}"}
      args:
        host: "{{ machine }}"
      # a machine that hangs: give up on it after 10 minutes
      register: patched
    - name: mail the report
      skill: mail-report
      args: {sender: "{{ mail_from }}", results: "{{ patched.results }}"}
      # don't retry this one
"""


def _spec(text: str):  # type: ignore[no-untyped-def]
    names = frozenset({"list-hosts", "patch-host", "mail-report"})
    return parse_spec_text(text, "patch.yml", "yaml", Vocabulary(skills=names))


def test_a_role_s_loop_var_is_the_item_its_vars_literals_and_its_task_comment_a_policy() -> None:
    spec = _spec(_ROLE)
    patch = spec.steps[1]
    assert patch.for_each is not None and patch.for_each.startswith("machine in ")
    names = {i.name: i for i in spec.inputs or ()}
    assert "site" in names and "mail_from" not in names  # a `vars:` constant: the literal (`env_literals48`)
    assert spec.steps[2].input_values["sender"] == "it-desk"
    plan = build_plan(spec, FakeCatalog(*_SKILLS), settings=SETTINGS)  # type: ignore[arg-type]
    step = plan.steps[1]
    assert step.policy.attempt_timeout_s == 600.0
    assert step.inputs["host"].source == "item"
    assert any("label" in w.message and w.line == 16 for w in plan.warnings)  # `label` said not read


_KIOSK = """\
- hosts: kiosks
  vars_prompt:
    - name: build
  tasks:
    - skill: list-hosts
      register: all
    - skill: patch-host
      loop: "{{ all.hosts }}"
      loop_control:
        loop_var: kiosk
      args: {host: "{{ kiosk }}"}
      # kiosks are in the lobby, mind the opening hours
"""


def test_a_plain_loop_with_loop_var_and_a_comment_stating_no_policy() -> None:
    spec = _spec(_KIOSK)
    assert spec.steps[1].for_each is not None and spec.steps[1].for_each.startswith("kiosk in ")
    plan = build_plan(spec, FakeCatalog(*_SKILLS), settings=SETTINGS)  # type: ignore[arg-type]
    assert plan.steps[1].policy.attempt_timeout_s is None  # the comment states no policy: an aside
    assert not [w for w in plan.warnings if w.line == 12]


_NO_LOOP = """\
name: tidy
steps:
  - id: hosts
    skill: list-hosts
    loop_control: {loop_var: box}
"""


def test_loop_control_without_a_loop_is_not_a_loop() -> None:
    spec = _spec(_NO_LOOP)
    assert spec.steps[0].for_each is None


# a lab's sample-prep file of its own schema
_PREP = """\
name: prep
steps:
  - id: thaw
    skill: list-hosts
    parallel_group: bench
  - id: label
    skill: mail-report
    parallel_group: bench
  - id: spin
    skill: mail-report
    depends_on: [thaw]
    parallel_group: centrifuge
    # if the rotor stalls, swap in skills/patch-host
"""


def test_tasks_sharing_a_group_start_together_and_a_group_of_one_is_said() -> None:
    spec = _spec(_PREP)
    thaw, label, spin = spec.steps
    assert label.starts_with == "thaw" and thaw.starts_with is None
    assert spin.starts_with is None and "parallel_group" not in spin.extra
    plan = build_plan(spec, FakeCatalog(*_SKILLS), settings=SETTINGS)  # type: ignore[arg-type]
    assert any("centrifuge" in w.message and "no other step" in w.message for w in plan.warnings)
    assert plan.steps[2].policy.fallback.skill == "patch-host"  # `skills/patch-host` in the comment


def test_give_up_on_one_after_a_time_is_each_attempt_s_timeout() -> None:
    from orchestrator.spec.phrase import read_phrase

    assert read_phrase("give up on one after 15 seconds", frozenset()).statement.timeout_s == 15.0
    assert read_phrase("give up on an item after 2 minutes", frozenset()).statement.timeout_s == 120.0
    assert read_phrase("give up on one of them", frozenset()).statement.timeout_s is None
