"""/trait at the table: a game's own Traits (F2, "others may be introduced"), as `/game trait`
gives them on Discord: `/trait add NAME [--aliases A,B] [--skills S1,S2]` and `/trait remove
NAME` (a GM), `/trait list` (anyone). The checks and their sentences are the service's
(`service/traits.py`)."""

from __future__ import annotations

from fappo_bot.console.seats import Kind, Shown, only
from fappo_bot.console.table import LocalTable, TableError
from fappo_bot.console.transcript import Step
from fappo_bot.service.traits import TraitView

USAGE = ("/trait add NAME [--aliases A,B] [--skills S1,S2], /trait remove NAME, or "
         "/trait list")


def trait_line(view: TraitView) -> str:
    """`Keen-eyed (also Sharp), suggests Lookout`."""
    also = f" (also {', '.join(view.aliases)})" if view.aliases else ""
    skills = f", suggests {', '.join(view.skills)}" if view.skills else ""
    return f"{view.name}{also}{skills}"


async def trait(table: LocalTable, step: Step) -> list[Shown]:
    """/trait add|remove|list ..."""
    what, rest = (step.args[0].casefold(), list(step.args[1:])) if step.args else ("", [])
    game_id = table.need_game()
    traits = table.services.traits
    if what == "list" and not rest:
        views = await traits.list(game_id)
        own = [f"  {trait_line(v)}" for v in views if not v.builtin]
        body = "\n".join([
            "Traits of the rulebook: " + ", ".join(v.name for v in views if v.builtin) + ".",
            "This game's own Traits:" if own else "This game has no Traits of its own "
            "(a GM adds one with /trait add).", *own])
        return [Shown(Kind.INFO, "traits", body, only(table.seat))]
    if what == "add" and rest:
        name, options = rest[0], _options(rest[1:])
        view = await traits.add(game_id, table.user, name, options.get("--aliases"),
                                options.get("--skills"))
        return [Shown(Kind.NOTICE, "traits", f"{trait_line(view)} is a Trait of this game: "
                      f"sheets may buy it and posts spend its SP (1 SP {view.name}).")]
    if what == "remove" and len(rest) == 1:
        view = await traits.remove(game_id, table.user, rest[0])
        return [Shown(Kind.NOTICE, "traits", f"{view.name} is no longer a Trait of this game.")]
    raise TableError(f"/trait takes {USAGE}.")


def _options(words: list[str]) -> dict[str, str]:
    """`--aliases A,B --skills S` as {option: its words joined}; anything else refused."""
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for word in words:
        if word in ("--aliases", "--skills"):
            current = found.setdefault(word, [])
        elif current is None:
            raise TableError(f"/trait add NAME takes one word as the name, then --aliases and "
                             f"--skills; {word!r} is neither.")
        else:
            current.append(word)
    return {k: " ".join(v) for k, v in found.items()}
