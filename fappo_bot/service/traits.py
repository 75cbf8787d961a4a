"""A game's own Traits (F2: "others may be introduced that follow the same general pattern"):
a GM adds one (its name, alternate names and the skills it suggests), removes one no sheet uses,
and anyone in the game lists them beside the rulebook's ten.

They are kept in the game's settings document (`GameSettings.traits`), so an export carries them
and no table is added. Every use of a game's Traits reads them through `catalogue`: the sheets
of the game (`/char create`, `/char edit`), its posts' SP lines and the results that name them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from fappo_bot.posting.safety import safe, safe_prose
from fappo_bot.rules import (
    TRAIT_ALIASES,
    Trait,
    TraitCatalogue,
    TraitDef,
    TraitRefused,
    new_trait,
)
from fappo_bot.service.base import UseCases, load_game
from fappo_bot.service.errors import Conflict, InvalidInput, NotFound
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.records import CharacterRecord, Game, GameTrait, trait_catalogue
from fappo_bot.service.retry import retried
from fappo_bot.service.rulesets import Feature


@dataclass(frozen=True, slots=True)
class TraitView:
    """One Trait of a game as a reader is shown it."""

    name: str
    aliases: tuple[str, ...]
    #: the skills it suggests (a rulebook Trait's are the rulebook's and are not listed)
    skills: tuple[str, ...]
    #: one of the rulebook's ten, or the game's own
    builtin: bool


def catalogue(game: Game) -> TraitCatalogue:
    """Every Trait of `game`: the rulebook's, then the game's own."""
    return trait_catalogue(game.settings.traits)


def split_list(text: str | Sequence[str] | None) -> tuple[str, ...]:
    """Names written as one text, separated by commas (`Sharp, Hawk-eyed`), or already a list."""
    if text is None:
        return ()
    items = text.split(",") if isinstance(text, str) else text
    return tuple(item.strip() for item in items if item.strip())


def users_of(trait: TraitDef, records: Iterable[CharacterRecord]) -> list[str]:
    """The characters whose sheet or state owns `trait`, or rates a skill it suggests."""
    skills = {s.casefold() for s in trait.skills}
    found: list[str] = []
    for record in records:
        for character in (record.sheet, record.state):
            if character is None:
                continue
            if trait.trait in character.traits or any(
                    k.casefold() in skills and v > 0 for k, v in character.skills.items()):
                found.append(record.name)
                break
    return found


def views(game: Game) -> list[TraitView]:
    """The rulebook's Traits, then the game's own."""
    out = [TraitView(t.value, TRAIT_ALIASES[t], (), True) for t in Trait]
    out += [TraitView(t.name, t.aliases, t.skills, False) for t in game.settings.traits]
    return out


class TraitService(UseCases):
    """A game's own Traits: add, remove, list."""

    async def list(self, game_id: str) -> list[TraitView]:
        """Every Trait of the game, the rulebook's first (anyone may look)."""
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
        return views(game)

    @retried
    async def add(self, game_id: str, actor: str, name: str,
                  aliases: str | Sequence[str] | None = None,
                  skills: str | Sequence[str] | None = None) -> TraitView:
        """A GM adds a Trait to the game; refused when its name or an alternate name is taken
        (by a rulebook Trait or one of the game's, or their alternate names), a skill is the
        rulebook's or another Trait's, or a limit is passed (`rules.traits`)."""
        async with self.in_game(game_id, actor, gm=True, needs=Feature.CUSTOM_TRAITS) as play:
            uow, game = play.uow, play.game
            try:
                made = new_trait(catalogue(game), name, split_list(aliases), split_list(skills))
            except TraitRefused as exc:
                raise InvalidInput(f"The Trait was not added: {safe_prose(str(exc))}") from None
            entry = GameTrait(name=made.name, aliases=made.aliases, skills=made.skills)
            await _save(uow, game, (*game.settings.traits, entry))
            await play.audit("trait.add", name=entry.name, aliases=list(entry.aliases),
                             skills=list(entry.skills))
            return TraitView(entry.name, entry.aliases, entry.skills, False)

    @retried
    async def remove(self, game_id: str, actor: str, name: str) -> TraitView:
        """A GM removes one of the game's own Traits; refused while a character's sheet owns
        it or rates a skill it suggests (the characters are named)."""
        async with self.in_game(game_id, actor, gm=True, needs=Feature.CUSTOM_TRAITS) as play:
            uow, game = play.uow, play.game
            known = catalogue(game)
            found = known.get(name)
            if found is None:
                builtin = known.find(name)
                if isinstance(builtin, Trait):
                    raise InvalidInput(f"{builtin.value} is a rulebook Trait; only a game's "
                                       "own Traits are removed.")
                mine = ", ".join(safe(e.name) for e in known.custom) or "none"
                raise NotFound(f'This game has no Trait of its own called "{safe(name)}" '
                               f"(its own: {mine}).")
            users = users_of(found, await uow.characters.list(game.id))
            if users:
                whose = (f"the sheet of {safe(users[0])} uses it; edit it" if len(users) == 1 else
                         f"the sheets of {', '.join(map(safe, users))} use it; edit them")
                raise Conflict(f"{safe(found.name)} is not removed: {whose} first.")
            kept = tuple(t for t in game.settings.traits
                         if t.name.casefold() != found.name.casefold())
            await _save(uow, game, kept)
            await play.audit("trait.remove", name=found.name)
            return TraitView(found.name, found.aliases, found.skills, False)


async def _save(uow: UnitOfWork, game: Game, traits: tuple[GameTrait, ...]) -> None:
    settings = game.settings.model_copy(update={"traits": traits})
    updated = game.model_copy(update={"settings": settings, "version": game.version + 1})
    await uow.games.update(updated)
