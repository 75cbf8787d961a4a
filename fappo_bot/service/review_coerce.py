"""The review's questions as plain values (`Question`), and a GM's answer to one read as the
type its field needs (a yes or no, a whole number in its bounds, a name of the scene with "Did
you mean", one of the question's choices, a ruling's value) or refused with what was expected:
the review's one reader of answers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fappo_bot.posting.safety import safe
from fappo_bot.service.bounds import MAX_DIFFICULTY, MAX_POSITION
from fappo_bot.service.errors import InvalidInput
from fappo_bot.service.review_rulings import BOOL_FIELDS, coerce_ruling
from fappo_bot.service.views import ReviewItem
from fappo_bot.spelling import nearest

_YES = {"yes", "y", "true", "1", "accept", "accepted", "on"}
_NO = {"no", "n", "false", "0", "refuse", "refused", "off"}


@dataclass(slots=True)
class Question:
    """One GM input the turn needs, as the review works it out: a `ReviewItem` without
    pydantic's validation (a turn of hundreds of orders asks thousands), made a `ReviewItem`
    only for the view a use case returns. Immutable by convention."""

    key: str
    actor: str
    index: int | None
    field: str
    question: str
    required: bool
    choices: tuple[str, ...]
    answer: Any
    default: str | None = None  # what an optional question keeps unanswered, in words

    @property
    def answered(self) -> bool:
        return self.answer is not None

    def view(self) -> ReviewItem:
        return ReviewItem(key=self.key, actor=self.actor, index=self.index, field=self.field,
                          question=self.question, required=self.required,
                          choices=self.choices, answer=self.answer, default=self.default)


def coerce_bool(value: Any) -> bool | None:
    """A yes or no as written (`yes`, `no`, `accept`, `off`, ...); None when it is neither."""
    if value is None or isinstance(value, bool):
        return value
    text = str(value).strip().casefold()
    if text in _YES:
        return True
    if text in _NO:
        return False
    return None


def coerce(item: Question | ReviewItem, value: Any, names: Sequence[str]) -> Any:
    """The answer as the type its field needs; InvalidInput says what was expected."""
    field = item.field
    if field in {"triggered", "claim", "flat_footed", "veto", "engaged", "good_case"} | \
            BOOL_FIELDS:
        result = coerce_bool(value)
        if result is None:
            raise InvalidInput(f"{item.question} Answer {' or '.join(map(safe, item.choices))}.")
        return result
    if field in {"difficulty", "end_position"}:
        try:
            number = int(str(value).strip())
        except ValueError:
            raise InvalidInput(f"{item.question} Answer with a whole number.") from None
        if field == "difficulty" and not 0 <= number <= MAX_DIFFICULTY:
            raise InvalidInput(f"{item.question} A difficulty is from 0 to {MAX_DIFFICULTY}.")
        if field == "end_position" and abs(number) > MAX_POSITION:
            raise InvalidInput(f"{item.question} A position is from {-MAX_POSITION:,} to "
                               f"{MAX_POSITION:,}.")
        return number
    if field == "target":
        return _one_name(item, str(value), names)
    if field == "targets":
        parts = value if isinstance(value, list | tuple) else str(value).split(",")
        return [_one_name(item, str(p), names) for p in parts if str(p).strip()]
    if field == "invoke":
        text = str(value).strip()
        for choice in item.choices:
            if choice.casefold() == text.casefold():
                return choice
        raise InvalidInput(f"{item.question} Choose one of: {', '.join(map(safe, item.choices))}.")
    if field in {"mood", "part", "profile"}:
        return coerce_ruling(field, item.question, item.choices, value)
    raise InvalidInput(f"Unknown review question: {safe(item.key)}")


def _one_name(item: Question | ReviewItem, text: str, names: Sequence[str]) -> str:
    for name in names:
        if name.casefold() == text.strip().casefold():
            return name
    near = nearest(text, names, limit=1, always=True)
    hint = f' Did you mean "{safe(near[0])}"?' if near else ""
    raise InvalidInput(f'{item.question} "{safe(text)}" is nobody in this scene.{hint} Choose '
                       f"one of: {', '.join(map(safe, names))}.")
