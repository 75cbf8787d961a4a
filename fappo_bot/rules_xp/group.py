"""Rolls that several rollers make together, and rolls the GM concedes (RULINGS X10-X13)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from fappo_bot.rules_xp.config import DEFAULT_CONFIG, RelaunchBonus, Who, XpConfig
from fappo_bot.rules_xp.errors import XpError
from fappo_bot.rules_xp.roll import (
    Mode,
    RollOutcome,
    RollRecord,
    effective_sl,
    target_label,
    unrolled,
)
from fappo_bot.rules_xp.rollers import Roller, check_need, roll_for
from fappo_bot.rules_xp.tables import key

# ---- X10 assisted ------------------------------------------------------------------------------


def assist_delta(record: RollRecord) -> int:
    """X10: "For each other roller who successfully performs the task the Leader gains +1d. / For
    each person who fails (no successes but no fumble) the Lead loses 1d / For each person who
    fumbles they lose 2d." A supporter with successes below the need fails (Amb-1)."""
    if record.outcome is RollOutcome.FUMBLE:
        return -2
    return 1 if record.outcome is RollOutcome.SUCCESS else -1


@dataclass(frozen=True, slots=True)
class Support:
    """A supporter's roll and what it gives the lead."""

    name: str
    roll: RollRecord
    delta: int


@dataclass(frozen=True, slots=True)
class AssistedResult:
    """X10: every supporter's roll, the lead's dice change and the lead's roll (the group's)."""

    supporters: tuple[Support, ...]
    delta: int
    lead: RollRecord
    #: supporters refused for want of the Xposure (`no-xposure`): they count for nothing
    errors: tuple[XpError, ...] = ()


def _no_xposure(roller: Roller, role: str) -> XpError:
    return XpError(f"{roller.name} cannot {role}: assisting needs the skill itself, not a default "
                   "(an appropriate Xposure, RULINGS X10)", code="no-xposure", name=roller.name)


def assisted(lead: Roller, supporters: Sequence[Roller], need: int = 1,
             config: XpConfig = DEFAULT_CONFIG) -> AssistedResult:
    """X10: "They all need to have an appropriate Xposure" and "The Lead roll is made AFTER all
    support rolls are determined." A supporter without the Xposure is left out (Amb-2); a lead
    without it refuses the roll."""
    check_need(need)
    if not lead.xposure:
        raise _no_xposure(lead, "lead")
    support, errors = [], []
    for supporter in supporters:
        if not supporter.xposure:
            errors.append(_no_xposure(supporter, "assist"))
            continue
        record = roll_for(supporter, need, config=config)
        support.append(Support(supporter.name, record, assist_delta(record)))
    delta = sum(s.delta for s in support)
    return AssistedResult(tuple(support), delta, roll_for(lead, need, delta, config),
                          tuple(errors))


# ---- X11 group rolls ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Member:
    """A member of a group roll: the roller, its Luck and how many relaunches it will pay for."""

    roller: Roller
    luck: int = 0
    relaunches: int = 0
    need: int | None = None


@dataclass(frozen=True, slots=True)
class MemberResult:
    """A member's last roll, the chain dice added to it, whether it relaunched, its Luck after,
    every roll it made and the refusals of its relaunches (`luck-insufficient`)."""

    name: str
    roll: RollRecord
    chain_bonus: int
    relaunched: bool
    luck: int
    rolls: tuple[RollRecord, ...]
    chain_bonuses: tuple[int, ...]
    errors: tuple[XpError, ...] = field(default=())


def default_order(members: Sequence[Member]) -> list[Member]:
    """X11 Amb-1: without the GM's order, the biggest pool first ("The most stealthy person is
    obviously sent out first"), ties in the listed order."""
    return sorted(members, key=lambda m: -(m.roller.pool if m.roller.pool is not None else -99))


def spontaneous(members: Sequence[Member], need: int = 1,
                config: XpConfig = DEFAULT_CONFIG) -> list[MemberResult]:
    """X11: "Spontaneous rolls are reactions rolls and each person rolls individually and gets an
    individual result." [X:L385]"""
    out = []
    for member in members:
        if member.relaunches:
            raise XpError(f"{member.roller.name} cannot relaunch a spontaneous roll: there is no "
                          "chain (Good Luck relaunches a collateral chain)")
        record = roll_for(member.roller, check_need(member.need or need), config=config)
        out.append(MemberResult(member.roller.name, record, 0, False, member.luck, (record,),
                                (0,)))
    return out


def collateral(order: Sequence[Member], need: int = 1,
               config: XpConfig = DEFAULT_CONFIG) -> list[MemberResult]:
    """X11: "Each person who succeeds will add +1d (accumulating) to everyone who follows them
    until someone fails, at which point the rest automatically fail." [X:L387] "Good Luck can be
    used to allow someone to re-launch the chain, re-starting with that person." [X:L391] A
    relaunch costs 1 Luck (Amb-2), restarts the bonus at +0 by default (Amb-3), and the member who
    broke the chain may relaunch it himself (Amb-4)."""
    keep = config.collateral_relaunch_bonus is RelaunchBonus.KEEP
    bonus, broken = 0, False
    out = []
    for member in order:
        roller = member.roller
        member_need = check_need(member.need or need)
        purse = _Purse(member)
        if broken:
            if not purse.pay():
                level = effective_sl(roller.sl, config)
                record = unrolled(roller.pool or 0, roller.sl if level is None else level,
                                  target_label(level), member_need, Mode.CHAIN_BROKEN)
                out.append(MemberResult(roller.name, record, 0, False, purse.luck, (), (),
                                        tuple(purse.errors)))
                continue
            broken = False
            bonus = bonus if keep else 0
        rolls, bonuses = [], []
        while True:
            record = roll_for(roller, member_need, bonus, config)
            rolls.append(record)
            bonuses.append(bonus)
            if record.success or not purse.pay():
                break
            bonus = bonus if keep else 0
        if record.success:
            bonus += 1
        else:
            broken = True
        out.append(MemberResult(roller.name, record, bonuses[-1], purse.relaunched, purse.luck,
                                tuple(rolls), tuple(bonuses), tuple(purse.errors)))
    return out


class _Purse:
    """A member's Luck and the relaunches it will pay for (1 Luck each, X11 Amb-2)."""

    def __init__(self, member: Member) -> None:
        self.name = member.roller.name
        self.luck = member.luck
        self.wanted = member.relaunches
        self.relaunched = False
        self.errors: list[XpError] = []

    def pay(self) -> bool:
        """Pay for one relaunch if the member asked for one and has the Luck."""
        if self.wanted <= 0:
            return False
        self.wanted -= 1
        if self.luck < 1:
            self.errors.append(XpError(
                f"{self.name} has no Luck left to relaunch the chain (1 Luck each)",
                code="luck-insufficient", name=self.name))
            self.wanted = 0
            return False
        self.luck -= 1
        self.relaunched = True
        return True


# ---- X12 augmented -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Augment:
    """An augment roll and the dice it adds (its successes; 0 if it fumbled, X12 Amb-1)."""

    name: str
    roll: RollRecord

    @property
    def added(self) -> int:
        """"The number of extra dice will be equal to the number of successes" [X:L403]."""
        return 0 if self.roll.fumble else self.roll.s


@dataclass(frozen=True, slots=True)
class AugmentedResult:
    """X12: the augments, the dice they add together, and the augmented roll."""

    augments: tuple[Augment, ...]
    added: int
    target: RollRecord
    #: augments refused as a second one of the same ability (`duplicate-augment`)
    errors: tuple[XpError, ...] = ()


def augmented(target: Roller, augments: Sequence[Roller], need: int = 1,
              config: XpConfig = DEFAULT_CONFIG) -> AugmentedResult:
    """X12: "the augment roll is used to add extra dice to the actual roll it is augmenting".
    One augment per distinct ability (Amb-2): a second one of the same name is refused and rolls
    nothing."""
    seen: set[str] = set()
    rolled, errors = [], []
    for roller in augments:
        if key(roller.name) in seen:
            errors.append(XpError(f"{roller.name} already augments this roll (one augment per "
                                  "ability)", code="duplicate-augment", name=roller.name))
            continue
        seen.add(key(roller.name))
        rolled.append(Augment(roller.name, roll_for(roller, config=config)))
    added = sum(a.added for a in rolled)
    return AugmentedResult(tuple(rolled), added, roll_for(target, check_need(need), added, config),
                           tuple(errors))


# ---- X13 conceded ------------------------------------------------------------------------------

CONCEDE_MIN_POOL = 4
"""X13: "the GM should concede a test to any player who has at least 4d after all mods"."""


def conceded(roller: Roller, insignificant: bool, need: int = 1,
             config: XpConfig = DEFAULT_CONFIG) -> tuple[bool, RollRecord]:
    """X13: "They gain a single success and the game moves on." Only a player's test (Amb-2) that
    needs one success (Amb-1), flagged insignificant by the GM; the SL plays no part. Otherwise the
    roller rolls."""
    check_need(need)
    pool = roller.pool
    if insignificant and roller.who is Who.PC and pool is not None and pool >= CONCEDE_MIN_POOL \
            and need == 1:
        level = effective_sl(roller.sl, config)
        shown = roller.sl if level is None else level
        return True, unrolled(pool, shown, target_label(level), need, Mode.CONCEDED, s=1)
    return False, roll_for(roller, need, config=config)
