"""Sheet files: a character sheet as a user writes it (YAML, the case-file format of
spec/cases.md "characters") read into plain values or a rules `Character`, for every adapter (the
local table's `/char FILE`, the Discord bot's attached sheet) and the adjudication cases alike.

Pure: rules values out, no I/O (the adapter reads the file or the attachment), no service. A
sheet a user wrote is bounded like every YAML this project reads (`fappo_bot.yamltext`).

    data = read_sheet(text, "kael.yaml")         # a mapping, or SheetError with one sentence
    character = unchecked_character(data)        # a GM's improvised character, not priced
    # a priced sheet: fappo_bot.service.characters.NewCharacter.from_dict(data)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fappo_bot.rules import Character
from fappo_bot.sheets.characters import character_from_case
from fappo_bot.sheets.convert import CaseError
from fappo_bot.yamltext import YamlError, load_yaml

MAX_SHEET_CHARS = 100_000
"""The longest sheet file read (a full sheet is about 1,000 characters)."""


class SheetError(ValueError):
    """A sheet that cannot be read; `str()` is one sentence naming the file and the fault."""


def read_sheet(text: str, source: str = "the sheet") -> dict[str, Any]:
    """The sheet's mapping (name:, traits:, skills:, ...), or `SheetError`."""
    if len(text) > MAX_SHEET_CHARS:
        raise SheetError(f"{source} has {len(text):,} characters; a sheet can have at most "
                         f"{MAX_SHEET_CHARS:,}.")
    try:
        data = load_yaml(text, source)
    except YamlError as exc:
        raise SheetError(str(exc)) from exc
    if not isinstance(data, dict):
        raise SheetError(f"{source} must be a mapping (name:, traits:, skills:, ...).")
    return data


def unchecked_character(data: Mapping[str, Any]) -> Character:
    """A character in the case-file format, not priced against F1 (a GM's improvised enemy);
    `SheetError` naming every fault."""
    try:
        return character_from_case(data)
    except (CaseError, ValueError) as exc:
        raise SheetError(f"The character cannot be read: {exc}") from exc


__all__ = ["MAX_SHEET_CHARS", "SheetError", "read_sheet", "unchecked_character"]
