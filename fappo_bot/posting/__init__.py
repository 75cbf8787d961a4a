"""The turn-post language (spec/posting.md): text in, `ParsedPost` out, and its renderings.

Pure: no Discord, database, asyncio or I/O. `parse_post(text, ctx)` reads a post for the
characters the poster controls; `fappo_bot.posting.render` turns parsed posts and turn results into
plain text for the Discord adapter and the local table.
"""

from fappo_bot.posting.errors import PostProblem
from fappo_bot.posting.models import GM, ParsedBlock, ParsedPost, PostContext, Statement
from fappo_bot.posting.parser import parse_post

__all__ = [
    "GM",
    "ParsedBlock",
    "ParsedPost",
    "PostContext",
    "PostProblem",
    "Statement",
    "parse_post",
]
