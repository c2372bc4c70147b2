"""Workflow specs, markdown or YAML, compiled into one `WorkflowSpec`.

    parse_spec(path)                      dispatch on the suffix (.md/.markdown, .yaml/.yml, .toml, .hcl/.tf, .lua, .xml/.plist; other text: markdown, warned)
    parse_spec_text(text, path, format)   the same from a string; `path` names it in messages

Both take an optional `vocabulary` (`spec.vocabulary`): the catalog's skill and tool names,
which the compile pipeline loads first so that the readers can tell a skill's name in any
quoting from a word that only looks like one. With it, a markdown spec whose shape the rules
fail on is read again anchored on the skills it names (`anchored`), unless `anchored=False`.

Both raise `SpecError` carrying every error found (each `file:line: message`)
when the spec cannot be used, and otherwise return a spec whose `warnings`
list, with their lines, all text that was kept but not understood.

Modules: `markdown` (sections of the seed-000 template), `step` (a step's
bullets), `contract` (Data Contracts), `recovery` and `recovery_section` (the
Error Recovery table and Convergence Criteria), `fields` (Input/Output lines),
`policy_text` (policy phrases), `yaml_form` (the YAML form; `toml_form` reads TOML into it and
`own_schema` an author's own keys), `check` (checks
shared by both); `structure`, `step_forms` and `step_prose` find steps written in
other shapes (headings in other wordings, lists, tables, runbook paragraphs) and
read the dependencies, joins and routes written as sentences. Policy sentences
anywhere: `grammar` (the tables), `normalize` (a sentence as the rows read it),
`phrase` (one sentence), `prose` (what the structure readers left of a step's
text, `StepSpec.texts`, sentence by sentence), `success` (success criteria as
output checks), `effect` (a sentence's policy). A line too long to read (`linecap`) is a warning and
is not handed to the readers.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Literal

from orchestrator.config import ENV_MAX_SPEC_BYTES, file_caps
from orchestrator.errors import Diagnostic, NotFoundError, SpecError
from orchestrator.filecap import FileCapError, read_capped
from orchestrator.jsonsafe import deepest_line
from orchestrator.spec.check import (
    SpecParts,
    check_references,
    check_sizes,
    check_steps,
    derive_inputs,
)
from orchestrator.spec.model import (
    ContractSpec,
    ConvergenceSpec,
    FieldSpec,
    InputSpec,
    RecoveryRowSpec,
    ScenarioSpec,
    StepSpec,
    WorkflowSpec,
)
from orchestrator.spec.source import Source
from orchestrator.spec.vocabulary import EMPTY, Vocabulary

__all__ = [
    "ContractSpec",
    "ConvergenceSpec",
    "FieldSpec",
    "InputSpec",
    "RecoveryRowSpec",
    "ScenarioSpec",
    "SpecFormat",
    "StepSpec",
    "Vocabulary",
    "WorkflowSpec",
    "format_of",
    "parse_spec",
    "parse_spec_text",
]

SpecFormat = Literal["markdown", "yaml"]
_SUFFIXES: dict[str, SpecFormat] = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".yaml": "yaml",
    ".yml": "yaml",
}


def format_of(path: Path | str) -> SpecFormat | None:
    """The spec format a file name implies, or None."""
    return _SUFFIXES.get(Path(path).suffix.lower())


def parse_spec(
    path: Path, max_bytes: int | None = None, vocabulary: Vocabulary = EMPTY, *, anchored: bool = True,
    by_calls: bool = False,
) -> WorkflowSpec:
    """Read and compile the spec at `path`: a regular file of at most `max_bytes`
    (default: the `SKILLWEAVE_MAX_SPEC_BYTES` cap, 1 MiB unless set). `anchored`: a markdown spec
    the rules fail on may be read anchored on its skills (`spec.anchored`); off when the model
    reads the structure instead (`plan --interpret`, a lockfile). `by_calls`: a code file read by its skill
    calls only (`spec.wired52`; the planner's second reading when the first is refused), None when it has none."""
    fmt = format_of(path)
    suffix = Path(path).suffix.lower()
    limit = file_caps().spec_bytes if max_bytes is None else max_bytes
    try:
        data = read_capped(path, limit, ENV_MAX_SPEC_BYTES)
    except FileNotFoundError as exc:
        raise NotFoundError(f"no such spec: {path}", where=str(path)) from exc
    except FileCapError as exc:
        raise SpecError(Diagnostic(file=str(path), message=f"the spec is {exc.strerror}",
                                   code="spec.file")) from None
    except OSError as exc:
        raise NotFoundError(f"cannot read the spec: {exc.strerror}", where=str(path)) from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise SpecError(Diagnostic(file=str(path), line=line, code="spec.encoding",
                                   message="the spec is not UTF-8 text")) from exc
    from orchestrator.spec.foreign_length53 import too_long

    if (long := too_long(str(path), text)) is not None:  # a script, config or text over the lines it is read to
        raise SpecError(long)  # refused before any reader: said with the limit (`spec.foreign_length53`)
    if by_calls:  # the planner refused the first reading of a code file: its skill calls only (`spec.wired52`)
        spec = _by_calls(text, str(path), vocabulary, anchored)
        if spec is None:
            raise SpecError(Diagnostic(file=str(path), code="spec.no-steps",
                                       message="the file calls no skill of the catalog in code"))
        return spec
    if suffix == ".json":  # a saved plan is no spec; any other JSON is YAML, read as a spec (`spec.json_kind`)
        from orchestrator.spec.json_kind import refuse_plan

        refuse_plan(text, str(path))
        return parse_spec_text(text, str(path), "yaml", vocabulary, anchored=anchored)
    from orchestrator.spec.taskfile import is_taskfile

    if fmt == "yaml" and is_taskfile(text):  # a go-task Taskfile.yml: its tasks are recipes (`spec.taskfile`)
        return parse_spec_text(text, str(path), "markdown", vocabulary, anchored=anchored)
    from orchestrator.spec.gradle49 import is_gradle
    from orchestrator.spec.rakefile42 import is_rakefile

    if fmt is None and (is_rakefile(str(path), text) or is_gradle(str(path))):  # a Rakefile or a Gradle script whose tasks call skills (`spec.rakefile42`, `spec.gradle49`)
        from orchestrator.spec.recipes import find_recipe_file

        if find_recipe_file(text) is not None:
            return parse_spec_text(text, str(path), "markdown", vocabulary, anchored=anchored)
    if suffix == ".toml":  # TOML: its own reader, into the YAML form's (`toml_form`)
        return parse_spec_text(text, str(path), "toml", vocabulary, anchored=anchored)
    from orchestrator.spec.hcl30 import is_hcl
    from orchestrator.spec.nix45 import is_nix

    if is_hcl(str(path)) or is_nix(str(path)):  # HCL (`.hcl`, `.tf`, `.nomad`) or Nix (`.nix`, read as HCL's
        # blocks, `nix45`): their own reader, into the YAML form's (`hcl30`)
        return parse_spec_text(text, str(path), "hcl", vocabulary, anchored=anchored)
    from orchestrator.spec.jcl50 import is_jcl
    from orchestrator.spec.nginx49 import is_nginx

    if fmt is None and is_jcl(str(path), text):  # a JCL job deck whose EXEC cards name skills (`spec.jcl50`)
        return parse_spec_text(text, str(path), "hcl", vocabulary, anchored=anchored)

    if fmt is None and is_nginx(str(path), text):  # an nginx-style block config naming skills, read as HCL's blocks
        return parse_spec_text(text, str(path), "hcl", vocabulary, anchored=anchored)  # (`spec.nginx49`)
    from orchestrator.spec.namelist50 import is_namelist

    if fmt is None and is_namelist(str(path), text):  # a Fortran namelist whose groups name skills (`spec.namelist50`)
        return parse_spec_text(text, str(path), "hcl", vocabulary, anchored=anchored)
    from orchestrator.spec.lua46 import is_lua, lua_steps

    if is_lua(str(path)) and lua_steps(text):  # a Lua config returning a table of steps (`lua46`); else text
        return parse_spec_text(text, str(path), "lua", vocabulary, anchored=anchored)
    from orchestrator.spec.plantuml46 import is_plantuml

    if fmt is None and is_plantuml(str(path), text):  # a PlantUML activity diagram (`spec.plantuml46`)
        return parse_spec_text(text, str(path), "plantuml", vocabulary, anchored=anchored)
    from orchestrator.spec.sequence_mermaid47 import is_mermaid_sequence

    if fmt is None and is_mermaid_sequence(str(path), text):  # a Mermaid sequence diagram (`spec.sequence_mermaid47`)
        return parse_spec_text(text, str(path), "mermaid-sequence", vocabulary, anchored=anchored)
    from orchestrator.spec.dockerfile32 import is_dockerfile

    if fmt is None and is_dockerfile(str(path), text):  # a Dockerfile-like build file, RUN a step (`dockerfile32`)
        return parse_spec_text(text, str(path), "dockerfile", vocabulary, anchored=anchored)
    from orchestrator.spec.dotenv42 import is_dotenv
    from orchestrator.spec.properties47 import is_properties

    if fmt is None and (is_dotenv(str(path)) or is_properties(str(path))):  # or a .properties (`properties47`)  # a .env whose keys name skills as steps (`spec.dotenv42`)
        return parse_spec_text(text, str(path), "dotenv", vocabulary, anchored=anchored,
                               said=f"the file has `{suffix or Path(path).name}`, not .md, .markdown, .yaml or .yml: "
                                    "it is read as markdown text (name it .md to say so, or .yaml if it is YAML)")
    from orchestrator.spec.script_flow import script_language

    language = script_language(str(path), text) if fmt is None else None
    if language in ("cron", "unit", "procfile"):  # a crontab, a .service unit, a Procfile: its jobs are the steps
        return parse_spec_text(text, str(path), "markdown", vocabulary, anchored=anchored)
    if language is not None:  # deploy.sh, Makefile: a script runbook
        return parse_spec_text(text, str(path), "markdown", vocabulary, anchored=anchored,
                               said=f"the file is a script ({Path(path).name}): its comments are read as the "
                                    "runbook's text and its code for the skills it calls and the branches around them")
    from orchestrator.spec.code_calls import code_language

    if fmt is None and code_language(str(path)) == "js":  # steps as objects in code (`spec.code_calls`)
        return parse_spec_text(text, str(path), "markdown", vocabulary, anchored=anchored)
    if fmt is None and suffix in (".csv", ".tsv"):  # a sheet's rows: the steps table its header names (`spec.sheet`)
        return parse_spec_text(text, str(path), "markdown", vocabulary, anchored=anchored,
                               said=f"the file has `{suffix}`: it is read as text in which a header row naming a "
                                    "steps table's columns is the steps table (a markdown table in a .md file says "
                                    "so plainly)")
    from orchestrator.spec.xml30 import looks_like_xml

    if fmt is None and looks_like_xml(suffix, text):  # an XML file of the author's own schema (`spec.xml30`)
        return parse_spec_text(text, str(path), "xml", vocabulary, anchored=anchored)
    from orchestrator.spec.markup_latex import markup_kind

    if fmt is None and (kind := markup_kind(text)) is not None:  # page.html, notes.tex, invite.ics (`spec.markup_*`)
        from orchestrator.spec.calendar46 import SAID, is_calendar

        return parse_spec_text(text, str(path), "markdown", vocabulary, anchored=anchored,
                               said=SAID if is_calendar(text) else
                               f"the file is {kind}: it is read as the markdown it stands for, line for line "
                               "(headings, lists, code names; its markup taken off)")
    if fmt is None:  # notes.txt, flow.org, a .rst page: text, read as markdown and said so
        written_as = f"`{suffix}`" if suffix else "no suffix"
        try:
            return parse_spec_text(text, str(path), "markdown", vocabulary, anchored=anchored,
                                   said=f"the file has {written_as}, not .md, .markdown, .yaml or .yml: it is read as "
                                        "markdown text (name it .md to say so, or .yaml if it is YAML)")
        except SpecError:  # refused as text: code-like text is read by its skill calls (`spec.wired52`)
            if not vocabulary or not anchored:
                raise
            return parse_spec_text(text, str(path), "markdown", vocabulary, anchored=anchored, wired=True)
    return parse_spec_text(text, str(path), fmt, vocabulary, anchored=anchored)


def _by_calls(text: str, path: str, vocabulary: Vocabulary, anchored: bool) -> WorkflowSpec | None:
    """A code file read by its skill calls (`spec.wired52.code_first`), or None when it is no code file or
    calls no skill in code."""
    from orchestrator.spec.wired52 import adopt, code_first

    src = Source(text.removeprefix("\ufeff"), path, vocabulary)
    src.anchored = anchored
    written = src.text
    got = code_first(src, written, None, True)
    if got is None:
        return None
    adopt(src, got[1])
    sha256 = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return _finish(got[0], src, "yaml", sha256, written)


def parse_spec_text(
    text: str, path: str, format: SpecFormat | str, vocabulary: Vocabulary = EMPTY, *, anchored: bool = True,
    said: str | None = None, wired: bool = False,
) -> WorkflowSpec:
    """Compile spec `text`; `path` is only used in messages and the spec's `path`; `said`: a
    warning at line 1 about how the file was taken (its suffix); `wired`: text the readers refused, read by
    its skill calls if it is code-like (`spec.wired52`). A code file whose reading is refused is read by its
    skill calls when they are found (`spec.wired52.code_first`)."""
    try:
        return _parse_spec_text(text, path, format, vocabulary, anchored=anchored, said=said, wired=wired)
    except SpecError:
        if str(format).lower() != "markdown":  # a format reader's refusal (an HCL syntax error) stands
            raise
        spec = _by_calls(text, path, vocabulary, anchored)
        if spec is None:
            raise
        return spec


def _parse_spec_text(
    text: str, path: str, format: SpecFormat | str, vocabulary: Vocabulary = EMPTY, *, anchored: bool = True,
    said: str | None = None, wired: bool = False,
) -> WorkflowSpec:
    toml = str(format).lower() == "toml"
    hcl = str(format).lower() == "hcl"
    lua = str(format).lower() == "lua"
    xml = str(format).lower() == "xml"
    docker = str(format).lower() == "dockerfile"
    puml = str(format).lower() == "plantuml"  # its boxes, forks and ifs read field by field (`spec.plantuml46`)
    mseq = str(format).lower() == "mermaid-sequence"  # its messages, par and alt read field by field (`sequence_mermaid47`)
    dotenv = str(format).lower() == "dotenv"  # its keys read field by field, else markdown as before (`dotenv42`)
    fmt = "yaml" if toml or hcl or lua or xml or docker or puml or mseq else "markdown" if dotenv else _SUFFIXES.get(f".{format}".lower())
    if fmt is None:
        raise ValueError(f"unknown spec format {format!r}")
    sha256 = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    from orchestrator.spec.line_breaks import one_break

    src = Source(one_break(text.removeprefix("\ufeff")), path, vocabulary)  # `\n` its only line break (`spec.line_breaks`)
    src.anchored = anchored
    from orchestrator.spec.code_calls import code_language, read_code_calls

    code = code_language(path) if fmt == "markdown" else None
    from orchestrator.spec.ci_jenkins26 import is_jenkinsfile

    jenkins = fmt == "markdown" and code is None and is_jenkinsfile(path, src.text)
    if said and code is None and not jenkins and not dotenv:
        src.warn(1, said, code="spec.suffix")
    written = src.text
    md_file = Path(path).suffix.lower() in (".md", ".markdown") or toml or hcl or lua or puml or mseq or docker
    xml_said: tuple[int, str] | None = None
    by_calls_already = False  # read by its skill calls on the way (`spec.wired52`)
    sheet_read = False  # an SBAR note or a marked sheet: a format's reading
    coded: SpecParts | None = None
    script: SpecParts | None = None
    try:
        from orchestrator.spec.script_flow import script_language

        coded = read_code_calls(src, code) if code is not None else None  # `STEPS = [dict(...)]` (`spec.code_calls`)
        if dotenv:  # a .env whose keys name skills as steps (`spec.dotenv42`); else text, said so
            from orchestrator.spec.dotenv42 import read_dotenv
            from orchestrator.spec.properties47 import is_properties, read_properties

            coded = read_properties(src) if is_properties(path) else read_dotenv(src)
            if coded is None and said:
                src.warn(1, said, code="spec.suffix")
        if coded is None and jenkins:  # a declarative Jenkinsfile's stages (`spec.ci_jenkins26`)
            from orchestrator.spec.ci_jenkins26 import read_jenkinsfile

            coded = read_jenkinsfile(src)
        if said and code is not None and coded is None:  # a .py script runbook, said so
            src.warn(1, said, code="spec.suffix")
        language = script_language(path, src.text) if fmt == "markdown" and coded is None else None
        script = None
        if language == "make":  # a Makefile whose recipes are the steps is read as ever (`spec.recipes`)
            from orchestrator.spec.recipes import find_recipe_file

            language = None if find_recipe_file(src.text) is not None else language
        if language is not None:
            from orchestrator.spec.linecap import markdown_lines
            from orchestrator.spec.script_runbook import read_script

            src.text = markdown_lines(src)  # a line too long to read: blank, and a warning at it
            src.lines = src.text.splitlines()
            if language == "cron":  # a crontab: its job lines as a script's calls (`spec.crontab`)
                from orchestrator.spec.crontab import read_crontab

                script = read_crontab(src)
            elif language == "unit":  # a service unit: its command lines as a script's calls (`spec.unit35`)
                from orchestrator.spec.unit35 import read_unit

                script = read_unit(src)
            elif language == "procfile":  # a Procfile: its process lines as a script's calls (`spec.procfile38`)
                from orchestrator.spec.procfile38 import read_procfile

                script = read_procfile(src)
            else:
                script = read_script(src, language)
            if script is not None and not script.steps and any(e.code == "spec.no-steps" for e in src.errors):
                from orchestrator.spec.wired52 import adopt, wired_script

                # a script whose calls the script reader does not see: read by its skill calls (`spec.wired52`)
                if (by_calls := wired_script(src, written)) is not None:
                    script, coded = None, by_calls[0]
                    adopt(src, by_calls[1])
                    by_calls_already = True
        if code == "js" and coded is None:
            src.warn(1, "no list of steps (`export const steps = [{ skill: ... }]`) was found in the code, so the "
                        "file is read as text", "spec.unread")
        if xml and coded is None:  # its elements into the YAML form's readers (`spec.xml30`), else read as text
            from orchestrator.spec.xml30 import read_xml

            read = read_xml(src)
            coded = read if not isinstance(read, tuple) else None
            xml_said = read if isinstance(read, tuple) else None
            if coded is None:
                fmt = "markdown"
        if coded is not None:  # read by the YAML form's readers, as a TOML spec is: its format is theirs
            parts, fmt = coded, "yaml"
        elif language is not None and script is not None:
            parts = script
        elif fmt == "markdown" and wired and not md_file and (read := _wired_text(src)) is not None:
            parts, fmt = read, "yaml"  # code-like text the other readers refused, read by its skill calls (`spec.wired52`)
            by_calls_already = True
        elif fmt == "markdown":
            from orchestrator.spec.linecap import markdown_lines
            from orchestrator.spec.markdown import read_markdown
            from orchestrator.spec.markup_latex import markup_kind, markup_markdown

            src.text = markdown_lines(src)  # a line too long to read: blank, and a warning at it
            lowered = markup_markdown(src.text)  # an HTML page, a LaTeX article: line for line (`spec.markup_*`)
            from orchestrator.spec.calendar46 import SAID, is_calendar

            if lowered != src.text and not said:
                src.warn(1, SAID if is_calendar(src.text) else
                         f"the text is {markup_kind(src.text)}: it is read as the markdown it stands for, line "
                         "for line (headings, lists, code names; its markup taken off)", code="spec.suffix")

            if lowered != src.text and is_calendar(src.text):  # folded lines mean nothing to the plan's guards:
                written = lowered  # they read the description's lines as the readers did (`spec.calendar46`)
            src.text = lowered
            from orchestrator.spec.sbar41 import sbar_markdown

            sbar = sbar_markdown(src.text)  # an SBAR note: its numbered part the steps (`spec.sbar41`)
            if sbar is not None:
                src.warn(1, "read as an SBAR note (Situation, Background, Assessment, Recommendation): the part "
                            "whose lines are numbered is read as the steps, each part's line as a section heading",
                         code="spec.suffix")
                src.text = sbar
            from orchestrator.spec.marker_sheet42 import apply_sheet, read_sheet

            sheet = read_sheet(src.text) if sbar is None else None  # `~ skill <- a, b` lines (`spec.marker_sheet42`)
            sheet_read = sbar is not None or sheet is not None
            if sheet is not None:
                src.warn(sheet.heading[0], f"read as a sheet whose marked lines with `<-` are the steps: "
                                           f"'{sheet.heading[1][:60]}' read as the steps' heading, each `<-` list as "
                                           f"the step's inputs, the dotted `[name]` fill-ins as the workflow inputs",
                         code="spec.suffix")
                src.text = sheet.markdown
            src.lines = src.text.splitlines()
            parts = read_markdown(src)
            if sheet is not None:
                parts = apply_sheet(parts, sheet, src)
            from orchestrator.spec.anchored import ANCHORED_CODE

            if not md_file and any(w.code == ANCHORED_CODE for w in src.warnings):  # read anchored on its skills
                from orchestrator.spec.wired52 import adopt, better_wired

                # mostly code, and its skill calls wire more of the skills' fields: read so (`spec.wired52`)
                if (better := better_wired(src, written, parts)) is not None:
                    parts, fmt = better[0], "yaml"
                    adopt(src, better[1])
                    by_calls_already = True
            if xml and xml_said is not None:  # not well-formed XML: read as text, and said (`spec.xml30`)
                src.warn(xml_said[0], xml_said[1], "spec.unread")
        elif toml:
            from orchestrator.spec.toml_form import read_toml

            parts = read_toml(src)
        elif hcl:
            from orchestrator.spec.hcl30 import read_hcl

            parts = read_hcl(src)
        elif lua:
            from orchestrator.spec.lua46 import read_lua

            parts = read_lua(src)
        elif puml:
            from orchestrator.spec.plantuml46 import read_plantuml

            parts = read_plantuml(src)
        elif mseq:
            from orchestrator.spec.sequence_mermaid47 import read_mermaid_sequence

            parts = read_mermaid_sequence(src)
        elif docker:
            from orchestrator.spec.dockerfile32 import read_dockerfile

            parts = read_dockerfile(src)
        else:
            from orchestrator.spec.yaml_form import read_yaml

            parts = read_yaml(src)
    except RecursionError:
        # a value nested thousands deep (`[[[[...`, a JSON block): refused, not a crash
        raise SpecError(Diagnostic(file=path, line=deepest_line(src.text), code="spec.too-deep",
                                   message="lists, mappings or braces are nested too deeply here "
                                           "to be read")) from None
    if not by_calls_already:  # a code file: read by its skill calls first (`spec.wired52.code_first`)
        from orchestrator.spec.anchored import ANCHORED_CODE
        from orchestrator.spec.recipes import find_recipe_file
        from orchestrator.spec.wired52 import adopt, code_first

        # a format's own reader read it: a Rakefile's or Gradle script's tasks (`spec.recipes`), a sheet, ...
        specific = coded is not None or script is not None or toml or hcl or lua or puml or mseq or docker or xml \
            or sheet_read or find_recipe_file(written) is not None
        anchored_read = not specific and any(w.code == ANCHORED_CODE for w in src.warnings)
        if str(format).lower() not in ("yaml", "yml", "json") and (
                first := code_first(src, written, parts, anchored_read, bool(specific))) is not None:
            parts, fmt = first[0], "yaml"
            adopt(src, first[1])
    return _finish(parts, src, fmt, sha256, written)


def _wired_text(src: Source) -> SpecParts | None:
    """Code-like text no detector claims, read by its skill calls (`spec.wired52`), its findings taken by `src`;
    None: the markdown readers read it as before."""
    from orchestrator.spec.linecap import markdown_lines
    from orchestrator.spec.wired52 import adopt, wired_text

    capped = Source(src.text, src.path, src.vocabulary)
    text = markdown_lines(capped)  # a line too long to read: blank, and a warning at it
    wired = wired_text(src, text)
    if wired is None:
        return None
    adopt(src, wired[1])  # its own line-1 warning says how the file was taken, not "read as markdown text"
    src.warnings[:0] = capped.warnings
    return wired[0]


def _finish(parts: SpecParts, src: Source, fmt: SpecFormat, sha256: str, written: str) -> WorkflowSpec:
    from orchestrator.spec.prose import read_step_texts
    from orchestrator.spec.structure import StepIndex

    if not check_sizes(parts, src):  # too many steps or fields: refused before anything else reads them
        src.raise_if_errors()
    from orchestrator.spec.branch_join import join_after_conditions
    from orchestrator.spec.condition_opening import read_openings
    from orchestrator.spec.condition_unhappened import resolve_named
    from orchestrator.spec.lead_condition import read_leads
    from orchestrator.spec.only_if_keys import read_condition_settings

    # `only_if = risk == high` in a section read anchored; `only_if: else`: the otherwise of the step before
    parts = parts.model_copy(update={"steps": read_condition_settings(parts.steps, src)})
    from orchestrator.spec.cue_notes import route_notes

    # "B - doesn't wait for A" under a cue grid: B's note (`spec.cue_notes`); "Steps 1 and 2 at the same time"
    from orchestrator.spec.salon38 import read_all_together
    from orchestrator.spec.steps_together import read_together

    # "(1 and 2 together, and 3 as well - nobody waits on anybody)": an aside of numbers, all start at once
    parts = parts.model_copy(update={"steps": tuple(read_all_together(list(parts.steps), src))})
    parts = parts.model_copy(update={"steps": tuple(read_together(route_notes(list(parts.steps), src), src))})
    from orchestrator.spec.start_together24 import read_starts

    # "doesn't need (1), fire it at the same time", "Q1 and Q2 ... both at once": starts said in words
    parts = parts.model_copy(update={"steps": tuple(read_starts(list(parts.steps), src))})
    from orchestrator.spec.at_once30 import read_at_once

    # "Do 1 and 2 at once, they're separate" in a step's own text: the steps' bare numbers
    parts = parts.model_copy(update={"steps": tuple(read_at_once(list(parts.steps), src))})
    from orchestrator.spec.together_note31 import read_notes

    # "Do 1 and 2 at once." in an intro, a footer or a comment: not in either step's own words
    parts = parts.model_copy(update={"steps": tuple(read_notes(list(parts.steps), src))})
    from orchestrator.spec.legal_prose29 import read_clause_order

    # "Following C.2 and C.4 the Lender shall ...": the steps those clause numbers label
    parts = parts.model_copy(update={"steps": tuple(read_clause_order(list(parts.steps), src))})
    from orchestrator.spec.choice_labels45 import read_choice_labels

    # "b) CAT -> ...", "c) DOG (anything that isn't a cat) -> ...": a value `species` lists, its other branch
    said_inputs = (*(parts.inputs or ()), *parts.inputs_said)
    parts = parts.model_copy(update={"steps": tuple(read_choice_labels(list(parts.steps), said_inputs, src))})
    parts = parts.model_copy(update={"steps": tuple(read_leads(list(parts.steps), src))})  # "## Score ≥ 70 → a human"
    from orchestrator.spec.heading_condition import read_heading_conditions

    # "## ③a Standard crates — only when ② says within_spec": the condition after a dash in a heading
    parts = parts.model_copy(update={"steps": tuple(read_heading_conditions(list(parts.steps), src))})
    from orchestrator.spec.h3_left31 import read_verdicts

    # "| 3 | fit-curve *(QC passed)* |", "(QC failed)": an earlier step's verdict in brackets on the step's line
    parts = parts.model_copy(update={"steps": tuple(read_verdicts(list(parts.steps), src))})
    from orchestrator.spec.grid_condition import read_grid_conditions

    # "C1  fix loudness - ONLY if A = off  loudness-fix", "C2  else: master as-is": a grid row's cell
    parts = parts.model_copy(update={"steps": tuple(read_grid_conditions(list(parts.steps), src))})
    from orchestrator.spec.form35 import read_row_asides, read_same_time_openers

    # "D. ORDER ... queen-order   ** ONLY if C says x **", "E. ... ** if NOT **": the aside after a row's skill
    parts = parts.model_copy(update={"steps": tuple(read_row_asides(list(parts.steps), src))})
    # "09:00  ...and at the SAME time check the weather": starts with the row before
    parts = parts.model_copy(update={"steps": tuple(read_same_time_openers(list(parts.steps), src))})
    from orchestrator.spec.sheet_flow32 import read_keyed_conditions

    # "Line 3a only if line 2 says in band; 3b is for everything else": a note under the grid keyed by row labels
    parts = parts.model_copy(update={"steps": tuple(read_keyed_conditions(list(parts.steps), src))})
    from orchestrator.spec.only_when import read_only_when

    # "only when → Extent & spine says more than 320 pages", "no precip -> ...": own words naming a step
    parts = parts.model_copy(update={"steps": tuple(read_only_when(list(parts.steps), src))})
    parts = parts.model_copy(update={"steps": tuple(read_openings(list(parts.steps), src))})  # "3) if not, ..."
    parts = parts.model_copy(update={"steps": tuple(resolve_named(list(parts.steps), src))})  # "D didn't happen"
    # "Either way, ... whichever you did": a join after branches the openings above made (`spec.branch_join`)
    parts = parts.model_copy(update={"steps": tuple(join_after_conditions(list(parts.steps), src))})
    from orchestrator.spec.join_ran import read_ran_joins

    # "crate_type + crates (whichever ③ ran)", "waits on B and whichever C ran": a group named by its mark
    parts = parts.model_copy(update={"steps": tuple(read_ran_joins(list(parts.steps), src))})
    from orchestrator.spec.sheet_flow32 import read_label_joins

    # "4 | Log entry (after 3a OR 3b) | log-entry": a grid row naming the two branches by their labels
    parts = parts.model_copy(update={"steps": tuple(read_label_joins(list(parts.steps), src))})
    from orchestrator.spec.h3_left31 import read_said_joins

    # "Step 5 runs after 3 or 4, whichever one happened." said outside the steps (`spec.h3_left31`)
    parts = parts.model_copy(update={"steps": tuple(read_said_joins(list(parts.steps), src))})
    from orchestrator.spec.assume_output24 import read_assumed

    # "assume we have 0 credits and keep going", `credits` an output of the step's skill: the value to go on with
    parts = parts.model_copy(update={"steps": tuple(read_assumed(list(parts.steps), src))})
    from orchestrator.spec.as_if30 import read_as_if

    # "carry on as if free_gb came back as 50", "pretend it returned 0": what the step came back with, to go on with
    parts = parts.model_copy(update={"steps": tuple(read_as_if(list(parts.steps), src))})
    from orchestrator.spec.carry_with50 import read_carried

    # "carry on with pairs [] and hours 0", both outputs of the step's skill: the value to go on with
    parts = parts.model_copy(update={"steps": tuple(read_carried(list(parts.steps), src))})
    from orchestrator.spec.assume_pairs30 import read_assumed_pairs

    # "assume dry, 10 degrees (surface dry, temp_c 10) and get on with it": the bracket's pairs to go on with
    parts = parts.model_copy(update={"steps": tuple(read_assumed_pairs(list(parts.steps), src))})
    from orchestrator.spec.fill_names30 import read_fill_names

    # "ROUNDS TONIGHT: ____" read by round-loader as `rounds`; "only when TEAMS SIGNED IN is more than 12 ->"
    filled, steps_filled = read_fill_names(parts.inputs, parts.steps, src)
    parts = parts.model_copy(update={"inputs": filled, "steps": tuple(steps_filled)})
    from orchestrator.spec.inputs38 import read_inputs38

    # `sw run x shop=inkwell-main since=$SINCE`, 'clinic is always "Harbour Street"': literals and inputs
    steps38, inputs38 = read_inputs38(parts.steps, parts.inputs, src)
    parts = parts.model_copy(update={"inputs": inputs38, "steps": tuple(steps38)})
    from orchestrator.spec.dot_notes47 import read_dot_notes

    # a DOT note node `site [shape=note, label="site = \"LP-2\""]; site -> wx;`: the literal of the steps it reaches
    parts = parts.model_copy(update={"steps": tuple(read_dot_notes(parts.steps, src))})
    from orchestrator.spec.dot_notes47 import read_dot_inputs

    # `NIGHT [shape=oval]; NIGHT -> q [label="night"];`: the workflow input NIGHT, q's `night`
    steps_dot, inputs_dot = read_dot_inputs(parts.steps, parts.inputs, src)
    parts = parts.model_copy(update={"inputs": inputs_dot, "steps": tuple(steps_dot)})
    from orchestrator.spec.dot_notes47 import read_dot_edges

    # `q -> vis [label="targets"]`: vis waits for q; the edge lines read, no reply of a pasted chat
    parts = parts.model_copy(update={"steps": tuple(read_dot_edges(parts.steps, parts.inputs, src))})
    if parts.inputs is None and not derive_inputs(parts.steps):
        from orchestrator.spec.declared_use52 import read_declared

        # `input Kickoff { siteCode: String! }`, `my $ward = shift @ARGV;`, `SET WARD=`: inputs declared their own way
        steps52, inputs52 = read_declared(parts.steps, src)
        if inputs52 is not None:
            parts = parts.model_copy(update={"inputs": inputs52, "steps": tuple(steps52)})
    # every step text the structure readers left: a policy, a check, or a warning
    success_checks = read_step_texts(parts.steps, src, StepIndex(parts.steps).resolve)
    from orchestrator.spec.whole_net import read_the_rest

    parts, success_checks = read_the_rest(parts, src, success_checks)  # the run's check and limit, said anywhere
    from orchestrator.spec.approval_hold import hold_unread_approvals

    # a person's approval in text no reader took: the step it guards waits for it, warned
    parts = parts.model_copy(update={"steps": hold_unread_approvals(parts.steps, src)})
    from orchestrator.spec.success_compare31 import read_compares

    # "the record count matches the number of items from 1": a check comparing two values, warned as not checked
    inputs = parts.inputs if parts.inputs is not None else derive_inputs(parts.steps)
    compares = read_compares(parts.steps, inputs, src)
    check_steps(parts.steps, parts.steps_line, src)
    check_references({s.id for s in parts.steps}, parts.contracts, parts.recovery,
                     parts.convergence, src)
    src.raise_if_errors()
    return WorkflowSpec(
        name=parts.name,
        title=parts.title,
        path=src.path,
        format=fmt,
        sha256=sha256,
        text=written,
        intent=parts.intent,
        inputs=inputs,
        steps=parts.steps,
        contracts=(*parts.contracts, *success_checks),
        state=parts.state,
        convergence=parts.convergence,
        recovery=parts.recovery,
        fallback=parts.fallback,
        retry=parts.retry,
        retry_where=parts.retry_where,
        timeout_s=parts.timeout_s,
        inputs_said=parts.inputs_said,
        inputs_prose=parts.inputs_prose,
        inputs_prose_fields=parts.inputs_prose_fields,
        inputs_prose_own=parts.inputs_prose_own,
        scenarios=parts.scenarios,
        compares=compares,
        readings=tuple(src.readings),
        unread=tuple(src.unread),
        warnings=src.sorted_warnings(),
    )
