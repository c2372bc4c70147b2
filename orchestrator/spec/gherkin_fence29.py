"""A Gherkin feature inside a markdown page, read as the `.feature` file is (`spec.gherkin`, `spec.gherkin28`).

    # Counter process                        a page's title and prose, read as ever
    ```gherkin                               ->  (blank)
    Feature: Intake                          ->  Intake.            (the page has a title: a sentence)
      Scenario: Weigh it                     ->  ## Step 1: Weigh it
        When weigh-box weighs the parcel     ->  When `weigh-box` weighs the parcel.
        And label-print prints the label     ->  ## Step 2: `label-print` prints the label
    ```                                      ->  (blank)

    # Returns desk                           ->  Feature: Returns desk   (a page with no Feature line)
    ## Scenario: Refund                      ->  Scenario: Refund
    - Given the clerk enters "order"         ->  Given the clerk enters "order"
    - When refund-card refunds it            ->  When refund-card refunds it

`fenced_feature`: the first ```gherkin / ```feature / ```cucumber fence (or a bare ``` fence) whose body is a
feature file is read with every rule a feature file has (each line naming a skill a step, a Background's
quoted names inputs, an Outline's Examples table a branch, comments its policies), its lines keeping their
line numbers in the page; the fence lines are blank, the page's other lines are read as ever.
A page with no `Feature:` line whose body is Scenarios of Given/When/Then lines (a `Scenario:` line, as a
heading or in bold or plain, and at least one When or Then line after it) is read as a feature whose title
is the page's `#` heading (or, with none, the first blank line before its first Scenario): `## Scenario:`
and `**Scenario:**` are Scenario lines, `- Given ...` bullets step lines. A page with steps of its own
(`## Step 2:` headings) is left as it is.
"""

from __future__ import annotations

from orchestrator.spec.gherkin import _rewrite, is_gherkin
from orchestrator.spec.gherkin28 import refine
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_FENCE = _rx(r"^\s{0,3}(?P<mark>```|~~~)[ \t]*+(?P<lang>[A-Za-z]*+)[ \t]*+$")
_LANGS = frozenset({"gherkin", "feature", "cucumber", ""})
# `## Scenario: x`, `**Scenario:** x`, `Scenario Outline: x`: a keyword line written as markdown
_KEYWORD = _rx(r"^(?P<indent>[ \t]*+)(?:#{1,6}[ \t]++)?(?:\*\*|__)?(?P<kw>Scenario(?:[ \t]+(?:Outline|Template))?|"
               r"Background|Examples|Scenarios|Example)(?:\*\*|__)?:(?:\*\*|__)?(?P<rest>.*+)$")
_BULLET_STEP = _rx(r"^(?P<indent>[ \t]*+)(?:[-*+][ \t]++|\d{1,3}[.)][ \t]++)(?P<step>(?:Given|When|Then|And|But)[ \t].*+)$")
_STEP = _rx(r"^[ \t]*+(?:[-*+][ \t]++)?(?:When|Then)[ \t]")
_FEATURE = _rx(r"^\s*+(?:Feature|Ability|Business\s++Need):")
_TITLE = _rx(r"^#[ \t]++(?P<title>\S.*+)$")
_OWN_STEPS = _rx(r"(?im)^#{1,6}[ \t]++step[ \t]++\d")


def fenced_feature(text: str, src: Source) -> tuple[str, list[int]] | None:
    """The page's markdown with its feature read, and each line's 0-based source line (module docstring);
    None when it holds no feature (or is a feature file, which `spec.gherkin` reads)."""
    if is_gherkin(text) or ("Scenario" not in text and "Example" not in text):
        return None
    lines = text.split("\n")
    fenced = _fenced(lines, src)
    if fenced is not None:
        return fenced
    return _bare(lines, src)


def _fenced(lines: list[str], src: Source) -> tuple[str, list[int]] | None:
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if m is None:
            i += 1
            continue
        end = next((j for j in range(i + 1, len(lines)) if lines[j].strip().startswith(m.group("mark"))), None)
        if end is None:
            return None
        inner = lines[i + 1:end]
        if m.group("lang").lower() in _LANGS and is_gherkin("\n".join(inner)):
            out, origin = refine(inner, _rewrite("\n".join(inner), src, first_line=i + 2).split("\n"), src,
                                 first_line=i + 2)
            if any(_TITLE.match(x) for x in lines[:i]):  # the page's title stays the title
                out = [x[2:].rstrip(".") + "." if x.startswith("# ") else x for x in out]
            text = [*lines[:i], "", *out, "", *lines[end + 1:]]
            return "\n".join(text), [*range(i), i, *origin, end, *range(end + 1, len(lines))]
        i = end + 1
    return None


def _bare(lines: list[str], src: Source) -> tuple[str, list[int]] | None:
    first = next((i for i, x in enumerate(lines) if (k := _KEYWORD.match(x)) and k.group("kw").startswith(
        ("Scenario", "Example"))), None)
    if first is None or any(_FEATURE.match(x) for x in lines) or _OWN_STEPS.search("\n".join(lines)):
        return None
    if not any(_STEP.match(x) for x in lines[first + 1:]):
        return None
    title = next((i for i in range(first) if _TITLE.match(lines[i])), None)
    if title is None:
        title = next((i for i in range(first) if not lines[i].strip()), None)
    if title is None:
        return None
    norm = list(lines)
    named = _TITLE.match(lines[title])
    norm[title] = f"Feature: {named.group('title') if named else src.path.rsplit('/', 1)[-1].rsplit('.', 1)[0]}"
    for i in range(title + 1, len(norm)):
        if (k := _KEYWORD.match(norm[i])) is not None:
            norm[i] = f"{k.group('indent')}{k.group('kw')}:{k.group('rest').rstrip('*_ ')}"
        elif (b := _BULLET_STEP.match(norm[i])) is not None:
            norm[i] = f"{b.group('indent')}{b.group('step')}"
    joined = "\n".join(norm)
    if not is_gherkin(joined):
        return None
    out, origin = refine(norm, _rewrite(joined, src).split("\n"), src)
    src.warn(first + 1, "the page's Scenarios of Given/When/Then lines read as a Gherkin feature (each line "
                        "naming a skill a step): to say so, write it in a ```gherkin fence or a .feature file",
             "spec.reading")
    return "\n".join(out), origin


_rx.save()
