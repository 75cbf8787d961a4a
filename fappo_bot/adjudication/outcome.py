"""The verdict on one adjudication case, shared by the FAPPO and the Xp runners (spec/cases.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fappo_bot.adjudication.compare import MISSING, Difference


@dataclass
class CaseOutcome:
    """The verdict on one case, with every computed field."""

    id: str
    kind: str
    source: str
    passed: bool
    result: dict[str, Any] = field(default_factory=dict)
    differences: list[Difference] = field(default_factory=list)
    #: why the case could not be run or compared at all (bad-case, not built, rules error)
    problem: str | None = None
    code: str | None = None

    def as_json(self) -> dict[str, Any]:
        """The `--json` entry of this case (spec: id, kind, passed, result; plus diagnostics)."""
        out: dict[str, Any] = {
            "id": self.id, "kind": self.kind, "passed": self.passed, "result": self.result,
            "file": self.source,
        }
        if self.differences:
            out["differences"] = [
                {"path": d.path, "expected": _plain(d.expected), "got": _plain(d.got)}
                for d in self.differences
            ]
        if self.problem:
            out["problem"] = self.problem
            out["code"] = self.code
        return out


def _plain(value: Any) -> Any:
    if value is MISSING:
        return None
    if isinstance(value, set | frozenset):
        return sorted(value, key=str)
    return value
