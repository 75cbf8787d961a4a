"""`parse_post`: a turn post in, a `ParsedPost` out (spec/posting.md; RULINGS F29).

The post is read one line at a time (a hand-written line lexer, then small clause parsers): a line
is a character line, a mechanics statement, or prose, which may hold `[...]` statements. Each
statement becomes part of its character block's `Order`; every problem is collected with its line.
Then each order is checked against the sheet by the rules validator (posting/validate.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fappo_bot.posting.errors import PostProblem
from fappo_bot.posting.grammar.clauses import Issue
from fappo_bot.posting.grammar.lines import KEYWORDS, Read, first_word, read_statement, sp_first
from fappo_bot.posting.lexer import bold_name, brackets, clean
from fappo_bot.posting.models import (
    ParsedBlock,
    ParsedPost,
    PostContext,
    Statement,
    StatementKind,
    join_text,
)
from fappo_bot.posting.names import Names, resolve
from fappo_bot.posting.scene import Scene, characters_named, trait_names
from fappo_bot.posting.validate import check_block
from fappo_bot.rules import (
    Action,
    ActionKind,
    Binding,
    Character,
    ErrorCode,
    Order,
    Pledge,
    Reduction,
    fold,
)

#: how many words of a statement an error cites before the words at fault
_CITE_BEFORE = 48


@dataclass(slots=True)
class _Block:
    actor: Character
    actions: list[Action] = field(default_factory=list)
    guard: list[Pledge] = field(default_factory=list)
    reduce: list[Reduction] = field(default_factory=list)
    endure: bool = False
    bind: list[Binding] = field(default_factory=list)
    good_case: list[str] = field(default_factory=list)
    intent: list[str] = field(default_factory=list)
    ooc: list[str] = field(default_factory=list)
    prose: list[str] = field(default_factory=list)
    statements: list[Statement] = field(default_factory=list)
    #: lines whose statement already has a problem (the validator's view of them is skipped)
    faulty: set[int] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class _Controlled:
    """The characters a context's poster controls (those of the scene), and their names."""

    characters: tuple[Character, ...]
    names: Names


@dataclass(slots=True)
class _Reader:
    ctx: PostContext
    blocks: dict[str, _Block] = field(default_factory=dict)
    current: _Block | None = None
    #: a character line named no one the poster controls: its lines are skipped
    lost: bool = False
    missing_reported: bool = False
    problems: list[PostProblem] = field(default_factory=list)
    prose: list[str] = field(default_factory=list)
    #: prose before any block (it joins the default actor's block when that starts)
    loose_prose: list[str] = field(default_factory=list)
    controlled: tuple[Character, ...] = ()
    #: the names of `controlled`, for character lines
    controlled_names: Names = Names()

    def scene(self) -> Scene:
        """What the current (or default) actor's statements may name, built once per context."""
        actor = self.current.actor if self.current is not None else self.default_actor()
        key = actor.name if actor is not None else ""
        found = self.ctx.scenes.get(key)
        if not isinstance(found, Scene) or found.state is not self.ctx.state:
            found = Scene.build(self.ctx.state, actor, trait_names(self.ctx.traits))
            self.ctx.scenes[key] = found
        return found

    def start_block(self, actor: Character) -> None:
        """Make `actor`'s block current (a character line, posting.md "Character")."""
        block = self.blocks.get(actor.name)
        if block is None:
            block = self.blocks[actor.name] = _Block(actor)
        self.current = block
        self.lost = False

    def default_actor(self) -> Character | None:
        """Whose statements come before any character line: the poster's own character, or the
        only character the poster controls."""
        if self.lost:
            return None
        poster = next((c for c in self.controlled if c.name == self.ctx.poster), None)
        if poster is None and len(self.controlled) == 1:
            poster = self.controlled[0]
        return poster

    def default_block(self) -> _Block | None:
        """The block a statement before any character line belongs to."""
        if self.current is not None or self.lost:
            return self.current
        actor = self.default_actor()
        if actor is not None:
            self.start_block(actor)
            assert self.current is not None
            # the story before the first order is this character's (no character line came)
            self.current.prose[:0] = self.loose_prose
            self.loose_prose.clear()
        return self.current


MAX_POST_CHARS = 20_000
"""The longest post the service reads, in characters: five Discord messages of 4,000 (a DM or
the table without a bound took 4.4 million lines and never finished). docs/bounds.md."""

MAX_POST_LINES = 1_000
"""The most lines a post the service reads may have."""


def too_long(text: str) -> PostProblem | None:
    """The refusal of a post over `MAX_POST_CHARS` characters or `MAX_POST_LINES` lines, found
    before anything is parsed (two C-speed scans of the text); None when it fits."""
    lines = text.count("\n") + 1
    if len(text) <= MAX_POST_CHARS and lines <= MAX_POST_LINES:
        return None
    return PostProblem(
        line=1, code=ErrorCode.SYNTAX, words=text[:40].split("\n")[0],
        message=(f"this post has {len(text):,} characters and {lines:,} lines; a post can have "
                 f"at most {MAX_POST_CHARS:,} characters and {MAX_POST_LINES:,} lines. Nothing "
                 "was read: split it into several posts"),
    )


def parse_post(text: str, ctx: PostContext) -> ParsedPost:
    """Parse a turn post for the poster's characters (posting.md; RULINGS F29 Rule).

    Never raises for any text: everything the post gets wrong comes back in `problems`, each with
    its 1-based line, the words at fault, what was expected and a suggestion. A post with any
    problem records no orders (`ParsedPost.orders` is empty). It reads a post of any size in
    time linear in its size; the service refuses one over `MAX_POST_CHARS` or `MAX_POST_LINES`
    before reading it (`too_long`).
    """
    reader = _Reader(ctx)
    start = ctx.start.get("controlled")
    if not isinstance(start, _Controlled):  # the context's first post
        controlled = tuple(
            c for c in (ctx.state.character(n) for n in ctx.controls) if c is not None
        )
        start = ctx.start["controlled"] = _Controlled(
            controlled, characters_named(tuple(c.name for c in controlled)))
    reader.controlled, reader.controlled_names = start.characters, start.names
    for number, raw in enumerate(text.split("\n"), 1):
        _line(reader, number, raw.rstrip("\r"))
    blocks: list[ParsedBlock] = []
    problems = list(reader.problems)
    for block in reader.blocks.values():
        parsed, found = _finish(reader, block)
        blocks.append(parsed)
        problems.extend(found)
    problems.sort(key=lambda p: p.line)
    return ParsedPost(tuple(blocks), tuple(reader.prose), tuple(problems))


def _line(reader: _Reader, number: int, raw: str) -> None:
    name = bold_name(raw) if ("**" in raw or "__" in raw) else None
    if name is not None and _character_line(reader, number, name, raw, quiet=True):
        return
    cleaned = clean(raw)
    if not cleaned:
        _prose(reader, raw)
        return
    word = first_word(cleaned)
    if _keyword_named(reader, cleaned, word) and _named_statement(reader, number, cleaned):
        return  # "Guard: 2 AP attack Mira" from the GM of an NPC called Guard
    read = (None if cleaned.startswith("[")
            else read_statement(cleaned, reader.scene(), False, word))
    if read is not None:
        _statement(reader, number, cleaned, read, bracket=False)
        return
    if _named_statement(reader, number, cleaned):
        return
    _prose(reader, raw)
    for bracket in brackets(raw):
        inner = clean(bracket.text)
        if inner:
            found = read_statement(inner, reader.scene(), bracket=True)
            if found is not None:
                _statement(reader, number, inner, found, bracket=True)


def _keyword_named(reader: _Reader, cleaned: str, word: str) -> bool:
    """A line starting `Guard:` (or another keyword, its `first_word`) where a character the
    poster controls is called just that, and no SP clause follows (a real Guard line starts with
    its SP)."""
    if word not in KEYWORDS or not any(n.key == word for n in reader.controlled_names):
        return False
    rest = cleaned[len(word):].lstrip()
    return rest[:1] == ":" and not sp_first(rest[1:])


def _named_statement(reader: _Reader, number: int, cleaned: str) -> bool:
    """`Goblin 1: 2 AP attack Kael` (an extension): a character the poster controls, named
    exactly, then a statement; the line starts that character's block."""
    colon = cleaned.find(":", 0, 60)
    if colon <= 0 or len(reader.controlled) < 1:
        return False
    key = fold(cleaned[:colon])
    actor = next((c for c in reader.controlled if fold(c.name) == key), None)
    rest = cleaned[colon + 1:].strip()
    if actor is None or not rest:
        return False
    previous, lost = reader.current, reader.lost
    existed = actor.name in reader.blocks
    reader.start_block(actor)
    read = read_statement(rest, reader.scene(), bracket=False)
    if read is None or read.kind is StatementKind.CHARACTER:
        reader.current, reader.lost = previous, lost
        if not existed:
            del reader.blocks[actor.name]  # nothing was declared after all
        return False
    assert reader.current is not None
    reader.current.statements.append(Statement(number, cleaned[:colon], StatementKind.CHARACTER))
    _statement(reader, number, rest, read, bracket=False)
    return True


def _prose(reader: _Reader, raw: str) -> None:
    reader.prose.append(raw)
    if reader.current is not None:
        reader.current.prose.append(raw)
    elif not reader.lost:
        reader.loose_prose.append(raw)


def _character_line(reader: _Reader, number: int, name: str, words: str, quiet: bool) -> bool:
    """`**Kael**` (quiet: prose unless the poster controls Kael) or `Character: Kael`."""
    found = resolve(name, reader.controlled_names)
    if found.ok:
        actor = next(c for c in reader.controlled if c.name == found.name)
        reader.start_block(actor)
        assert reader.current is not None
        reader.current.statements.append(
            Statement(number, words.strip(), StatementKind.CHARACTER))
        return True
    if quiet:
        return False
    listed = ", ".join(c.name for c in reader.controlled) or "no one"
    code = ErrorCode.AMBIGUOUS_NAME if found.ambiguous else ErrorCode.UNKNOWN_NAME
    message = (f'"{name}" could be {" or ".join(found.candidates)}' if found.ambiguous
               else f'you don\'t post for anyone called "{name}" (you post for {listed})')
    reader.problems.append(PostProblem(
        number, code, message, words.strip(), expected="Character: NAME of a character you "
        "control", hint=f"you post for {listed}", candidates=found.candidates or tuple(
            c.name for c in reader.controlled)))
    reader.current = None
    reader.lost = True
    return True


def _statement(reader: _Reader, number: int, text: str, read: Read, bracket: bool) -> None:
    if read.kind is StatementKind.CHARACTER:
        _character_line(reader, number, read.text, text, quiet=False)
        return
    block = reader.default_block()
    if block is None:
        if not reader.lost and not reader.missing_reported:
            reader.missing_reported = True
            if not reader.controlled:
                reader.problems.append(PostProblem(
                    number, ErrorCode.CANNOT_ACT, "none of the characters you post for is in "
                    "this scene", text, expected="a character of this scene",
                    hint="ask the GM to add your character to the scene"))
                return
            listed = ", ".join(c.name for c in reader.controlled)
            reader.problems.append(PostProblem(
                number, ErrorCode.SYNTAX, "whose order is this? Start each character's part "
                "with a character line", text, expected="Character: NAME (or **NAME** alone on "
                "a line) before the orders", hint=f"you post for {listed}"))
        return
    if read.issues:
        block.faulty.add(number)
        for issue in read.issues:
            reader.problems.append(_problem(number, text, issue, block.actor.name))
    sp_words = "; ".join(text[s:e].strip() for s, e in read.sp_spans)
    statement = _apply(reader, block, number, text, read, bracket, sp_words)
    if statement is not None:
        block.statements.append(statement)


def _apply(reader: _Reader, block: _Block, number: int, text: str, read: Read, bracket: bool,
           sp_words: str) -> Statement | None:
    kind = read.kind
    line = _LINES.get(kind)
    if line is not None:
        return line(block, number, text, read, bracket, sp_words)
    if not read.drafts:
        return None
    index = len(block.actions)
    for draft in read.drafts:
        fields = dict(draft.fields)
        if not _price(reader, block, number, text, draft.kind, fields):
            block.faulty.add(number)
        block.actions.append(Action(kind=draft.kind, **fields))
    return Statement(number, text, kind, index, len(read.drafts), bracket, sp_words)


def _intent(block: _Block, number: int, text: str, read: Read, bracket: bool,
            sp_words: str) -> Statement:
    block.intent.append(read.text)
    return Statement(number, text, read.kind, bracket=bracket)


def _ooc(block: _Block, number: int, text: str, read: Read, bracket: bool,
         sp_words: str) -> Statement:
    block.ooc.append(read.text)
    return Statement(number, text, read.kind, bracket=bracket)


def _good_case(block: _Block, number: int, text: str, read: Read, bracket: bool,
               sp_words: str) -> Statement:
    block.good_case.append(read.text or "(no reason given)")
    return Statement(number, text, read.kind, bracket=bracket)


def _endure(block: _Block, number: int, text: str, read: Read, bracket: bool,
            sp_words: str) -> Statement:
    block.endure = True
    return Statement(number, text, read.kind, bracket=bracket, sp_words=sp_words)


def _bind(block: _Block, number: int, text: str, read: Read, bracket: bool,
          sp_words: str) -> Statement:
    block.bind.extend(Binding(item=item, sacrifice=paid) for item, paid in read.bindings)
    return Statement(number, text, read.kind, bracket=bracket)


def _guard(block: _Block, number: int, text: str, read: Read, bracket: bool,
           sp_words: str) -> Statement:
    index = len(block.guard)
    block.guard.extend(Pledge(against=a, sp=sp) for a, sp in read.pledges)
    return Statement(number, text, read.kind, index, len(read.pledges), bracket, sp_words)


def _reduce(block: _Block, number: int, text: str, read: Read, bracket: bool,
            sp_words: str) -> Statement:
    index = len(block.reduce)
    block.reduce.extend(Reduction(hit=hit, sp=sp, why=why) for hit, sp, why in read.reductions)
    return Statement(number, text, read.kind, index, len(read.reductions), bracket, sp_words)


#: what each kind of statement but actions adds to its character's block
_LINES: dict[StatementKind, Callable[[_Block, int, str, Read, bool, str], Statement]] = {
    StatementKind.INTENT: _intent,
    StatementKind.OOC: _ooc,
    StatementKind.ENDURE: _endure,
    StatementKind.BIND: _bind,
    StatementKind.GOOD_CASE: _good_case,
    StatementKind.GUARD: _guard,
    StatementKind.REDUCE: _reduce,
}


def _price(reader: _Reader, block: _Block, number: int, text: str, kind: ActionKind,
           fields: dict[str, Any]) -> bool:
    """Moves are priced by Ranges (F16: N Ranges cost N - 1 AP; a written count must agree);
    a drop costs nothing (F8)."""
    if kind is ActionKind.DROP and fields.get("ap") is None:
        fields["ap"] = 0
    if kind is not ActionKind.MOVE or fields.get("ranges") is None:
        return True
    ranges = int(fields["ranges"])
    cost = max(0, ranges - 1)
    written = fields.get("ap")
    if written is None:
        fields["ap"] = cost
        return True
    if written == cost:
        return True
    reader.problems.append(PostProblem(
        number, ErrorCode.AP_MISMATCH,
        f"moving {ranges} Range{'s' if ranges != 1 else ''} costs {cost} AP (the first Range is "
        f"free), not {written}", text, expected=f"{cost} AP move {ranges}, or move {written + 1}",
        hint=f"write {cost} AP move {ranges}, or just move {ranges}", actor=block.actor.name))
    return False


def _problem(number: int, text: str, issue: Issue, actor: str | None) -> PostProblem:
    start = max(0, min(issue.start, len(text)))
    end = max(start, min(issue.end, len(text)))
    cite_from = 0 if start <= _CITE_BEFORE else start
    words = text[cite_from:end].strip() or text.strip()
    if cite_from:
        words = "…" + words
    return PostProblem(number, issue.code, issue.message, words, issue.expected, issue.hint,
                       issue.candidates, actor)


def _finish(reader: _Reader, block: _Block) -> tuple[ParsedBlock, list[PostProblem]]:
    order = Order(
        actor=block.actor.name,
        actions=tuple(block.actions),
        guard=tuple(block.guard),
        reduce=tuple(block.reduce),
        endure=block.endure,
        intent=join_text(block.intent),
        bind=tuple(block.bind),
        ooc=join_text(block.ooc),
        good_case=join_text(block.good_case),
    )
    statements = tuple(block.statements)
    parsed = ParsedBlock(block.actor.name, order, tuple(block.prose), statements)
    problems, budget = check_block(reader.ctx.state, parsed, frozenset(block.faulty))
    return ParsedBlock(parsed.actor, order, parsed.prose, statements, budget), problems
