"""Helpers of the service tests: a backend-neutral snapshot of a game's stored state."""

from __future__ import annotations

from typing import Any


async def snapshot(uow_factory: Any, game_id: str | None = None) -> dict[str, Any]:
    """Everything stored about a game (or every game), read through the repositories."""
    async with uow_factory() as uow:
        games = list(await uow.games.list())
        out: dict[str, Any] = {"games": games}
        for game in games:
            if game_id is not None and game.id != game_id:
                continue
            turns = list(await uow.turns.list(game.id))
            posts = []
            for turn in turns:
                for post in await uow.posts.list(turn.id, include_deleted=True):
                    posts.append((post, list(await uow.posts.revisions(post.id))))
            out[game.id] = {
                "members": list(await uow.members.list(game.id)),
                "characters": list(await uow.characters.list(game.id)),
                "turns": turns,
                "posts": posts,
                "resolutions": [await uow.resolutions.for_turn(t.id) for t in turns],
                "outbox": list(await uow.outbox.for_game(game.id)),
                "audit": list(await uow.audit.list(game.id)),
            }
        return out


async def actions(uow_factory: Any, game_id: str) -> list[str]:
    """The audit log's actions, oldest first."""
    async with uow_factory() as uow:
        return [e.action for e in await uow.audit.list(game_id)]


class Resolved:
    """A resolve's view with the resolution's `result` as stored: the view returns what the
    adapters show (texts, numbers), not the rules' whole result."""

    def __init__(self, view: Any, result: Any) -> None:
        self.view, self.result = view, result

    def __getattr__(self, name: str) -> Any:
        return getattr(self.view, name)


async def resolved(services: Any, game_id: str, actor: str, number: int) -> Resolved:
    """`services.resolution.resolve`, and the result it stored."""
    view = await services.resolution.resolve(game_id, actor, number)
    async with services.resolution.uow() as uow:
        stored = await uow.resolutions.latest(game_id)
    assert stored is not None and stored.id == view.resolution_id
    return Resolved(view, stored.result)


async def stored(uow_factory: Any, game_id: str, name: str) -> Any:
    """The character record `name` of a game as stored (what the views do not hand out: the
    rules' sheet and state)."""
    async with uow_factory() as uow:
        return await uow.characters.by_name(game_id, name)


async def stored_orders(uow_factory: Any, post_id: str) -> tuple[Any, ...]:
    """The orders a post's newest revision holds, as stored (the rules' `Order`s: no view
    hands them out)."""
    async with uow_factory() as uow:
        return tuple((await uow.posts.revisions(post_id))[-1].orders)


async def stored_game(services: Any, game_id: str) -> Any:
    """The game as stored, its settings and R2 flags with it (the adapters' `GameView` carries
    only what they show of them)."""
    async with services.deps.uow_factory() as uow:
        game = await uow.games.get(game_id)
    assert game is not None, game_id
    return game
