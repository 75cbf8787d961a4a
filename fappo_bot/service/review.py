"""The GM review before resolution: every GM input the turn needs (R1, P3), never guessed.

Required before `resolve` (it refuses, naming each one):
- the difficulty of every unopposed skill use, watch and extinguish (F4 Amb-10, F18.4);
- for every conditional action, whether its condition came true (F9), and, when true and the
  action names no one ("attack it"), its concrete target;
- accept or refuse every modifier claim (F4);
- the creatures inside every area attack (F19 Amb-3).
Optional (shown with their default): flat-footed targets (F6, default no), the Special invoked
on a Great Success when none was declared (F12, default none), whether a melee attacker engaged a
target that moves away this turn (F7 Amb-4 amendment, default no: the attack is void), a veto of SP from a Trait that is
not the skill's Suggested Trait (F2 Amb-2 / F4 Amb-14, default no veto), end positions after
movement (F7 Amb-4, default: as moved).

An answer is keyed by the post revision it concerns, so an edit after the review asks again.
The players' secret orders appear in the review only once the NPC orders are sealed (F29).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import replace
from typing import Any, TypeVar

from fappo_bot.posting.safety import safe
from fappo_bot.rules import (
    BUILT_IN,
    FLOATING,
    SKILLS_BY_KEY,
    Action,
    ActionKind,
    Character,
    GMInputs,
    Order,
    Roster,
    Special,
    SpellResolution,
    TraitCatalogue,
    TurnState,
    Weapon,
    moves_away,
)
from fappo_bot.service import xp_play, xp_review
from fappo_bot.service.base import UseCases, live_turn
from fappo_bot.service.bounds import MAX_POSITION, check_number
from fappo_bot.service.errors import Conflict, InvalidInput
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.records import CharacterRecord, Game, TurnRecord, TurnStatus
from fappo_bot.service.retry import retried
from fappo_bot.service.review_coerce import Question, coerce, coerce_bool
from fappo_bot.service.review_rulings import (
    action_rulings,
    good_case_ruling,
    turn_rulings,
)
from fappo_bot.service.scene import InForce, build_state, orders_in_force, visible_to_gm
from fappo_bot.service.traits import catalogue
from fappo_bot.service.views import ReviewItem, ReviewView

PRONOUNS = frozenset({"it", "them", "him", "her", "whoever", "whatever"})
_DIFFICULTY_KINDS = frozenset({ActionKind.SKILL, ActionKind.WATCH, ActionKind.EXTINGUISH})
_ATTACK_KINDS = frozenset({ActionKind.ATTACK, ActionKind.CAST})
_REVIEWABLE = frozenset({TurnStatus.OPEN, TurnStatus.CLOSED})


def views(items: Sequence[Question]) -> tuple[ReviewItem, ...]:
    """The review's questions as the views a use case returns."""
    return tuple(item.view() for item in items)


_Item = TypeVar("_Item", Question, ReviewItem)


def _prefix(found: InForce, actor: str) -> str:
    """What every key of an order's questions starts with: its post, revision and actor."""
    return f"{found.post.id}:{found.revision.number}:{actor}:"


def _key(found: InForce, actor: str, index: int | None, field: str) -> str:
    where = "-" if index is None else str(index)
    return f"{_prefix(found, actor)}{where}:{field}"


class _Scene:
    """The characters of a turn's state by case-folded name (`TurnState.character` without a
    scan per question), and their names."""

    def __init__(self, state: TurnState, traits: TraitCatalogue = BUILT_IN) -> None:
        self.names = tuple(c.name for c in state.characters)
        #: the skills the game's own Traits suggest: Suggested Trait by folded skill name
        self.suggests = {d.name.casefold(): d.suggested for d in traits.skill_defs()}
        self._by_key: dict[str, Character] = {}
        self._roster = Roster(state.characters)
        self.config = state.config
        self.state = state
        self.single_roll = state.config.spell_resolution is SpellResolution.SINGLE_ROLL
        for character in state.characters:
            self._by_key.setdefault(character.name.casefold(), character)

    def character(self, name: str) -> Character | None:
        return self._by_key.get(name.casefold())

    def find(self, name: str) -> Character | None:
        """The character a written name means, as the engine reads it (exact, else a unique
        prefix: `rules.Roster`)."""
        return self._roster.get(name)


def _skill_of(action: Action, weapon: Weapon | None, scene: _Scene) -> str | None:
    """The skill of an action: the one named, else its weapon's as the engine reads it (the
    sheet's, else the game's mapping: F19 Amb-1 amendment)."""
    if action.skill:
        return action.skill
    if action.kind is ActionKind.CAST:
        return "Spellcasting"
    if weapon is None:
        return None
    return weapon.skill or scene.config.mapped_skill(weapon.name)


def _unsuggested_pools(action: Action, weapon: Weapon | None, scene: _Scene) -> list[str]:
    """SP pools of the action that are neither floating nor the skill's Suggested Trait
    (`weapon`: the action's, from its actor's sheet)."""
    if not (action.sp or action.cast_sp or action.attack_sp):
        return []  # most actions spend none: no skill to look up
    skill = _skill_of(action, weapon, scene)
    row = SKILLS_BY_KEY.get(skill.casefold()) if skill else None
    trait = row.suggested if row else scene.suggests.get(skill.casefold()) if skill else None
    suggested = trait.value.casefold() if trait else None
    pools = {**action.sp, **action.cast_sp, **action.attack_sp}
    return sorted(p for p, n in pools.items()
                  if n > 0 and p != FLOATING and p.casefold() != suggested)


def _needs_target(action: Action) -> bool:
    return action.kind in _ATTACK_KINDS | {ActionKind.SKILL, ActionKind.TEND} and (
        action.target is None or action.target.strip().casefold() in PRONOUNS
    ) and not action.targets


def _target_moves_away(scene: _Scene, orders: Mapping[str, Order], target: Character | None,
                       actor: str) -> bool:
    """Whether `target`, the character an action names (as answered), moves away from `actor`
    under the orders as answered: the engine's test (`rules.moves_away`), with the turn's
    names."""
    return target is not None and moves_away(orders.get(target.name.casefold()), actor,
                                             scene.find, target)


#: the choices of the Special question, by the weapon's Specials (a few weapons, many attacks)
_INVOKE_CHOICES: dict[tuple[Special, ...], tuple[str, ...]] = {}


def _invoke_choices(specials: tuple[Special, ...]) -> tuple[str, ...]:
    found = _INVOKE_CHOICES.get(specials)
    if found is None:
        found = _INVOKE_CHOICES[specials] = ("none", *(s.value for s in specials))
    return found


def _answered(in_force: Mapping[str, InForce], answers: Mapping[str, Any]) -> dict[str, Order]:
    """The orders in force by actor (case-folded), with the GM's answers so far on whether a
    condition came true and whom it names: what the engaged question must read (a conditional
    attack on "it" whose named target moves away; a conditional move away ruled triggered)."""
    out: dict[str, Order] = {}
    for found in in_force.values():
        order = found.order
        actions = list(order.actions)
        changed = False
        for i, action in enumerate(actions):
            if action.condition is None:
                continue
            update: dict[str, Any] = {}
            triggered = answers.get(_key(found, order.actor, i, "triggered"))
            if triggered is not None:
                update["triggered"] = triggered
            target = answers.get(_key(found, order.actor, i, "target"))
            if target is not None:
                update["target"] = target
            if update:
                actions[i] = replace(action, **update)
                changed = True
        if changed:
            order = replace(order, actions=tuple(actions))
        out[order.actor.casefold()] = order
    return out


#: each kind's word in a question's label (an enum's `value` is a descriptor)
_KIND_WORDS = {kind: kind.value for kind in ActionKind}


class _Asking:
    """The questions of one order as they are asked; with `every` False, only those a resolve
    reads (the required and the answered ones), unworded; `answered`: the prefixes of the keys
    answered (None: any may be)."""

    __slots__ = ("actor", "answering", "answers", "every", "items", "prefix")

    def __init__(self, found: InForce, answers: Mapping[str, Any], every: bool,
                 answered: Set[str] | None) -> None:
        self.actor = found.order.actor
        self.prefix = _prefix(found, self.actor)
        self.answers, self.every = answers, every
        self.answering = answered is None or self.prefix in answered
        self.items: list[Question] = []

    def add(self, index: int | None, field: str, question: str, required: bool,
            choices: Sequence[str] = (), default: str | None = None) -> str:
        key = f"{self.prefix}{'-' if index is None else index}:{field}"
        answer = self.answers.get(key)
        if self.every or required or answer is not None:
            self.items.append(Question(key, self.actor, index, field,
                                       question if self.every else "", required,
                                       tuple(choices), answer, default))
        return key

    def asked(self, index: int, field: str) -> bool:
        """Whether an optional question is worked out at all."""
        return self.every or self.answering and f"{self.prefix}{index}:{field}" in self.answers


def _items_for(scene: _Scene, found: InForce, answers: Mapping[str, Any],
               orders: Mapping[str, Order], every: bool = True,
               answered: Set[str] | None = None) -> list[Question]:
    """The questions of one order (`_Asking`: `every`, `answered`)."""
    order = found.order
    actor = order.actor
    names = scene.names
    character = scene.character(actor)
    asking = _Asking(found, answers, every, answered)
    add, asked = asking.add, asking.asked

    case = good_case_ruling(scene.state, order)
    if case is not None:
        add(None, case.field, case.text(safe(actor)) if every else "", case.required,
            case.choices, case.shown_default)
    live_actions = orders[actor.casefold()].actions
    for i, action in enumerate(order.actions):
        kind = action.kind
        # the questions' words, but for a resolve's (it reads none: `every`)
        label = f"{safe(actor)}, action {i + 1} ({_KIND_WORDS[kind]}" + (
            f" {safe(action.target)})" if action.target else ")") if every else ""

        if action.condition is not None:
            key = add(i, "triggered", f'{label}: did "{safe(action.condition)}" happen? (F9)'
                      if every else "", True, ("yes", "no"))
            if coerce_bool(answers.get(key)) and _needs_target(action):
                add(i, "target", f"{label}: who is the target? (F9)" if every else "", True,
                    names)
        if kind in _DIFFICULTY_KINDS and action.difficulty is None and not (
                action.target and scene.character(action.target) is not None):
            what = f": {safe(action.task)}" if every and getattr(action, "task", None) else ""
            add(i, "difficulty", f"{label}{what}: difficulty? (2 easy, 4, 6, 8+ hard; F4)"
                if every else "", True)
        if action.claim is not None:
            reason = f" ({safe(action.claim.reason)})" if action.claim.reason else ""
            add(i, "claim", f"{label}: accept the modifier {action.claim.value:+d}{reason}?"
                if every else "", True, ("accept", "refuse"))
        weapon = character.weapon(action.weapon) if character else None
        attack = kind is ActionKind.ATTACK
        if attack and weapon is not None and weapon.area and action.targets is None:
            add(i, "targets", f"{label}: which creatures are inside the area? (F19)"
                if every else "", True, names)
        if kind in _ATTACK_KINDS and not action.flat_footed and asked(i, "flat_footed"):
            add(i, "flat_footed", f"{label}: is the target flat-footed? (F6)", False,
                ("yes", "no"), "no")
        live = live_actions[i]  # as the GM's answers make it
        target = scene.find(live.target) if live.target else None
        if attack and not action.engaged and weapon is not None and asked(i, "engaged") \
                and not weapon.used_with(_skill_of(action, weapon, scene)).ranged \
                and _target_moves_away(scene, orders, target, actor):
            add(i, "engaged", f"{label}: {safe(live.target)} moves away; did {safe(actor)} "
                              "engage it? "
                              "(F7 Amb-4)", False, ("yes", "no"), "no: the attack is void")
        if attack and action.special is None and weapon is not None \
                and weapon.specials and action.invoke is None and asked(i, "invoke"):
            add(i, "invoke", f"{label}: Special to invoke on a Great Success? (F12)", False,
                _invoke_choices(weapon.specials), "none")
        vetoable = _unsuggested_pools(action, weapon, scene) if asked(i, "veto") else []
        if vetoable and not action.sp_vetoed:
            why = f' ("{safe(action.why)}")' if action.why else ""
            add(i, "veto", f"{label}: veto the SP from {', '.join(map(safe, vetoable))}{why}? "
                           "(F4 Amb-14)", False, ("yes", "no"), "no")
        for ruling in action_rulings(character, action, target, weapon, scene.single_roll):
            add(i, ruling.field, ruling.text(label) if every else "", ruling.required,
                ruling.choices, ruling.shown_default)
        if kind is ActionKind.MOVE and asked(i, "end_position"):
            add(i, "end_position", f"{label}: end position? (F7 Amb-4)", False, (),
                "as moved")
    return asking.items


def review_items(state: TurnState, in_force: Mapping[str, InForce],
                 answers: Mapping[str, Any], inputs: GMInputs | None = None,
                 traits: TraitCatalogue = BUILT_IN, every: bool = True) -> list[Question]:
    """Every GM input the orders in force need, in actor order, then the turn-wide rulings
    (`review_rulings.turn_rulings`, their defaults from the turn's `inputs`), in a game with
    the Traits of `traits` (the skills its own Traits suggest ask no veto of their SP).

    `every`: False for what a resolve reads of them, the required and the answered
    questions, without their words (`question` empty): whether anything is missing and the
    answers to write in; a refusal works them out again to name what is missing."""
    items: list[Question] = []
    scene = _Scene(state, traits)
    orders = _answered(in_force, answers)
    # the orders answers were given to, by their keys' `_prefix` (a key ends with the index
    # and the field), so that an order nobody answered looks up no optional question
    answered = {key.rsplit(":", 2)[0] + ":" for key in answers}
    for found in sorted(in_force.values(), key=lambda f: f.order.actor.casefold()):
        if not found.order.passed:
            items.extend(_items_for(scene, found, answers, orders, every, answered))
    for asked in turn_rulings(state, inputs or GMInputs()):
        ruling = asked.ruling
        answer = answers.get(asked.key)
        if every or ruling.required or answer is not None:
            items.append(Question(asked.key, asked.actor, None, ruling.field, ruling.text(
                "The turn") if every else "", ruling.required, ruling.choices, answer,
                ruling.shown_default))
    return items


async def fappo_review(uow: UnitOfWork, game: Game, turn: TurnRecord,
                       records: Sequence[CharacterRecord]) -> ReviewView:
    """A FAPPO turn's review: the questions of the orders the GM may see (F29)."""
    shown, hidden = visible_to_gm(turn, records, await orders_in_force(uow, turn))
    items = review_items(build_state(game, turn, records), shown, turn.gm_answers,
                         turn.gm_inputs, catalogue(game))
    return ReviewView(turn=turn.number, items=views(items), hidden_secret=hidden)


def _recorded(questions: Callable[[Mapping[str, Any]], list[_Item]],
              coerce_one: Callable[[_Item, Any], Any], given: Mapping[str, Any],
              answers: Mapping[str, Any], passes: int,
              settled: Callable[[list[_Item], Mapping[str, Any]], list[_Item]] | None = None,
              reveals: Set[str] = frozenset()) -> tuple[dict[str, Any], list[_Item]]:
    """The turn's answers with `answers` recorded, and the review's `questions` under them.

    An answer can make a question appear (a "triggered: yes" asks for the "target", the target
    named may ask whether it was "engaged"; an Xp Flaw's "yes" asks who gains), so the questions
    are worked out again after each pass that recorded something, up to `passes`, and the last
    ones are both what the answers are checked against and what the view shows. With `settled`
    (the same questions with the answers written in), a pass that answered no field of
    `reveals` (the fields whose answer can change the questions) is the last: its questions are
    the ones it had, with their answers, so the review is worked out once. InvalidInput names
    every bad answer and every key that is no question (any more); nothing is recorded."""
    stored = dict(given)
    problems: list[str] = []
    done: set[str] = set()
    items = questions(stored)
    for _ in range(passes):
        known = {i.key: i for i in items}
        fresh = [k for k in answers if k in known and k not in done]
        if not fresh:
            break
        for key in fresh:
            try:
                stored[key] = coerce_one(known[key], answers[key])
            except InvalidInput as exc:
                problems.append(str(exc))
        done.update(fresh)
        if settled is not None and not problems \
                and not any(known[k].field in reveals for k in fresh):
            items = settled(items, stored)
            break
        items = questions(stored)
        if problems:
            break
    keys = {i.key for i in items}
    problems.extend(f"There is no review question {k!r} (any more)."
                    for k in answers if k not in keys)
    if problems:
        raise InvalidInput("No answer was recorded:", tuple(dict.fromkeys(problems)))
    return stored, items


class ReviewService(UseCases):
    """The GM's review questions and answers."""

    async def review(self, game_id: str, actor: str) -> ReviewView:
        """Every GM input the current turn needs, with the answers given so far."""
        async with self.in_game(game_id, actor, gm=True, writes=False) as play:
            uow, game = play.uow, play.game
            turn = await live_turn(uow, game)
            records = list(await uow.characters.list(game.id))
            return await self.ruleset(game).review(uow, game, turn, records)

    @retried
    async def answer(self, game_id: str, actor: str, answers: Mapping[str, Any]) -> ReviewView:
        """Record GM answers by item key; every bad answer is named and nothing is stored."""
        async with self.in_game(game_id, actor, gm=True) as play:
            uow, game = play.uow, play.game
            turn = await uow.lock_turn((await live_turn(uow, game)).id)
            records = list(await uow.characters.list(game.id))
            view = await self.ruleset(game).answer(uow, game, turn, records, answers)
            await play.audit("review.answer", turn=turn.number, answers=dict(answers))
            return view

    @retried
    async def set_inputs(
        self,
        game_id: str,
        actor: str,
        *,
        end_combat: bool | None = None,
        extinguished: Sequence[str] | None = None,
        freed: Sequence[str] | None = None,
        end_positions: Mapping[str, int] | None = None,
    ) -> GMInputs:
        """Turn-wide GM inputs: the end of combat (Bleeding, F18.2 / F7 Amb-7), fires put out
        and creatures freed by the GM's ruling (F18.4, F18.15), end positions (F7 Amb-4)."""
        async with self.in_game(game_id, actor, gm=True) as play:
            uow, game = play.uow, play.game
            turn = await uow.lock_turn((await live_turn(uow, game)).id)
            names = {c.name.casefold(): c.name for c in await uow.characters.list(game.id)}

            def known(values: Sequence[str]) -> tuple[str, ...]:
                unknown = [v for v in values if v.casefold() not in names]
                if unknown:
                    raise InvalidInput(f"Nobody here is called {', '.join(map(safe, unknown))}.")
                return tuple(names[v.casefold()] for v in values)

            update: dict[str, Any] = {}
            if end_combat is not None:
                update["end_combat"] = end_combat
            if extinguished is not None:
                update["extinguished"] = known(extinguished)
            if freed is not None:
                update["freed"] = known(freed)
            if end_positions is not None:
                for position in end_positions.values():
                    check_number(position, "An end position", -MAX_POSITION, MAX_POSITION)
                update["end_positions"] = dict(zip(known(list(end_positions)),
                                                   end_positions.values(), strict=True))
            inputs = replace(turn.gm_inputs, **update)
            turn = await _store(uow, turn, gm_inputs=inputs)
            await play.audit("review.inputs", turn=turn.number,
                             **{k: v for k, v in update.items()})
            return inputs


async def _store(uow: UnitOfWork, turn: TurnRecord, **update: Any) -> TurnRecord:
    """The turn with the review's answers or inputs in `update` written; Conflict when the
    turn has nothing to review any more."""
    if turn.status not in _REVIEWABLE:
        raise Conflict(f"Turn {turn.number} is {turn.status.value}; it has nothing to review.")
    turn = turn.model_copy(update={**update, "version": turn.version + 1})
    await uow.turns.update(turn)
    return turn


#: the answers that can change a FAPPO turn's questions (`_items_for`, `_answered`): whether a
#: condition came true (its "target" question) and whom it names ("engaged", a mind spell's
#: mood anchors)
_REVEALS = frozenset({"triggered", "target"})


def _with_answers(items: list[Question], answers: Mapping[str, Any]) -> list[Question]:
    """The same questions with `answers` written in (what `review_items` gives under answers
    that change no question)."""
    return [replace(item, answer=answers.get(item.key)) for item in items]


async def fappo_answer(uow: UnitOfWork, game: Game, turn: TurnRecord,
                       records: list[CharacterRecord],
                       answers: Mapping[str, Any]) -> ReviewView:
    """`answer` for a FAPPO turn, in its transaction, the turn locked: up to three passes (a
    "triggered: yes" makes its "target" question appear, the target named an "engaged" one)."""
    state = build_state(game, turn, records)
    in_force, hidden = visible_to_gm(turn, records, await orders_in_force(uow, turn))
    names = [c.name for c in state.characters]
    stored, items = _recorded(
        lambda given: review_items(state, in_force, given, turn.gm_inputs, catalogue(game)),
        lambda item, value: coerce(item, value, names), turn.gm_answers, answers, 3,
        _with_answers, _REVEALS)
    turn = await _store(uow, turn, gm_answers=stored)
    return ReviewView(turn=turn.number, items=views(items), hidden_secret=hidden)


async def xp_answer(uow: UnitOfWork, game: Game, turn: TurnRecord,
                    records: list[CharacterRecord],
                    answers: Mapping[str, Any]) -> ReviewView:
    """`answer` for an Xp turn: up to two passes (a Flaw's "yes" asks who gains)."""
    found = await xp_play.load_in_force(uow, game, turn, records)
    stored, items = _recorded(
        lambda given: xp_review.review_items(
            found, records, given, longer=game.settings.xp.xp_failure_takes_longer),
        lambda item, value: xp_review.coerce(item, value, records, found),
        turn.gm_answers, answers, 2)
    turn = await _store(uow, turn, gm_answers=stored)
    return ReviewView(turn=turn.number, items=tuple(items))
