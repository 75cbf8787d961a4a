"""The one YAML reader (`fappo_bot.yamltext`): libyaml's loader and the pure-Python one read
alike, the collector is paused only during a load, and aliases cannot blow a document up."""

from __future__ import annotations

import gc
import types
from pathlib import Path
from typing import Any

import pytest
import yaml

from fappo_bot.adjudication.loader import CaseFileError, load_case_text
from fappo_bot.yamltext import (
    ALIAS_FACTOR,
    LOADER,
    MAX_ALIAS_NODES,
    YamlError,
    load_yaml,
    pick_loader,
)

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[1]
C_LOADER = getattr(yaml, "CSafeLoader", None)
LOADERS = [
    pytest.param(yaml.SafeLoader, id="python"),
    pytest.param(C_LOADER, id="libyaml", marks=pytest.mark.skipif(
        C_LOADER is None, reason="PyYAML was built without libyaml")),
]
CASE_FILES = sorted([*(ROOT / "tests" / "cases").glob("*.yaml"), *(ROOT / "examples").glob("*.yaml"),
                     *(ROOT / "examples" / "adventure").glob("*.yaml")])

#: 1 KB that stands for 10**9 scalars: each level lists the one before it ten times.
BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 10)}]\n" for i in range(8)
)


def test_the_c_loader_is_used_when_pyyaml_has_it_and_the_python_one_otherwise() -> None:
    assert LOADER is (C_LOADER or yaml.SafeLoader)
    without = types.SimpleNamespace(SafeLoader=yaml.SafeLoader)
    assert pick_loader(without) is yaml.SafeLoader
    assert pick_loader(yaml) is LOADER


@pytest.mark.parametrize("path", CASE_FILES, ids=lambda p: p.name)
def test_both_loaders_read_every_case_file_alike(path: Path) -> None:
    text = path.read_text(encoding="utf-8-sig")
    assert load_yaml(text, path.name, loader=yaml.SafeLoader) == yaml.safe_load(text)
    if C_LOADER is not None:
        assert load_yaml(text, path.name, loader=C_LOADER) == yaml.safe_load(text)


@pytest.mark.parametrize("loader", LOADERS)
def test_a_syntax_error_names_the_source_line_and_column(loader: Any) -> None:
    with pytest.raises(YamlError, match=r"^f\.yaml: not valid YAML at line 2, column \d+: "):
        load_yaml("a: [1, 2\nb: }\n", "f.yaml", loader=loader)


@pytest.mark.parametrize("loader", LOADERS)
def test_an_alias_bomb_is_refused_with_the_bound(loader: Any) -> None:
    assert len(BOMB) < 1024
    with pytest.raises(YamlError) as refused:
        load_yaml(BOMB, "bomb.yaml", loader=loader)
    message = str(refused.value)
    assert message.startswith("bomb.yaml: its aliases (*name) repeat ")
    assert f"at most {MAX_ALIAS_NODES:,} are read here" in message
    assert len(message) < 200


@pytest.mark.parametrize("loader", LOADERS)
def test_an_alias_inside_its_own_anchor_is_refused(loader: Any) -> None:
    with pytest.raises(YamlError, match="refers to a node that contains it"):
        load_yaml("a: &a [1, *a]\n", "loop.yaml", loader=loader)


@pytest.mark.parametrize("loader", LOADERS)
def test_aliases_within_the_bound_are_read(loader: Any) -> None:
    text = "sword: &s {name: Broadsword, damage: 3}\nkit: [*s, *s, *s]\n"
    assert load_yaml(text, loader=loader) == {
        "sword": {"name": "Broadsword", "damage": 3}, "kit": [{"name": "Broadsword", "damage": 3}] * 3,
    }
    # a big document may repeat about ALIAS_FACTOR times its own nodes (work in proportion to
    # the file), and no more: here each alias stands for a list of 5,001 nodes
    listed = "[" + ", ".join(["x"] * (MAX_ALIAS_NODES // 2)) + "]"
    fits = f"a: &a {listed}\n" + "".join(f"k{i}: *a\n" for i in range(ALIAS_FACTOR))
    assert len(load_yaml(fits, loader=loader)) == ALIAS_FACTOR + 1
    over = fits + "".join(f"m{i}: *a\n" for i in range(ALIAS_FACTOR))
    with pytest.raises(YamlError, match=r"repeat 100,020 nodes; at most 50,230 are read here"):
        load_yaml(over, loader=loader)


@pytest.mark.parametrize("loader", LOADERS)
def test_an_empty_document_is_none(loader: Any) -> None:
    assert load_yaml("", loader=loader) is None
    assert load_yaml("# nothing\n", loader=loader) is None


def test_the_collector_is_paused_during_the_load_only() -> None:
    seen: list[bool] = []

    class Watching(yaml.SafeLoader):
        def construct_document(self, node: Any) -> Any:
            seen.append(gc.isenabled())
            return super().construct_document(node)

    assert gc.isenabled()
    assert load_yaml("a: 1\n", loader=Watching) == {"a": 1}
    assert seen == [False] and gc.isenabled()
    with pytest.raises(YamlError):
        load_yaml("a: [\n", loader=Watching)
    assert gc.isenabled()
    gc.disable()
    try:
        load_yaml("a: 1\n", loader=Watching)
        assert not gc.isenabled()  # a caller that paused it keeps it paused
    finally:
        gc.enable()


def test_a_case_file_bomb_is_a_case_file_error() -> None:
    with pytest.raises(CaseFileError, match=r"^cases\.yaml: its aliases"):
        load_case_text(BOMB, "cases.yaml")
