"""Golden posts (tests/data/posts/NAME.txt) and what they mean (NAME.json): the orders in the case
schema, the problems with their lines, and the bot's reply, exactly (STYLE 9: "keep golden post
files"). `FAPPO_UPDATE_GOLDEN=1` rewrites the JSON files; review the diff before committing."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from fappo_bot.posting.render import render_reply
from tests.posting.helpers import SKIRMISH, parse, state_of

pytestmark = pytest.mark.unit

POSTS = Path(__file__).resolve().parents[1] / "data" / "posts"
SCENES: dict[str, dict[str, Any]] = json.loads((POSTS / "scenes.json").read_text("utf-8"))


def outcome(name: str) -> dict[str, Any]:
    scene = SCENES[name]
    state = state_of([*SKIRMISH, *scene.get("extra", [])], scene.get("pending", []))
    text = (POSTS / f"{name}.txt").read_text("utf-8")
    post = parse(text, poster=scene["poster"], state=state)
    return {
        "orders": post.to_case_orders(),
        "errors": [{"line": p.line, "code": p.code.value, "words": p.words,
                    "message": p.message} for p in post.problems],
        "prose": list(post.prose),
        "reply": render_reply(post, state).split("\n"),
    }


@pytest.mark.parametrize("name", sorted(SCENES))
def test_golden_post(name: str) -> None:
    got = outcome(name)
    path = POSTS / f"{name}.json"
    if os.environ.get("FAPPO_UPDATE_GOLDEN") == "1":
        path.write_text(json.dumps(got, indent=2, ensure_ascii=False) + "\n", "utf-8")
    assert got == json.loads(path.read_text("utf-8"))


def test_every_golden_post_has_its_scene() -> None:
    assert {p.stem for p in POSTS.glob("*.txt")} == set(SCENES)
