"""A transcript or a sheet file that is not UTF-8 gave a traceback; it is one clear
sentence naming the file, the byte and its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.console.test_transcripts import replay

pytestmark = pytest.mark.integration


async def test_a_transcript_that_is_not_utf8_is_one_sentence(tmp_path: Path) -> None:
    script = tmp_path / "bad.txt"
    script.write_bytes(b'/as gm\n/newgame "X\xff"\n')
    code, screen = await replay(tmp_path, script)
    assert code == 2
    assert " ".join(screen.split()) == (
        f"cannot read the transcript {script}: it is not UTF-8 text (byte 0xff on line 2); "
        "save it as UTF-8")


async def test_a_sheet_file_that_is_not_utf8_is_refused_with_a_sentence(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_bytes(b"name: K\xe9ael\ntier: pc\n")
    script = tmp_path / "uses.txt"
    script.write_text("/as gm\n/newgame X\n/addchar bad.yaml --new-player alice\n"
                      "?expect Cannot read bad.yaml: it is not UTF-8 text (byte 0xe9 on line 1)"
                      "\n", encoding="utf-8")
    code, screen = await replay(tmp_path, script)
    assert code == 0, screen[-2000:]
    assert "Traceback" not in screen and "went wrong" not in screen
