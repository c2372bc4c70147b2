"""CI pipeline files as specs: environment-style input names are the skills' lower-case inputs
(warned), a fan-out wrapper holding a loop key is a loop with `$ITEM` its item, and a declarative
Jenkinsfile's stages, parameters, conditions and comments are read (`spec.ci_files26`,
`spec.ci_jenkins26`)."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text

_GITHUB = """\
name: weekly-digest
on:
  workflow_dispatch:
inputs:
  TEAM_SLUG:
    default: "core"
  MAX_ITEMS:
    default: "20"
steps:
  - id: gather
    skill: issue-gather
    with:
      team_slug: ${{ inputs.TEAM_SLUG }}
  - id: digest
    skill: digest-write
    needs: [gather]
    when: inputs.MAX_ITEMS > 5
    with:
      issues: gather.issues
      max_items: ${{ inputs.MAX_ITEMS }}
"""

_WOODPECKER = """\
# .woodpecker.yml -- photo backup, one upload per album the index lists
variables:
  BUCKET: "family-photos"
steps:
  index:
    skill: album-index
    with: {bucket: $BUCKET}
  upload:
    skill: album-upload
    needs: [index]
    parallel:
      for_each: index.albums
    with:
      album: $ITEM
      bucket: $BUCKET
"""

_AZURE = """\
parameters:
  region: "eu-west"
  REGION: "us-east"
steps:
  - id: probe
    skill: region-probe
    with: {region: $REGION, home: $region}
"""

_JENKINS = """\
// nightly lab-sample triage -- the bench team
// the whole triage gets 20 min; after that it is aborted

pipeline {
    agent any
    options {
        timeout(time: 20, unit: 'MINUTES')
    }
    parameters {
        string(name: 'BATCH_ID', defaultValue: 'B-001', description: 'the batch to triage')
        text(name: 'SAMPLES', description: 'sample ids, one per line')
    }
    stages {
        stage('Both') {
            parallel {
                stage('scan') {
                    steps {
                        // the scanner is slow: 2 retries, 10s apart
                        skill 'sample-scan', samples: params.SAMPLES
                    }
                }
                stage('lookup') {
                    steps {
                        skill 'batch-lookup', batch: params.BATCH_ID
                    }
                }
            }
        }
        stage('Flag') {
            when { expression { scan.bad_count > 0 } }
            steps {
                skill 'flag-batch', batch: lookup.record, bad: scan.bad
            }
        }
        stage('Clear') {
            when { not { expression { scan.bad_count > 0 } } }
            steps {
                skill 'clear-batch', batch: lookup.record
            }
        }
    }
}
"""


def _by_id(spec):
    return {s.id: s for s in spec.steps}


def test_github_inputs_in_capitals_keep_their_author_s_names() -> None:
    # the author's spelling stays (a run given `team_slug` is taken as TEAM_SLUG: engine.input_alias)
    spec = parse_spec_text(_GITHUB, "digest.yml", "yaml")
    assert [i.name for i in spec.inputs] == ["TEAM_SLUG", "MAX_ITEMS"]
    steps = _by_id(spec)
    assert {f.name: f.source for f in steps["gather"].inputs}["team_slug"] == "inputs.TEAM_SLUG"
    assert "inputs.MAX_ITEMS" in (steps["digest"].when or "")


def test_woodpecker_parallel_for_each_is_a_loop_and_item_its_item() -> None:
    spec = parse_spec_text(_WOODPECKER, ".woodpecker.yml", "yaml")
    upload = _by_id(spec)["upload"]
    assert upload.for_each is not None and "index.albums" in upload.for_each.replace("steps.", "").replace(
        ".output", "")
    sources = {f.name: f.source for f in upload.inputs}
    assert sources["album"] == "item"


def test_azure_capital_name_beside_its_lower_case_stays_as_written() -> None:
    spec = parse_spec_text(_AZURE, "azure-pipelines.yml", "yaml")
    names = [i.name for i in spec.inputs]
    assert "REGION" in names and "region" in names


def test_lower_case_inputs_are_left_alone() -> None:
    spec = parse_spec_text(_GITHUB.replace("TEAM_SLUG", "team_slug").replace("MAX_ITEMS", "max_items"),
                           "digest.yml", "yaml")
    assert [i.name for i in spec.inputs] == ["team_slug", "max_items"]
    assert not any("environment variable" in w.message for w in spec.warnings)


def test_item_outside_a_loop_is_not_the_item() -> None:
    text = _WOODPECKER.replace("    parallel:\n      for_each: index.albums\n", "")
    spec = parse_spec_text(text, ".woodpecker.yml", "yaml")
    upload = _by_id(spec)["upload"]
    assert upload.for_each is None
    assert {f.name: f.source for f in upload.inputs}["album"] != "item"


def test_matrix_under_parallel_is_still_a_matrix() -> None:
    text = _WOODPECKER.replace("for_each: index.albums", "matrix:\n        - ALBUM: index.albums")
    spec = parse_spec_text(text, ".woodpecker.yml", "yaml")
    assert _by_id(spec)["upload"].for_each is not None


def test_jenkinsfile_stages_parameters_conditions_and_comments() -> None:
    spec = parse_spec_text(_JENKINS, "Jenkinsfile", "markdown")
    assert [i.name for i in spec.inputs] == ["batch_id", "samples"]
    assert next(i for i in spec.inputs if i.name == "batch_id").default == "B-001"
    steps = _by_id(spec)
    assert list(steps) == ["scan", "lookup", "Flag", "Clear"]
    assert steps["scan"].skill == "sample-scan" and steps["lookup"].skill == "batch-lookup"
    assert not steps["lookup"].depends_on
    assert {f.name: f.source for f in steps["lookup"].inputs}["batch"] == "inputs.batch_id"
    assert {f.name: f.source for f in steps["Flag"].inputs}["bad"] == "steps.scan.output.bad"
    assert "bad_count > 0" in (steps["Flag"].when or "")
    assert steps["Clear"].otherwise_of == "Flag"
    assert any("2 retries" in t.text for t in steps["scan"].texts)
    assert not any("2 retries" in t.text for t in steps["lookup"].texts)
    assert not any(".md, .markdown" in w.message for w in spec.warnings)


def test_a_groovy_file_calling_no_skill_is_not_a_jenkinsfile() -> None:
    from orchestrator.spec.ci_jenkins26 import is_jenkinsfile

    assert not is_jenkinsfile("Jenkinsfile", "pipeline {\n  stages {\n    stage('b') { steps { sh 'make' } }\n  }\n}\n")
    assert not is_jenkinsfile("notes.md", "We skill 'x' the fish.\n")
    assert is_jenkinsfile("ci.groovy", _JENKINS)


def test_negated_condition_of_no_earlier_stage_stays_a_condition() -> None:
    text = _JENKINS.replace("when { not { expression { scan.bad_count > 0 } } }",
                            "when { not { expression { lookup.closed == true } } }")
    spec = parse_spec_text(text, "Jenkinsfile", "markdown")
    clear = _by_id(spec)["Clear"]
    assert clear.otherwise_of is None
    assert "not" in (clear.when or "")
