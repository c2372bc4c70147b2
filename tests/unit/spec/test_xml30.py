"""An XML file in its author's own schema, read into the YAML form's nodes (`spec.xml30`): a release job list of
tags the author made up, an Ant-like build.xml whose targets name their skill in a child, a property list;
and an HTML page, a file that is not well-formed, an XML file that names no skill (read as text, as before)."""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.errors import SpecError
from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary
from orchestrator.spec.xml30 import looks_like_xml

SKILLS = ("pull-orders", "price-check", "write-report", "fetch-deps", "compile-site", "publish-site", "tide-read")


def _spec(text: str, name: str) -> Any:
    return parse_spec_text(text, name, "xml", Vocabulary.of([(s, None) for s in SKILLS]))


JOBS = """\
<?xml version="1.0"?>
<!-- nightly pricing run, my own tags -->
<nightly label="pricing" hardStop="45m">
  <params>
    <param name="region">which region to price, e.g. EU</param>
  </params>
  <job n="1" uses="pull-orders" alongside="2">
    <arg key="region" source="params.region"/>
  </job>
  <job n="2" uses="price-check">
    <arg key="currency" value="EUR"/>
    <note>the price feed flakes; retry 2 times, 10s apart</note>
  </job>
  <job n="3" uses="write-report" needs="1 2">
    <arg key="orders" source="job1.orders"/>
  </job>
</nightly>
"""


def test_a_job_list_of_own_tags_gives_steps_inputs_bindings_and_the_run_limit() -> None:
    spec = _spec(JOBS, "nightly.xml")
    assert [(s.id, s.skill) for s in spec.steps] == [("step-1", "pull-orders"), ("step-2", "price-check"),
                                                     ("step-3", "write-report")]
    assert [i.name for i in spec.inputs] == ["region"]
    assert [(f.name, f.source) for f in spec.steps[0].inputs] == [("region", "inputs.region")]
    assert spec.steps[1].input_values == {"currency": "EUR"}
    assert [(f.name, f.source) for f in spec.steps[2].inputs] == [("orders", "steps.step-1.output.orders")]
    assert spec.steps[2].depends_on == ("step-1", "step-2")
    assert spec.steps[0].depends_on == () and spec.steps[0].depends_where is not None  # alongside 2: a root
    assert any(r.what == "depends_on" and "starts together" in r.note for r in spec.steps[0].readings)
    assert spec.timeout_s == 45 * 60
    assert any(r.statement.retries == 2 for r in spec.readings)  # the <note> is the step's words
    assert any("comment" in w.message and w.line == 2 for w in spec.warnings)  # a loose comment, said


BUILD = """\
<?xml version="1.0" encoding="UTF-8"?>
<project name="site" default="publish">
  <target name="deps">
    <exec skill="fetch-deps"/>
  </target>
  <target name="build" depends="deps">
    <exec skill="compile-site" profile="prod"/>
  </target>
  <target name="publish" depends="build">
    <exec skill="publish-site"/>
    <!-- never run this twice: do not retry -->
  </target>
</project>
"""


def test_an_ant_like_build_file_names_each_targets_skill_in_its_child() -> None:
    spec = _spec(BUILD, "build.xml")
    assert [s.skill for s in spec.steps] == ["fetch-deps", "compile-site", "publish-site"]
    ids = [s.id for s in spec.steps]
    assert spec.steps[1].depends_on == (ids[0],) and spec.steps[2].depends_on == (ids[1],)
    assert spec.steps[1].input_values == {"profile": "prod"}
    assert any(r.statement.no_retry for r in spec.readings)  # a comment inside a step is its words


PLIST = """\
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>name</key><string>tides</string>
  <key>steps</key>
  <array>
    <dict>
      <key>id</key><string>read</string>
      <key>skill</key><string>tide-read</string>
      <key>retries</key><integer>3</integer>
    </dict>
    <dict>
      <key>id</key><string>report</string>
      <key>skill</key><string>write-report</string>
      <key>after</key><array><string>read</string></array>
    </dict>
  </array>
</dict>
</plist>
"""


def test_a_property_list_is_read_as_the_mappings_and_lists_it_holds() -> None:
    spec = _spec(PLIST, "flow.plist")
    assert [(s.id, s.skill) for s in spec.steps] == [("read", "tide-read"), ("report", "write-report")]
    assert spec.steps[1].depends_on == ("read",)
    assert spec.steps[0].retries == 3 or spec.steps[0].retry is not None


def test_what_is_not_an_own_schema_workflow_is_left_to_the_text_readers() -> None:
    assert not looks_like_xml(".html", "<!DOCTYPE html><html><body>hi</body></html>")
    assert not looks_like_xml(".md", "# Steps\n\n1. run `x`\n")
    assert looks_like_xml(".txt", "<?xml version='1.0'?><a/>")
    broken = "<?xml version='1.0'?>\n<jobs>\n  <job uses=\"pull-orders\">\n</jobs>\n"
    spec = _spec(broken, "broken.xml")  # not well-formed: said at its line, read as text
    assert spec.format == "markdown"
    assert any("not well-formed" in w.message for w in spec.warnings)
    bomb = ('<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]>\n'
            '<r><job uses="pull-orders">&b;</job></r>\n')
    spec = _spec(bomb, "bomb.xml")  # entities are never expanded: read as text, and said
    assert spec.format == "markdown" and any("entities" in w.message for w in spec.warnings)
    plain = "<?xml version='1.0'?>\n<notes><item>buy milk</item><item>call Jo</item></notes>\n"
    with pytest.raises(SpecError):  # no element names a skill: read as text, which has no steps
        _spec(plain, "notes.xml")
