"""Making an answer's Markdown safe to hand to any Markdown viewer, whatever its dialect.

What a caller may rely on: after `neutralise_markdown`, the text holds no ``<`` that could
open an HTML tag, comment or declaration in any renderer (code or not: which text is code
differs between renderers, so it is not trusted to protect anything), no image syntax (an image
becomes a plain link, so nothing is fetched when the text is shown), and every link syntax
(``[text](dest)``, ``[label]: dest``, ``<scheme:...>``) either points to an absolute
``http``/``https``/``mailto`` address written in one canonical form, or is broken so that it
shows as plain text. The changes are edits against the original text, so offsets into it
(where badges go) stay usable.
"""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import quote

from citeproof.render._edits import Edit

# "<" followed by one of these can start a tag, a closing tag, a comment, a declaration or a
# processing instruction (HTML5 and CommonMark); any other "<" is text everywhere.
_TAG_START = re.compile(r"<(?=[A-Za-z/!?])")
_AUTOLINK = re.compile(r"<([A-Za-z][A-Za-z0-9+.\-]{1,31}:[^\s<>\x00-\x1f\x7f]*)>")
# "](" or "]:" (a link, a reference definition), with the blanks some dialects allow between.
_LINK_OPEN = re.compile(r"\][ \t]*\n?[ \t]*([(:])")
_IMAGE = re.compile(r"!(?=\[)")
_SAFE_SCHEME = re.compile(r"(?:https?://[^/?#\s]|mailto:[^\s])", re.IGNORECASE)
_BACKSLASH_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
# Characters a canonical destination keeps as they are; every other one is percent-encoded:
# spaces, "<>()" and quotes a renderer could read as the end of the destination or markup,
# backslashes (escapes), ";" (so no "&name;" entity can form), and "!", "[", "]" (so no
# image syntax can).
_URL_KEEP = "/:?#@$&'*+,=-._~%"


def canonical_url(url: str) -> str | None:
    """``url`` as an absolute http(s)/mailto address in one plain form (no space, bracket,
    double quote, backslash or ``;`` left raw), or ``None`` when it is anything else."""
    cleaned = url.strip()
    if re.search(r"[\x00-\x1f\x7f]", cleaned) or not _SAFE_SCHEME.match(cleaned):
        return None
    return quote(cleaned, safe=_URL_KEEP)


def markdown_link(text: str, url: str) -> str:
    """``[text](url)`` with ``text`` already escaped Markdown and ``url`` made canonical; the
    text alone when the url is not a safe link."""
    target = canonical_url(url)
    return f"[{text}]({target})" if target else text


def _destination(text: str, start: int) -> tuple[int, int, str]:
    """The raw link destination starting at ``start`` (blanks first allowed): its span and its
    value as a CommonMark renderer would decode it."""
    position = start
    while position < len(text) and text[position] in " \t":
        position += 1
    if position < len(text) and text[position] == "\n":
        position += 1
        while position < len(text) and text[position] in " \t":
            position += 1
    begin = position
    if position < len(text) and text[position] == "<":
        close = text.find(">", position)
        newline = text.find("\n", position)
        end = close + 1 if close != -1 and (newline == -1 or close < newline) else position + 1
        raw = text[begin + 1 : end - 1] if end - begin >= 2 else ""
    else:
        depth = 0
        while position < len(text):
            char = text[position]
            if char == "\\" and position + 1 < len(text):
                position += 2
                continue
            if char.isspace() or ord(char) < 0x20 or ord(char) == 0x7F:
                break
            if char == "(":
                depth += 1
            elif char == ")":
                if depth == 0:
                    break
                depth -= 1
            position += 1
        end = position
        raw = text[begin:end]
    decoded = unescape(_BACKSLASH_ESCAPE.sub(r"\1", raw))
    return begin, end, decoded


def neutralise_markdown(text: str) -> list[Edit]:
    """The edits that make ``text`` (Markdown from outside) safe to show; see the module."""
    edits: list[Edit] = []
    rewritten_to = 0  # where the last destination rewritten ends: "](" inside it is its text
    for opener in _LINK_OPEN.finditer(text):
        marker = opener.start(1)
        if marker < rewritten_to:
            continue
        begin, end, decoded = _destination(text, marker + 1)
        target = canonical_url(decoded)
        if target is None:
            # "]\(" and "]\:" are no link syntax in any dialect: the rest shows as text.
            edits.append(Edit(marker, marker + 1, "\\" + text[marker]))
        elif text[begin:end] != target:
            edits.append(Edit(begin, end, target))
            rewritten_to = end
    covered = [(edit.start, edit.end) for edit in edits if edit.end > edit.start]

    def free(start: int, end: int) -> bool:
        return all(end <= s or e <= start for s, e in covered)

    for autolink in _AUTOLINK.finditer(text):
        target = canonical_url(unescape(autolink.group(1)))
        if target is not None and free(*autolink.span()):
            url_text = re.sub(r"([\\`*_\[\]|~!])", r"\\\1", autolink.group(1))
            edits.append(Edit(*autolink.span(), f"[{url_text}]({target})"))
            covered.append(autolink.span())
    for tag in _TAG_START.finditer(text):
        if free(tag.start(), tag.start() + 1):
            edits.append(Edit(tag.start(), tag.start() + 1, "&lt;"))
    for image in _IMAGE.finditer(text):
        # "\!" shows the "!" and leaves "[...](...)" a plain link: nothing is ever fetched. A
        # "!" the text escaped already stays as it is: another backslash before it would be
        # read as an escaped backslash, and the image would be back ("\\![x](...)").
        if free(image.start(), image.end()) and not _escaped(text, image.start()):
            edits.append(Edit(image.start(), image.end(), "\\!"))
    return edits


def _escaped(text: str, position: int) -> bool:
    """Whether the character at ``position`` follows an odd run of backslashes (escaped)."""
    start = position
    while start > 0 and text[start - 1] == "\\":
        start -= 1
    return (position - start) % 2 == 1
