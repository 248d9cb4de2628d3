"""Architecture rules that code review alone would let slip."""

import ast
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT as REPO
from tests.project.layers import LAYERS


def imported_roots(setup: str, forbidden: tuple[str, ...]) -> list[str]:
    """Run `setup` in a fresh interpreter; return the forbidden top-level packages it loaded."""
    loaded = f"{{m.split('.')[0] for m in sys.modules}} & {set(forbidden)!r}"
    code = f"import sys\n{setup}\nprint(','.join(sorted({loaded})))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return [name for name in result.stdout.strip().split(",") if name]


def test_the_api_never_imports_dagster_or_heavy_pipeline_libraries():
    setup = "from signet_api.app import create_app\ncreate_app()"
    assert imported_roots(setup, ("dagster", "umap", "numba", "igraph")) == []


def test_domain_modules_import_neither_dagster_nor_fastapi():
    setup = ("import signet_pipeline.recall.search, signet_pipeline.write.remember, signet_pipeline.recall.reads,"
             " signet_pipeline.ops.status, signet_pipeline.store.migrate, signet_pipeline.graph.knowledge,"
             " signet_pipeline.stages.extraction.batch, signet_pipeline.stages.communities")
    assert imported_roots(setup, ("dagster", "fastapi", "starlette")) == []


def test_the_check_detects_a_forbidden_import():
    assert imported_roots("import json", ("json", "dagster")) == ["json"]


# -- the package layers of signet_pipeline, from the bottom up ------------------------------------

ROOT = REPO / "signet_pipeline"
LAYER_OF = {unit: i for i, units in enumerate(LAYERS) for unit in units}
MAX_MODULES_PER_FOLDER = 20


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def unit(module: str) -> str:
    """signet_pipeline.<unit>...: the top-level package or module a module belongs to."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def import_edges() -> tuple[set[str], set[tuple[str, str]], dict[str, set[str]]]:
    """(every module, (importer, imported) pairs inside signet_pipeline, module -> external roots)."""
    files = sorted(ROOT.rglob("*.py"))
    modules = {module_name(f) for f in files}
    edges, external = set(), {}
    for f in files:
        me = module_name(f)
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [f"{node.module}.{a.name}" for a in node.names]
                found = [n for n in names if n in modules] or [node.module]
            elif isinstance(node, ast.Import):
                found = [a.name for a in node.names]
            else:
                continue
            for name in found:
                if name.startswith("signet_pipeline"):
                    target = name if name in modules else name.rsplit(".", 1)[0]
                    edges.add((me, target))
                else:
                    external.setdefault(me, set()).add(name.split(".")[0])
    return modules, edges, external


def violations(edges: set[tuple[str, str]]) -> list[str]:
    """Imports that run up the layers, or sideways between two packages of one layer."""
    out = []
    for a, b in sorted(edges):
        ua, ub = unit(a), unit(b)
        if ua == ub:
            continue
        la, lb = LAYER_OF[ua], LAYER_OF[ub]
        if la < lb or (la == lb and la > 0):
            out.append(f"{a} -> {b} ({ua} is layer {la}, {ub} layer {lb})")
    return out


def cycles(edges: set[tuple[str, str]]) -> list[list[str]]:
    graph: dict[str, list[str]] = {}
    for a, b in edges:
        graph.setdefault(a, []).append(b)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, []):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in list(graph):
        if v not in index:
            visit(v)
    return found


def test_every_unit_has_a_layer():
    modules, _, _ = import_edges()
    assert {unit(m) for m in modules} - set(LAYER_OF) == set()


def test_no_import_runs_up_the_layers_or_across_one():
    _, edges, _ = import_edges()
    assert violations(edges) == []


def test_the_layer_check_catches_an_upward_and_a_sideways_import():
    upward = {("signet_pipeline.store.jobs", "signet_pipeline.recall.search")}
    sideways = {("signet_pipeline.recall.search", "signet_pipeline.write.remember")}
    within = {("signet_pipeline.recall.search", "signet_pipeline.recall.temporal")}
    assert len(violations(upward)) == 1 and len(violations(sideways)) == 1 and violations(within) == []


def test_no_import_circles():
    _, edges, _ = import_edges()
    assert cycles(edges) == []
    assert cycles({("a", "b"), ("b", "a")}) == [["a", "b"]]


def test_only_defs_imports_dagster_and_nothing_imports_fastapi():
    _, _, external = import_edges()
    assert sorted(m for m, roots in external.items() if "dagster" in roots and unit(m) != "defs") == []
    assert sorted(m for m, roots in external.items() if roots & {"fastapi", "starlette"}) == []


def test_no_folder_holds_more_than_twenty_modules():
    crowded = {str(d.relative_to(ROOT.parent)): n for d in [ROOT, *ROOT.rglob("*")] if d.is_dir()
               and (n := len(list(d.glob("*.py")))) > MAX_MODULES_PER_FOLDER}
    assert crowded == {}


# -- inside defs: one folder per domain; a domain reaches another only through the shared pieces ---

DEFS_SHARED = {"resources", "metadata", "queue", "store"}  # what every domain of defs/ may import


def defs_part(module: str) -> str | None:
    """signet_pipeline.defs.<part>...: the domain folder or shared module a defs module belongs to."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "defs" else None


def crossed_domains(edges: set[tuple[str, str]]) -> list[str]:
    """Imports from one defs domain into another's modules; definitions.py may import each
    domain's package (its `defs`), nothing deeper."""
    out = []
    for a, b in sorted(edges):
        pa, pb = defs_part(a), defs_part(b)
        if pa is None or pb is None or pa == pb or pb in DEFS_SHARED:
            continue
        if pa == "definitions" and b == f"signet_pipeline.defs.{pb}":
            continue
        out.append(f"{a} -> {b}")
    return out


def test_no_defs_domain_imports_another_domains_modules():
    _, edges, _ = import_edges()
    assert crossed_domains(edges) == []


def test_the_domain_check_catches_a_crossing_and_allows_the_shared_pieces():
    crossing = {("signet_pipeline.defs.graph.assets", "signet_pipeline.defs.extraction.results"),
                ("signet_pipeline.defs.definitions", "signet_pipeline.defs.extraction.assets")}
    allowed = {("signet_pipeline.defs.graph.assets", "signet_pipeline.defs.metadata"),
               ("signet_pipeline.defs.documents.sensors", "signet_pipeline.defs.queue.sensors"),
               ("signet_pipeline.defs.definitions", "signet_pipeline.defs.graph"),
               ("signet_pipeline.defs.graph.jobs", "signet_pipeline.defs.graph.assets")}
    assert len(crossed_domains(crossing)) == 2 and crossed_domains(allowed) == []


def test_every_defs_package_says_what_it_holds():
    bare = [str(p.relative_to(ROOT.parent)) for p in (ROOT / "defs").rglob("__init__.py")
            if not ast.get_docstring(ast.parse(p.read_text()))]
    assert bare == []


def test_installed_packages_never_import_what_is_not_installed():
    """The wheel ships pyproject's `packages`; evalsets/, bench/ and tests/ stay in the checkout."""
    import tomllib

    project = REPO
    config = tomllib.loads((project / "pyproject.toml").read_text())
    shipped = config["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"]
    assert "evalsets" not in shipped and "signet_eval" in shipped
    offending = []
    for package in shipped:
        for path in (project / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else [])
                offending += [f"{path.relative_to(project)}: {n}" for n in names
                              if n.split(".")[0] in {"evalsets", "bench", "tests"}]
    assert offending == []
