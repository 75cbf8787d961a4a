"""Xp results as plain data in the shape of a case's `expect` (`../shared/spec/cases-xp.md`), and
the comparison of the two.

Comparison: only the listed fields; maps key by key; lists of records (`sides`, `members`,
`supporters`, `augments`, `tasks`, `rolls`) matched by `name`, or by position where the records
have no name; lists of numbers or names compared whole; strings case-insensitively (spaces, `_`
and `-` alike); `errors` as a set of `(name, event, code)` on the keys the expected entries list.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fappo_bot.adjudication.compare import MISSING, Difference
from fappo_bot.rules_xp.errors import XpError
from fappo_bot.rules_xp.pools import Pool
from fappo_bot.rules_xp.roll import RollRecord
from fappo_bot.rules_xp.tables import key


def record_dict(record: RollRecord | None) -> dict[str, Any]:
    """Every field of a roll record (all None for a roll that was never made)."""
    if record is None:
        return dict.fromkeys(RECORD_FIELDS)
    return {
        "pool": record.pool, "sl": record.sl, "target": record.target, "need": record.need,
        "rolled": record.rolled, "mode": record.mode.value, "base": list(record.base),
        "bonus": list(record.bonus), "s": record.s, "o": record.o, "fumble": record.fumble,
        "exposures": record.exposures, "outcome": record.outcome.value,
        "special": record.special,
    }


RECORD_FIELDS = ("pool", "sl", "target", "need", "rolled", "mode", "base", "bonus", "s", "o",
                 "fumble", "exposures", "outcome", "special")


def pool_dict(pool: Pool) -> dict[str, Any]:
    """`pool`, `can_roll`, `auto_fail` and the `parts` of an xp-pool case."""
    parts = pool.parts
    return {
        "pool": pool.pool, "can_roll": pool.can_roll, "auto_fail": pool.auto_fail,
        "parts": {"base": parts.base, "rank": parts.rank, "level": parts.level,
                  "mods": parts.mods, "default": parts.default,
                  "difficulty": parts.difficulty, "time": parts.time, "tools": parts.tools,
                  "illumination": parts.illumination, "adjust": parts.adjust},
        "why": pool.why,
    }


def error_dict(error: XpError) -> dict[str, Any]:
    """`{code, message}` plus `name` and `event` where they apply."""
    return error.as_dict()


# ---- comparison --------------------------------------------------------------------------------


def _same_scalar(expected: Any, got: Any) -> bool:
    if expected is None:
        return got is None
    if isinstance(expected, bool) or isinstance(got, bool):
        return isinstance(expected, bool) and isinstance(got, bool) and expected == got
    if isinstance(expected, int | float) and isinstance(got, int | float):
        return expected == got
    if isinstance(expected, int | float | str) and isinstance(got, int | float | str):
        # `target: 6` in YAML is the number 6; the record says "6"
        return key(str(expected)) == key(str(got))
    return bool(expected == got)


def _is_record_list(value: Sequence[Any]) -> bool:
    return bool(value) and all(isinstance(v, Mapping) for v in value)


def differences(expected: Any, got: Any, path: str) -> list[Difference]:
    """Every listed part of `expected` that `got` does not match."""
    if got is MISSING:
        return [Difference(path, expected, MISSING)]
    if isinstance(expected, Mapping):
        if not isinstance(got, Mapping):
            return [Difference(path, expected, got)]
        out: list[Difference] = []
        for k, v in expected.items():
            out.extend(differences(v, got.get(str(k), MISSING), f"{path}.{k}" if path else str(k)))
        return out
    if isinstance(expected, list | tuple):
        if not isinstance(got, list | tuple):
            return [Difference(path, expected, got)]
        if _is_record_list(expected):
            return _records(expected, got, path)
        if len(expected) != len(got) or any(
            differences(e, g, path) for e, g in zip(expected, got, strict=False)
        ):
            return [Difference(path, expected, got)]
        return []
    return [] if _same_scalar(expected, got) else [Difference(path, expected, got)]


def _records(expected: Sequence[Mapping[str, Any]], got: Sequence[Any],
             path: str) -> list[Difference]:
    out: list[Difference] = []
    by_name = all("name" in e for e in expected)
    for position, entry in enumerate(expected):
        if by_name:
            label = f"{path}[{entry['name']}]"
            found = next((g for g in got if isinstance(g, Mapping)
                          and key(str(g.get("name", ""))) == key(str(entry["name"]))), MISSING)
        else:
            label = f"{path}[{position}]"
            found = got[position] if position < len(got) else MISSING
        if found is MISSING:
            out.append(Difference(label, "a record", MISSING))
            continue
        out.extend(differences({k: v for k, v in entry.items() if not (by_name and k == "name")},
                               found, label))
    return out


def _error_set(entries: Sequence[Any], keys: Sequence[str]) -> set[tuple[str, ...]]:
    return {tuple(key(str(e.get(k, ""))) if e.get(k) is not None else "" for k in keys)
            for e in entries if isinstance(e, Mapping)}


def error_differences(expected: Any, got: Any) -> list[Difference]:
    """`errors` as a set of (name, event, code), on the keys the expected entries give."""
    wanted = list(expected or [])
    have = list(got or []) if isinstance(got, list | tuple) else []
    listed = {k for e in wanted if isinstance(e, Mapping) for k in e}
    keys = [k for k in ("name", "event", "code") if k in listed] or ["code"]
    if _error_set(wanted, keys) == _error_set(have, keys):
        return []
    shown = [{k: e.get(k) for k in keys if e.get(k) is not None} for e in have]
    return [Difference("errors", wanted, shown)]


def compare_xp(expect: Mapping[str, Any], result: Mapping[str, Any]) -> list[Difference]:
    """Every listed field of `expect` that `result` does not match, in `expect`'s order."""
    out: list[Difference] = []
    for k, v in expect.items():
        if k == "errors":
            out.extend(error_differences(v, result.get("errors")))
        else:
            out.extend(differences(v, result.get(str(k), MISSING), str(k)))
    return out
