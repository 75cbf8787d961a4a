"""Reading YAML a user wrote (case files, sheet files, sheets typed at the table): the one place.

- libyaml's C loader when PyYAML was built with it, the pure-Python one otherwise: both read the
  same documents the same way (safe tags only).
- The garbage collector is paused while the document is built: a load allocates many small
  containers and nothing else runs meanwhile, so the collections it would trigger find nothing
  to free and made the load grow faster than the file.
- Aliases (`*name`) are bounded: through them a document may repeat at most `MAX_ALIAS_NODES`
  nodes, or `ALIAS_FACTOR` times its own when that is more (what reads the document then does
  work in proportion to the file). A few hundred bytes of aliases of aliases otherwise stand for
  a thousand million nodes, which whatever reads the document next tries to walk.

The figures (what each of these took off a run of `fappo-bot adjudicate`) are in
docs/benchmarks.md.
"""

from __future__ import annotations

from typing import Any

import yaml

from fappo_bot.collector import collector_paused

Loader = type[yaml.SafeLoader] | type[yaml.CSafeLoader]


def pick_loader(module: Any = yaml) -> Loader:
    """libyaml's safe loader when PyYAML was built with it, else the pure-Python one."""
    found: Loader = getattr(module, "CSafeLoader", module.SafeLoader)
    return found


#: The loader used by default.
LOADER = pick_loader()

#: How many nodes aliases may add to a document, counting each alias as the nodes it stands for,
#: or how many times the document's own nodes when that is more.
MAX_ALIAS_NODES = 10_000
ALIAS_FACTOR = 10


class YamlError(ValueError):
    """A text that is not a YAML document this project reads; `str()` is one clear sentence."""


def load_yaml(
    text: str, source: str = "<text>", *,
    loader: Loader | None = None,
) -> Any:
    """The document of `text` as plain values (dicts, lists, strings, numbers, booleans, None).

    Raises `YamlError` naming `source`, the line and column for a syntax error, and the bound
    for a document whose aliases stand for too many nodes. `loader` is for tests (both
    loaders must read alike).
    """
    reader = (loader or LOADER)(text)
    try:
        with collector_paused():
            node = reader.get_single_node()
            if node is None:
                return None
            if "&" in text:  # no anchor, no alias: the walk is skipped for most files
                _check_aliases(node, source)
            return reader.construct_document(node)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise YamlError(f"{source}: not valid YAML{where}: {problem}") from exc
    except RecursionError:
        raise YamlError(f"{source}: the YAML nests too deeply to read") from None
    finally:
        reader.dispose()


def _check_aliases(root: yaml.Node, source: str) -> None:
    """Refuse a document whose nodes, with every alias expanded, outnumber its own nodes by more
    than the bound, or which contains itself (an alias inside its own anchor)."""
    expanded: dict[int, int] = {}  # id(node) -> nodes it stands for, aliases expanded
    open_nodes: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            open_nodes.discard(key)
            expanded[key] = 1 + sum(expanded[id(child)] for child in _children(node))
            continue
        if key in expanded:
            continue
        if key in open_nodes:
            raise YamlError(f"{source}: an alias (*name) refers to a node that contains it")
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in _children(node) if id(child) not in expanded)
    own = len(expanded)
    added = expanded[id(root)] - own
    bound = max(MAX_ALIAS_NODES, ALIAS_FACTOR * own)
    if added > bound:
        raise YamlError(
            f"{source}: its aliases (*name) repeat {added:,} nodes; at most {bound:,} are read "
            f"here. Write the repeated parts out instead."
        )


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []
