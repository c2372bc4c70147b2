"""A pseudocode loop over a symbol its input lines name (`\\ForAll{$s \\in S$}` under `\\Require samples $S$`):
a For each over that workflow input (`spec.markup37`, `plan.fan_words`), in a lab protocol, a runbook
and an algorithm2e block; and the loops whose symbol no input line names, still warned."""

from __future__ import annotations

from plan_factory import FakeCatalog, loop_of, obj, plan_of_text, skill, step_by_skill

A = {"type": "array"}
CATALOG = FakeCatalog(
    skill("measure-sample", input_schema=obj(("sample",), sample="string"),
          output_schema=obj(("reading",), reading="number")),
    skill("plot-curve", input_schema=obj(("readings",), readings=A), output_schema=obj(("figure",), figure="string")),
    skill("drain-host", input_schema=obj(("fqdn", "window"), fqdn="string", window="string"),
          output_schema=obj(("drained",), drained="boolean")),
    skill("ship-order", input_schema=obj(("address", "weight_kg"), address="string", weight_kg="number"), output_schema=obj(("label",), label="string")),
)

_LAB = r"""% assay.tex -- plate reader protocol, section 2
% inputs: samples = list of {well, sample_id}; plate_id (we use P-7); operator (#lab)

\begin{algorithm}[h]
\begin{algorithmic}[1]
\Require samples $S$, plate $p$
\ForAll{$s \in S$} \Comment{wells are independent}
  \State $m_s \gets$ \Call{measure-sample}{$s$}
\EndFor
\State $f \gets$ \Call{plot-curve}{$\{m_s\}_{s \in S}$}
\end{algorithmic}
\end{algorithm}
"""

_RUNBOOK = """# Drain the rack before the firmware push

## Inputs
- hosts: the rack's hosts, each with its fqdn
- window: the maintenance window

## Procedure
Given: hosts H, window w

for h in H:
    `drain-host` on h within w
"""

_ALGORITHM2E = r"""% fulfilment.tex (algorithm2e)
% inputs: orders = list of {address, weight_kg}; carrier (we use dhl)

\begin{algorithm}
\KwIn{orders $O$}
\ForEach{$o \in O$}{
  \Call{ship-order}{$o$}
}
\end{algorithm}
"""


def test_a_lab_protocols_loop_over_the_symbol_of_its_require_line_loops_over_that_input_and_is_gathered() -> None:
    plan = plan_of_text(_LAB, CATALOG)
    measure = step_by_skill(plan, "measure-sample")
    assert loop_of(measure) == ("sample", None, "")
    assert measure.for_each.source.name == "samples"
    readings = step_by_skill(plan, "plot-curve").inputs["readings"]
    assert (readings.step, readings.gather) == (measure.id, True)
    assert next(w for w in plan.warnings if w.code == "fan-out-read").line == 7


def test_a_runbooks_plain_for_line_over_a_given_symbol_loops_over_that_input() -> None:
    plan = plan_of_text(_RUNBOOK, CATALOG)
    drain = step_by_skill(plan, "drain-host")
    assert drain.for_each is not None and drain.for_each.source.name == "hosts"
    assert drain.inputs["fqdn"].source == "item" and drain.inputs["window"].name == "window"


def test_an_algorithm2e_foreach_over_a_kwin_symbol_loops_over_that_input() -> None:
    plan = plan_of_text(_ALGORITHM2E, CATALOG)
    ship = step_by_skill(plan, "ship-order")
    assert ship.for_each is not None and ship.for_each.source.name == "orders"
    assert (ship.inputs["address"].source, ship.inputs["address"].pointer) == ("item", "/address")


def test_a_loop_over_a_symbol_no_input_line_names_runs_once_and_is_warned() -> None:
    plan = plan_of_text(_LAB.replace("\\Require samples $S$, plate $p$\n", ""), CATALOG)
    assert step_by_skill(plan, "measure-sample").for_each is None
    assert any(w.code == "spec.each-not-read" and w.line == 6 for w in plan.warnings)


def test_a_symbol_named_for_an_input_not_declared_is_no_loop() -> None:
    plan = plan_of_text(_ALGORITHM2E.replace("\\KwIn{orders $O$}", "\\KwIn{parcels $O$}"), CATALOG)
    assert step_by_skill(plan, "ship-order").for_each is None
    assert any(w.code == "spec.each-not-read" for w in plan.warnings)
