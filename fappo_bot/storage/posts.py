"""The posts' repository, and the orders in force it keeps (`orders_in_force`).

F29 Amb-3: per character, the orders in force are those of the last written valid revision of a
live post (the newest by the revision's time, then the post's update time, then the post id).
The table keeps a row per character of a turn naming that post, so a post reads the orders it
replaces at the same cost at any point of its turn:
- a new post's orders take each of its characters' rows when they were written later (one
  upsert; a clock that gave an older time, or a tie, is ranked as the rule ranks it);
- an edit or a deletion (the post's newest revision or its `deleted` changed) can hand a
  character back to an older post: the turn's rows are computed again from its posts before the
  transaction commits, or before it reads them (the ranking query, `queries.NEWEST_HEADS`).
"""

from __future__ import annotations

import builtins
from collections.abc import Collection, Iterable, Sequence
from typing import Any

from sqlalchemy import bindparam, update

from fappo_bot.rules import Order
from fappo_bot.service.records import Post, PostRevision
from fappo_bot.storage import mappers as m
from fappo_bot.storage import queries as q
from fappo_bot.storage import xp_rows
from fappo_bot.storage.driver import Sql
from fappo_bot.storage.transaction import Kept, Repository
from fappo_bot.storage.values import parse_as, utc

#: up to this many posts holding orders in force are read one by one; more, in one statement
_FEW_POSTS = 4

_SET_REPLY_KEYS = Sql(
    update(q.POSTS)
    .where(q.POSTS.c.id == bindparam("post_id"))
    .values(reply_keys=bindparam("keys"), version=q.POSTS.c.version + 1)
)


def heads(rows: Iterable[Sequence[Any]]) -> dict[str, tuple[Any, Any, str]]:
    """Per character (case-folded), the (revision time, post update time, post id) of the last
    written orders, from rows of (post id, update time, revision time, name as written)."""
    last: dict[str, tuple[Any, Any, str]] = {}
    for post_id, updated, written, actor in rows:
        folded = actor.casefold()
        key = (written, updated, post_id)  # as stored: UTC, naive on SQLite, in order
        if folded not in last or last[folded] < key:
            last[folded] = key
    return last


class SqlPosts(Repository):
    async def add(self, post: Post, revision: PostRevision) -> None:
        self._changed(post.turn_id)
        self._tx.no_post.discard((post.channel_key, post.message_key))
        await self._tx.insert(q.INSERT[q.POSTS], [m.post_values(post)])
        await self._add_revision(revision)
        if post.deleted:
            return  # holds no orders in force
        if revision.number != post.revision:  # its newest revision comes after (an import)
            self._stale(post.turn_id)
        elif revision.ok and (revision.orders or revision.actions):
            written, updated = utc(revision.created_at), utc(post.updated_at)
            actors = [o.actor for o in revision.orders] + [a.actor for a in revision.actions]
            rows = {actor.casefold(): {
                "turn_id": post.turn_id, "actor_key": actor.casefold(),
                "post_id": post.id, "written_at": written, "updated_at": updated,
            } for actor in actors}
            await self._tx.insert(q.IN_FORCE_UPSERT, list(rows.values()))

    def _changed(self, turn_id: str) -> None:
        """The turn's orders in force as read in this transaction are read again."""
        self._tx.row_sets.pop(("in force", turn_id), None)

    async def _add_revision(self, revision: PostRevision) -> None:
        revision_values, order_values = m.revision_values(revision)
        await self._tx.insert(q.INSERT[q.REVISIONS], [revision_values])
        await self._tx.insert(q.INSERT[q.ORDERS], order_values)

    async def get(self, post_id: str) -> Post | None:
        row = await self._load(q.POSTS, post_id)
        return None if row is None else m.post_record(row)

    async def by_message(self, channel_key: str, message_key: str) -> Post | None:
        if (channel_key, message_key) in self._tx.no_post:
            return None  # read along by `SqlGames.at_play` in this transaction
        row = await self._load_first(
            q.POSTS, q.POST_BY_MESSAGE, channel_key=channel_key, message_key=message_key
        )
        return None if row is None else m.post_record(row)

    async def update(self, post: Post) -> None:
        self._changed(post.turn_id)
        row = await self._load(q.POSTS, post.id)
        if row is not None and (row.revision != post.revision or row.deleted != post.deleted):
            self._stale(post.turn_id)  # other orders may be in force now
        await self._update(q.POSTS, m.post_values(post), "post")

    async def set_reply_keys(self, post_id: str, reply_keys: Sequence[str]) -> bool:
        self._tx.kept.pop((q.POSTS.name, post_id), None)  # read again, if read at all
        # bound under names of their own: SQLAlchemy reserves a column's name in an UPDATE's values
        params = {"post_id": post_id, "keys": m.keys_doc(reply_keys)}
        return await self._tx.execute(_SET_REPLY_KEYS, params) > 0

    async def add_revision(self, revision: PostRevision) -> None:
        for key in [k for k in self._tx.row_sets if k[0] == "in force"]:  # of whichever turn
            del self._tx.row_sets[key]
        await self._add_revision(revision)

    async def revisions(self, post_id: str) -> Sequence[PostRevision]:
        revisions = await self._rows(q.REVISIONS_OF_POST, q.REVISIONS, post_id=post_id)
        orders = await self._rows(q.ORDERS_OF_POST, q.ORDERS, post_id=post_id)
        by_revision: dict[int, list[Any]] = {}
        for order in orders:
            by_revision.setdefault(order.revision, []).append(order)
        return [m.revision_record(row, by_revision.get(row.number, [])) for row in revisions]

    async def list(self, turn_id: str, include_deleted: bool = False) -> Sequence[Post]:
        sql = q.POSTS_OF_TURN if include_deleted else q.LIVE_POSTS_OF_TURN
        rows = await self._load_rows(q.POSTS, sql, turn_id=turn_id)
        return [m.post_record(row) for row in rows]

    async def latest_revisions(
        self, turn_id: str, actors: Collection[str] | None = None
    ) -> Sequence[tuple[Post, PostRevision]]:
        sql = q.NEWEST_REVISIONS
        compiled = sql.compiled(self._tx.dialect)
        pairs = await self._tx.fetch(sql, {"turn_id": turn_id})
        orders = await self._rows(q.NEWEST_ORDERS, q.ORDERS, turn_id=turn_id)
        by_post: dict[str, list[Any]] = {}
        for order in orders:
            if actors is None or order.actor.casefold() in actors:  # parsed only when wanted
                by_post.setdefault(order.post_id, []).append(order)
        found = []
        for row in pairs:
            post = self._kept(q.POSTS, compiled.columns(q.POSTS, row))
            revision: Any = Kept(compiled.columns(q.REVISIONS, row))
            found.append(
                (m.post_record(post), m.revision_record(revision, by_post.get(post.id, [])))
            )
        return found

    async def in_force_revisions(
        self, turn_id: str, actors: Collection[str] | None = None
    ) -> Sequence[tuple[Post, PostRevision]]:
        # the table names the posts holding the orders in force: only those are read and built
        await self._refresh(turn_id)
        if actors is None:  # all of them: one statement, read once per transaction
            key = ("in force", turn_id)
            rows = self._tx.row_sets.get(key)
            if rows is None:
                rows = self._tx.row_sets[key] = await self._tx.fetch(
                    q.IN_FORCE_POSTS, {"turn_id": turn_id})
            return self._in_order(self._with_orders(q.IN_FORCE_POSTS, rows, None, None))
        if len(actors) == 1:  # one character's: the one post naming it, in one statement
            (actor_key,) = actors
            rows = await self._tx.fetch(
                q.IN_FORCE_OF_ACTOR, {"turn_id": turn_id, "actor_key": actor_key})
            return self._in_order(self._with_orders(q.IN_FORCE_OF_ACTOR, rows, None, actors))
        held = await self._tx.fetch(q.IN_FORCE_OF_TURN, {"turn_id": turn_id})
        wanted = {post_id for actor_key, post_id in held if actors is None or actor_key in actors}
        if not wanted:
            return []
        sql: Sql
        if len(wanted) > _FEW_POSTS:
            sql = q.IN_FORCE_POSTS
            rows = await self._tx.fetch(sql, {"turn_id": turn_id})
        else:
            sql, rows = q.POST_WITH_ORDERS, []
            for post_id in sorted(wanted):
                rows.extend(await self._tx.fetch(sql, {"post_id": post_id}))
        return self._in_order(self._with_orders(sql, rows, wanted, actors))

    async def orders_in_force(
        self, turn_id: str, actors: Collection[str] | None = None
    ) -> dict[str, Order]:
        # the table names the post of each character's orders in force: its orders alone are
        # read, every character's in two statements (`_every_order_in_force`), or one statement
        # a character asked for (a post speaks for one character, most often)
        await self._refresh(turn_id)
        if actors is None:
            return await self._every_order_in_force(turn_id)
        rows = []
        for actor_key in sorted(actors):
            rows.extend(await self._tx.fetch(
                q.IN_FORCE_ORDERS_OF_ACTOR, {"turn_id": turn_id, "actor_key": actor_key}))
        found: dict[str, Order] = {}
        for actor_key, actor, body in rows:  # by character, each post's orders in their order
            if actor.casefold() == actor_key and not xp_rows.is_action(body):
                found[actor_key] = parse_as(m.ORDER, body)  # the last of the post's wins
        return found

    async def _every_order_in_force(self, turn_id: str) -> dict[str, Order]:
        """`orders_in_force` of every character: each post's orders read once (joined to each
        of its characters' rows, a GM's post of many NPCs was read once per NPC it holds)."""
        held = await self._tx.fetch(q.IN_FORCE_HELD, {"turn_id": turn_id})
        if not held:
            return {}
        holder = {actor_key: post_id for actor_key, post_id in held}
        last: dict[str, Any] = {}
        for post_id, actor, body in await self._tx.fetch(
                q.IN_FORCE_POST_ORDERS, {"turn_id": turn_id}):
            actor_key = actor.casefold()
            if holder.get(actor_key) == post_id and not xp_rows.is_action(body):
                last[actor_key] = body  # the last of the post's wins
        return {actor_key: parse_as(m.ORDER, last[actor_key])
                for actor_key, _post_id in held if actor_key in last}

    @staticmethod
    def _in_order(
        found: builtins.list[tuple[Post, PostRevision]],
    ) -> builtins.list[tuple[Post, PostRevision]]:
        found.sort(key=lambda pair: (pair[0].updated_at, pair[0].id))
        return found

    def _with_orders(
        self, sql: Sql, rows: Sequence[Sequence[Any]], wanted: Collection[str] | None,
        actors: Collection[str] | None,
    ) -> builtins.list[tuple[Post, PostRevision]]:
        """The posts of rows of (post, its newest revision, one of its orders), grouped by post
        (`wanted` only, if given; `actors`: only their orders are built)."""
        compiled = sql.compiled(self._tx.dialect)
        id_at = compiled.position(q.POSTS.c.id)
        grouped: dict[str, tuple[Any, builtins.list[Any]]] = {}
        for row in rows:
            post_id = row[id_at]
            if wanted is not None and post_id not in wanted:
                continue
            entry = grouped.get(post_id)
            if entry is None:
                entry = grouped[post_id] = (row, [])
            order: Any = Kept(compiled.columns(q.ORDERS, row))
            if actors is None or order.actor.casefold() in actors:
                entry[1].append(order)
        found = []
        for first, orders in grouped.values():
            post = self._kept(q.POSTS, compiled.columns(q.POSTS, first))
            revision: Any = Kept(compiled.columns(q.REVISIONS, first))
            found.append((m.post_record(post), m.revision_record(revision, orders)))
        return found

    # ---- the orders in force after an edit or a deletion ----
    def _stale(self, turn_id: str) -> None:
        stale = self._tx.stale_in_force
        stale.add(turn_id)
        self._tx.before_commit.setdefault("orders in force", self._refresh_all)

    async def _refresh_all(self) -> None:
        for turn_id in sorted(self._tx.stale_in_force):
            await self._refresh(turn_id)

    async def _refresh(self, turn_id: str) -> None:
        """The turn's rows computed again from its posts, if an edit or a deletion in this
        transaction may have changed them."""
        stale = self._tx.stale_in_force
        if turn_id not in stale:
            return
        stale.discard(turn_id)
        self._changed(turn_id)
        last = heads(await self._tx.fetch(q.NEWEST_HEADS, {"turn_id": turn_id}))
        await self._tx.execute(q.IN_FORCE_CLEAR, {"turn_id": turn_id})
        await self._tx.insert(q.IN_FORCE_INSERT, [
            {"turn_id": turn_id, "actor_key": actor_key, "post_id": post_id,
             "written_at": written, "updated_at": updated}
            for actor_key, (written, updated, post_id) in sorted(last.items())])
