"""A resolution's documents as stored: every character once.

A resolution keeps, for undo and the export, the states before and after the turn, the state
after its step 2 (`TurnResult.finalized`) and every character record as it was (its sheet and
its state). Most of those are the same character values: the state before is the records' own
states, a character the turn left alone is the same value before, finalized and after, and a
sheet never played is its state. Written out one by one they were 300 character documents for a
60-combatant turn, 120 of them distinct, and writing them was most of the cost of storing the
resolution. The compact form (`{"v": 2, ...}`, in the `result` column) writes each distinct
character value once, in `characters`, and every state and record refers to them by position;
`state_before`, `state_after` and `characters_before` then hold JSON `null`.

Rows written before keep their three documents and read as they always did
(`mappers.resolution_record`): a stored TurnResult starts with its `turn`, never with `v`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from pydantic import TypeAdapter

from fappo_bot.rules import Character, TurnResult, TurnState
from fappo_bot.service.records import CharacterRecord

#: the start of a compact document's text (`is_compact`)
PREFIX = '{"v":2,'


@dataclass(slots=True)
class _Compact:
    v: int
    #: every distinct character value of the resolution, once
    characters: tuple[Character, ...]
    #: the result, its states' characters left out (`after`, `finalized`)
    result: TurnResult
    after: tuple[int, ...]
    #: the state before, its characters left out (`before_characters`)
    before: TurnState
    before_characters: tuple[int, ...]
    #: the character records before, their sheet and state left out (`sheets`, `states`)
    records: tuple[dict[str, Any], ...]
    #: None for an Xp character's (it has no FAPPO sheet)
    sheets: tuple[int | None, ...]
    states: tuple[int | None, ...]
    finalized: tuple[int, ...] = ()
    #: the state after when it is not the result's own (an imported resolution)
    state_after: TurnState | None = None
    state_after_characters: tuple[int, ...] = ()


_COMPACT: TypeAdapter[_Compact] = TypeAdapter(_Compact)
_CHARACTERS: TypeAdapter[tuple[Character, ...]] = TypeAdapter(tuple[Character, ...])
#: the schemas of the documents, also those of the rows written before (`mappers`)
STATE: TypeAdapter[TurnState] = TypeAdapter(TurnState)
RESULT: TypeAdapter[TurnResult] = TypeAdapter(TurnResult)
RECORDS: TypeAdapter[tuple[CharacterRecord, ...]] = TypeAdapter(tuple[CharacterRecord, ...])

_NO_CHARACTERS = {"characters": True}
_RESULT_BARE = {"state": _NO_CHARACTERS, "finalized": _NO_CHARACTERS}
_RECORDS_BARE = {"__all__": {"sheet": True, "state": True}}


class _Pool:
    """Character values numbered by identity: the same object is written once. Equal values
    that are different objects are written twice, which reads back the same."""

    __slots__ = ("index", "values")

    def __init__(self) -> None:
        self.values: list[Character] = []
        self.index: dict[int, int] = {}

    def refs(self, characters: tuple[Character, ...] | list[Character | None]) -> str:
        """The positions of `characters` as a JSON array (`null` for None)."""
        index, values = self.index, self.values
        found: list[int | None] = []
        for character in characters:
            if character is None:
                found.append(None)
                continue
            at = index.get(id(character))
            if at is None:
                at = index[id(character)] = len(values)
                values.append(character)
            found.append(at)
        if None in found:
            return "[" + ",".join("null" if at is None else str(at) for at in found) + "]"
        return "[" + ",".join(map(str, found)) + "]"


def is_compact(text: str) -> bool:
    return text.startswith(PREFIX)


def _bare(adapter: TypeAdapter[Any], value: Any, exclude: Any) -> str:
    return adapter.dump_json(value, exclude=exclude, exclude_defaults=True).decode()


def compact_document(
    result: TurnResult,
    state_before: TurnState,
    state_after: TurnState,
    characters_before: tuple[CharacterRecord, ...],
) -> str:
    """The resolution's result, states and records as one compact document."""
    pool = _Pool()
    parts = [
        PREFIX,
        '"result":',
        _bare(RESULT, result, _RESULT_BARE),
        ',"after":',
        pool.refs(result.state.characters),
    ]
    if result.finalized is not None:
        parts += ',"finalized":', pool.refs(result.finalized.characters)
    parts += (
        ',"before":',
        _bare(STATE, state_before, _NO_CHARACTERS),
        ',"before_characters":',
        pool.refs(state_before.characters),
    )
    if state_after is not result.state:
        parts += (
            ',"state_after":',
            _bare(STATE, state_after, _NO_CHARACTERS),
            ',"state_after_characters":',
            pool.refs(state_after.characters),
        )
    parts += (
        ',"records":',
        _bare(RECORDS, characters_before, _RECORDS_BARE),
        ',"sheets":',
        pool.refs([record.sheet for record in characters_before]),
        ',"states":',
        pool.refs([record.state for record in characters_before]),
        ',"characters":',
        _CHARACTERS.dump_json(tuple(pool.values), exclude_defaults=True).decode(),
        "}",
    )
    return "".join(parts)


def read_compact(
    text: str,
) -> tuple[TurnResult, TurnState, TurnState, tuple[CharacterRecord, ...]]:
    """`compact_document`'s values back: the result, the states before and after, the
    records before. The state after is the result's own object when it was written so."""
    found = _COMPACT.validate_json(text)
    pool = found.characters

    def state(bare: TurnState, refs: tuple[int, ...]) -> TurnState:
        return replace(bare, characters=tuple(pool[i] for i in refs))

    bare = found.result
    after = state(bare.state, found.after)
    finalized = None if bare.finalized is None else state(bare.finalized, found.finalized)
    result = replace(bare, state=after, finalized=finalized)
    before = state(found.before, found.before_characters)
    state_after = (
        after
        if found.state_after is None
        else state(found.state_after, found.state_after_characters)
    )
    records = tuple(
        CharacterRecord.model_validate({
            **record, "sheet": None if sheet is None else pool[sheet],
            "state": None if now is None else pool[now]})
        for record, sheet, now in zip(found.records, found.sheets, found.states, strict=True)
    )
    return result, before, state_after, records
