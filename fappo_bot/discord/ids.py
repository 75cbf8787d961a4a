"""The custom_ids of the bot's components and modals: stable (what the component does, for
whom and in which game, never random) and within Discord's 100 characters.

discord.py routes a modal's submission by its custom_id alone, so two people's open modals
must not share one: each id names the game and the user it is for."""

from __future__ import annotations

#: Discord's limit on a custom_id
MAX_CUSTOM_ID = 100


def custom_id(*parts: object) -> str:
    """`fappo:part:part...`, refused (ValueError) when over Discord's limit."""
    found = ":".join(["fappo", *(str(p) for p in parts)])
    if len(found) > MAX_CUSTOM_ID:
        raise ValueError(f"custom_id over {MAX_CUSTOM_ID} characters: {found!r}")
    return found
