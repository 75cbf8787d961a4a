"""The rulesets a game may play, behind one port (`port.Ruleset`): FAPPO (RULINGS Part A,
`fappo.py`) and the Xp dice pools (Part B, `xp.py`). `known.py` is the registry by name, the one
place that maps a game's `ruleset` to an implementation. A third ruleset is a module here and
one line of the registry."""

from fappo_bot.service.rulesets.port import Feature, Ruleset

__all__ = ["Feature", "Ruleset"]
