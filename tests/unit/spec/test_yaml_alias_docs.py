"""Four documents in their authors' own YAML, each with anchors, aliases, merge keys, flow maps and
comments, shared by the tests of `yaml_alias` and `yaml_sigils` (none of their kinds is a fixture's):
a home-brew day schedule, a bird-survey field plan, a firmware CI pipeline of its own design and an
Ansible-ish patch play. Each names its four steps (a: takes the asked inputs, b: loops over a's list,
c: gathers b's results, d: publishes), and says what each rule should read."""

from __future__ import annotations

from dataclasses import dataclass

from orchestrator.plan import build_plan
from orchestrator.plan.model import Plan
from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, skill


@dataclass(frozen=True)
class Doc:
    name: str
    text: str
    skills: tuple[str, ...]
    ids: tuple[str, str, str, str]
    asked: tuple[str, ...]  # the inputs step a takes, in order of its `takes:`
    wall_s: float  # the whole run's limit
    a_timeout_s: float  # step a's timeout, from an alias
    b_value: dict[str, object]  # what b hands on when an item fails
    c_retry: tuple[int, float, float, float]  # retries, first wait, factor, cap: a merge with an override
    d_retry: tuple[int, float, float, float]  # the same anchor through a plain alias
    d_alias: tuple[int, int]  # (d's alias line, the anchor's line)
    c_merge: tuple[int, int]  # (c's merge line, the anchor's line)
    item_fields: tuple[str, ...]  # b's inputs from each item's field
    gathered_field: str  # c's input that gathers one field of each of b's results


def read(doc: Doc) -> WorkflowSpec:
    return parse_spec_text(doc.text, "w.yaml", "yaml", Vocabulary(skills=frozenset(doc.skills)))


def plan(doc: Doc) -> Plan:
    return build_plan(read(doc), FakeCatalog(*[skill(n) for n in doc.skills]), settings=SETTINGS)


BREW = Doc("home-brew-day", """\
# Saturday brew day -- pale ale, 20 L batch
brew: pale-ale-20l
ask_brewer: [recipe_id, grain_bill]    # recipe id from the book; grain bill as JSON
max_total: 6h        # whole brew day, if we're past that the yeast is sulking anyway
finished_when: fermenter.sealed == true

shared:
  careful: &careful {tries: 3, pause: 30s, pause_x: 2, pause_max: 4m}   # thermometer probe is flaky
  snappy: &snappy {cutoff: 90s}

schedule:
  - id: mash
    skill: mash-in
    takes: {recipe: $ask.recipe_id, grains: $ask.grain_bill}
    on_trouble: *snappy
  - id: taste
    skill: taste-wort
    for_each_of: $mash.samples     # one per gravity sample
    takes: {gravity: $it.gravity, temp_c: $it.temp}
    on_trouble: {keep_going_with: {verdict: ok, note: skipped}}
  - id: log
    skill: log-batch
    after: [taste]
    takes: {verdicts: "$taste[*]", gravities: "$taste[*].gravity"}
    on_trouble: {<<: *careful, tries: 5}
  - id: fermenter
    skill: seal-fermenter
    after: [log]
    takes: {batch: $log.batch_id}
    on_trouble: *careful
""", ("mash-in", "taste-wort", "log-batch", "seal-fermenter"), ("mash", "taste", "log", "fermenter"),
           ("recipe_id", "grain_bill"), 21600, 90, {"verdict": "ok", "note": "skipped"}, (4, 30, 2, 240), (2, 30, 2, 240),
           (30, 8), (25, 8), ("gravity", "temp_c"), "gravities")

SURVEY = Doc("bird-survey-plan", """\
# Moorland bird transect -- spring survey plan (Rhiannon, v2)
survey: spring-transects
ask_surveyor:            # the field lead fills these in on the tablet
  transect_id: e.g. T-14
  kit_list: what went out in the van
whole_thing_must_finish_in: 8h    # light goes, we go home

presets:
  stubborn: &stubborn
    attempts: 3          # GPS unit drops out in the gullies
    wait: 1m
    wait_factor: 3
    max_wait: 10m
  brisk: &brisk {cut_off_after: 20m}

legs:
  - id: walk
    skill: walk-transect
    takes: {transect: $asked.transect_id, kit: $asked.kit_list}
    resilience: *brisk
  - id: count
    skill: count-plot
    for_each_in: $walk.plots        # every plot on the line
    takes: {plot: $each.plot_no, habitat: $each.habitat}
    resilience: {carry_on_with: {birds: 0, note: not surveyed}}
  - id: tally
    skill: tally-counts
    after: [count]
    takes: {counts: "${count[*]}", birds: "${count[*].birds}"}
    resilience: {<<: *stubborn, attempts: 5}    # the laptop in the car is worse
  - id: upload
    skill: upload-records
    after: [tally]
    takes: {sheet: $tally.sheet}
    resilience: *stubborn
done_when: upload.accepted == true
""", ("walk-transect", "count-plot", "tally-counts", "upload-records"), ("walk", "count", "tally", "upload"),
             ("transect_id", "kit_list"), 28800, 1200, {"birds": 0, "note": "not surveyed"}, (4, 60, 3, 600), (2, 60, 3, 600),
             (35, 9), (30, 9), ("plot", "habitat"), "birds")

CI = Doc("firmware-ci-pipeline", """\
# release train for the firmware repo -- our own runner, not GH actions
pipeline: fw-release
prompt_for: [branch, ticket]    # asked when someone hits "run"
give_up_after: 2h               # whole pipeline, wall clock

.knobs:
  flaky_net: &flaky_net {retries: 2, delay: 10s, delay_factor: 2, delay_cap: 1m}
  short: &short {cutoff: 15m}

jobs:
  build:
    uses: build-firmware
    takes: {branch: $prompt.branch, ticket: $prompt.ticket}
    on_trouble: *short
  test:
    uses: test-board
    loop_over: $build.targets      # one run per board
    takes: {arch: $current.arch, image: $current.image}
    on_trouble: {continue_with: {passed: false}}
  report:
    uses: collate-results
    after: [test]
    takes: {runs: "{{ test[*] }}", passed: "$test[*].passed"}
    on_trouble: {<<: *flaky_net, retries: 4}
  publish:
    uses: publish-release
    after: [report]
    takes: {notes: $report.notes}
    on_trouble: *flaky_net
success_when: publish.published == true
""", ("build-firmware", "test-board", "collate-results", "publish-release"), ("build", "test", "report", "publish"),
         ("branch", "ticket"), 7200, 900, {"passed": False}, (4, 10, 2, 60), (2, 10, 2, 60), (29, 7), (24, 7),
         ("arch", "image"), "passed")

PLAY = Doc("ansible-ish-play", """\
# patch the web tier -- ansible-ish, but run by skillweave
play: patch web tier
needs_from_user: [host_group, change_ticket]
whole_play_within: 90m     # change window is 90 minutes, hard

x-policies:
  stubborn: &stubborn {retries: 3, backoff_delay: 15s, backoff_x: 2, backoff_max: 2m}
  timeboxed: &timeboxed {cut_off: 5m}

tasks:
  - name: inventory
    skill: list-hosts
    takes: {group: $user.host_group}
    error_handling: *timeboxed
  - name: patch
    skill: patch-host
    loop_through: $inventory.hosts
    takes: {host: $item.name, ticket: $user.change_ticket}
    error_handling: {press_on_with: {patched: false}}
  - name: verify
    skill: verify-fleet
    after: [patch]
    takes: {results: "$patch[*]", names: "$patch[*].host"}
    error_handling:
      <<: *stubborn
      retries: 1        # verify is cheap, don't hammer
  - name: close
    skill: close-ticket
    after: [verify]
    takes: {summary: $verify.summary, ticket: $user.change_ticket}
    error_handling: *stubborn
""", ("list-hosts", "patch-host", "verify-fleet", "close-ticket"), ("inventory", "patch", "verify", "close"),
           ("host_group",), 5400, 300, {"patched": False}, (1, 15, 2, 120), (3, 15, 2, 120), (31, 7), (25, 7),
           ("host",), "names")

DOCS = (BREW, SURVEY, CI, PLAY)
IDS = [d.name for d in DOCS]
