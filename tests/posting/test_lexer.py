"""The line lexer: Discord markdown, bracket statements and tokens (spec/posting.md
"Discord formatting is ignored around mechanics")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fappo_bot.posting.lexer import Tok, TokKind, _scan, bold_name, brackets, clean, tokenize

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(("raw", "cleaned"), [
    ("**2 AP** attack", "2 AP attack"),
    ("*2 AP* attack", "2 AP attack"),
    ("***2 AP*** attack", "2 AP attack"),
    ("__2 AP__ attack", "2 AP attack"),
    ("_2 AP_ attack", "2 AP attack"),
    ("~~2 AP~~ attack", "2 AP attack"),
    ("`2 AP` attack", "2 AP attack"),
    ("||2 AP|| attack", "2 AP attack"),
    ("- 2 AP attack", "2 AP attack"),
    ("* 2 AP attack", "2 AP attack"),
    ("• 2 AP attack", "2 AP attack"),
    ("1. 2 AP attack", "2 AP attack"),
    ("3) 2 AP attack", "2 AP attack"),
    ("> 2 AP attack", "2 AP attack"),
    (">>> 2 AP attack", "2 AP attack"),
    ("- > move 1", "move 1"),
    ("## 2 AP attack", "2 AP attack"),
    ("-# 2 AP attack", "2 AP attack"),
    ("**- 2 AP attack**", "2 AP attack"),
    ("attack snake_case_name", "attack snake_case_name"),
    ("a | b", "a | b"),
    (r"\*not bold\*", "*not bold*"),
])
def test_clean(raw: str, cleaned: str) -> None:
    assert clean(raw) == cleaned


def test_bold_name_alone_on_a_line() -> None:
    assert bold_name("**Kael**") == "Kael"
    assert bold_name("- __Goblin 1__") == "Goblin 1"
    assert bold_name("**Kael** strikes") is None
    assert bold_name("Kael") is None


def test_brackets_ignore_links_and_unbalanced_brackets() -> None:
    found = brackets("a [2 AP defend] b [link](https://x.y) c [If x: [y]] d [open")
    assert [b.text for b in found] == ["2 AP defend", "If x: [y]"]


def test_tokens() -> None:
    toks = tokenize("2AP attack Goblin 1 -> +1 (high ground), -2 (dark; x) Chief’s @ | →")
    kinds = [(t.kind, t.text) for t in toks]
    assert kinds == [
        (TokKind.NUM, "2"), (TokKind.WORD, "AP"), (TokKind.WORD, "attack"),
        (TokKind.WORD, "Goblin"), (TokKind.NUM, "1"), (TokKind.WORD, "at"),
        (TokKind.SIGNED, "+1"), (TokKind.PAREN, "high ground"), (TokKind.SEP, ","),
        (TokKind.SIGNED, "-2"), (TokKind.PAREN, "dark; x"), (TokKind.WORD, "Chief's"),
        (TokKind.WORD, "at"), (TokKind.SEP, "|"), (TokKind.WORD, "at"),
    ]


def _regex_read(text: str) -> list[Tok]:
    """The tokens as the regex alone reads them, over the whole text at once."""
    toks: list[Tok] = []
    pos = 0
    while pos < len(text):
        pos = _scan(toks, text, pos, len(text))
    return toks


_PIECES = st.sampled_from([
    "a", "Goblin", "Zé", "ß", "ﬁ", "1", "12", "٣", "²", "½", "_", "*", "|", "(", ")", "+", "-", "–",
    ":", ";", ",", ".", "'", "’", "@", "->", "→", "!", "\u0301", "2AP", "1sp", "1234567", "🙂",
])
#: a run between spaces: mostly a word or a number, maybe with a mark before or after
_RUN = st.tuples(st.sampled_from(["", "", "", "(", "+", "-"]),
                 st.one_of(st.sampled_from(["a", "Goblin", "Zé", "ß", "ﬁ"]),
                           st.sampled_from(["1", "12", "٣", "²"]),
                           st.lists(_PIECES, min_size=1, max_size=3).map("".join)),
                 st.sampled_from(["", "", ",", ":", ";", ")", "."]),
                 ).map("".join)
_TEXT = st.tuples(st.sampled_from(["", " "]),
                  st.lists(st.tuples(_RUN, st.sampled_from([" ", " ", "  ", "\t", "\u00a0"])),
                           max_size=8),
                  ).map(lambda t: t[0] + "".join(run + blank for run, blank in t[1]).rstrip(" "))


@given(_TEXT)
def test_the_space_by_space_walk_reads_as_the_regex_does(text: str) -> None:
    """Runs of letters or digits skip the regex (for speed): they must read as it would."""
    assert tokenize(text) == _regex_read(text)


def test_unbalanced_parenthesis_runs_to_the_end() -> None:
    toks = tokenize("1 SP Nimble (because, well")
    assert toks[-1].kind is TokKind.PAREN and toks[-1].text == "because, well"


def test_spans_point_into_the_text() -> None:
    text = "2 AP attack Goblin 1"
    for tok in tokenize(text):
        assert text[tok.start:tok.end].replace("’", "'") == tok.text


def test_zero_width_characters_do_not_split_words() -> None:
    assert clean("2 AP attack Gob\u200blin 1\ufeff") == "2 AP attack Goblin 1"


def test_unicode_digits_count() -> None:
    from tests.posting.helpers import action

    assert action("２ AP attack Goblin 1")["ap"] == 2


def test_a_lone_bracket_does_not_hide_the_statements_after_it() -> None:
    assert [b.text for b in brackets("a [ b [1 AP defend] c")] == ["1 AP defend"]
    assert [b.text for b in brackets(r"a \[not\] [1 AP defend]")] == ["1 AP defend"]
    assert [b.text for b in brackets("]]][a] [b]")] == ["a", "b"]
