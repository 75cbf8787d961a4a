"""The service's sentences name no command of any adapter: a slash command is Discord's word, a
table command the local table's; each adapter phrases its own commands."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import fappo_bot.service

pytestmark = pytest.mark.unit

SERVICE = Path(fappo_bot.service.__file__).parent
COMMAND = re.compile(r"(^|[\s(\"'])/[a-z]{2,}")


def _strings(tree: ast.AST) -> list[tuple[int, str]]:
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docstrings]


def test_no_service_sentence_names_a_slash_or_table_command():
    found = [
        f"{path.name}:{line}: {text!r}"
        for path in sorted(SERVICE.glob("*.py"))
        for line, text in _strings(ast.parse(path.read_text(encoding="utf-8")))
        if COMMAND.search(text)
    ]
    assert found == []


def test_the_check_finds_a_command():
    assert COMMAND.search("A GM opens one with /open.")
    assert not COMMAND.search("AP/SP left; 3/3 AP committed")
