"""Every refusal quotes a user's value through `posting.safety` (docs/architecture.md, "Where
mention safety lives"). The hostile walks (`test_guard_walk.py`) prove it of the refusals they
reach; this reads every f-string passed to a refusal's constructor in the service and the
adapters, so a refusal no walk reaches cannot quote a name or prose raw either. A value it
interpolates is accepted when it is plainly product-made (a number, an enum's value, a
constant, a count), made inert where it is written (`safe`, `safe_prose`, a list of them), or a
local variable every assignment of which is one of those; anything else fails, naming the line."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator
from pathlib import Path

import pytest

from fappo_bot.service import errors

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2] / "fappo_bot"
FOLDERS = ("service", "console", "discord")
#: the service's refusals and the Discord adapter's own (the local table's `TableError` is
#: shown through `console/seats.py`'s entries, which make every text inert, in a terminal,
#: where markdown means nothing)
REFUSALS = frozenset({"AdapterError"} | {
    name for name, value in vars(errors).items()
    if inspect.isclass(value) and issubclass(value, errors.ServiceError)})
#: calls whose result holds no user's text live: the two inert writers, and words and counts
SAFE_CALLS = frozenset({"safe", "safe_prose", "plural", "len", "int", "round", "abs", "sum",
                        "strftime", "isoformat"})
#: attributes that are product-made whatever they belong to: numbers, ids, enum values, a date
PRODUCT_ATTRS = frozenset({"number", "value", "days", "id", "version", "ruleset", "line",
                           "column", "count", "missed_turns", "luck", "seconds", "total",
                           "inactive_threshold", "rulesets", "filesize_limit"})
#: names that hold text the service rendered, every user's value in it already inert: a review
#: question (a rendered text, walked as such by the hostile walks)
RENDERED = frozenset({"question", "item.question"})
#: (module, name) of the names that hold a word of the product's, never a user's: what the
#: service checks ("game", "roll"), why a change is refused, a setting's name once `kind_of`
#: has found it among the known ones (which Discord shows as written: no markdown in it)
PRODUCT_WORDS = frozenset({("service/base.py", "what"), ("service/bounds.py", "what"),
                           ("service/xp_records.py", "what"), ("service/advance_text.py", "why"),
                           ("service/settings_text.py", "key")})
#: exceptions whose text is the product's, quoting nothing a user wrote: a JSON reader's
#: position ("Expecting value: line 1 column 1 (char 0)")
PRODUCT_ERRORS = frozenset({"json.JSONDecodeError"})
#: parameter annotations that cannot hold a user's text
NUMBER_TYPES = frozenset({"int", "float", "bool", "Decimal", "timedelta", "datetime",
                          "Role", "GameStatus", "TurnStatus", "Feature"})


def _functions(tree: ast.AST) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def _assignments(function: ast.AST, name: str) -> list[ast.expr | None]:
    """What `name` is bound to in `function` (None for a binding this cannot follow: a loop's
    or a `with`'s target, an unpacking)."""
    found: list[ast.expr | None] = []
    for node in ast.walk(function):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id == name:
                    found.append(node.value)
                elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple) \
                        and len(target.elts) == len(node.value.elts):  # `a, b = x, y`
                    found.extend(v for t, v in zip(target.elts, node.value.elts, strict=True)
                                 if isinstance(t, ast.Name) and t.id == name)
                elif any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(target)):
                    found.append(None)
        elif isinstance(node, ast.AnnAssign | ast.AugAssign) and isinstance(
                node.target, ast.Name) and node.target.id == name:
            found.append(node.value if isinstance(node, ast.AnnAssign) else None)
        elif isinstance(node, ast.NamedExpr) and node.target.id == name:
            found.append(node.value)
        elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension | ast.withitem):
            target = node.optional_vars if isinstance(node, ast.withitem) else node.target
            if target is not None and any(isinstance(n, ast.Name) and n.id == name
                                          for n in ast.walk(target)):
                found.append(None)
    return found


def _caught(function: ast.AST, name: str, at: ast.AST) -> str | None:
    """The exception type that the `except ... as name` around `at` in `function` catches."""
    for node in ast.walk(function):
        if isinstance(node, ast.ExceptHandler) and node.name == name and node.type is not None \
                and any(inner is at for inner in ast.walk(node)):
            return ast.unparse(node.type)
    return None


def _parameter(function: ast.AST, name: str) -> ast.arg | None:
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        return None
    arguments = function.args
    for arg in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs):
        if arg.arg == name:
            return arg
    return None


def _is_safe(value: ast.expr, function: ast.AST, module: str, at: ast.AST,
             depth: int = 0) -> bool:
    """Whether `value`, written into the refusal `at` in `module`, can hold no user's text
    live."""
    if depth > 6:
        return False
    again = lambda v: _is_safe(v, function, module, at, depth + 1)  # noqa: E731
    if ast.unparse(value) in RENDERED:
        return True
    if isinstance(value, ast.Constant):
        return True
    if isinstance(value, ast.JoinedStr):
        return all(again(v.value) for v in value.values if isinstance(v, ast.FormattedValue))
    if isinstance(value, ast.BinOp):
        return again(value.left) and again(value.right)
    if isinstance(value, ast.UnaryOp):
        return again(value.operand)
    if isinstance(value, ast.BoolOp):
        return all(map(again, value.values))
    if isinstance(value, ast.IfExp):
        return again(value.body) and again(value.orelse)
    if isinstance(value, ast.Compare):
        return True  # a truth value
    if isinstance(value, ast.Attribute):
        return value.attr in PRODUCT_ATTRS or value.attr.isupper()
    if isinstance(value, ast.Subscript):
        return again(value.value)
    if isinstance(value, ast.Name):
        if value.id.isupper() or value.id.lstrip("_").isupper():
            return True  # a module's constant
        if (module, value.id) in PRODUCT_WORDS:
            return True
        caught = _caught(function, value.id, at)
        if caught is not None:  # another refusal's sentence is already inert
            return caught in REFUSALS or caught in PRODUCT_ERRORS
        parameter = _parameter(function, value.id)
        if parameter is not None:
            annotation = ast.unparse(parameter.annotation) if parameter.annotation else ""
            annotation = annotation.removesuffix(" | None")
            return annotation in NUMBER_TYPES or annotation.startswith("app_commands.Range[int")
        bound = _assignments(function, value.id)
        return bool(bound) and all(v is not None and again(v) for v in bound)
    if isinstance(value, ast.GeneratorExp | ast.ListComp):
        return again(value.elt)
    if isinstance(value, ast.Call):
        called = value.func
        name = called.id if isinstance(called, ast.Name) else (
            called.attr if isinstance(called, ast.Attribute) else "")
        if name in SAFE_CALLS:
            return True
        if name == "map" and value.args:
            first = value.args[0]
            return isinstance(first, ast.Name) and first.id in SAFE_CALLS
        # any other call makes its text of what it is given (a join, a possessive, a size in
        # words): as safe as its arguments and, for a method, what it is called on
        given = [*value.args, *(k.value for k in value.keywords)]
        if isinstance(called, ast.Attribute):
            given.append(called.value)
        return all(map(again, given))
    return False


def _called(call: ast.Call) -> str:
    """The name of the function or class `call` calls (`safe`, `InvalidInput`)."""
    called = call.func
    return called.id if isinstance(called, ast.Name) else (
        called.attr if isinstance(called, ast.Attribute) else "")


def unsafe_quotes(source: str, module: str = "") -> list[tuple[int, str]]:
    """Every (line, expression) interpolated into a refusal's message in `source` (the module
    `module`, as `service/base.py`) that may hold a user's text live."""
    tree = ast.parse(source)
    found: list[tuple[int, str]] = []
    scopes: list[ast.AST] = [tree, *_functions(tree)]
    owner: dict[int, ast.AST] = {}
    for scope in scopes:  # the innermost function of each call wins: inner scopes come later
        for node in ast.walk(scope):
            owner[id(node)] = scope
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        if _called(node) not in REFUSALS:
            continue
        function = owner[id(node)]
        made_inert = {id(inner) for call in ast.walk(node.args[0])
                      if isinstance(call, ast.Call) and _called(call) in SAFE_CALLS
                      for inner in ast.walk(call)}  # `safe(f"{exc}.")`: the whole made inert
        for part in ast.walk(node.args[0]):
            if isinstance(part, ast.FormattedValue) and id(part) not in made_inert \
                    and not _is_safe(part.value, function, module, node):
                found.append((part.value.lineno, ast.unparse(part.value)))
    return found


def _sources() -> list[Path]:
    return sorted(p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py"))


def test_every_refusal_quotes_a_users_value_through_safety() -> None:
    raw = [f"{path.relative_to(ROOT)}:{line}: {text}"
           for path in _sources()
           for line, text in unsafe_quotes(path.read_text(), str(path.relative_to(ROOT)))]
    assert raw == [], "refusals that quote a value not made inert:\n" + "\n".join(raw)


def test_the_check_sees_a_name_quoted_raw() -> None:
    assert unsafe_quotes(
        "def f(record, number: int):\n"
        "    raise Conflict(f'{record.name} has {number} {plural(2, \"turn\")}')\n"
    ) == [(2, "record.name")]


def test_the_check_sees_a_local_made_from_a_users_value() -> None:
    source = ("def f(names):\n"
              "    who = ', '.join(names)\n"
              "    raise Forbidden(f'{who} may not.')\n")
    assert unsafe_quotes(source) == [(3, "who")]
    assert unsafe_quotes(source.replace("join(names)", "join(map(safe, names))")) == []


def test_the_check_sees_every_refusal_of_the_service() -> None:
    """The check reads the refusals it means to: losing one `safe` in the service fails it."""
    path = ROOT / "service" / "characters.py"
    source = path.read_text()
    assert unsafe_quotes(source, "service/characters.py") == []
    broken = source.replace("{safe(record.name)}", "{record.name}", 1)
    assert broken != source
    assert len(unsafe_quotes(broken, "service/characters.py")) == 1


def test_the_check_follows_calls_and_what_they_are_given() -> None:
    source = ("def f(text: str, size: int):\n"
              "    raise AdapterError(safe(f'{text}.'))\n"
              "    raise AdapterError(f'{_bytes(size)} {hint(text)} {text.strip()}')\n")
    assert unsafe_quotes(source) == [(3, "hint(text)"), (3, "text.strip()")]
