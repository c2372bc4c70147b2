"""The plan's graph as inline SVG: a layered layout computed here, nodes coloured by status.

No Mermaid, no script, nothing fetched: the HTML report draws this SVG as it is.
The layout is the classic layered one (Sugiyama):

1. layers: a step sits one layer below the deepest step it depends on;
2. an edge that skips layers passes through a virtual point on each layer between
   (so that edges are ordered and routed like nodes);
3. order within a layer: a few sweeps down and up, sorting by the mean position of
   the neighbours in the layer above (below), which removes most crossings;
4. x: each node is pulled to the mean x of its neighbours above, then overlaps are
   pushed apart left to right and the layer is centred;
5. edges are smooth curves through their virtual points; a validator's feedback
   loop back to its producer is a dashed curve on the right.

Every text is escaped; a node's `<title>` is its tooltip and the node links to the
step's section of the report. Plans beyond `MAX_STEPS` steps are not drawn (the
step table and the Mermaid source still show them); virtual points are capped at
`MAX_VIRTUAL`, past which long edges are drawn straight.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape

from orchestrator.report.mermaid import STATUS_STYLES

MAX_STEPS = 400
MAX_VIRTUAL = 4000
SWEEPS = 4
NODE_W = 228.0
NODE_H = 66.0
VIRTUAL_W = 14.0
GAP_X = 28.0
GAP_Y = 54.0
MARGIN = 16.0
CHARS = 33  # of a line of text in a node


def palette(status: str) -> dict[str, str]:
    """The fill, stroke, text colour (and dash pattern) of a status, as in the Mermaid graph."""
    style = STATUS_STYLES.get(status, STATUS_STYLES["pending"])
    return dict(part.split(":", 1) for part in style.split(",") if ":" in part)


@dataclass(frozen=True)
class GraphStep:
    """What the graph shows of a step."""

    step_id: str
    depends_on: tuple[str, ...]
    status: str
    lines: tuple[str, ...]  # the text in the box (id, name, figures)
    tooltip: str
    href: str
    feedback_to: str | None = None


@dataclass
class _Node:
    key: str  # a step id, or a virtual point's own key
    layer: int
    real: bool
    width: float
    up: list[str] = field(default_factory=list)  # neighbours in the layer above
    down: list[str] = field(default_factory=list)
    x: float = 0.0


@dataclass(frozen=True)
class Layout:
    """Where everything goes: node centres, each edge's points, the drawing's size."""

    centres: dict[str, tuple[float, float]]
    edges: tuple[tuple[str, str, tuple[tuple[float, float], ...]], ...]  # (from, to, points)
    width: float
    height: float


def layout(steps: Sequence[GraphStep]) -> Layout:
    ids = [s.step_id for s in steps]
    known = set(ids)
    deps = {s.step_id: [d for d in s.depends_on if d in known] for s in steps}
    layer_of = _layers(ids, deps)
    nodes: dict[str, _Node] = {sid: _Node(sid, layer_of[sid], True, NODE_W) for sid in ids}
    chains: list[tuple[str, str, list[str]]] = []  # (from, to, keys of the points between)
    budget = MAX_VIRTUAL
    for sid in ids:
        for dep in deps[sid]:
            span = layer_of[sid] - layer_of[dep]
            between: list[str] = []
            if 1 < span <= budget:
                budget -= span - 1
                for depth in range(layer_of[dep] + 1, layer_of[sid]):
                    key = f"\0{dep}\0{sid}\0{depth}"
                    nodes[key] = _Node(key, depth, False, VIRTUAL_W)
                    between.append(key)
            path = [dep, *between, sid]
            for upper, lower in itertools.pairwise(path):
                if nodes[lower].layer == nodes[upper].layer + 1:
                    nodes[upper].down.append(lower)
                    nodes[lower].up.append(upper)
            chains.append((dep, sid, between))
    layers = _order(nodes)
    _place(layers, nodes)
    height = MARGIN * 2 + len(layers) * NODE_H + max(0, len(layers) - 1) * GAP_Y
    width = max((n.x + n.width / 2 for n in nodes.values()), default=0.0) + MARGIN
    if any(s.feedback_to in known for s in steps):
        width += 70.0
    centres = {sid: (nodes[sid].x, _y(nodes[sid].layer)) for sid in ids}
    edges = []
    for dep, sid, between in chains:
        points = [(centres[dep][0], centres[dep][1] + NODE_H / 2)]
        points += [(nodes[k].x, _y(nodes[k].layer)) for k in between]
        points.append((centres[sid][0], centres[sid][1] - NODE_H / 2))
        edges.append((dep, sid, tuple(points)))
    return Layout(centres=centres, edges=tuple(edges), width=max(width, NODE_W + 2 * MARGIN), height=height)


def _y(layer: int) -> float:
    return MARGIN + layer * (NODE_H + GAP_Y) + NODE_H / 2


def _layers(ids: list[str], deps: Mapping[str, list[str]]) -> dict[str, int]:
    """Longest path from the roots; a step in a cycle (none in a valid plan) stays on layer 0."""
    layer: dict[str, int] = {}
    waiting = {sid: len(deps[sid]) for sid in ids}
    users: dict[str, list[str]] = {sid: [] for sid in ids}
    for sid in ids:
        for dep in deps[sid]:
            users[dep].append(sid)
    ready = [sid for sid in ids if waiting[sid] == 0]
    while ready:
        sid = ready.pop()
        layer[sid] = max((layer[d] + 1 for d in deps[sid]), default=0)
        for user in users[sid]:
            waiting[user] -= 1
            if waiting[user] == 0:
                ready.append(user)
    return {sid: layer.get(sid, 0) for sid in ids}


def _order(nodes: dict[str, _Node]) -> list[list[str]]:
    """Each layer's keys, left to right, after the barycentre sweeps."""
    depth = max((n.layer for n in nodes.values()), default=-1) + 1
    layers: list[list[str]] = [[] for _ in range(depth)]
    for key, node in nodes.items():  # plan order first (virtual points after the steps)
        layers[node.layer].append(key)
    for _ in range(SWEEPS):
        for i in range(1, depth):
            _sort_by_neighbours(layers[i], layers[i - 1], nodes, "up")
        for i in range(depth - 2, -1, -1):
            _sort_by_neighbours(layers[i], layers[i + 1], nodes, "down")
    return layers


def _sort_by_neighbours(layer: list[str], other: list[str], nodes: dict[str, _Node], side: str) -> None:
    position = {key: i for i, key in enumerate(other)}
    keys: dict[str, float] = {}
    for i, key in enumerate(layer):
        near = [position[n] for n in getattr(nodes[key], side) if n in position]
        keys[key] = sum(near) / len(near) if near else float(i)
    layer.sort(key=keys.__getitem__)


def _place(layers: list[list[str]], nodes: dict[str, _Node]) -> None:
    """x of every node: packed, then each layer pulled under its neighbours above."""
    widest = 0.0
    for layer in layers:
        x = MARGIN
        for key in layer:
            node = nodes[key]
            node.x = x + node.width / 2
            x += node.width + GAP_X
        widest = max(widest, x - GAP_X + MARGIN)
    for layer in layers[1:]:
        for key in layer:
            node = nodes[key]
            above = [nodes[n].x for n in node.up]
            if above:
                node.x = sum(above) / len(above)
        _spread(layer, nodes)
    # the roots over what they feed
    if len(layers) > 1:
        for key in layers[0]:
            node = nodes[key]
            below = [nodes[n].x for n in node.down]
            if below:
                node.x = sum(below) / len(below)
        _spread(layers[0], nodes)
    low = min((nodes[k].x - nodes[k].width / 2 for layer in layers for k in layer), default=MARGIN)
    for node in nodes.values():
        node.x += MARGIN - low


def _spread(layer: list[str], nodes: dict[str, _Node]) -> None:
    """Push overlapping nodes of a layer apart (keeping their order), then re-centre the layer
    on where its nodes wanted to be."""
    if not layer:
        return
    wanted = sum(nodes[k].x for k in layer) / len(layer)
    previous: _Node | None = None
    for key in layer:
        node = nodes[key]
        if previous is not None:
            least = previous.x + previous.width / 2 + GAP_X + node.width / 2
            node.x = max(node.x, least)
        previous = node
    shift = wanted - sum(nodes[k].x for k in layer) / len(layer)
    for key in layer:
        nodes[key].x += shift


# -- drawing ------------------------------------------------------------------------


def _fit(text: str, chars: int = CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= chars else text[: chars - 1] + "…"


def _curve(points: Sequence[tuple[float, float]]) -> str:
    (x, y), rest = points[0], points[1:]
    out = [f"M{x:.1f},{y:.1f}"]
    for nx, ny in rest:
        mid = (ny - y) / 2
        out.append(f"C{x:.1f},{y + mid:.1f} {nx:.1f},{ny - mid:.1f} {nx:.1f},{ny:.1f}")
        x, y = nx, ny
    return " ".join(out)


def render_graph_svg(steps: Sequence[GraphStep]) -> str:
    """The graph as one `<svg>` element, or a `<p>` saying why it is not drawn."""
    if not steps:
        return '<p class="muted">The plan has no steps.</p>'
    if len(steps) > MAX_STEPS:
        return (f'<p class="muted">The graph of {len(steps)} steps is not drawn (more than {MAX_STEPS}); '
                "the step table and the Mermaid source below show them.</p>")
    drawn = layout(steps)
    by_id = {s.step_id: s for s in steps}
    out = [
        f'<svg class="graph" role="img" aria-label="the plan\'s graph" '
        f'width="{drawn.width:.0f}" height="{drawn.height:.0f}" viewBox="0 0 {drawn.width:.0f} {drawn.height:.0f}">',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#777"/></marker></defs>',
    ]
    for dep, sid, points in drawn.edges:
        out.append(f'<path class="edge" data-from="{escape(dep)}" data-to="{escape(sid)}" d="{_curve(points)}" '
                   'fill="none" stroke="#888" stroke-width="1.4" marker-end="url(#arrow)"/>')
    for s in steps:
        target = by_id.get(s.feedback_to or "")
        if target is None:
            continue
        x1, y1 = drawn.centres[s.step_id]
        x2, y2 = drawn.centres[target.step_id]
        right = max(x1, x2) + NODE_W / 2 + 60
        out.append(
            f'<path class="edge feedback" data-from="{escape(s.step_id)}" data-to="{escape(target.step_id)}" '
            f'd="M{x1 + NODE_W / 2:.1f},{y1:.1f} C{right:.1f},{y1:.1f} {right:.1f},{y2:.1f} '
            f'{x2 + NODE_W / 2:.1f},{y2:.1f}" fill="none" stroke="#5e35b1" stroke-width="1.4" '
            'stroke-dasharray="5 4" marker-end="url(#arrow)"><title>feedback: the validator sends its findings '
            "back</title></path>"
        )
    for s in steps:
        out.append(_node(s, *drawn.centres[s.step_id]))
    out.append("</svg>")
    return "\n".join(out)


def _node(s: GraphStep, cx: float, cy: float) -> str:
    colours = palette(s.status)
    dash = f' stroke-dasharray="{escape(colours["stroke-dasharray"])}"' if "stroke-dasharray" in colours else ""
    stroke_width = escape(colours.get("stroke-width", "1.5px").removesuffix("px"))
    x, y = cx - NODE_W / 2, cy - NODE_H / 2
    text_colour = escape(colours.get("color", "#000"))
    lines = []
    for i, line in enumerate(s.lines[:3]):
        weight = ' font-weight="600"' if i == 0 else ""
        lines.append(f'<text x="{cx:.1f}" y="{y + 19 + i * 17:.1f}" text-anchor="middle" fill="{text_colour}"'
                     f"{weight}>{escape(_fit(line))}</text>")
    return (
        f'<a class="node-link" href="{escape(s.href)}"><g class="node" data-step="{escape(s.step_id)}" '
        f'data-status="{escape(s.status)}"><title>{escape(s.tooltip)}</title>'
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{NODE_W:.0f}" height="{NODE_H:.0f}" rx="7" '
        f'fill="{escape(colours.get("fill", "#fff"))}" stroke="{escape(colours.get("stroke", "#999"))}" '
        f'stroke-width="{stroke_width}"{dash}/>' + "".join(lines) + "</g></a>"
    )
