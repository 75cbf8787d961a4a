"""Sheet files, read for every adapter: the shipped sheets, and bad ones refused with
one sentence."""

from __future__ import annotations

from pathlib import Path

import pytest

from fappo_bot.service.characters import NewCharacter
from fappo_bot.sheets import MAX_SHEET_CHARS, SheetError, read_sheet, unchecked_character

pytestmark = pytest.mark.unit

ADVENTURE = Path(__file__).resolve().parents[1] / "examples" / "adventure"


@pytest.mark.parametrize("name", sorted(p.name for p in ADVENTURE.glob("*.yaml")))
def test_every_shipped_sheet_reads(name):
    data = read_sheet((ADVENTURE / name).read_text(encoding="utf-8"), name)
    assert NewCharacter.from_dict(data).name == data["name"]
    assert unchecked_character(data).name == data["name"]


@pytest.mark.parametrize(("text", "fault"), [
    ("- just\n- a list\n", "must be a mapping"),
    ("name: [unclosed\n", "kael.yaml"),
    ("a: &a [1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
     "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n", "alias"),
    ("x" * (MAX_SHEET_CHARS + 1), "at most"),
])
def test_a_bad_sheet_file_is_one_sentence(text, fault):
    with pytest.raises(SheetError, match=fault):
        read_sheet(text, "kael.yaml")


def test_an_unreadable_character_names_its_fault():
    with pytest.raises(SheetError, match="cannot be read"):
        unchecked_character({"name": "Gobbo", "tier": "dragon"})


def test_every_example_file_is_what_its_name_says():
    """`examples/sheet.yaml` was a case file (`cases:`), not a sheet. A file whose
    name says sheet reads as one, every case file says `cases:` at its top and is run by
    the public-case test, and the adventures' folders hold sheets only."""
    import yaml

    examples = ADVENTURE.parent
    for path in sorted(examples.rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        is_case_file = isinstance(data, dict) and "cases" in data
        if path.parent == examples:
            assert is_case_file, f"{path.name}: a top-level example is a case file"
            assert "sheet" not in path.stem, f"{path.name}: a case file named like a sheet"
        else:
            assert not is_case_file, f"{path}: a case file among the sheets"
            assert "name" in data, path
