"""Comparing a case's `expect` with the computed result (spec/cases.md "expect").

Only the fields listed in `expect` are compared. Names match case-insensitively and in canonical
form (alternate Trait names accepted); maps are compared key by key for the listed keys; `errors`
are compared as a set (per actor for turns, per line for posts): exactly the listed codes; actions
are matched by actor and index, characters by name, parsed orders by actor; `if` and other texts
are compared trimmed and case-folded; a bare repeated Master level name means slot 1; `status` and
`specials` are compared as sets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fappo_bot.rules import FLOATING
from fappo_bot.sheets.convert import pool_key_or_name


class _Missing:
    def __repr__(self) -> str:
        return "nothing"


MISSING: Any = _Missing()
"""What a result lacks (an action, a character, a field)."""


@dataclass(frozen=True)
class Difference:
    """One expected field that the computed result does not match."""

    path: str
    expected: Any
    got: Any

    def line(self) -> str:
        """`path: expected X, got Y`, as the adjudicate command prints it."""
        return f"{self.path}: expected {show(self.expected)}, got {show(self.got)}"


def show(value: Any) -> str:
    """A value in a short YAML-like flow form."""
    if value is MISSING or value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value, key=str) if isinstance(value, set | frozenset) else value
        return "[" + ", ".join(show(v) for v in items) + "]"
    return str(value)


# ---- scalars -----------------------------------------------------------------------------------
_SET_FIELDS = frozenset({"specials", "status", "also", "targets"})
_SP_FIELDS = frozenset({"sp", "cast_sp", "attack_sp"})


def norm_text(value: Any) -> str:
    """Trimmed, whitespace-collapsed, case-folded text."""
    return " ".join(str(value).split()).casefold()


def norm_name(field: str, value: Any) -> str:
    """A name in comparable form: health drops a Master's slot 1 ("Battered 1" = "Battered"),
    `against` treats `all` as `any`, Trait names take their canonical form."""
    text = norm_text(value)
    if field == "health" and text.endswith(" 1"):
        text = text[:-2]
    if field == "against" and text == "all":
        text = "any"
    if field in {"trait", "pool"}:
        text = pool_key_or_name(text).casefold()
    if field in _LEVEL_FIELDS:
        text = _LEVEL_TITLES.get(text, text)
    return text


_LEVEL_FIELDS = frozenset({"level", "check_level"})
#: the rulebook's titles of the success levels, accepted for the case labels
_LEVEL_TITLES = {
    "abject failure": "abject", "bare success": "bare", "solid success": "solid",
    "great success": "great",
}
#: values a parsed order leaves out because they are the default (an absent field matches them)
_DEFAULTS: tuple[Any, ...] = (False, 0, None, "", (), [], {})


def _is_default(value: Any) -> bool:
    return any(type(value) is type(d) and value == d for d in _DEFAULTS) or value is None


def same(field: str, expected: Any, got: Any) -> bool:
    """Whether one listed field matches (see the module doc for the rules)."""
    if got is MISSING:
        return False
    if expected is None:
        return got is None
    if isinstance(expected, bool) or isinstance(got, bool):
        return isinstance(expected, bool) and isinstance(got, bool) and expected == got
    if isinstance(expected, int | float):
        return isinstance(got, int | float) and expected == got
    if isinstance(expected, str):
        return isinstance(got, str) and norm_name(field, expected) == norm_name(field, got)
    if isinstance(expected, Mapping):
        return isinstance(got, Mapping) and not _map_diffs(field, expected, got, "")
    if isinstance(expected, list | tuple):
        if not isinstance(got, list | tuple):
            return False
        if field in _SET_FIELDS or all(isinstance(v, str) for v in expected):
            return {norm_name(field, v) for v in expected} == {norm_name(field, v) for v in got}
        return len(expected) == len(got) and all(
            same(field, e, g) for e, g in zip(expected, got, strict=True)
        )
    return bool(expected == got)


def _map_diffs(
    field: str, expected: Mapping[str, Any], got: Mapping[str, Any], path: str
) -> list[Difference]:
    """Key by key for the listed keys; SP maps use canonical pool names."""
    diffs: list[Difference] = []
    if field in _SP_FIELDS:
        got_keys = {pool_key_or_name(k): v for k, v in got.items()}
        for key, value in expected.items():
            canonical = pool_key_or_name(key)
            found = got_keys.get(canonical, MISSING)
            if not same("sp-value", value, found):
                diffs.append(Difference(f"{path}.{canonical}", value, found))
        return diffs
    lowered = {norm_text(k): v for k, v in got.items()}
    for key, value in expected.items():
        found = lowered.get(norm_text(key), MISSING)
        if not same(str(key), value, found):
            diffs.append(Difference(f"{path}.{key}", value, found))
    return diffs


def _fields(
    expected: Mapping[str, Any], got: Mapping[str, Any], path: str, skip: frozenset[str],
    defaults: bool = False,
) -> list[Difference]:
    """Compare every listed field of one entry (an action, a character, an order...). With
    `defaults`, a field the entry leaves out matches the default value (false, 0, empty)."""
    diffs: list[Difference] = []
    for key, value in expected.items():
        if key in skip:
            continue
        found = got.get(key, MISSING)
        if found is MISSING and defaults and _is_default(value):
            continue
        if isinstance(value, Mapping) and isinstance(found, Mapping):
            diffs.extend(_map_diffs(key, value, found, f"{path}.{key}"))
        elif key == "targets" and isinstance(value, list) and value and isinstance(value[0], Mapping):
            diffs.extend(_targets(value, found, f"{path}.targets"))
        elif not same(key, value, found):
            diffs.append(Difference(f"{path}.{key}", value, found))
    return diffs


def _targets(expected: list[Any], got: Any, path: str) -> list[Difference]:
    """Attack stages matched by creature name (the n-th entry of a repeated name)."""
    got_list = list(got) if isinstance(got, list | tuple) else []
    diffs: list[Difference] = []
    seen: dict[str, int] = {}
    for entry in expected:
        name = norm_text(entry.get("name", ""))
        nth = seen.get(name, 0)
        seen[name] = nth + 1
        matches = [g for g in got_list if norm_text(g.get("name", "")) == name]
        label = f"{path}[{entry.get('name')}]"
        if nth >= len(matches):
            diffs.append(Difference(label, "an attack stage", MISSING))
            continue
        diffs.extend(_fields(entry, matches[nth], label, frozenset({"name"})))
    return diffs


# ---- lists of entries --------------------------------------------------------------------------
def _actions(expected: list[Any], got: Sequence[Mapping[str, Any]]) -> list[Difference]:
    by_key = {(norm_text(a["actor"]), a["index"]): a for a in got}
    diffs: list[Difference] = []
    for entry in expected:
        label = f"actions[{entry['actor']} #{entry['index']}]"
        found = by_key.get((norm_text(entry["actor"]), entry["index"]))
        if found is None:
            diffs.append(Difference(label, "an action result", MISSING))
            continue
        diffs.extend(_fields(entry, found, label, frozenset({"actor", "index"})))
    return diffs


def _characters(expected: list[Any], got: Sequence[Mapping[str, Any]]) -> list[Difference]:
    by_name = {norm_text(c["name"]): c for c in got}
    diffs: list[Difference] = []
    for entry in expected:
        label = f"characters[{entry['name']}]"
        found = by_name.get(norm_text(entry["name"]))
        if found is None:
            diffs.append(Difference(label, "a character", MISSING))
            continue
        if "sp" in entry and "floating" in found:
            found = {**found, "sp": {**found.get("sp", {}), FLOATING: found["floating"]}}
        diffs.extend(_fields(entry, found, label, frozenset({"name"})))
    return diffs


def _error_key(entry: Mapping[str, Any], keys: Sequence[str]) -> tuple[str, ...]:
    return tuple(norm_text(entry.get(k, "")) for k in keys)


def _errors(expected: list[Any], got: Sequence[Mapping[str, Any]], path: str) -> list[Difference]:
    """As a set of codes per actor (turns) or per line (posts): exactly those listed."""
    listed = {k for e in expected for k in e} if expected else {k for g in got for k in g}
    keys = [k for k in ("actor", "line", "code") if k in listed] or ["code"]
    want = {_error_key(e, keys) for e in expected}
    have = {_error_key(g, keys) for g in got}
    if want == have:
        return []

    def label(entries: set[tuple[str, ...]], source: Sequence[Mapping[str, Any]]) -> list[str]:
        lookup = {_error_key(s, keys): s for s in source}
        out = []
        for entry in sorted(entries):
            raw = lookup.get(entry)
            parts = [str(raw[k]) if raw and k in raw else v for k, v in zip(keys, entry, strict=True)]
            out.append(" ".join(("line " + p) if k == "line" else p for k, p in zip(keys, parts, strict=True)))
        return out

    return [Difference(path, label(want, expected), label(have, got))]


def _orders(expected: list[Any], got: Sequence[Mapping[str, Any]]) -> list[Difference]:
    by_actor = {norm_text(o.get("actor", "")): o for o in got}
    diffs: list[Difference] = []
    listed = set()
    for entry in expected:
        actor = norm_text(entry["actor"])
        listed.add(actor)
        label = f"orders[{entry['actor']}]"
        found = by_actor.get(actor)
        if found is None:
            diffs.append(Difference(label, "an order", MISSING))
            continue
        for key, value in entry.items():
            if key == "actor":
                continue
            if key in {"actions", "guard", "reduce"} and isinstance(value, list):
                items = found.get(key, [])
                if len(items) != len(value):
                    diffs.append(Difference(f"{label}.{key}", f"{len(value)} entries",
                                            f"{len(items)}: {show(items)}"))
                    continue
                for i, (e, g) in enumerate(zip(value, items, strict=True)):
                    diffs.extend(_fields(e, g, f"{label}.{key}[{i}]", frozenset(), True))
            elif key not in found and _is_default(value):
                continue
            elif not same(key, value, found.get(key, MISSING)):
                diffs.append(Difference(f"{label}.{key}", value, found.get(key, MISSING)))
    for actor, order in by_actor.items():
        if actor not in listed:
            diffs.append(Difference(f"orders[{order.get('actor')}]", MISSING, "an order"))
    return diffs


def compare(expect: Mapping[str, Any], result: Mapping[str, Any]) -> list[Difference]:
    """Every listed field of `expect` that `result` does not match, in `expect`'s order."""
    diffs: list[Difference] = []
    for key, value in expect.items():
        got = result.get(key, MISSING)
        if key in {"actions", "characters", "errors", "warnings", "orders"}:
            entries = list(got) if isinstance(got, list | tuple) else []
            if got is MISSING:
                diffs.append(Difference(key, value, MISSING))
            elif key == "actions":
                diffs.extend(_actions(list(value or []), entries))
            elif key == "characters":
                diffs.extend(_characters(list(value or []), entries))
            elif key == "orders":
                diffs.extend(_orders(list(value or []), entries))
            else:
                diffs.extend(_errors(list(value or []), entries, key))
        elif not same(key, value, got):
            diffs.append(Difference(key, value, got))
    return diffs
