"""Hypothesis strategies for hostile specs (markdown and YAML) and skill folders: the shapes of
the spec parser's own fuzz test, laced with what broke before (alias bombs, 100 000-digit
integers, Jinja that builds gigabytes, `$ref` out of the folder, FIFOs and devices, deep
nesting, lines of thousands of fields)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from tests.unit.spec.test_spec_fuzz import MARKDOWN, YAML_TEXT

JINJA = st.sampled_from([
    "'x' * 4000000000", "[1] * 4000000000", "4000000000 * 'ab'", "'%999999999s' % 1", "'%*s' % (999999999, 1)",
    "'%.999999999f' % 1", "'{:>999999999}'.format(1)", "'{:{}}'.format(1, 999999999)", "'x' | center(4000000000)",
    "'x'.ljust(4000000000)", "'x'.zfill(4000000000)", "range(100000) | join('x' * 10000)", "2 ** 999999999",
    "9 ** 9 ** 9", "lipsum(999999999)", "'x'.translate({120: 'yy'})", "range(9) | batch(4000000000, 'x') | list",
    "range(9) | slice(4000000000) | list", "('x' * 100000) | replace('', 'y' * 1000)", "'x' | indent(4000000000)",
    "inputs.a and 'x' * 4000000000", "'x' * 4000000000 == 'y'", "not ('x' * 4000000000)",
    "(" * 3000 + "1" + ")" * 3000, "9" * 5000, "x" * 11000, "[" * 2000 + "]" * 2000,
    "{'a': 'b' * 999999999}", "'a' ~ 'b' * 99999999", "inputs.a | default('x' * 4000000000)",
    "steps['step-1'].output.x * 4000000000", "1 / 0", "range(4000000000) | list", "true", "inputs.a > 1",
])
BIG_INT = st.sampled_from(["9" * 4301, "9" * 100_000, "-" + "1" * 20_000, ":".join(["1"] * 3000),
                           "0x" + "f" * 50_000, "0b" + "1" * 100_000, "1e99999", "1_" * 10_000 + "1"])
LAUGHS = "\n".join(
    ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    + [f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]" for p, n in zip("abcdefgh", "bcdefghi", strict=True)]
)
YAML_BOMB = st.sampled_from([
    LAUGHS, "r: &r [*r]", "r: &r {k: *r}", "deep: " + "[" * 3000 + "]" * 3000, "deep: " + "{a: " * 500 + "1" + "}" * 500,
    "m: &m {a: 1}\nn: {<<: [*m, *m, *m]}", "d: &d 1\ne: &d 2", "p: !!python/object:os.system ls",
    "b: !!binary " + "QUFB" * 5000, "s: &s " + "x" * 60_000 + "\nt: [*s, *s, *s, *s]", "u: \"\\ud800\"",
])


def _with_jinja_yaml(doc: str, expr: str, where: str) -> str:
    value = json.dumps(expr if where == "when" else "{{ " + expr + " }}")
    key = "when" if where == "when" else "input"
    body = f"    {key}: {value}" if key == "when" else f"    input: {{a: {value}}}"
    return (f"{doc}\n" if doc.startswith("name:") else "name: f\n") + \
        f"inputs: {{a: {{type: string}}}}\nsteps:\n  - id: s0\n    skill: fetch-docs\n{body}\n"


YAML_SPECS = st.one_of(
    YAML_TEXT,
    st.builds(lambda base, bomb: f"{bomb}\n{base}", YAML_TEXT, YAML_BOMB),
    st.builds(lambda n: "name: f\nsteps:\n  - id: s0\n    skill: fetch-docs\n    retry: " + n + "\n", BIG_INT),
    st.builds(lambda e, w: _with_jinja_yaml("", e, w), JINJA, st.sampled_from(["when", "input"])),
    st.builds(lambda n: "name: f\nsteps:\n" + "".join(f"  - {{id: s{i}, skill: fetch-docs}}\n" for i in range(n))
              + "  - {id: x, skill: fetch-docs, depends_on: [s0, nope], when: 'false'}\n", st.integers(1, 60)),
)

# the step, input and policy prose readers (spec.step_prose, spec.grammar, spec.policy_text...):
# their words run together, repeated to long lines
_PROSE_WORDS = st.sampled_from([
    "1 s", "2.5 minutes", ",", ", ", " then ", " and ", " or ", "retry", "retries", " ", "  ", "step 1", "step two",
    "->", "→", "(", ")", "if it fails", "go to", "wait", "`a`", "twice", "-", "–", "every", "backoff", "x", ":",
    "**", "`", "up to", "times", "escalate", "fall back to", "skip", "depends on", "after", "when", "is", "\t",
])
POLICY_PROSE = st.one_of(
    st.lists(_PROSE_WORDS, max_size=300).map("".join),
    st.builds(lambda unit, n: unit * n, st.lists(_PROSE_WORDS, min_size=1, max_size=4).map("".join),
              st.integers(100, 4000)),
)
_PROSE_PLACES = st.sampled_from([
    "{0}",  # a paragraph of its own, after the head's step
    "- Retries: {0}", "- Timeout: {0}", "- Depends on: {0}", "- On failure: {0}", "- Input: a{0}",
    "- Output{0}: x", "If it fails, {0}", "\n## Recovery\n\nFor step 1: {0}", "- **{0}**: x",
]).map(lambda place: "# Fuzz\n\n## Inputs\n- a (string): a\n\n## Workflow Steps\n\n### Step 1: One\n"
                     "- Skill: `fetch-docs`\n- Output: x\n\n" + place + "\n")

_MD_HEAD = "# Fuzz\n\n## Inputs\n- a (string): a\n\n## Workflow Steps\n\n### Step 1: One\n- Skill: `fetch-docs`\n"
MARKDOWN_SPECS = st.one_of(
    MARKDOWN,
    st.builds(lambda e: _MD_HEAD + f"- When: {e}\n- Output: x\n", JINJA),
    st.builds(lambda n: _MD_HEAD + f"- Retries: {n}\n- Timeout: {n} s\n", BIG_INT),
    st.builds(lambda n: _MD_HEAD + "- Input: " + ", ".join(f"f{i}" for i in range(n)) + "\n", st.integers(900, 1200)),
    st.builds(lambda n: _MD_HEAD + "- Output: x\n\n## Data Contracts\n\n### Step 1 → Step 1\n```json\n"
              + '{"type": "object", "maxLength": ' + n + "}\n```\n", BIG_INT),
    st.builds(lambda ref: _MD_HEAD + "- Output: x\n\n## Data Contracts\n\n### Step 1 → Step 2\n```json\n"
              + json.dumps({"properties": {"x": {"$ref": ref}}}) + "\n```\n", st.sampled_from(
                  ["http://127.0.0.1:1/evil.json", "file:///etc/passwd", "#/$defs/none", "x.json"])),
    st.builds(lambda depth: _MD_HEAD + "- Output: x\n\n## Data Contracts\n\n### Step 1 → Step 2\n```json\n"
              + "[" * depth + "]" * depth + "\n```\n", st.integers(100, 5000)),
    st.builds(lambda base, e: base + f"\n- When: {e}\n", MARKDOWN, JINJA),
    st.builds(lambda place, words: place.format(words), _PROSE_PLACES, POLICY_PROSE),
)

_REFS = st.sampled_from(["http://127.0.0.1:1/evil.json", "file:///etc/passwd", "/etc/passwd", "../../outside.json",
                         "common.json", "common.json#/$defs/name", "#/$defs/name", "#/nowhere", "missing.json",
                         "common.json#name", "sub/../common.json", "%2e%2e/%2e%2e/outside.json"])
_SCHEMA_TEXT = st.one_of(
    st.builds(lambda ref: json.dumps({"type": "object", "properties": {"v": {"$ref": ref}},
                                      "$defs": {"name": {"type": "string"}}}), _REFS),
    st.builds(lambda n: '{"type": "object", "maxProperties": ' + n + "}", BIG_INT),
    st.builds(lambda d: "[" * d + "]" * d, st.integers(100, 3000)),
    st.sampled_from(["{", "not json", "[]", '{"type": 3}', '{"$schema": "http://127.0.0.1:1/meta"}', "",
                     '{"type": "object", "properties": {"x": {"type": "string"}}}']),
)
_SPECIAL = st.sampled_from(["file", "file", "file", "fifo", "dev-zero", "directory", "missing"])
_METADATA_VALUE = st.one_of(
    st.sampled_from(["script", "mcp", "llm", "bogus", "scripts/main.py", "../x.py", "/etc/passwd", "deny", "allow",
                     "30", "-1", "inf", "docs", "get_docs", ""]),
    BIG_INT,
    st.just("{" + ", ".join(f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]" for p, n in
                             zip("abcdefgh", "bcdefghi", strict=True)) + "}").map(
        lambda v: "{a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol], more: " + v + "}"),
)
_META_KEYS = st.sampled_from(["skillweave.kind", "skillweave.entry", "skillweave.input-schema",
                              "skillweave.output-schema", "skillweave.timeout", "skillweave.network",
                              "skillweave.server", "skillweave.tool", "author", "skillweave.bogus"])


@st.composite
def skill_folders(draw: st.DrawFn) -> dict[str, Any]:
    """A skill as files: `SKILL.md` text, schema files (text or a special kind), the common file."""
    meta = draw(st.dictionaries(_META_KEYS, _METADATA_VALUE, max_size=6))
    meta.setdefault("skillweave.input-schema", "schemas/input.json")
    lines = ["name: fuzzed", f"description: {draw(st.sampled_from(['A skill.', '', 'x' * 2000]))}", "metadata:"]
    lines += [f"  {k}: {v}" for k, v in meta.items()]
    extra = draw(st.one_of(st.just(""), YAML_BOMB.map(lambda b: "\n" + b)))
    return {
        "skill_md": "---\n" + "\n".join(lines) + extra + "\n---\nSay hello to {{ a }}.\n",
        "schema": draw(_SCHEMA_TEXT),
        "schema_kind": draw(_SPECIAL),
        "common": draw(st.one_of(_SCHEMA_TEXT, st.just('{"$defs": {"name": {"type": "string"}}}'))),
    }


def write_skill(root: Path, skill: dict[str, Any]) -> Path:
    folder = root / "skills" / "fuzzed"
    (folder / "schemas").mkdir(parents=True)
    (folder / "scripts").mkdir()
    (folder / "SKILL.md").write_text(skill["skill_md"], encoding="utf-8")
    (folder / "scripts" / "main.py").write_text("print('{}')\n", encoding="utf-8")
    (folder / "schemas" / "common.json").write_text(skill["common"], encoding="utf-8")
    (root / "outside.json").write_text('{"type": "string"}', encoding="utf-8")
    schema = folder / "schemas" / "input.json"
    kind = skill["schema_kind"]
    if kind == "file":
        schema.write_text(skill["schema"], encoding="utf-8")
    elif kind == "fifo":
        os.mkfifo(schema)
    elif kind == "dev-zero":
        schema.symlink_to("/dev/zero")
    elif kind == "directory":
        schema.mkdir()
    return folder
