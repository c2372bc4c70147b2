"""Reports of a real run whose step names, error messages and approval comment hold HTML,
Markdown and Mermaid syntax: every format shows the text as it is and injects nothing.

One real `skillweave run` of a YAML spec (script skills in the sandbox): a gated step is
approved with an HTML comment, then a step whose script raises with an HTML message fails.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest
from counter_workflow import skillweave

pytestmark = pytest.mark.e2e

SKILL_MD = """\
---
name: qa-echo
description: Test skill. Echoes x as value; raises with an HTML-ish message when x starts with "bad".
metadata:
  skillweave.kind: script
  skillweave.entry: scripts/main.py
  skillweave.timeout: "20"
---

Reads `{"x": ...}` and writes `{"value": x}`.
"""

SCRIPT = """\
import json
import sys

d = json.load(sys.stdin)
x = d.get("x")
if isinstance(x, str) and x.startswith("bad"):
    raise RuntimeError("boom <img src=x onerror=alert(1)> & `tick` " + x)
json.dump({"value": x}, sys.stdout)
"""

# names as people may write them: HTML, an entity, Mermaid's own entity syntax, a newline
FIRST = 'Fetch <b>bold</b> &amp; "quoted" #35; C#9; done\nsecond line'
SECOND = "Publish <script>alert(2)</script> 🚦\nnext line"

SPEC = f"""\
name: qa-escaping
description: names and messages full of markup
inputs:
  x: {{type: string}}
steps:
  - id: fetch
    name: {json.dumps(FIRST, ensure_ascii=False)}
    skill: qa-echo
    input: {{x: "{{{{ inputs.x }}}}"}}
  - id: publish
    name: {json.dumps(SECOND, ensure_ascii=False)}
    skill: qa-echo
    depends_on: [fetch]
    input: {{x: "bad <i>ü</i>"}}
    approval: true
"""

COMMENT = "LGTM <img src=y onerror=alert(3)> & ok"


@dataclass(frozen=True)
class Run:
    folder: Path
    run_id: str

    def show(self, fmt: str) -> str:
        shown = skillweave("runs", "show", self.run_id, "--format", fmt, "--state-dir", "state", cwd=self.folder)
        assert shown.returncode == 0, shown.stderr
        assert "Traceback" not in shown.stderr
        return shown.stdout


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    folder = tmp_path_factory.mktemp("escaping")
    skill = folder / "skills" / "qa-echo"
    (skill / "scripts").mkdir(parents=True)
    (skill / "SKILL.md").write_text(SKILL_MD)
    (skill / "scripts" / "main.py").write_text(SCRIPT)
    (folder / "spec.yaml").write_text(SPEC, encoding="utf-8")
    paused = skillweave("run", "spec.yaml", "--input", "x=<svg onload=alert(4)>", "--json", "--state-dir", "state",
                        cwd=folder)
    assert paused.returncode == 3, paused.stderr
    run_id = json.loads(paused.stdout)["run_id"]
    approved = skillweave("approve", run_id, "publish", "--comment", COMMENT, "--state-dir", "state", cwd=folder)
    assert approved.returncode == 0, approved.stderr
    resumed = skillweave("resume", run_id, "--json", "--state-dir", "state", cwd=folder)
    assert resumed.returncode == 1, resumed.stderr
    return Run(folder, run_id)


def _outside_code(markdown: str) -> str:
    """The Markdown text that a renderer reads as Markdown (and HTML): fenced blocks and code spans removed."""
    text = re.sub(r"(?ms)^ *(`{3,})[^\n]*\n.*?^ *\1 *$", "", markdown)
    return re.sub(r"(`+)(?!`).*?(?<!`)\1(?!`)", "", text)


def test_markdown_shows_markup_as_text_and_injects_no_html(run: Run) -> None:
    md = run.show("md")
    prose = _outside_code(md)
    for tag in ("<b>", "<script", "<img", "<i>", "<svg"):
        assert tag not in prose, f"raw {tag} in the Markdown report"
    # the text is still all there, escaped: a Markdown renderer shows it as written
    assert "Fetch &lt;b&gt;bold&lt;/b&gt; &amp;amp; \"quoted\"" in prose
    assert "Publish &lt;script&gt;alert(2)&lt;/script&gt; 🚦" in prose
    assert "boom &lt;img src=x onerror=alert(1)&gt; &amp;" in prose
    assert "LGTM &lt;img src=y onerror=alert(3)&gt; &amp; ok" in prose
    # a name with a newline stays on its heading's line
    heading = next(line for line in md.splitlines() if line.startswith("### `publish`"))
    assert heading.endswith("🚦 next line: failed")
    assert not any(line.startswith(("second line", "next line")) for line in md.splitlines())


def _mermaid_shows(label: str) -> str:
    """What Mermaid displays for a label: its `#name;` / `#123;` entities decoded (then HTML's)."""
    return html.unescape(re.sub(r"#(\d+);|#(\w+);", lambda m: f"&#{m[1]};" if m[1] else f"&{m[2]};", label))


def test_mermaid_labels_show_the_real_names_on_one_line(run: Run) -> None:
    graph = json.loads(run.show("json"))["mermaid"]
    nodes = [line for line in graph.splitlines()[1:] if '["' in line]
    assert len(nodes) == 2
    every = [line.strip() for line in graph.splitlines()[1:]]
    for line in every:  # a node, an edge, a classDef or a class: nothing else, nothing broken
        assert re.fullmatch(r'(s_\w+\[".*"\]|s_\w+ -->(\|.*\|)? s_\w+|classDef \w+ .+|class [\w,]+ \w+)', line), line
    labels = [re.search(r'\["(.*)"\]', line).group(1) for line in nodes]  # type: ignore[union-attr]
    assert '"' not in "".join(labels) and "<" not in "".join(labels).replace("<br/>", "")
    shown = [_mermaid_shows(label).split("<br/>") for label in labels]
    assert shown[0] == [f"fetch: {FIRST}".replace("\n", " "), "succeeded"]
    assert shown[1] == [f"publish: {SECOND}".replace("\n", " "), "failed"]


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def test_html_escapes_every_text_and_keeps_the_graph_as_text(run: Run) -> None:
    page = run.show("html")
    for raw in ("<b>bold", "<script>", "<img", "<svg onload", "<i>ü"):
        assert raw not in page
    assert "Publish &lt;script&gt;alert(2)&lt;/script&gt;" in page
    assert "LGTM &lt;img src=y onerror=alert(3)&gt; &amp; ok" in page
    # the page's own markup: the two drawings are its only <svg>s, and no element has a handler
    parser = _Tags()
    parser.feed(page)
    assert [a.get("class") for t, a in parser.tags if t == "svg"] == ["graph", "timeline"]
    assert not [(t, k) for t, a in parser.tags for k in a if k.startswith("on")]
    assert not {"script", "img", "iframe", "object", "embed", "link"} & {t for t, _ in parser.tags}
    # the names are in the graph's boxes and tooltips, escaped
    assert "<title>publish: Publish &lt;script&gt;alert(2)&lt;/script&gt; 🚦\nnext line" in page


def test_history_json_is_valid_and_keeps_the_message(run: Run) -> None:
    listed = skillweave("runs", "--json", "--state-dir", "state", cwd=run.folder)
    assert listed.returncode == 0, listed.stderr
    history = json.loads(listed.stdout)
    (row,) = history["runs"]
    assert row["status"] == "failed" and "boom <img src=x onerror=alert(1)> & `tick` bad <i>ü</i>" in row["error"]
