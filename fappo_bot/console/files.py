"""Reading the text files the table is given (transcripts, sheets, exports) with one clear
sentence for a file that is not UTF-8 text (never a traceback)."""

from __future__ import annotations

from pathlib import Path


class NotText(OSError):
    """A file that is not UTF-8 text. An `OSError`, so every place that reports a file it cannot
    read reports this one the same way; `str()` is the sentence to show."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


def read_text(path: Path) -> str:
    """The file's text (UTF-8, a byte-order mark allowed); `NotText` names the first bad byte
    and its line when it is not UTF-8."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        skip = 3 if data.startswith(b"\xef\xbb\xbf") else 0
        at = exc.start + skip
        line = data[:at].count(b"\n") + 1
        raise NotText(f"it is not UTF-8 text (byte 0x{data[at]:02x} on line {line}); "
                      "save it as UTF-8") from None
