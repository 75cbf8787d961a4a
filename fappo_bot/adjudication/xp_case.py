"""An Xp adjudication case (`../shared/spec/cases-xp.md`): its kind, id and raw fields.

The loader hands every case whose `kind` starts with `xp-` (`PREFIX`) here. Its fields are read when the case
runs (`xp.run_xp_case`), because a malformed Xp case is not a loading failure: it resolves to
`errors: [{code: bad-case}]`, which a case may expect.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from fappo_bot.sheets.convert import CaseError


class XpCaseKind(StrEnum):
    """The Xp case kinds."""

    POOL = "xp-pool"
    ROLL = "xp-roll"
    CONTEST = "xp-contest"
    REROLL = "xp-reroll"
    ASSISTED = "xp-assisted"
    GROUP = "xp-group"
    AUGMENTED = "xp-augmented"
    CONCEDED = "xp-conceded"
    PLOT = "xp-plot"


@dataclass(frozen=True)
class XpCase:
    """One Xp case: `raw` is its mapping minus the common keys."""

    id: str
    kind: XpCaseKind
    raw: Mapping[str, Any]
    expect: dict[str, Any] = field(default_factory=dict)
    rule: str | None = None
    note: str | None = None
    source: str = ""
    position: int = 0


#: what every Xp case kind starts with: the loader hands such a case to `xp_case`
PREFIX = "xp-"


def xp_case(raw: Mapping[str, Any], case_id: str, kind_text: str, source: str,
            position: int) -> XpCase:
    """The Xp case of a case entry; `CaseError` for an unknown Xp kind or an `expect` that is not
    a mapping (those cannot be run at all)."""
    try:
        kind = XpCaseKind(kind_text)
    except ValueError:
        kinds = ", ".join(k.value for k in XpCaseKind)
        raise CaseError(f"unknown kind {raw.get('kind')!r} (Xp kinds: {kinds})") from None
    expect = raw.get("expect")
    if expect is None:
        expect = {}
    if not isinstance(expect, Mapping):
        raise CaseError(f"expect: expected a mapping, got {expect!r}")
    common = {"id", "rule", "note", "kind", "expect"}
    return XpCase(
        id=case_id, kind=kind, raw={k: v for k, v in raw.items() if k not in common},
        expect=dict(expect),
        rule=str(raw["rule"]) if raw.get("rule") is not None else None,
        note=str(raw["note"]) if raw.get("note") is not None else None,
        source=source, position=position,
    )
