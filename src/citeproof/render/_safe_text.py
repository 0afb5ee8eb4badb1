"""Text from outside (answers, sources, file and attachment names, batch paths, error messages
that quote them) made safe to print.

What a caller may rely on:

- `visible` leaves no character that a terminal acts on or that reorders or hides text: C0 and
  C1 controls (but newline and tab, unless ``one_line``), DEL, bidirectional controls and
  Unicode tag characters are each shown as ``<U+XXXX>``.
- `markup_safe` is `visible` text that Rich prints as written (its markup escaped), for the
  few places that take markup (progress-bar columns).
- `safe_console` is a Rich console that never reads markup or highlights anything.
- `json_text` is JSON whose value is unchanged but which holds none of those characters raw.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # rich is imported where a console is made: `import citeproof` needs none
    from rich.console import Console

# Controls a terminal acts on (ESC starts every escape sequence, BEL ends OSC titles, C1 0x9B
# is a one-byte CSI), bidi controls that make text read in another order than it is stored
# (U+061C, U+200E/F, U+202A-E, U+2066-9), and tag characters that hide text (U+E0000-7F).
_CONTROLS = "\x00-\x08\x0b-\x1f\x7f-\x9f"
_HIDING = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\U000e0000-\U000e007f"
# Lone surrogates: what Python makes of a file name's bytes that are not UTF-8; printed raw
# they would stop the output with an encoding error.
_SURROGATES = "\ud800-\udfff"
UNSAFE = re.compile(f"[{_CONTROLS}{_HIDING}{_SURROGATES}]")
_UNSAFE_ONE_LINE = re.compile(f"[\n\t\u2028\u2029{_CONTROLS}{_HIDING}{_SURROGATES}]")
_RAW_IN_JSON = re.compile(f"[\x7f-\x9f{_HIDING}{_SURROGATES}\u2028\u2029]")


def visible(text: str, *, one_line: bool = False, marks: str = "<>") -> str:
    """``text`` with every unsafe character shown as ``<U+XXXX>`` (newlines and tabs too when
    ``one_line``, so that a file name cannot start a fake line of output). ``marks`` are the
    two characters around the code point: Markdown, which HTML viewers read, uses ``⟨⟩``."""
    opening, closing = marks[0], marks[-1]
    return (_UNSAFE_ONE_LINE if one_line else UNSAFE).sub(
        lambda m: f"{opening}U+{ord(m.group()):04X}{closing}", text
    )


def markup_safe(text: str) -> str:
    """`visible` ``text`` (one line) for a place Rich reads as markup: shown as written."""
    from rich.markup import escape

    return escape(visible(text, one_line=True))


def safe_console(*, stderr: bool = False) -> Console:
    """A console for messages: no markup, no highlighting, no emoji codes, no wrapping."""
    from rich.console import Console

    return Console(stderr=stderr, markup=False, highlight=False, emoji=False, soft_wrap=True)


def _json_escape(match: re.Match[str]) -> str:
    encoded = match.group().encode("utf-16-be", "surrogatepass")
    units = [int.from_bytes(encoded[i : i + 2], "big") for i in range(0, len(encoded), 2)]
    return "".join(f"\\u{unit:04x}" for unit in units)


def json_text(value: Any, *, indent: int | None = None) -> str:
    """``json.dumps(value, ensure_ascii=False)`` with unsafe characters written as ``\\uXXXX``
    escapes: the same JSON value, nothing raw for a terminal to act on."""
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    return _RAW_IN_JSON.sub(_json_escape, text)
