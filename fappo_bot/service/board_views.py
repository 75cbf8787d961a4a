"""The views of a game's turn board (`TurnService.board`): what the board and `/turn status`
show, and no more. Beside `views.py`, whose turn summary and deadline move they carry."""

from __future__ import annotations

from typing import NamedTuple

from pydantic import BaseModel, ConfigDict

from fappo_bot.service.records import Game
from fappo_bot.service.views import DeadlineMoveView, GameView, TurnStatusView, TurnSummary

_FROZEN = ConfigDict(frozen=True)


class WhoIsIn(NamedTuple):
    """Who is in a turn, as its ruleset says (`Ruleset.who_is_in`): the names that have posted
    and passed, the missing characters with the users who run them (None: the GMs), in the
    game's order, and whether the NPC orders are sealed."""

    posted: tuple[str, ...]
    passed: tuple[str, ...]
    missing: tuple[tuple[str, str | None], ...]
    npc_sealed: bool

    @classmethod
    def of(cls, status: TurnStatusView) -> WhoIsIn:
        """The part of a whole status (its `missing`, before anyone is shown away)."""
        runners = {r.name: r.runner for r in status.characters if r.state == "missing"}
        return cls(status.posted, status.passed,
                   tuple((name, runners.get(name)) for name in status.missing),
                   status.npc_sealed)


class BoardView(BaseModel):
    """A game's turn board: the game's room and name, whether its rules seal NPC orders, and of
    its current turn who has posted, passed, is away (`/me away`) or is missing, the deadline
    and how it last moved by itself, the seal."""

    model_config = _FROZEN

    game_id: str
    name: str
    channel_key: str
    guild_key: str | None
    has_npc_seal: bool
    turn: TurnSummary
    posted: tuple[str, ...]
    passed: tuple[str, ...]
    away: tuple[str, ...]
    missing: tuple[str, ...]
    deadline_moved: DeadlineMoveView | None
    npc_sealed: bool

    @classmethod
    def of(cls, game: GameView, status: TurnStatusView) -> BoardView:
        """The board of a game and its turn's whole status (`GameService.show`,
        `TurnService.status`), for a caller that read both."""
        return cls.of_status(game, game.has_npc_seal, status)

    @classmethod
    def of_status(cls, game: Game | GameView, has_npc_seal: bool,
                  status: TurnStatusView) -> BoardView:
        """The board of `game` (its record or its view) from its turn's whole status, and
        whether its rules seal NPC orders."""
        return cls(game_id=game.id, name=game.name, channel_key=game.channel_key,
                   guild_key=game.guild_key, has_npc_seal=has_npc_seal, turn=status.turn,
                   posted=status.posted, passed=status.passed, away=status.away,
                   missing=status.missing, deadline_moved=status.deadline_moved,
                   npc_sealed=status.npc_sealed)


class StatusBoard(NamedTuple):
    """`/turn status` read once (`TurnService.status_board`): the turn's whole status, its
    board made from it, and whether the reader is a GM of the game (who may ping)."""

    status: TurnStatusView
    board: BoardView
    gm: bool
