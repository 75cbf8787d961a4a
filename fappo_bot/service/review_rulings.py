"""The GM's rulings the review asks beside the engine's inputs of `review.py` (R1): each one
only where it applies, each with its real default in `Ruling.default` (the question's words
are made from it, so an adapter can show the default as data too).

Per action (`action_rulings`): a mind spell's mood difficulty for its attack stage (F25,
required), whether a message lands in a mind flooded with emotion (F25, +2), heat in breaking a
Freeze sheath (F18.15 Amb-1), keeping hold of an impaling or transfixing weapon (F18.12 Amb-2,
F18.14), the body part or item a Dismemberment takes (F18.8), the Poison or Disease profile
where the weapon gives none (F18.6 Amb-1, F18.7).

Turn-wide (`turn_rulings`): whether this resolution ends the combat when someone bleeds (F18.2:
Bleeding drops a level at the end of combat), whether a burning character's fire was put out
(F18.4 Amb-1) and whether a Frozen or Transfixed one was freed (F18.15, F18.14), by the GM's
ruling.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from fappo_bot.posting.safety import safe
from fappo_bot.rules import (
    Action,
    ActionKind,
    Character,
    ErrorCode,
    GMInputs,
    Order,
    Special,
    StatusKind,
    TurnState,
    Weapon,
    cast_profile,
    suggested_mood,
    validate_order,
)
from fappo_bot.service.bounds import MAX_DIFFICULTY
from fappo_bot.service.errors import InvalidInput

#: the longest body part or item a GM may name for a Dismemberment
MAX_PART = 100
#: the fields a turn-wide ruling answers (no action index)
TURN_FIELDS = frozenset({"end_combat", "extinguished", "freed"})
#: the yes/no fields of this module
BOOL_FIELDS = frozenset({"flooded", "heat", "hold"}) | TURN_FIELDS
_NONE = "none"
_POISON_KINDS = ("mortal", "nerve")


@dataclass(frozen=True, slots=True)
class Ruling:
    """One ruling the GM is asked: its field (the `Action` or `GMInputs` field it sets), the
    question, its default (None: required) and its words, and the allowed answers."""

    field: str
    question: str
    rule: str
    default: Any = None
    default_words: str = ""
    choices: tuple[str, ...] = ()

    @property
    def required(self) -> bool:
        return self.default is None

    @property
    def shown_default(self) -> str | None:
        """The default as the review shows it beside the question (None: required)."""
        return None if self.required else self.default_words

    def text(self, label: str) -> str:
        """The question as the review asks it (its default is shown beside it, from the
        data: `shown_default`)."""
        return f"{label}: {self.question} ({self.rule})"


def _yes_no(field: str, question: str, rule: str, default: bool = False,
            why: str = "") -> Ruling:
    words = ("yes" if default else "no") + (f": {why}" if why else "")
    return Ruling(field, question, rule, default, words, ("yes", "no"))


def _mind(character: Character | None, action: Action) -> bool:
    """A cast of mind magic without damage: its attack stage is against the GM's mood
    difficulty (F25)."""
    if action.kind is not ActionKind.CAST or character is None:
        return False
    profile = cast_profile(character, action)
    return profile is not None and profile.mind and profile.damage == 0


def _frozen(character: Character | None) -> bool:
    return character is not None and character.has_status(StatusKind.FROZEN)


def action_rulings(character: Character | None, action: Action, target: Character | None,
                   weapon: Weapon | None, single_roll: bool) -> list[Ruling]:
    """The rulings one action needs (see the module's docstring), in a fixed order."""
    out: list[Ruling] = []
    if _mind(character, action):
        if action.mood is None and action.difficulty is None and not single_roll:
            anchors = "5 logical, 10 inconsistent, 15 wildly; +2 Vigilant or Sagacious"
            if target is not None:
                anchors = (f"for {target.name}: {suggested_mood(5, target)} logical, "
                           f"{suggested_mood(10, target)} inconsistent, "
                           f"{suggested_mood(15, target)} wildly")
            out.append(Ruling("mood", f"the target's mood difficulty for the attack stage "
                                      f"({anchors})?", "F25"))
        if not action.flooded:
            out.append(_yes_no("flooded", "is the mind the message enters flooded with "
                                          "emotion or sensory overload (+2 difficulty)?", "F25"))
    if not action.heat and (
            (action.kind is ActionKind.SKILL and _frozen(character)
             and (action.skill or "").casefold() == "wrestling")
            or (action.kind is ActionKind.ATTACK and _frozen(target) and weapon is not None
                and Special.FIRE not in weapon.specials)):
        out.append(_yes_no("heat", "is heat involved in breaking the Freeze sheath?",
                           "F18.15 Amb-1"))
    if action.kind is not ActionKind.ATTACK or weapon is None:
        return out
    specials = set(weapon.specials)
    if not action.hold and specials & {Special.IMPALE, Special.TRANSFIX}:
        out.append(_yes_no("hold", f"if the {safe(weapon.name)} impales or transfixes, does the "
                                   "attacker keep hold of it?", "F18.12 Amb-2, F18.14",
                           why="it stays in the victim"))
    if action.part is None and Special.DISMEMBERMENT in specials:
        out.append(Ruling("part", "the body part or item a Dismemberment takes (an item "
                                  "named is destroyed)?", "F18.8", _NONE, "none named"))
    given = action.profile is not None or weapon.profile is not None
    if not given and Special.POISON in specials:
        out.append(Ruling("profile", "the poison (mortal [turns], or nerve [penalty AP "
                                     "turns])?", "F18.6 Amb-1", "mortal",
                          "mortal, 3 turns of 1 level", _POISON_KINDS))
    if not given and Special.DISEASE in specials:
        out.append(Ruling("profile", "the disease (its effect; \"duration N\" for the turns "
                                     "it lasts)?", "F18.7", _NONE, "none given"))
    return out


def good_case_ruling(state: TurnState, order: Order) -> Ruling | None:
    """The player's good case for mixing a concentration action with others (F8), when the
    order needs it (the rules refuse it without): the GM accepts or refuses; refused, the order
    is refused at resolution as posted."""
    if not order.good_case or any(a.concentration_ok for a in order.actions):
        return None
    if not any(e.code is ErrorCode.CONCENTRATION_CONFLICT for e in validate_order(state, order)):
        return None
    return Ruling("good_case", f'accept the good case for mixing a concentration action with '
                               f'others ("{safe(order.good_case)}")? Refused, the order is refused '
                               'as posted', "F8", choices=("accept", "refuse"))


def coerce_ruling(field: str, question: str, choices: Sequence[str], value: Any) -> Any:
    """An answer to one of this module's rulings as its field's type; InvalidInput says what
    was expected."""
    text = str(value).strip()
    if field == "mood":
        try:
            number = int(text)
        except ValueError:
            raise InvalidInput(f"{question} Answer with a whole number.") from None
        if not 0 <= number <= MAX_DIFFICULTY:
            raise InvalidInput(f"{question} A difficulty is from 0 to {MAX_DIFFICULTY}.")
        return number
    if field == "part":
        if not text or len(text) > MAX_PART:
            raise InvalidInput(f"{question} Name a body part or an item, up to {MAX_PART} "
                               f"characters (or {_NONE}).")
        return text
    if field == "profile":
        return _profile(question, choices, text)
    raise InvalidInput(f"{question} Unknown question.")


def _profile(question: str, choices: Sequence[str], text: str) -> dict[str, Any]:
    words = text.replace(",", " ").split()
    if not words:
        raise InvalidInput(f"{question} Give the profile.")
    if choices:  # poison
        kind, numbers = words[0].casefold(), words[1:]
        if kind not in _POISON_KINDS or not all(_is_int(n) for n in numbers) \
                or len(numbers) > (1 if kind == "mortal" else 3):
            raise InvalidInput(f'{question} Answer "mortal" or "mortal 5" (turns of one '
                               'level), or "nerve" or "nerve -2 1 3" (penalty, AP lost, turns).')
        keys = ("ticks",) if kind == "mortal" else ("penalty", "ap_loss", "duration")
        values = [abs(int(n)) for n in numbers]
        return {"kind": kind, **dict(zip(keys, values, strict=False))}
    if text.casefold() == _NONE:
        return {}
    lowered = [w.casefold() for w in words]
    if "duration" in lowered:
        at = lowered.index("duration")
        if at + 1 >= len(words) or not _is_int(words[at + 1]):
            raise InvalidInput(f'{question} "duration" takes a number of turns.')
        effect = " ".join(words[:at] + words[at + 2:])
        return {"duration": abs(int(words[at + 1])), **({"effect": effect} if effect else {})}
    return {"effect": text}


def _is_int(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


def written(field: str, answer: Any) -> Any:
    """An answer as the action's field holds it (a part or profile of "none": not given)."""
    if field == "part":
        return None if str(answer).casefold() == _NONE else answer
    if field == "profile":
        return answer or None
    return answer


@dataclass(frozen=True, slots=True)
class TurnQuestion:
    """A turn-wide ruling as the review asks it: whom it concerns (None: the whole turn)."""

    key: str
    actor: str
    ruling: Ruling


def turn_rulings(state: TurnState, inputs: GMInputs) -> list[TurnQuestion]:
    """The turn-wide rulings the scene needs (see the module's docstring)."""
    out: list[TurnQuestion] = []
    # most characters have no status: they ask nothing
    afflicted = [c for c in state.characters if c.statuses]
    bleeding = [c.name for c in afflicted if c.has_status(StatusKind.BLEEDING)]
    if bleeding and state.in_combat:
        ended = inputs.end_combat
        out.append(TurnQuestion(f"turn:{state.turn}:-:end_combat", "", _yes_no(
            "end_combat", f"does the combat end with this turn ({', '.join(map(safe, bleeding))} "
                          "bleeding: a level lost, then bound)?", "F18.2", ended,
            "the GM ended it" if ended else "the combat goes on")))
    for c in afflicted:
        if c.has_status(StatusKind.BURNING):
            put_out = c.name in inputs.extinguished
            out.append(TurnQuestion(f"turn:{state.turn}:{c.name}:extinguished", c.name, _yes_no(
                "extinguished", f"is the fire on {safe(c.name)} put out this turn?", "F18.4 Amb-1",
                put_out, "it burns on" if not put_out else "")))
        if c.has_status(StatusKind.FROZEN) or c.has_status(StatusKind.TRANSFIXED):
            freed = c.name in inputs.freed
            out.append(TurnQuestion(f"turn:{state.turn}:{c.name}:freed", c.name, _yes_no(
                "freed", f"is {safe(c.name)} freed from the Freeze sheath or the Transfix?",
                "F18.15, F18.14", freed, "held until broken or ripped out" if not freed
                else "")))
    return out


def with_turn_answers(inputs: GMInputs, answers: Sequence[tuple[str, str, bool]]) -> GMInputs:
    """The turn's inputs with the GM's turn-wide answers (field, whom, yes/no) written in."""
    end_combat = inputs.end_combat
    extinguished = dict.fromkeys(inputs.extinguished)
    freed = dict.fromkeys(inputs.freed)
    for field, actor, answer in answers:
        if field == "end_combat":
            end_combat = answer
            continue
        names = extinguished if field == "extinguished" else freed
        if answer:
            names[actor] = None
        else:
            names.pop(actor, None)
    return replace(inputs, end_combat=end_combat, extinguished=tuple(extinguished),
                   freed=tuple(freed))

