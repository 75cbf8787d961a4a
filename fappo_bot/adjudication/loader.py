"""Adjudication case files: YAML to typed cases (spec/cases.md).

`load_case_file(path)` reads one file and returns its cases in order. A malformed case becomes a
`BadCase` carrying a clear message (it fails as `bad-case` when run) and never stops the other
cases of the file; only a file that cannot be read at all raises `CaseFileError`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from fappo_bot.adjudication import xp_case
from fappo_bot.adjudication.xp_case import XpCase
from fappo_bot.rules import Character, GMInputs, Order, PendingHit, RulesConfig
from fappo_bot.sheets.characters import character_from_case
from fappo_bot.sheets.convert import (
    CaseError,
    as_int,
    as_list,
    as_mapping,
    build_model,
    config_from_options,
    order_from_case,
    pending_from_case,
    sp_map,
)
from fappo_bot.words import noun
from fappo_bot.yamltext import YamlError, load_yaml

__all__ = [
    "BadCase",
    "Case",
    "CaseError",
    "CaseFileError",
    "CaseKind",
    "HealCase",
    "ParseCase",
    "PostOrder",
    "RestCase",
    "SheetCase",
    "SpellCase",
    "TurnCase",
    "character_from_case",
    "load_case_file",
    "parse_case",
]


class CaseFileError(Exception):
    """A case file that cannot be read: missing, not YAML, or without a `cases:` list."""


class CaseKind(StrEnum):
    """The kinds of case of spec/cases.md."""

    TURN = "turn"
    SHEET = "sheet"
    SPELL = "spell"
    REST = "rest"
    HEAL = "heal"
    PARSE = "parse"


#: Top-level keys each kind accepts (besides id, rule, note, kind, expect).
_KIND_KEYS: dict[CaseKind, frozenset[str]] = {
    CaseKind.TURN: frozenset({"options", "characters", "pending", "orders", "gm"}),
    CaseKind.SHEET: frozenset({"sheet", "options"}),
    CaseKind.SPELL: frozenset({"effects", "ranges", "options"}),
    CaseKind.REST: frozenset({"characters", "break", "allocate", "options"}),
    CaseKind.HEAL: frozenset({"characters", "elapsed", "check", "options"}),
    CaseKind.PARSE: frozenset({"characters", "pending", "poster", "post", "options"}),
}
#: The `expect` fields each kind computes.
EXPECT_KEYS: dict[CaseKind, frozenset[str]] = {
    CaseKind.TURN: frozenset({"actions", "characters", "errors"}),
    CaseKind.SHEET: frozenset({"valid", "cost", "unspent", "errors", "warnings"}),
    CaseKind.SPELL: frozenset(
        {"difficulty", "cast_difficulty", "learned", "learned_cast_difficulty", "cost"}
    ),
    CaseKind.REST: frozenset({"characters", "errors"}),
    CaseKind.HEAL: frozenset({"characters", "check_level", "heal_seconds"}),
    CaseKind.PARSE: frozenset({"orders", "errors"}),
}
_COMMON_KEYS = frozenset({"id", "rule", "note", "kind", "expect"})


class _CaseBase(BaseModel):
    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    id: str
    rule: str | None = None
    note: str | None = None
    expect: dict[str, Any] = Field(default_factory=dict)
    #: the file and 0-based position the case came from
    source: str = ""
    position: int = 0
    config: RulesConfig = Field(default_factory=RulesConfig)


class PostOrder(BaseModel):
    """An order given as post text, parsed with the case's characters at run time."""

    model_config = ConfigDict(frozen=True)

    actor: str | None = None
    poster: str | None = None
    post: str


class TurnCase(_CaseBase):
    """A turn: characters, pending hits and orders, resolved at once (F7)."""

    kind: Literal[CaseKind.TURN] = CaseKind.TURN
    characters: tuple[Character, ...] = ()
    pending: tuple[PendingHit, ...] = ()
    orders: tuple[Order | PostOrder, ...] = ()
    gm: GMInputs | None = None


class SheetCase(_CaseBase):
    """A character sheet at creation (F1, F3, F22)."""

    kind: Literal[CaseKind.SHEET] = CaseKind.SHEET
    sheet: dict[str, Any]


class SpellCase(_CaseBase):
    """A General Magic spell (F24, F26)."""

    kind: Literal[CaseKind.SPELL] = CaseKind.SPELL
    effects: dict[str, Any]
    ranges: int = 0


class RestCase(_CaseBase):
    """Restoring SP between scenes (F27)."""

    kind: Literal[CaseKind.REST] = CaseKind.REST
    characters: tuple[Character, ...] = ()
    break_: str = Field(alias="break")
    allocate: dict[str, dict[str, int]] = Field(default_factory=dict)


class HealCheck(BaseModel):
    """The one Healing check of a level episode (F14)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    total: int
    sp: dict[str, int] = Field(default_factory=dict)
    sagacious: bool = False


class HealCase(_CaseBase):
    """Recovery over time (F14)."""

    kind: Literal[CaseKind.HEAL] = CaseKind.HEAL
    characters: tuple[Character, ...] = ()
    elapsed: int = 0
    check: HealCheck | None = None


class ParseCase(_CaseBase):
    """A post in the post language (spec/posting.md)."""

    kind: Literal[CaseKind.PARSE] = CaseKind.PARSE
    characters: tuple[Character, ...] = ()
    pending: tuple[PendingHit, ...] = ()
    poster: str
    post: str


class BadCase(BaseModel):
    """A case that could not be loaded: it fails with `bad-case` and this message."""

    model_config = ConfigDict(frozen=True)

    id: str
    kind: str = "?"
    problem: str
    code: str = "bad-case"
    source: str = ""
    position: int = 0
    expect: dict[str, Any] = Field(default_factory=dict)


Case = TurnCase | SheetCase | SpellCase | RestCase | HealCase | ParseCase | XpCase | BadCase
"""Any loaded case: one model per kind (the Xp kinds of spec/cases-xp.md in one), or a `BadCase`."""


#: the case kinds read elsewhere than here, by the prefix their kinds share, each family with its
#: reader (raw, id, kind, source, position): the Xp dice pools' (`xp_case.py`). A kind no family
#: claims is one of `CaseKind`.
FAMILIES: Mapping[str, Callable[[Mapping[str, Any], str, str, str, int], Case]] = {
    xp_case.PREFIX: xp_case.xp_case,
}


def load_case_file(path: str | Path) -> list[Case]:
    """Every case of one file, in order (spec/cases.md). Raises `CaseFileError` when the file
    cannot be read; a malformed case becomes a `BadCase` instead."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError as exc:
        raise CaseFileError(f"{path}: no such file") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise CaseFileError(f"{path}: cannot read it ({exc})") from exc
    return load_case_text(text, str(path))


def load_case_text(text: str, source: str = "<text>") -> list[Case]:
    """The cases of a case file's text (see `load_case_file`)."""
    try:
        document = load_yaml(text, source)
    except YamlError as exc:
        raise CaseFileError(str(exc)) from exc
    if not isinstance(document, Mapping) or not isinstance(document.get("cases"), list):
        raise CaseFileError(f"{source}: a case file is a mapping with a `cases:` list")
    cases: list[Case] = []
    seen: set[str] = set()
    for position, raw in enumerate(document["cases"]):
        case = parse_case(raw, source, position)
        if case.id in seen and not isinstance(case, BadCase):
            case = BadCase(
                id=case.id, kind=case.kind.value, source=source, position=position,
                problem=f"the id {case.id!r} is used twice in {source}",
            )
        seen.add(case.id)
        cases.append(case)
    return cases


def parse_case(raw: Any, source: str = "<text>", position: int = 0) -> Case:
    """One case entry as a typed case, or a `BadCase` saying what is wrong with it."""
    fallback_id = f"{Path(source).name}#{position + 1}"
    if not isinstance(raw, Mapping):
        return BadCase(id=fallback_id, source=source, position=position,
                       problem=f"case {position + 1} is not a mapping")
    has_id = raw.get("id") is not None and str(raw["id"]).strip() != ""
    case_id = str(raw["id"]).strip() if has_id else fallback_id
    kind_text = str(raw.get("kind") or "turn").strip().casefold()
    try:
        if not has_id:
            raise CaseError("the case has no `id`")
        family = next((read for prefix, read in FAMILIES.items()
                       if kind_text.startswith(prefix)), None)
        if family is not None:
            return family(raw, case_id, kind_text, source, position)
        try:
            kind = CaseKind(kind_text)
        except ValueError:
            kinds = ", ".join(k.value for k in CaseKind)
            raise CaseError(f"unknown kind {raw.get('kind')!r} (kinds: {kinds})") from None
        unknown = set(map(str, raw)) - _COMMON_KEYS - _KIND_KEYS[kind]
        if unknown:
            raise CaseError(f"unknown {noun(len(unknown), 'field')} for a {kind.value} case: "
                            f"{', '.join(sorted(unknown))}")
        expect = dict(as_mapping(raw.get("expect"), "expect"))
        _check_expect(kind, expect)
        common: dict[str, Any] = {
            "id": case_id,
            "rule": str(raw["rule"]) if raw.get("rule") is not None else None,
            "note": str(raw["note"]) if raw.get("note") is not None else None,
            "expect": expect,
            "source": source,
            "position": position,
            "config": config_from_options(as_mapping(raw.get("options"), "options")),
        }
        return _BUILDERS[kind](raw, common)
    except CaseError as exc:
        return BadCase(id=case_id, kind=kind_text, problem=str(exc), code=exc.code,
                       source=source, position=position, expect=_safe_expect(raw))


def _safe_expect(raw: Mapping[str, Any]) -> dict[str, Any]:
    expect = raw.get("expect")
    return dict(expect) if isinstance(expect, Mapping) else {}


def _check_expect(kind: CaseKind, expect: Mapping[str, Any]) -> None:
    unknown = set(map(str, expect)) - EXPECT_KEYS[kind]
    if unknown:
        fields = ", ".join(sorted(EXPECT_KEYS[kind]))
        raise CaseError(
            f"expect: unknown {noun(len(unknown), 'field')} {', '.join(sorted(unknown))} for a "
            f"{kind.value} case "
            f"(fields: {fields})"
        )
    for key, need in (("actions", ("actor", "index")), ("characters", ("name",)),
                      ("orders", ("actor",))):
        if key in expect:
            for i, item in enumerate(as_list(expect[key], f"expect.{key}")):
                entry = as_mapping(item, f"expect.{key}[{i}]")
                missing = [n for n in need if n not in entry]
                if missing:
                    raise CaseError(f"expect.{key}[{i}]: needs {' and '.join(missing)}")
    for i, item in enumerate(as_list(expect.get("errors"), "expect.errors")):
        if "code" not in as_mapping(item, f"expect.errors[{i}]"):
            raise CaseError(f"expect.errors[{i}]: needs a code")


def _characters(raw: Mapping[str, Any]) -> tuple[Character, ...]:
    characters = tuple(
        character_from_case(c) for c in as_list(raw.get("characters"), "characters")
    )
    names = [c.name.casefold() for c in characters]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise CaseError(f"characters: {'the name' if len(duplicates) == 1 else 'the names'} "
                        f"{', '.join(duplicates)} {'is' if len(duplicates) == 1 else 'are'} "
                        "used twice")
    return characters


def _pending(raw: Mapping[str, Any]) -> tuple[PendingHit, ...]:
    return tuple(
        pending_from_case(p, f"pending[{i}]")
        for i, p in enumerate(as_list(raw.get("pending"), "pending"))
    )


def _orders(raw: Mapping[str, Any]) -> tuple[Order | PostOrder, ...]:
    orders: list[Order | PostOrder] = []
    for i, entry in enumerate(as_list(raw.get("orders"), "orders")):
        entry = as_mapping(entry, f"orders[{i}]")
        where = f"orders[{i}]" + (f" ({entry['actor']})" if entry.get("actor") else "")
        if "post" in entry:
            extra = set(entry) - {"actor", "poster", "post"}
            if extra:
                raise CaseError(f"{where}: give either a post or structured orders, not both "
                                f"(found {', '.join(sorted(extra))} beside the post)")
            orders.append(build_model(PostOrder, {k: None if v is None else str(v)
                                             for k, v in entry.items()}, where))
        else:
            if not entry.get("actor"):
                raise CaseError(f"{where}: an order needs an actor")
            orders.append(order_from_case(entry, where))
    return tuple(orders)


def _turn(raw: Mapping[str, Any], common: dict[str, Any]) -> Case:
    gm = raw.get("gm")
    return TurnCase(
        **common, characters=_characters(raw), pending=_pending(raw), orders=_orders(raw),
        gm=build_model(GMInputs, dict(as_mapping(gm, "gm")), "gm") if gm is not None else None,
    )


def _sheet(raw: Mapping[str, Any], common: dict[str, Any]) -> Case:
    if "sheet" not in raw:
        raise CaseError("a sheet case needs a `sheet:`")
    return SheetCase(**common, sheet=dict(as_mapping(raw["sheet"], "sheet")))


def _spell(raw: Mapping[str, Any], common: dict[str, Any]) -> Case:
    if "effects" not in raw:
        raise CaseError("a spell case needs `effects:`")
    return SpellCase(**common, effects=dict(as_mapping(raw["effects"], "effects")),
                     ranges=as_int(raw.get("ranges", 0), "ranges"))


def _rest(raw: Mapping[str, Any], common: dict[str, Any]) -> Case:
    if raw.get("break") is None:
        raise CaseError("a rest case needs a `break:` (immediate, same_day, night, week_plus, "
                        "adventure_end)")
    allocate = {
        str(name): sp_map(pools, f"allocate.{name}")
        for name, pools in as_mapping(raw.get("allocate"), "allocate").items()
    }
    return RestCase(**common, characters=_characters(raw), allocate=allocate,
                    **{"break": str(raw["break"]).strip()})


def _heal(raw: Mapping[str, Any], common: dict[str, Any]) -> Case:
    check = raw.get("check")
    heal_check = None
    if check is not None:
        data = dict(as_mapping(check, "check"))
        data["sp"] = sp_map(data.get("sp"), "check.sp")
        heal_check = build_model(HealCheck, data, "check")
    return HealCase(**common, characters=_characters(raw),
                    elapsed=as_int(raw.get("elapsed", 0), "elapsed"), check=heal_check)


def _parse(raw: Mapping[str, Any], common: dict[str, Any]) -> Case:
    if raw.get("post") is None:
        raise CaseError("a parse case needs a `post:`")
    characters = _characters(raw)
    poster = raw.get("poster")
    if poster is None:
        if len(characters) != 1:
            raise CaseError("a parse case needs a `poster:` (a character name or gm)")
        poster = characters[0].name
    return ParseCase(**common, characters=characters, pending=_pending(raw),
                     poster=str(poster), post=str(raw["post"]))


_BUILDERS = {
    CaseKind.TURN: _turn,
    CaseKind.SHEET: _sheet,
    CaseKind.SPELL: _spell,
    CaseKind.REST: _rest,
    CaseKind.HEAL: _heal,
    CaseKind.PARSE: _parse,
}
