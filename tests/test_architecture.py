"""Dependencies point inward (STYLE.md): the rules core and the post parser stay pure, and the
service layer knows nothing of Discord or SQLAlchemy.

Each check imports every module of a package in a fresh interpreter and looks at what got loaded,
so an indirect import (through a helper module) is caught too.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

_PROBE = """
import importlib, json, pkgutil, sys
package = importlib.import_module({package!r})
for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
    importlib.import_module(info.name)
print(json.dumps(sorted({{name.split(".")[0] for name in sys.modules}})))
"""

IO_AND_ADAPTERS = {"discord", "sqlalchemy", "aiohttp", "asyncpg", "aiosqlite", "alembic",
                   "starlette", "uvicorn", "jinja2"}


def loaded_top_level_modules(package: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", _PROBE.format(package=package)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return set(json.loads(out.strip().splitlines()[-1]))


def loaded_fappo_modules(package: str) -> set[str]:
    probe = _PROBE.replace(
        'name.split(".")[0] for name in sys.modules',
        'name for name in sys.modules if name.startswith("fappo_bot.")',
    )
    out = subprocess.run(
        [sys.executable, "-c", probe.format(package=package)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return set(json.loads(out.strip().splitlines()[-1]))


@pytest.mark.parametrize(
    "package", ["fappo_bot.rules", "fappo_bot.posting", "fappo_bot.rules_xp", "fappo_bot.sheets",
                "fappo_bot.posting_xp"]
)
def test_core_packages_import_no_io_no_asyncio(package: str) -> None:
    loaded = loaded_top_level_modules(package)
    assert not (loaded & (IO_AND_ADAPTERS | {"asyncio"})), loaded & (IO_AND_ADAPTERS | {"asyncio"})


@pytest.mark.parametrize(
    "package", ["fappo_bot.rules", "fappo_bot.posting", "fappo_bot.rules_xp", "fappo_bot.sheets",
                "fappo_bot.posting_xp"]
)
def test_core_packages_import_no_outer_layer(package: str) -> None:
    outer = ("fappo_bot.service", "fappo_bot.storage", "fappo_bot.discord", "fappo_bot.console",
             "fappo_bot.web")
    loaded = loaded_fappo_modules(package)
    assert not [m for m in loaded if m.startswith(outer)]


def test_the_xp_renderings_are_pure() -> None:
    """`render_xp` (a module, shared by the table, the bot and `fappo-bot odds`) loads no I/O,
    no asyncio, nothing of an outer layer and nothing of FAPPO's rules."""
    probe = ("import json, sys, fappo_bot.render_xp; "
             "print(json.dumps(sorted(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True,
                         text=True).stdout
    loaded = set(json.loads(out.strip().splitlines()[-1]))
    assert not {m.split(".")[0] for m in loaded} & (IO_AND_ADAPTERS | {"asyncio"})
    outer = ("fappo_bot.service", "fappo_bot.storage", "fappo_bot.discord", "fappo_bot.console",
             "fappo_bot.rules.", "fappo_bot.posting")
    assert not [m for m in loaded if m.startswith(outer)]


def test_service_layer_knows_nothing_of_discord_or_sqlalchemy() -> None:
    loaded = loaded_top_level_modules("fappo_bot.service")
    assert not (loaded & IO_AND_ADAPTERS), loaded & IO_AND_ADAPTERS
    fappo = loaded_fappo_modules("fappo_bot.service")
    assert not [m for m in fappo if m.startswith(("fappo_bot.storage", "fappo_bot.discord",
                                                  "fappo_bot.web"))]


def test_the_campaign_page_is_an_adapter_of_the_service() -> None:
    """`web` (the campaign page) reads the service's views: it loads no other adapter, no
    storage and no rules of its own (the views bring what they need), and no SQL."""
    loaded = loaded_top_level_modules("fappo_bot.web")
    assert not loaded & {"discord", "sqlalchemy", "aiosqlite", "asyncpg", "alembic", "rich"}
    fappo = loaded_fappo_modules("fappo_bot.web")
    assert not [m for m in fappo if m.startswith(
        ("fappo_bot.storage", "fappo_bot.discord", "fappo_bot.console"))]
    web = Path(__file__).resolve().parent.parent / "fappo_bot" / "web"
    for module in web.glob("*.py"):
        text = module.read_text(encoding="utf-8")
        assert "fappo_bot.rules" not in text.replace("fappo_bot.rules_xp", ""), module
        assert "select(" not in text and "sqlalchemy" not in text, module


def test_the_notices_words_load_no_adapter() -> None:
    """`render` (the notices' words) is shared by every adapter and by the service: it
    loads neither an adapter nor storage."""
    loaded = loaded_top_level_modules("fappo_bot.render")
    assert not (loaded & IO_AND_ADAPTERS), loaded & IO_AND_ADAPTERS
    fappo = loaded_fappo_modules("fappo_bot.render")
    assert not [m for m in fappo if m.startswith(
        ("fappo_bot.storage", "fappo_bot.discord", "fappo_bot.console", "fappo_bot.web"))]


def test_building_the_cli_loads_no_adapter() -> None:
    """`fappo-bot adjudicate` must stay cheap: building the argument parser imports no adapter."""
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, json; from fappo_bot.cli import build_parser; build_parser(); "
            "print(json.dumps(sorted({n.split('.')[0] for n in sys.modules})))",
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    loaded = set(json.loads(out.strip().splitlines()[-1]))
    assert not (loaded & {"discord", "sqlalchemy", "alembic", "rich"}), loaded


def test_adjudicate_loads_only_what_it_runs() -> None:
    """`fappo-bot adjudicate` on a turn case pays at start for its own imports only: no
    adapter, no other subcommand's module, and no post language when no case has a post."""
    case = Path(__file__).resolve().parent.parent / "examples" / "skirmish.yaml"
    probe = ("import sys, json; from fappo_bot.cli import main; "
             f"code = main(['adjudicate', {str(case)!r}]); "
             "print(json.dumps([code, sorted(sys.modules)]))")
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True,
                         text=True).stdout
    code, loaded = json.loads(out.strip().splitlines()[-1])
    assert code == 0, out
    assert not {m.split(".")[0] for m in loaded} & (IO_AND_ADAPTERS | {"rich", "asyncio"})
    outer = ("fappo_bot.service", "fappo_bot.storage", "fappo_bot.discord", "fappo_bot.console",
             "fappo_bot.settings", "fappo_bot.posting")
    assert not [m for m in loaded if m.startswith(outer)], [m for m in loaded
                                                            if m.startswith(outer)]


# Import loops ("no hidden circles"). A module's imports are read from its source, so
# the check costs no import and sees every module, run or not.

PACKAGE_ROOT = Path(__file__).resolve().parent.parent / "fappo_bot"

#: Loops through imports inside functions that are still to be removed; empty this as they go.
#: Each entry is the set of modules of one loop; a loop among fewer of them still passes, any
#: other loop fails. (The local table's were the last: its commands are one explicit table now.)
KNOWN_HIDDEN_LOOPS: tuple[frozenset[str], ...] = ()


def _module_files() -> dict[str, tuple[Path, str]]:
    """Every module of fappo_bot -> (its file, the package its relative imports start from)."""
    found: dict[str, tuple[Path, str]] = {}
    for path in PACKAGE_ROOT.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE_ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
            package = ".".join(parts)
        else:
            package = ".".join(parts[:-1])
        found[".".join(parts)] = (path, package)
    return found


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.Module, *, hidden: bool) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements that run when the module is imported; with `hidden`, also those
    inside functions and `if TYPE_CHECKING:` blocks (a loop that waits for a call is a loop)."""
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
            continue
        if not hidden and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        if not hidden and isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def import_graph(*, hidden: bool) -> dict[str, set[str]]:
    """Module -> the fappo_bot modules it imports. `from package import name` counts as an
    import of the submodule when `name` is one, else of the package (its `__init__`)."""
    modules = _module_files()
    graph: dict[str, set[str]] = {}
    for name, (path, package) in modules.items():
        targets: set[str] = set()
        for node in _imports(ast.parse(path.read_text(encoding="utf-8")), hidden=hidden):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
                continue
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([node.module] if node.module else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                targets.add(sub if sub in modules else base)
        graph[name] = {t for t in targets if t in modules and t != name}
    return graph


def import_loops(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan), iteratively."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    loops: list[set[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph[succ]))))
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component: set[str] = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        loops.append(component)
    return loops


def test_import_loops_are_found() -> None:
    """The loop finder itself: a loop, a chain that is no loop, and a self-import."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert import_loops(graph) == [{"a", "b", "c"}]


def test_no_module_level_import_loop() -> None:
    loops = import_loops(import_graph(hidden=False))
    assert not loops, [sorted(loop) for loop in loops]


def test_no_import_loop_hidden_in_a_function() -> None:
    """rules.casting <-> rules.combat, adjudication.characters <-> convert and the local
    table's loops (console/) are gone: no import loop, even through a function."""
    loops = import_loops(import_graph(hidden=True))
    unknown = [loop for loop in loops if not any(loop <= known for known in KNOWN_HIDDEN_LOOPS)]
    assert not unknown, [sorted(loop) for loop in unknown]


def test_the_two_rulesets_do_not_leak_into_each_other() -> None:
    """Nothing of FAPPO's rules loads with the Xp rules, nor the other way round."""
    assert not [m for m in loaded_fappo_modules("fappo_bot.rules_xp")
                if m.startswith("fappo_bot.rules.") or m == "fappo_bot.rules"]
    assert not [m for m in loaded_fappo_modules("fappo_bot.rules")
                if m.startswith("fappo_bot.rules_xp")]


def test_xp_rules_have_no_clock_and_no_generator_of_their_own() -> None:
    """STYLE.md 8: the Xp rules take their dice from the caller. No module of `rules_xp` imports
    a clock, and none calls the `random` module itself (a `random.Random` is only passed in)."""
    import re
    from pathlib import Path

    package = Path(__file__).parents[1] / "fappo_bot" / "rules_xp"
    for path in sorted(package.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"^\s*(?:import|from)\s+(?:time|datetime|secrets)\b", source,
                             re.MULTILINE), path.name
        calls = set(re.findall(r"\brandom\.(\w+)", source))
        assert calls <= {"Random"}, (path.name, calls)


# The rules core's public face: outside code imports `fappo_bot.rules` only, and only
# the names its `__all__` lists. Tests may reach inside (they check the modules one by one).

OUTSIDE_RULES = [
    *(p for p in PACKAGE_ROOT.rglob("*.py") if "rules" not in p.relative_to(PACKAGE_ROOT).parts[:1]),
    *(PACKAGE_ROOT.parent / "benchmarks").rglob("*.py"),
]


def test_outside_code_imports_the_rules_core_through_its_public_face() -> None:
    import fappo_bot.rules

    public = set(fappo_bot.rules.__all__)
    wrong: list[str] = []
    for path in OUTSIDE_RULES:
        where = path.relative_to(PACKAGE_ROOT.parent)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                wrong += [f"{where}:{node.lineno} import {alias.name}" for alias in node.names
                          if alias.name.startswith("fappo_bot.rules.")]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                if node.module.startswith("fappo_bot.rules."):
                    wrong.append(f"{where}:{node.lineno} from {node.module} import ...")
                elif node.module == "fappo_bot.rules":
                    wrong += [f"{where}:{node.lineno} {alias.name} is not in rules.__all__"
                              for alias in node.names if alias.name not in public]
    assert not wrong, wrong


def test_outside_code_names_no_rules_module_in_a_string() -> None:
    """An import by name (`importlib.import_module("fappo_bot.rules.sheet")`) is invisible to mypy
    and passes the public-face check above: outside code imports the names themselves."""
    wrong: list[str] = []
    for path in OUTSIDE_RULES:
        where = path.relative_to(PACKAGE_ROOT.parent).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and re.fullmatch(r"fappo_bot\.rules\.\w+", node.value)):
                wrong.append(f"{where}:{node.lineno} {node.value!r}")
    assert not wrong, wrong


def test_the_public_face_names_only_what_exists() -> None:
    import fappo_bot.rules

    assert sorted(set(fappo_bot.rules.__all__)) == sorted(fappo_bot.rules.__all__)
    assert all(hasattr(fappo_bot.rules, name) for name in fappo_bot.rules.__all__)


def test_the_code_says_why_not_which_ticket() -> None:
    """No ticket numbers in code, comments or docstrings: they belong in the commit messages,
    and a reader of the code needs the reason, which the ticket number does not give."""
    ticket = re.compile(r"\bissues?\s+" + r"\d+", re.IGNORECASE)
    root = PACKAGE_ROOT.parent
    wrong = []
    for folder in ("fappo_bot", "tests", "benchmarks"):
        for path in sorted((root / folder).rglob("*.py")):
            source = path.read_text(encoding="utf-8")
            wrong += [f"{path.relative_to(root)}:{source.count(chr(10), 0, found.start()) + 1}"
                      for found in ticket.finditer(source)]  # \s+ spans a wrapped line too
    assert not wrong, wrong


# Sizes a reader can hold (STYLE.md: a module does one thing and reads top-down).

MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80


def test_no_module_is_over_the_size_a_reader_can_hold() -> None:
    long = [f"{path.relative_to(PACKAGE_ROOT)}: {count} lines"
            for path in sorted(PACKAGE_ROOT.rglob("*.py"))
            if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES]
    assert not long, long


def test_no_function_is_over_the_size_a_reader_can_hold() -> None:
    long = []
    for path in sorted(PACKAGE_ROOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                count = (node.end_lineno or node.lineno) - node.lineno + 1
                if count > MAX_FUNCTION_LINES:
                    long.append(f"{path.relative_to(PACKAGE_ROOT)}:{node.lineno} {node.name}: "
                                f"{count} lines")
    assert not long, long


def test_the_service_views_carry_no_rules_type() -> None:
    """The adapters show the service's views: what a reader sees is plain values there, so no
    adapter reaches the rules' types (`RulesConfig`, `Character`...) through a view."""
    import typing

    from pydantic import BaseModel

    from fappo_bot.service import views

    def types_in(annotation: object) -> Iterator[object]:
        yield annotation
        for arg in typing.get_args(annotation):
            yield from types_in(arg)

    wrong = []
    for name, model in vars(views).items():
        if isinstance(model, type) and issubclass(model, BaseModel) and model.__module__ == views.__name__:
            for field, info in model.model_fields.items():
                for kind in types_in(info.annotation):
                    module = getattr(kind, "__module__", "") or ""
                    if module == "fappo_bot.rules" or module.startswith("fappo_bot.rules."):
                        wrong.append(f"{name}.{field}: {kind}")
    assert not wrong, wrong


#: the same thing under one name: a port (a Protocol the adapter asks for) and the class that
#: implements it
ONE_THING_TWO_CLASSES = frozenset({"KeptValues"})


def test_no_two_classes_share_a_name_for_different_things() -> None:
    """A class name means one thing in the whole product (a reader who greps `Member` or
    `Failure` finds the one they mean)."""
    where: dict[str, list[str]] = {}
    for path in sorted(PACKAGE_ROOT.rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                where.setdefault(node.name, []).append(str(path.relative_to(PACKAGE_ROOT)))
    shared = {name: paths for name, paths in where.items()
              if len(paths) > 1 and name not in ONE_THING_TWO_CLASSES}
    assert not shared, shared


#: the pure layers, where a function is a rule or a reading of one (the adapters' and the
#: service's functions are named for the command they carry at each layer: `post`, `review`,
#: `run`, the same verb at every layer on purpose)
PURE_LAYERS = ("rules", "rules_xp", "posting", "posting_xp", "sheets")


def test_no_two_rule_functions_share_a_name_for_different_things() -> None:
    """A function name of the pure layers means one thing (a reader who greps `pool_key` finds
    the one they mean, not a near-twin that keeps an unknown name where the other says None)."""
    where: dict[str, list[str]] = {}
    for path in sorted(PACKAGE_ROOT.rglob("*.py")):
        relative = path.relative_to(PACKAGE_ROOT)
        if len(relative.parts) > 1 and relative.parts[0] not in PURE_LAYERS:
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) \
                    and not node.name.startswith("_"):
                where.setdefault(node.name, []).append(str(relative))
    shared = {name: paths for name, paths in where.items() if len(paths) > 1}
    assert not shared, shared
