"""The line lexer: Discord markdown off, statements found, words tokenized (spec/posting.md).

Everything here is a single left-to-right scan over one line: no regular expression runs over
unbounded input with backtracking, so a post of any size is read in linear time. The scans are
written as plain loops over characters (and `str` methods, which are linear).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

#: characters that only format (bold, italics, underline, strike-through, spoilers, code)
_FORMAT_CHARS = frozenset("*~`")
_BULLETS = ("- ", "* ", "• ", "+ ", "‣ ", "◦ ")
_QUOTES = (">>> ", ">>>", "> ", ">")
_HEADINGS = ("### ", "## ", "# ", "-# ")
_DASHES = frozenset("-–—")
_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "´": "'", "`": "'"})


def strip_prefixes(line: str) -> str:
    """Remove leading bullets, numbered-list markers, block quotes and headings (any order)."""
    text = line.strip()
    changed = True
    while changed and text:
        changed = False
        for prefix in (*_QUOTES, *_BULLETS, *_HEADINGS):
            if text.startswith(prefix):
                text = text[len(prefix):].lstrip()
                changed = True
                break
        else:
            digits = 0
            while digits < len(text) and digits < 3 and text[digits].isdigit():
                digits += 1
            if (
                0 < digits < len(text) - 1
                and text[digits] in ".)"
                and text[digits + 1] == " "
            ):
                text = text[digits + 2:].lstrip()
                changed = True
    return text


def _is_word_char(ch: str) -> bool:
    return ch.isalnum()


def strip_markup(text: str) -> str:
    """Discord formatting removed: `**`, `*`, `__`, `_` at word edges, `~~`, `||`, backticks.

    Backslash escapes of those characters are kept as the plain character. Runs of blanks
    become one space.
    """
    out: list[str] = []
    n = len(text)
    i = 0
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n and (text[i + 1] in _FORMAT_CHARS or text[i + 1] in "_[]|"):
            out.append(text[i + 1])
            i += 2
            continue
        if ch in _FORMAT_CHARS:
            i += 1
            continue
        if ch == "|" and i + 1 < n and text[i + 1] == "|":
            i += 2  # spoiler bars; a single | separates clauses
            continue
        if ch == "_":
            before = text[i - 1] if i > 0 else " "
            j = i
            while j < n and text[j] == "_":
                j += 1
            after = text[j] if j < n else " "
            if _is_word_char(before) and _is_word_char(after):
                out.append(text[i:j])  # snake_case inside a word stays
            i = j
            continue
        out.append(ch)
        i += 1
    return " ".join("".join(out).split())


def clean(line: str) -> str:
    """A line's words without Discord markdown (bullets, quotes, emphasis, spoilers, code)."""
    return strip_prefixes(strip_markup(strip_prefixes(line)))


def bold_name(line: str) -> str | None:
    """The name of a line that is only a bold (or underlined) name: `**Kael**` -> `Kael`."""
    text = strip_prefixes(line)
    for mark in ("***", "**", "__"):
        if len(text) > 2 * len(mark) and text.startswith(mark) and text.endswith(mark):
            inner = strip_markup(text[len(mark): -len(mark)])
            if inner and not any(ch in inner for ch in "[]:"):
                return inner
    return None


def is_fence(line: str) -> bool:
    """A code-fence line (```): formatting only."""
    return line.strip().startswith("```")


@dataclass(frozen=True, slots=True)
class Bracket:
    """A `[...]` statement inside a prose line: its inner text."""

    text: str
    start: int
    end: int


def brackets(line: str) -> list[Bracket]:
    """The top-level `[...]` groups of a line, in order; unbalanced brackets are prose.

    A masked link `[text](url)` is not a statement. Nested brackets stay inside their group.
    """
    found: list[Bracket] = []
    depth = 0
    start = -1
    n = len(line)
    for i, ch in enumerate(line):
        if ch == "\\":
            continue
        if ch == "[" and (i == 0 or line[i - 1] != "\\"):
            if depth == 0:
                start = i
            depth += 1
        elif ch == "]" and depth > 0 and line[i - 1] != "\\":
            depth -= 1
            if depth == 0:
                if not (i + 1 < n and line[i + 1] == "("):
                    found.append(Bracket(line[start + 1: i], start, i + 1))
                start = -1
    return found


class TokKind(StrEnum):
    """Kinds of tokens of a statement."""

    WORD = "word"
    NUM = "num"
    SIGNED = "signed"
    SEP = "sep"
    COLON = "colon"
    DASH = "dash"
    PAREN = "paren"


@dataclass(frozen=True, slots=True)
class Tok:
    """One token: its kind, its text (a word case-folded in `key`), and its span in the text."""

    kind: TokKind
    text: str
    start: int
    end: int

    @property
    def key(self) -> str:
        """The case-folded text (words compare by it)."""
        return self.text.casefold()


_SEPARATORS = frozenset(",;|")
_NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "a": 1, "an": 1,
}
_UNIT_SUFFIXES = ("aps", "ap", "sps", "sp")


def number_of(tok: Tok | None, words: bool = True) -> int | None:
    """The value of a number token, or of a small number word (`two` AP, `a` SP)."""
    if tok is None:
        return None
    if tok.kind is TokKind.NUM:
        return int(tok.text) if len(tok.text) <= 6 else None
    if words and tok.kind is TokKind.WORD:
        return _NUMBER_WORDS.get(tok.key)
    return None


def tokenize(text: str) -> list[Tok]:
    """The tokens of one statement, in one pass.

    Words keep letters, digits, apostrophes and inner hyphens; `+3`/`-2` directly before a digit
    is a signed number; `,` `;` `|` and a lone `+` separate clauses; `(...)` is one token (to the
    end of the text when unbalanced); `->`, `→` and `@` are the word `at`; other symbols are
    skipped.
    """
    toks: list[Tok] = []
    n = len(text)
    i = 0
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        if ch in "+-" and i + 1 < n and text[i + 1].isdigit() and _sign_allowed(toks, text, i):
            j = i + 1
            while j < n and text[j].isdigit():
                j += 1
            toks.append(Tok(TokKind.SIGNED, text[i:j], i, j))
            i = j
            continue
        if ch == "-" and i + 1 < n and text[i + 1] == ">":
            toks.append(Tok(TokKind.WORD, "at", i, i + 2))
            i += 2
            continue
        if ch in "→@⇒➔":
            toks.append(Tok(TokKind.WORD, "at", i, i + 1))
            i += 1
            continue
        if ch in _SEPARATORS or ch == "+":
            toks.append(Tok(TokKind.SEP, ch, i, i + 1))
            i += 1
            continue
        if ch == ":":
            toks.append(Tok(TokKind.COLON, ch, i, i + 1))
            i += 1
            continue
        if ch in _DASHES:
            toks.append(Tok(TokKind.DASH, ch, i, i + 1))
            i += 1
            continue
        if ch == "(":
            j, depth = i + 1, 1
            while j < n and depth:
                if text[j] == "(":
                    depth += 1
                elif text[j] == ")":
                    depth -= 1
                j += 1
            inner_end = j - 1 if depth == 0 else n
            toks.append(Tok(TokKind.PAREN, text[i + 1: inner_end], i, j if depth == 0 else n))
            i = j if depth == 0 else n
            continue
        if ch.isalnum() or ch in "'’":
            j = i
            while j < n and (
                text[j].isalnum()
                or text[j] in "'’"
                or (text[j] in "-_." and j + 1 < n and text[j + 1].isalnum() and j > i)
            ):
                j += 1
            _word(toks, text[i:j].translate(_APOSTROPHES), i)
            i = j
            continue
        i += 1  # other symbols (".", "!", quotes, emoji) carry no mechanics
    return toks


def _sign_allowed(toks: list[Tok], text: str, i: int) -> bool:
    """`+1`/`-2` is a signed number at the start, after a blank or after a separator."""
    if not toks:
        return True
    return i == 0 or text[i - 1].isspace() or text[i - 1] in ",;|(:"


def _word(toks: list[Tok], word: str, start: int) -> None:
    """Append a word; `2AP`/`1sp` split into a number and its unit; `5.` is the number 5."""
    word = word.rstrip(".'")
    if not word:
        return
    if word.isdigit():
        toks.append(Tok(TokKind.NUM, word, start, start + len(word)))
        return
    lowered = word.casefold()
    digits = 0
    while digits < len(word) and word[digits].isdigit():
        digits += 1
    if digits and lowered[digits:] in _UNIT_SUFFIXES:
        toks.append(Tok(TokKind.NUM, word[:digits], start, start + digits))
        toks.append(Tok(TokKind.WORD, word[digits:], start + digits, start + len(word)))
        return
    toks.append(Tok(TokKind.WORD, word, start, start + len(word)))
