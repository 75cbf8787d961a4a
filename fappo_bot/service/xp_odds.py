"""The exact odds of an Xp roll for anyone who asks (`/odds 6d superior` at the table and on the
bot): the same reading of the roll as `fappo-bot odds` (`rules_xp.notation`), the same exact
computation (`rules_xp.odds`) and the same table (`render_xp.render_odds`). No game, no storage:
a pure call, its refusals the service's sentences; asked in an Xp game, the caller passes the
game's Xp flags as `config` (`XpRollService.odds`)."""

from __future__ import annotations

from fappo_bot.render_xp import render_odds
from fappo_bot.rules_xp.config import DEFAULT_CONFIG, XpConfig
from fappo_bot.rules_xp.errors import XpError
from fappo_bot.rules_xp.notation import RollSpec, parse_roll
from fappo_bot.rules_xp.odds import odds
from fappo_bot.service.errors import InvalidInput
from fappo_bot.service.xp_records import sentence

MAX_ODDS_POOL = 100
"""The adapters' odds stop at 100 dice (the table of a bigger pool is too long to read; the
command line goes to 200)."""


def odds_text(roll: str, *, need: int = 1, heroic: bool = True, brief: bool = False,
              config: XpConfig = DEFAULT_CONFIG) -> str:
    """The odds table of `roll` (`6d superior`, `4d`, `5 -1`): P(exactly / at least s), P(net),
    success, failure, fumble and exposures (RULINGS X0-X5), heroic dice unless `heroic` is
    False (an NPC); `brief` leaves out the rows under 0.01% (for a chat message); `config`: the
    Xp flags played (a game's `xp_sl_floor_mode` changes the odds below Hopeless)."""
    try:
        spec = parse_roll(roll)
        if spec.pool > MAX_ODDS_POOL:
            raise InvalidInput(f"Odds are shown for pools of up to {MAX_ODDS_POOL} dice.")
        result = odds(spec.pool, spec.sl, heroic=heroic, need=need, config=config)
    except XpError as exc:
        raise sentence(exc) from None
    return render_odds(result, spec.sl, brief=brief)


def read_roll(roll: str) -> RollSpec:
    """`6d superior` as a pool and a level, for an adapter that takes the roll as one text; its
    refusal is the service's sentence."""
    try:
        return parse_roll(roll)
    except XpError as exc:
        raise sentence(exc) from None
