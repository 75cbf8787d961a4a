"""How a reader gets a turn's results: as embeds (a section each, a field per character) or as
plain text with headings. A game's `results_layout` chooses for its room; a player's own choice
(`/me layout`, kept with their pace) chooses for the results sent to them by DM, the game's
setting when they chose nothing. Which adapter can show embeds is the adapter's matter: the
table and the web page render their own way and read neither."""

from __future__ import annotations

from enum import StrEnum


class ResultsLayout(StrEnum):
    #: one embed per section of the results, a field per character in "Where things stand"
    EMBEDS = "embeds"
    #: plain text with a heading per section (screen readers, link previews turned off)
    TEXT = "text"


def layout_for(game: ResultsLayout, player: ResultsLayout | None = None) -> ResultsLayout:
    """The layout of a message: the player's own choice for their DMs, else the game's."""
    return player if player is not None else game
