"""Text from players and endpoints made harmless to draw: one function for every renderer.

Speeches, names, reasoning, model exchanges and error messages come from models, people and
servers. Drawn raw they could drive the terminal (ESC and OSC sequences repaint the screen or
set the window title, C1 controls do the same on some terminals, NUL and backspace hide
text) or reorder what a reader sees (a bidi override makes ``"evil"`` display as ``"live"``).
``visible`` replaces each such character with a visible escape, so the words stay readable
and nothing acts:

- C0 controls other than newline and tab, and DEL: ``\\x1b``, ``\\x00``, ``\\x7f``
  (a carriage return too: ``\\r\\n`` becomes a plain newline first);
- C1 controls, U+0080 to U+009F: ``\\x9b``;
- bidi controls (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069) and the
  Unicode line and paragraph separators (U+2028, U+2029): ``<U+202E>``.

``one_line`` does the same and also shows newlines and tabs as ``\\n`` and ``\\t``, for
text that must stay on one line (a name, a label, an error line). Both are pure, total and
idempotent on their own output (an escape is plain printable text). Every renderer of the
project (live view, god / seat / public views, Markdown, HTML) passes player text through
them.
"""

from __future__ import annotations

__all__ = ["one_line", "visible"]


def _escapes() -> dict[int, str]:
    table: dict[int, str] = {}
    for code in [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)]:
        if chr(code) not in "\n\t":
            table[code] = f"\\x{code:02x}"
    bidi = [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
    for code in [*bidi, 0x2028, 0x2029]:
        table[code] = f"<U+{code:04X}>"
    return table


_VISIBLE = _escapes()
_ONE_LINE = {**_VISIBLE, ord("\n"): "\\n", ord("\t"): "\\t"}


def visible(text: str) -> str:
    """``text`` with every control character (but newline and tab), escape sequence starter
    and bidi control shown as a visible escape (``\\x1b``, ``<U+202E>``); see the module."""
    return text.replace("\r\n", "\n").translate(_VISIBLE)


def one_line(text: str) -> str:
    """``visible(text)`` that also shows newlines and tabs as ``\\n`` and ``\\t``."""
    return text.replace("\r\n", "\n").translate(_ONE_LINE)
