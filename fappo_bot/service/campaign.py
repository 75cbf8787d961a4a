"""A game's export as Markdown, for people to read (the JSON export is for importing back).

Built only from a `GameExport`, so it holds exactly what that export holds: an export made
before a turn resolved has no secrets, and neither has its Markdown. Users are named by display
name (or "a player" when none is known), never by id, so nothing here can ping anyone.
"""

from __future__ import annotations

from collections.abc import Mapping

from fappo_bot.service.transfer import GameExport


def _inert(text: str) -> str:
    """A line people wrote, kept readable but unable to mention anyone."""
    return text.replace("@", "@\u200b")


def campaign_markdown(document: GameExport, names: Mapping[str, str]) -> str:
    """The campaign: members, characters, then every turn's posts (latest text) in order."""
    def who(user_id: str | None) -> str:
        return _inert(names.get(user_id, "a player")) if user_id else "nobody"

    game = document.game
    lines = [f"# {_inert(game.name)}", "",
             f"Status: {game.status.value}. Exported {document.exported_at:%Y-%m-%d %H:%M} UTC.",
             ""]
    if document.withheld:
        lines += ["The open turn's secrets are left out of this export.", ""]
    lines += ["## Members", ""]
    lines += [f"- {who(m.user_id)} ({m.role.value})" for m in document.members] or ["- none"]
    lines += ["", "## Characters", ""]
    lines += [f"- {_inert(c.name)} ({c.kind.value}, {who(c.owner)})"
              for c in document.characters] or ["- none"]
    posts_by_turn: dict[str, list[str]] = {}
    for exported in document.posts:
        post = exported.post
        if post.deleted or not exported.revisions:
            continue
        latest = max(exported.revisions, key=lambda r: r.number)
        quoted = "\n".join(f"> {_inert(line)}" for line in latest.text.splitlines())
        posts_by_turn.setdefault(post.turn_id, []).append(
            f"**{who(post.author)}**{' (secret)' if post.secret else ''}:\n{quoted}")
    resolved = {r.turn_id for r in document.resolutions if not r.undone}
    for turn in sorted(document.turns, key=lambda t: t.number):
        state = "resolved" if turn.id in resolved else turn.status.value
        lines += ["", f"## Turn {turn.number} ({state})", ""]
        lines += ["\n\n".join(posts_by_turn.get(turn.id, [])) or "No posts."]
    return "\n".join(lines) + "\n"
