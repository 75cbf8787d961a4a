"""`fappo-bot parse --sheet FILE POSTFILE [--poster NAME|gm]` and `post` orders in case files
(spec/cases.md), run through the real CLI with a stand-in post parser, so these tests check the
wiring; the parser's own behaviour is checked by the public parse cases."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import fappo_bot.posting
from fappo_bot.cli import main
from fappo_bot.rules.orders import Action, ActionKind, Order
from fappo_bot.rules.results import ErrorCode

pytestmark = pytest.mark.unit


@dataclass
class FakeProblem:
    line: int
    code: ErrorCode
    message: str
    actor: str | None = None


@dataclass
class FakeParsed:
    orders: tuple[Order, ...] = ()
    problems: tuple[FakeProblem, ...] = field(default=())
    blocks: tuple[object, ...] = ()


@dataclass
class FakeContext:
    state: object
    poster: str

    @classmethod
    def for_poster(cls, state: object, poster: str) -> FakeContext:
        return cls(state, poster)


def fake_parse_post(text: str, ctx: FakeContext) -> FakeParsed:
    """`N AP attack TARGET` lines become attacks by the poster; any other non-empty line that
    starts with a digit is a syntax problem."""
    actions, problems = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.split()
        if len(words) == 4 and words[1] == "AP" and words[2] == "attack":
            actions.append(Action(kind=ActionKind.ATTACK, ap=int(words[0]), target=words[3]))
        elif words and words[0].isdigit():
            problems.append(FakeProblem(number, ErrorCode.SYNTAX, f"cannot read {line!r}"))
    actor = "Goblin" if ctx.poster == "gm" else ctx.poster
    return FakeParsed((Order(actor=actor, actions=tuple(actions)),), tuple(problems))


@pytest.fixture
def fake_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fappo_bot.posting, "parse_post", fake_parse_post, raising=False)
    monkeypatch.setattr(fappo_bot.posting, "PostContext", FakeContext, raising=False)


SHEET = """\
cases:
- id: table
  characters:
  - {name: Kael, traits: {Nimble: 3}, skills: {Swordfighting: 3}, weapons: [Broadsword]}
  - {name: Goblin, traits: {Clever: 3}, skills: {Knife Fighting: 3}, weapons: [Dagger]}
"""


def parse(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["parse", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_orders_as_json(fake_parser, case_file, tmp_path: Path, capsys) -> None:
    post = tmp_path / "post.txt"
    post.write_text("Kael lunges.\n2 AP attack Goblin\n")
    code, out, err = parse(capsys, "--sheet", str(case_file(SHEET)), str(post), "--poster", "kael")
    assert (code, err) == (0, "")
    assert json.loads(out) == {"orders": [
        {"actor": "Kael", "actions": [{"kind": "attack", "ap": 2, "target": "Goblin"}],
         "guard": [], "reduce": [], "endure": False, "intent": "", "ooc": ""}]}


def test_gm_poster(fake_parser, case_file, tmp_path: Path, capsys) -> None:
    post = tmp_path / "post.txt"
    post.write_text("1 AP attack Kael\n")
    code, out, _ = parse(capsys, "--sheet", str(case_file(SHEET)), str(post), "--poster", "gm")
    assert code == 0 and json.loads(out)["orders"][0]["actor"] == "Goblin"


def test_problems_with_line_numbers_exit_one(fake_parser, case_file, tmp_path: Path,
                                             capsys) -> None:
    post = tmp_path / "post.txt"
    post.write_text("Kael waits.\n2 AP dance\n")
    code, out, err = parse(capsys, "--sheet", str(case_file(SHEET)), str(post), "--poster", "Kael")
    assert code == 1
    assert json.loads(out) == {"errors": [{"line": 2, "code": "syntax",
                                           "message": "cannot read '2 AP dance'", "actor": None}]}
    assert "line 2: cannot read '2 AP dance' (syntax)" in err


@pytest.mark.parametrize(
    ("argv", "words"),
    [(["--poster", "Troll"], "no character called 'Troll'"),
     ([], "say who posts with --poster (one of Kael, Goblin, or gm)")],
)
def test_poster_problems_exit_two(fake_parser, case_file, tmp_path: Path, capsys, argv,
                                  words) -> None:
    post = tmp_path / "post.txt"
    post.write_text("1 AP attack Kael\n")
    code, _, err = parse(capsys, "--sheet", str(case_file(SHEET)), str(post), *argv)
    assert code == 2 and words in err


def test_unreadable_inputs_exit_two(fake_parser, case_file, tmp_path: Path, capsys) -> None:
    post = tmp_path / "post.txt"
    post.write_text("1 AP attack Kael\n")
    code, _, err = parse(capsys, "--sheet", str(tmp_path / "none.yaml"), str(post))
    assert code == 2 and "no such file" in err
    code, _, err = parse(capsys, "--sheet", str(case_file(SHEET)), str(tmp_path / "none.txt"),
                         "--poster", "Kael")
    assert code == 2 and "cannot read it" in err
    bad = case_file("cases:\n- {id: b, kind: battle}\n", "bad.yaml")
    code, _, err = parse(capsys, "--sheet", str(bad), str(post))
    assert code == 2 and "case 'b' is malformed: unknown kind 'battle'" in err
    spell = case_file("cases:\n- {id: s, kind: spell, effects: {damage: 1}}\n", "spell.yaml")
    code, _, err = parse(capsys, "--sheet", str(spell), str(post))
    assert code == 2 and "has no characters" in err


def test_parse_cases_and_post_orders_in_adjudicate(fake_parser, fake_engine, case_file,
                                                   capsys) -> None:
    text = SHEET.replace("- id: table", "- id: parse-ok\n  kind: parse\n  poster: Kael") + """\
  post: "Kael lunges.\\n2 AP attack Goblin\\n"
  expect:
    orders: [{actor: Kael, actions: [{kind: attack, ap: 2, target: goblin}]}]
    errors: []
- id: turn-with-posts
  characters:
  - {name: Kael, traits: {Nimble: 3}, skills: {Swordfighting: 3}, weapons: [Broadsword]}
  - {name: Goblin, traits: {Clever: 3}, skills: {Knife Fighting: 3}, weapons: [Dagger]}
  orders:
  - {actor: Kael, post: "2 AP attack Goblin"}
  - {actor: Goblin, post: "3 AP run"}
  expect:
    actions: [{actor: Kael, index: 0, damage: 3}]
    characters: [{name: Goblin, health: Wounded}]
    errors: [{actor: Goblin, code: syntax}]
"""
    assert main(["adjudicate", str(case_file(text))]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "PASS parse-ok", "PASS turn-with-posts", "2 passed, 0 failed"]


def test_stdin_post(fake_parser, case_file, monkeypatch, capsys) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("1 AP attack Goblin\n"))
    code, out, _ = parse(capsys, "--sheet", str(case_file(SHEET)), "-", "--poster", "Kael")
    assert code == 0 and json.loads(out)["orders"][0]["actions"][0]["ap"] == 1


def test_real_parser_end_to_end(case_file, tmp_path: Path, capsys) -> None:
    """posting.md: forgiving names (Agile = Nimble, a unique prefix) come back canonical."""
    post = tmp_path / "post.txt"
    post.write_text("Kael lunges at the goblin.\n2 AP attack Goblin with Broad, 1 SP agile\n"
                    "1 AP defend\nOOC: back Monday\n")
    code, out, err = parse(capsys, "--sheet", str(case_file(SHEET)), str(post), "--poster", "Kael")
    assert (code, err) == (0, "")
    [order] = json.loads(out)["orders"]
    assert order["actor"] == "Kael" and order["ooc"] == "back Monday"
    attack, defend = order["actions"]
    assert {k: attack[k] for k in ("kind", "ap", "target", "weapon", "sp")} == {
        "kind": "attack", "ap": 2, "target": "Goblin", "weapon": "Broadsword",
        "sp": {"Nimble": 1}}
    assert (defend["kind"], defend["ap"]) == ("defend", 1)
    post.write_text("Kael charges.\n2 AP attack Gobbo with Broadsword\n")
    code, out, err = parse(capsys, "--sheet", str(case_file(SHEET)), str(post), "--poster", "Kael")
    assert code == 1
    assert [(e["line"], e["code"]) for e in json.loads(out)["errors"]] == [(2, "unknown-name")]
    assert err.startswith("line 2: ")
