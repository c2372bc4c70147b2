"""A page saved as HTML (a wiki's HTML export with a `<dl>` of inputs, a Confluence storage-format
page with an info macro, a CMS page with an `<ol>` of steps and a callout) reads as its markdown
would, every finding at the author's line; a markdown spec with a `<br>` or a `<details>` toggle
is read as written (`spec.markup_html`)."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.markup_html import html_markdown, is_html
from orchestrator.spec.model import WorkflowSpec
from orchestrator.spec.vocabulary import Vocabulary

_VOCAB = Vocabulary.of([(n, None) for n in (
    "pull-badges", "print-badges", "email-host", "thaw-plate", "read-plate", "log-plate",
    "check-stock", "order-parts", "notify-desk")])


def _spec(text: str, path: str = "page.html") -> WorkflowSpec:
    return parse_spec_text(text, path, "markdown", _VOCAB)


def _skills(spec: WorkflowSpec) -> list[list[str]]:
    return [[m.text for m in s.mentions] for s in spec.steps]


_WIKI_DL = """<!DOCTYPE html>
<html><head><title>Visitor badges</title><style>p { color: red }</style></head>
<body>
<h1>Visitor badges</h1>
<h2>Inputs</h2>
<dl>
  <dt><code>visit_date</code></dt><dd>the day of the visit</dd>
  <dt><code>host</code></dt>
  <dd>who invited them</dd>
</dl>
<h2>Steps</h2>
<ol>
  <li>Fetch the list with <code>pull-badges</code> for the visit_date.</li>
  <li>Print them with <code>print-badges</code>. Retry it 2 times, 30 seconds apart.</li>
  <li>Tell the host with <code>email-host</code>.</li>
</ol>
</body></html>
"""


def test_a_wiki_page_with_a_definition_list_of_inputs_reads_its_steps_and_inputs() -> None:
    md = html_markdown(_WIKI_DL)
    assert md is not None
    assert len(md.split("\n")) == len(_WIKI_DL.split("\n"))  # line for line
    lines = md.split("\n")
    assert lines[6] == "- `visit_date`: the day of the visit"
    assert lines[12] == "1. Fetch the list with `pull-badges` for the visit_date."
    assert "color" not in md  # a <style> block is no text
    spec = _spec(_WIKI_DL)
    assert _skills(spec) == [["pull-badges"], ["print-badges"], ["email-host"]]
    assert {i.name for i in spec.inputs} == {"visit_date", "host"}
    second = spec.steps[1]
    assert second.where.endswith(":14")  # the author's line
    assert second.description.endswith("Retry it 2 times, 30 seconds apart.")  # for the policy reader


_CONFLUENCE = """<h1>Plate reader run</h1>
<p>Owner: the assay bench. Questions to the lab channel.</p>
<h2>Procedure</h2>
<ol>
<li><p>Thaw the plate with <code>thaw-plate</code>.</p></li>
<li><p>Read it with <code>read-plate</code>; give it 5 minutes at most.</p></li>
<li><p>Record the result with <code>log-plate</code>.</p></li>
</ol>
<ac:structured-macro ac:name="info"><ac:parameter ac:name="title">Done when</ac:parameter><ac:rich-text-body>
<p>The run is done when log-plate comes back with <code>saved: true</code>.</p>
</ac:rich-text-body></ac:structured-macro>
"""


def test_a_confluence_storage_page_reads_its_steps_and_the_info_macro_as_a_callout() -> None:
    md = html_markdown(_CONFLUENCE)
    assert md is not None
    lines = md.split("\n")
    assert lines[4] == "1. Thaw the plate with `thaw-plate`."
    assert lines[8:10] == ["## Done when", "The run is done when log-plate comes back with `saved: true`."]
    spec = _spec(_CONFLUENCE, "page.xml")
    assert _skills(spec) == [["thaw-plate"], ["read-plate"], ["log-plate"]]
    assert spec.steps[1].description == "Read it with `read-plate`; give it 5 minutes at most."


_CMS = """<div class="content">
<h1>Stock check &amp; reorder</h1>
<h2>What the form hands us</h2>
<ul>
  <li><b>Part number</b> (<code>part_no</code>) &ndash; as printed on the bin</li>
  <li><b>Site</b> (<code>site</code>)</li>
</ul>
<h2>The flow</h2>
<ol>
  <li>Look the part up with <code>check-stock</code>.</li>
  <li>If check-stock found no stock: <code>order-parts</code> orders it.</li>
  <li>Otherwise, tell the desk with <code>notify-desk</code>.</li>
</ol>

<div class="callout callout--info"><p><b>When is it done?</b> A check counts as done when notify-desk comes back with <code>sent: true</code>.</p></div>
</div>
"""


def test_a_cms_page_reads_form_fields_as_inputs_and_the_callout_title_as_its_heading() -> None:
    md = html_markdown(_CMS)
    assert md is not None
    lines = md.split("\n")
    assert lines[1] == "# Stock check & reorder"
    assert lines[13] == "## When is it done?"  # the callout's bold title on the blank line before it
    assert lines[14].startswith("A check counts as done when")
    spec = _spec(_CMS)
    assert [i.name for i in spec.inputs] == ["part_no", "site"]
    assert _skills(spec) == [["check-stock"], ["order-parts"], ["notify-desk"]]
    assert spec.steps[1].when == "check-stock found no stock"
    assert spec.steps[2].otherwise_of == spec.steps[1].id


def test_markdown_with_an_inline_br_or_a_details_toggle_is_not_html() -> None:
    text = """# Badges

## Steps

1. Fetch the list with `pull-badges`.<br>Twice a day.
2. Print them with `print-badges`.

<details>
<summary>Notes</summary>
<p>Only the front desk printer.</p>
</details>
"""
    assert not is_html(text)
    assert html_markdown(text) is None
    spec = _spec(text, "page.md")
    assert _skills(spec) == [["pull-badges"], ["print-badges"]]


def test_a_markdown_table_of_html_rows_under_markdown_headings_is_not_html() -> None:
    text = "## Steps\n\n<table>\n<tr><td>1</td><td>`pull-badges`</td></tr>\n<tr><td>2</td></tr>\n</table>\n"
    assert not is_html(text)


def test_comments_over_several_lines_and_entities_are_taken_off() -> None:
    md = html_markdown("<!-- a\nlong comment -->\n<h1>T&eacute;st</h1>\n<p>a&nbsp;b &lt;c&gt;</p>\n<p>x</p>\n")
    assert md is not None
    assert md.split("\n")[:4] == ["", "", "# Tést", "a b <c>"]
