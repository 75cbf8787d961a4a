"""Applying a resolution's changes: SP paid, ticks dealt, provisional damage shown, statuses,
equipment, positions, eliminations and clocks (RULINGS F7 steps 5e-7, F10, F13, F15, F18, P4).

The hits of this resolution are provisional (F13): `health` shows them, `settled_health` keeps
where the character stood, and `TurnState.pending` carries them to the next post's reductions.
"""

from __future__ import annotations

from dataclasses import fields, replace
from operator import attrgetter

from fappo_bot.rules.changes import Changes
from fappo_bot.rules.character import Character, Status, StatusKind
from fappo_bot.rules.context import Turn
from fappo_bot.rules.damage import corrode
from fappo_bot.rules.data import PIP_THRESHOLDS, TIERS, ArmorType
from fappo_bot.rules.dying import DyingState, advance_dying
from fappo_bot.rules.healing import heal
from fappo_bot.rules.health import (
    current_index,
    damaged,
    dead_index,
    index_of_level,
    pips_dead,
    uses_pips,
)
from fappo_bot.rules.names import fold, match_skill
from fappo_bot.rules.orders import ActionKind, Order
from fappo_bot.rules.results import TurnState
from fappo_bot.rules.spending import paid, total_spend, vetoed_refund
from fappo_bot.rules.ticks import deal_ticks

TURN_SECONDS = 10
"""One combat turn is 10 seconds [F:L217]: what a resolution adds to every heal clock (F14 Amb-1)."""
BINDING_TURNS = 60
"""[F:L248] "Binding his wounds takes 10 uninterrupted minutes of attention" (60 turns)."""
#: statuses that are one flag however often they are inflicted (F18.2 Amb-2, F18.4 Amb-3)
_FLAGS = frozenset({
    StatusKind.PRONE, StatusKind.BLEEDING, StatusKind.BURNING, StatusKind.FROZEN,
    StatusKind.STABILIZED, StatusKind.VAPORIZED, StatusKind.ALERTED,
})


#: the tiers removed by elimination, not damage (`Character.is_fodder`, a property)
_FODDER_TIERS = frozenset(tier for tier, row in TIERS.items() if row.fodder)


def apply_changes(turn: Turn, state: TurnState, changes: Changes) -> tuple[Character, ...]:
    """The characters at the start of the next turn (F7 steps 5e, 6, 7)."""
    deal_ticks(turn, changes)
    _interrupt(turn, changes)
    changes.index_hits()
    out: list[Character] = []
    # the names each step concerns, so that a character none of them touches skips the call
    statuses = changes.drop_status.keys() | changes.add_status.keys()
    equipment = (changes.lose_weapon.keys() | changes.gain_weapon.keys() | changes.wielding.keys()
                 | changes.positions.keys() | changes.ammo.keys() | changes.lose_shield)
    spells = changes.heal.keys() | changes.vaporize
    chars, orders, facts, fighters = turn.chars, turn.orders, turn.facts, turn.fighters
    levels_on, eliminated = changes.levels_on, changes.eliminated
    for original in state.characters:
        name = original.name
        c = chars[name]
        fighter = fighters[name]  # the snapshot's facts
        # SP, statuses, equipment, damage and eliminations change distinct fields of `c`: one
        # copy (`new`, made by the first step that changes something), each step reading `c`
        order = orders.get(name)
        new = _pay(turn, c, order) if order is not None and facts.declares_sp(order) else None
        if name in statuses:
            new = _statuses(name, c, changes, new)
        if name in equipment:
            new = _equipment(c, changes, new)
        # `_damage` has nothing to show without new hits or provisional ones to settle
        if (levels_on.get(name, 0) > 0 or c.shock or c.settled_health is not None
                or c.settled_pips is not None):
            new = _damage(turn, c, changes, new)
        if name in eliminated:
            new = _eliminated(turn, c, eliminated[name], new)
        if new is not None:
            c = new
        if name in changes.corrode:
            for _ in range(changes.corrode[name]):
                c = corrode(c)
        if name in spells:
            c = _healed_or_vaporized(turn, c, changes)
        if (c.statuses or c.steadied_turns or name in changes.aiming
                or name in changes.bound or fighter.level.name == "Dying"):  # `_clocks`' test
            c = _clocks(turn, name, c, changes)
        if not fighter.fodder:  # fodder never heals (`_heal_clock`)
            c = _heal_clock(turn, name, original, c, changes)
        out.append(c)
    return tuple(out)


#: a character's fields in their declared order, read at once (`_copy`)
_FIELDS = attrgetter(*[f.name for f in fields(Character)])


def _copy(c: Character) -> Character:
    """The one copy of each changed character a turn makes: the fields read at once and passed
    by position (`replace` looks up every field's kind and passes each by keyword, several
    times the work of the copy itself); the steps of `apply_changes` set the fields they change
    on it before anything else sees it."""
    return Character(*_FIELDS(c))


def _eliminated(turn: Turn, c: Character, count: int, new: Character | None) -> Character:
    """A group's eliminations (F20, F21): fewer creatures, provisional until the group's next
    order when fodder may reduce (F13)."""
    if new is None:
        new = _copy(c)
    left = c.count - count
    new.count = left if left > 0 else 0
    if turn.config.fodder_can_reduce:
        new.settled_count = c.count
    return new


def _heal_clock(turn: Turn, name: str, original: Character, c: Character,
                changes: Changes) -> Character:
    """F14 Amb-1, F7 step 7 (Amendments 2026-12-01): a resolved turn is 10 seconds of healing
    for a character with no new damage. A level's timer starts in the turn its damage was dealt,
    provisional damage included: new damage this turn (ticks too) restarts it, with its own
    Healing check episode; damage settled at step 2 started it in the turn it was dealt; a level
    a healing spell reaches at this close starts afresh (the turn was spent below it). Fodder
    never heals (docs/rulings.md: the caller passes no fodder); `healing.heal` keeps the Dying
    and Dead rules."""
    if changes.levels_on.get(name, 0) > 0 or name in changes.heal:
        # a level entered at this close (new damage, or a healing spell) starts its clock at 0
        if c.heal_elapsed or c.heal_checked or c.heal_halved:
            return replace(c, heal_elapsed=0, heal_checked=False, heal_halved=False)
        return c
    if not (c.health or c.pips or c.heal_elapsed or original.health or original.pips):
        return c  # healthy before and after: nothing to heal, no clock to run
    config = turn.config
    if current_index(turn.chars[name], config) > current_index(original, config):
        c = replace(c, heal_elapsed=0, heal_checked=False, heal_halved=False)
    if current_index(c, config) == 0:
        return c if not c.heal_elapsed else replace(c, heal_elapsed=0)
    healed = heal(c, TURN_SECONDS, config=config).character
    if healed.health != c.health or healed.pips != c.pips:
        changes.event("healed", name, "a level healed over time (F14)")
    return healed


def _interrupt(turn: Turn, changes: Changes) -> None:
    """A multi-turn cast not carried on this turn is broken off (F7 Amb-5)."""
    for name, c in turn.chars.items():
        if c.statuses and c.has_status(StatusKind.CONCENTRATING) and (
                name not in changes.concentrating):
            changes.clear(name, StatusKind.CONCENTRATING)
            changes.event("interrupted", name, "the concentration was broken")


def _pay(turn: Turn, c: Character, order: Order) -> Character | None:
    """P4: every declared SP is spent, even when wasted; a GM veto refunds (F4 Amb-14). Only for
    an order that declares SP (`Facts.declares_sp`). The copy with the pools paid, or None."""
    spent = total_spend(order)
    if not spent:
        return None  # a veto only refunds what was declared
    for action in order.actions:
        if not action.sp_vetoed:
            continue
        # the skill the action used, as grading read it: an attack's from its weapon when
        # none is named (`Facts.arm`), a written name by exact name, else unique prefix
        if action.kind is ActionKind.ATTACK:
            skill = turn.facts.of(turn.chars[c.name]).arm(action.weapon, action.skill,
                                                          turn.config).skill
        else:
            skill = match_skill(c, action.skill).name if action.skill else None
        trait = turn.traits.suggested(skill)
        suggested = trait.value if trait is not None else None
        for key, amount in vetoed_refund(action, suggested).items():
            spent[key] = spent.get(key, 0) - amount
    left = paid(c, {k: v for k, v in spent.items() if v > 0})
    if left is None:
        return None
    new = _copy(c)
    new.traits, new.floating = left
    return new


def _statuses(name: str, c: Character, changes: Changes,
              new: Character | None) -> Character | None:
    if name not in changes.drop_status and name not in changes.add_status:
        return new
    kept = list(c.statuses)
    for kind, item in changes.drop_status.get(name, []):
        kept = [
            s for s in kept
            if not (s.kind is kind and (item is None or s.item is None
                                        or fold(s.item) == fold(item)))
        ]
    for status in changes.add_status.get(name, []):
        same = [s for s in kept if s.kind is status.kind]
        if status.kind in _FLAGS and same:
            continue
        if status.kind is StatusKind.DISARMED and any(
            fold(s.item or "") == fold(status.item or "") for s in same
        ):
            continue  # one item can be dropped only once
        if status.kind is StatusKind.UNCONSCIOUS and same:
            longest = max([status.turns or 0, *[s.turns or 0 for s in same]])
            kept = [s for s in kept if s.kind is not StatusKind.UNCONSCIOUS]
            status = replace(status, turns=longest)
        kept.append(status)
    if new is None:
        new = _copy(c)
    new.statuses = tuple(kept)
    return new


def _equipment(c: Character, changes: Changes, new: Character | None) -> Character | None:
    """Weapons lost, gained or wielded, the new position, the ammo spent (Corrosion, which
    needs the weapon in hand after these, comes after them)."""
    name = c.name
    if (name not in changes.lose_weapon and name not in changes.gain_weapon
            and name not in changes.wielding and name not in changes.positions
            and name not in changes.ammo and name not in changes.lose_shield):
        return new
    weapons = list(c.weapons)
    for lost in changes.lose_weapon.get(name, []):
        for i, w in enumerate(weapons):
            if fold(w.name) == fold(lost):
                del weapons[i]
                break
    weapons += [w for w in changes.gain_weapon.get(name, [])
                if not any(fold(x.name) == fold(w.name) for x in weapons)]
    if new is None:
        new = _copy(c)
    new.weapons = tuple(weapons)
    if name in changes.wielding:
        new.wielding = changes.wielding[name]
    if name in changes.positions:
        new.position = changes.positions[name]
    if name in changes.ammo and c.ammo is not None:
        new.ammo = max(0, c.ammo - changes.ammo[name])
    if name in changes.lose_shield:
        new.shield, new.shield_bonus = ArmorType.NONE, 0
    return new


def _damage(turn: Turn, c: Character, changes: Changes,
            new: Character | None) -> Character | None:
    """Show this resolution's hits (ticks included) provisionally; shock if it moved down."""
    config = turn.config
    levels = changes.levels_on.get(c.name, 0)
    quiet = not (c.shock or c.settled_health is not None or c.settled_pips is not None)
    if levels <= 0 and quiet:
        return new
    if levels > 0 and not c.is_fodder:
        pips = uses_pips(c, config)
        before = c.pips if pips else current_index(c, config)
        health, new_pips = damaged(c, levels, config)
        shock = (new_pips if pips else health) > before
        if (shock == c.shock and c.settled_health == c.health and c.settled_pips == c.pips
                and health == c.health and new_pips == c.pips):
            return new
        if new is None:
            new = _copy(c)
        new.shock, new.settled_health, new.settled_pips = shock, c.health, c.pips
        new.health, new.pips = health, new_pips
        return new
    if quiet:  # no shock and nothing provisional: nothing to clear
        return new
    if new is None:
        new = _copy(c)
    new.shock, new.settled_health, new.settled_pips = False, None, None
    return new


def _healed_or_vaporized(turn: Turn, c: Character, changes: Changes) -> Character:
    """Healing spells (F14 Amb-9) and Vaporize (F18.16) on top of the damage shown."""
    if c.name in changes.heal:
        c = _healed(turn, c, changes.heal[c.name])
    if c.name in changes.vaporize:
        c = replace(c, health=dead_index(c), pips=pips_dead(), settled_health=dead_index(c), settled_pips=pips_dead(), statuses=(*c.statuses, Status(kind=StatusKind.VAPORIZED)))
        changes.hits[:] = [h for h in changes.hits if h.target != c.name]
        changes.event("vaporized", c.name)
    return c


def _healed(turn: Turn, c: Character, levels: int) -> Character:
    """A healing spell moves the character up `levels` at once (F14 Amb-9); pips clear fully."""
    if uses_pips(c, turn.config):
        return replace(c, pips=0, health=0, settled_pips=0 if c.settled_pips is not None else None)
    index = max(0, current_index(c, turn.config) - levels)
    if c.settled_health is None:
        return replace(c, health=index)
    # the provisional hits of this turn stay on top of the healed level (F13)
    return replace(c, health=index, settled_health=max(0, c.settled_health - levels))


def _clocks(turn: Turn, name: str, c: Character, changes: Changes) -> Character:
    """Knockout countdowns, the Dying deadline, steadying, Bleeding and the GM's events (F7
    step 7, F15, F18.2, F19 Amb-6)."""
    snap = turn.chars[name]
    dying = turn.fighters[name].level.name == "Dying"  # `health.is_dying`
    if (not c.statuses and not c.steadied_turns and name not in changes.aiming
            and name not in changes.bound and not dying):
        return c
    statuses: list[Status] = []
    for s in c.statuses:
        if s.kind is StatusKind.UNCONSCIOUS and s in snap.statuses and s.turns is not None:
            if s.turns <= 1:
                changes.event("woke", name)
                continue
            s = replace(s, turns=s.turns - 1)
        if s.kind in (StatusKind.FROZEN, StatusKind.TRANSFIXED) and name in turn.gm.freed:
            continue
        if s.kind is StatusKind.BURNING and name in turn.gm.extinguished:
            continue
        if s.kind is StatusKind.FROZEN and s in snap.statuses:
            s = replace(s, elapsed=s.elapsed + 1)
        if s.kind is StatusKind.POISONED and s.turns is not None and s in snap.statuses:
            if s.turns <= 1:
                continue
            s = replace(s, turns=s.turns - 1)
        statuses.append(s)
    steady = _steady(turn, c, changes)
    if not _same_items(statuses, c.statuses) or steady != (c.steadied_turns, c.steady_target):
        c = replace(c, statuses=tuple(statuses), steadied_turns=steady[0], steady_target=steady[1])
    if dying and not snap.has_status(StatusKind.STABILIZED):
        c = _dying(turn, name, c, changes)
    if turn.gm.end_combat:
        c = _bleed(turn, c)
    if c.has_status(StatusKind.BLEEDING):
        c = _binding(c, name in changes.bound, changes)
    return c


def _same_items(new: list[Status], old: tuple[Status, ...]) -> bool:
    """The very same statuses: nothing to copy."""
    if len(new) != len(old):
        return False
    for i, status in enumerate(new):  # (not `zip(..., strict=True)`: its keyword is slow)
        if status is not old[i]:
            return False
    return True


def _dying(turn: Turn, name: str, c: Character, changes: Changes) -> Character:
    """F15: a turn at a final Dying counts; two full turns of attention or the 2-SP route
    stabilize; without them the character dies at the end of the tenth turn (`rules.dying`)."""
    snap = turn.chars[name]
    at_snapshot = replace(c, health=snap.health, pips=snap.pips)
    outcome = advance_dying(at_snapshot, attended=name in changes.attended,
                            sp_route=name in changes.stabilized, config=turn.config)
    done = outcome.character
    if outcome.state is DyingState.DEAD:
        changes.event("died", name, "ten turns Dying without help")
        return replace(done, settled_health=None, settled_pips=None)
    if outcome.state is DyingState.STABILIZED:
        changes.event("stabilized", name)
    return replace(done, health=c.health, pips=c.pips)


def _steady(turn: Turn, c: Character, changes: Changes) -> tuple[int, str | None]:
    """Sniper steadying (F19 Amb-6): +1 per full turn of `aim` at the same target; a shot keeps
    the bead; anything else, or the target moving more than 1 Range, loses it."""
    if c.name in changes.aiming:
        target = changes.aiming[c.name]
        moved = target is not None and any(
            (a.ranges or 1) > 1 for a in turn.moves_of(target)
        )
        if moved:
            return 0, target
        same = target is None or c.steady_target is None or fold(target) == fold(c.steady_target)
        return (c.steadied_turns + 1 if same else 1), target
    if not c.steadied_turns:
        return 0, None  # nothing to keep
    order = turn.orders.get(c.name)
    shot = order is not None and any(a.kind is ActionKind.ATTACK for a in order.actions)
    if shot:
        return c.steadied_turns, c.steady_target
    return 0, None


def _bleed(turn: Turn, c: Character) -> Character:
    """F18.2: at the end of combat a bleeding victim drops to Incapacitated (if above it)."""
    if not c.has_status(StatusKind.BLEEDING) or c.is_fodder:
        return c
    incap = index_of_level(c.track_kind, "Incapacitated")
    index = current_index(c, turn.config)
    if incap is None or index >= incap:
        return c
    statuses = tuple(
        replace(s, restore_to=index) if s.kind is StatusKind.BLEEDING else s
        for s in c.statuses
    )
    pips = PIP_THRESHOLDS[incap] if uses_pips(c, turn.config) else c.pips
    return replace(c, health=incap, statuses=statuses, pips=pips)


def _binding(c: Character, tended: bool, changes: Changes) -> Character:
    """Binding a bleeding wound: 10 uninterrupted minutes (60 turns) of attention restore the
    level at the end of the fight (F18.2); a turn without it starts over (Amb-6)."""
    bleeding = next(s for s in c.statuses if s.kind is StatusKind.BLEEDING)
    if not tended:
        if not bleeding.elapsed:
            return c
        kept = replace(bleeding, elapsed=0)
    else:
        kept = replace(bleeding, elapsed=bleeding.elapsed + 1)
    if kept.elapsed < BINDING_TURNS:
        statuses = tuple(kept if s is bleeding else s for s in c.statuses)
        return replace(c, statuses=statuses)
    changes.event("bound", c.name, "the bleeding wounds are bound")
    restored = bleeding.restore_to
    health = restored if restored is not None and restored < c.health else c.health
    return replace(c, statuses=tuple(s for s in c.statuses if s is not bleeding), health=health)
