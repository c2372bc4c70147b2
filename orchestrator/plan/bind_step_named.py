"""A skill input the step's text fills with an earlier step's output it names under a longer name.

    2. Check the vans: `van-roster` on the van sheet -> `available_vans`, `van_count`.
    4. `build-runs` takes all the matches plus `available_vans` ...     skill input `vans`

The workflow has an input `vans` too (step 2 reads it), so by name alone step 4's `vans` is the
workflow input: the raw van sheet, not the vans step 2 found free. The text says which: it names
`available_vans`, an output of a step before, whose name is close to `vans` (`near_input.close_names`:
the same words, a plural, or a run of words at the start or end). Such an input is bound to that
output instead, warned at the step's line with how it was read and how to take the workflow input.

Only a skill input bound to the workflow input of its own name (or to the output of its own name of
another step, the nearest: "pushes the `ok_markets` from step 4" is not step 2's `markets`), only names the text writes as names
(in backticks, or with `_` or a case change), only an output one nearest step before gives, and only
when exactly one such name is close and the text does not write the input's own name as well.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, MutableMapping

from orchestrator.errors import Diagnostic
from orchestrator.plan.location import from_spec, warning_at
from orchestrator.plan.model import InputBinding, Provenance
from orchestrator.plan.near_input import close_names
from orchestrator.plan.wanted import mentioned
from orchestrator.spec.model import StepSpec
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_TICKED = _rx(r"`([A-Za-z_][A-Za-z0-9_]*+)`")
_WRITTEN = _rx(r"(?<![A-Za-z0-9_`])([A-Za-z][A-Za-z0-9]*+(?:_[A-Za-z0-9]++)++)(?![A-Za-z0-9_])")


def _written_names(text: str) -> list[str]:
    """The names the text writes as names: in backticks, or with an underscore."""
    return list(dict.fromkeys([*_TICKED.findall(text), *_WRITTEN.findall(text)]))


def bind_step_named(step: StepSpec, reads: Iterable[str], text: str, makers: Mapping[str, frozenset[str]],
                    nearest: Callable[[str], list[str]], rebind: Callable[[str, str], InputBinding | None],
                    bindings: MutableMapping[str, InputBinding], provenance: MutableMapping[str, Provenance],
                    path: str) -> list[Diagnostic]:
    """Each input in `reads` bound to the workflow input of its name that the text points elsewhere for
    (module docstring): bound by `rebind(field)` (the binding of that output, or None), warned.
    `nearest(field)` is the list of nearest earlier steps that output `field`."""
    found: list[Diagnostic] = []
    written = [w for w in _written_names(text) if w in makers]
    if not written:
        return found
    reads = list(reads)
    taken = set(reads)  # an output the skill reads under its own name is that input's, no other's
    for name in reads:
        binding = bindings.get(name)
        own_output = binding is not None and binding.source == "step" and binding.pointer == f"/{name}" \
            and not binding.gather  # "pushes the `ok_markets` from step 4": not step 2's `markets` (`plan.h3_left31`)
        if binding is None or (not own_output and (binding.source != "input" or binding.name != name or binding.pointer)):
            continue
        close = [w for w in written if w != name and w not in taken and close_names(name, w)]
        if len(close) != 1:
            continue
        field = close[0]
        if mentioned(text.replace(field, " "), [name]):  # "`vans` and `available_vans`": the text says both
            continue
        near = nearest(field)
        if len(near) != 1 or (own_output and near[0] == binding.step):
            continue
        made = rebind(near[0], field)
        if made is None:
            continue
        bindings[name] = made.model_copy(update={"optional": binding.optional})
        provenance[f"inputs.{name}"] = from_spec(step.where, f"text names it: {near[0]}'s `{field}`, close to "
                                                             f"`{name}` (not the workflow input `{name}`)")
        bindings.pop(field, None)
        provenance.pop(f"inputs.{field}", None)
        found.append(warning_at(step.where, path, f"{step.id} ({step.name}): its skill reads `{name}`; the text "
                                f"names `{field}`, an output of {near[0]}, whose name is close: it is given that "
                                f"output, not the workflow input `{name}`. If the workflow input is meant, write "
                                f"`{name} (workflow input)`; to say this plainly write `{name} = {field}` in the step",
                                "plan.input-step-named"))
    return found


_rx.save()
