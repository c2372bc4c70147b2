"""Ansible's `async_status:` task read as a wait for an earlier `async:` job (`spec.async_status31`): a
month-end playbook, a backup playbook with a bare `tasks:` list, a job right before its wait; and waits
that are not read: a job no skill runs, a wait with nothing after it."""

from __future__ import annotations

from typing import Any

from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary

SKILLS = ("export-ledger", "fetch-rates", "post-totals", "snapshot-db", "copy-offsite", "notify-team")


def _spec(text: str) -> Any:
    return parse_spec_text(text, "site.yml", "yaml", Vocabulary.of([(s, None) for s in SKILLS]))


def _steps(spec: Any) -> dict[str, Any]:
    return {s.id: s for s in spec.steps}


MONTH_END = """\
- name: month end
  hosts: finance
  vars_prompt:
    - name: month
      prompt: which month
  tasks:
    - name: kick off the export
      skill: export-ledger
      args:
        x: "{{ month }}"
      async: 900
      poll: 0
      register: export_job

    - name: pull the rates meanwhile
      skill: fetch-rates
      args:
        x: "{{ month }}"
      register: rates

    - name: wait for the export
      async_status:
        jid: "{{ export_job.ansible_job_id }}"
      register: export_result
      until: export_result.finished
      retries: 30
      delay: 10

    - name: post the totals
      skill: post-totals
      args:
        x: "{{ export_result.ledger }}"
      register: posted
"""


def test_a_playbook_waits_for_its_background_job() -> None:
    spec = _spec(MONTH_END)
    steps = _steps(spec)
    assert set(steps) == {"export_job", "rates", "posted"}  # the wait is no step
    assert set(steps["posted"].depends_on) == {"rates", "export_job"}
    assert steps["export_job"].timeout_s == 300  # 30 x 10 s, shorter than async: 900
    assert steps["rates"].starts_with == "export_job"  # poll: 0 (`ci_always29`)
    assert not any("names no catalog skill" in w.message for w in spec.warnings)


def test_the_waits_register_reads_the_jobs_output() -> None:
    posted = _steps(_spec(MONTH_END))["posted"]
    assert any("export_job" in str(f.source) for f in posted.inputs) or "export_job" in str(posted.input_values)


BACKUP = """\
tasks:
  - name: snapshot
    skill: snapshot-db
    async: 3600
    poll: 0
    register: snap
  - name: wait for it
    ansible.builtin.async_status:
      jid: "{{ snap.ansible_job_id }}"
    register: snap_done
    until: snap_done.finished
    retries: 6
  - name: ship it
    skill: copy-offsite
    register: shipped
"""


def test_a_bare_task_list_with_the_default_delay() -> None:
    steps = _steps(_spec(BACKUP))  # a bare list: ids from the names, `register:` kept beside
    assert set(steps) == {"snapshot", "ship-it"}
    assert steps["ship-it"].depends_on == ("snapshot",)  # the job right before the wait: no other task
    assert steps["ship-it"].starts_with is None  # not started beside the job, as poll: 0 alone would say
    assert steps["snapshot"].timeout_s == 30  # 6 x Ansible's default 5 s


def test_a_wait_for_a_job_no_skill_runs_is_warned() -> None:
    text = MONTH_END.replace("skill: export-ledger", "shell: ./export.sh").replace(
        'x: "{{ export_result.ledger }}"', 'x: "{{ month }}"')
    spec = _spec(text)
    assert [w.line for w in spec.warnings if "no step runs that job" in w.message] == [21]
    assert set(_steps(spec)) == {"rates", "posted"}


def test_a_wait_with_no_until_and_nothing_after_it() -> None:
    text = BACKUP.split("  - name: ship it")[0].replace("    until: snap_done.finished\n", "")
    text = text.replace("tasks:\n", "tasks:\n  - name: tell them\n    skill: notify-team\n    register: told\n")
    spec = _spec(text)
    said = [w.message for w in spec.warnings]
    assert any("looks once" in m for m in said)
    assert any("no task comes after it" in m for m in said)
