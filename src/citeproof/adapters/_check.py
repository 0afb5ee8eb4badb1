"""Is a vendor's cited text in the source, word for word, at the location the vendor stated?

The matcher's own normalisation is used (whitespace runs, curly quotes, dashes), so a PDF
whose text layer breaks lines differently from the vendor's extraction still counts as word
for word; any other difference is reported with the closest passage the matcher finds.
"""

from __future__ import annotations

from collections.abc import Callable

from citeproof.adapters._converted import LocationCheck
from citeproof.model import Span
from citeproof.verifier.match import SourceIndex, find_quote

Describe = Callable[[Span], str]


def check_cited_text(
    index: SourceIndex,
    cited: str,
    stated: Span,
    stated_words: str,
    describe: Describe,
    *,
    paragraph: int | None = None,
) -> LocationCheck:
    """Compare ``cited`` with the source of ``index`` over the ``stated`` ``str`` span.

    ``stated_words`` names the vendor's location for a person ("characters 0-20"); ``describe``
    names any other span of the source in the same terms ("characters 5-25", "page 3").
    """
    text = index.source.text
    start, end = stated
    wanted = cited.strip()
    if not wanted:
        return LocationCheck("not_checked", stated_words, None, "the cited text is empty")
    inside = text.find(wanted, start, end)
    if 0 <= start <= end <= len(text) and inside >= 0:
        found = (inside, inside + len(wanted))
        return LocationCheck("verbatim", stated_words, found, "word for word where stated")
    match = find_quote(wanted, index, paragraph=paragraph)
    if match is None:
        return LocationCheck(
            "not_verbatim",
            stated_words,
            None,
            f"not in {_name(index)}, word for word or close to it",
        )
    found = match.span
    if match.method == "exact":
        if start <= found[0] and found[1] <= end:
            return LocationCheck(
                "verbatim", stated_words, found, "word for word where stated (spacing differs)"
            )
        shift = found[0] - start
        return LocationCheck(
            "moved",
            stated_words,
            found,
            f"word for word at {describe(found)}, not at {stated_words} as stated "
            f"(off by {shift:+d} characters)",
        )
    return LocationCheck(
        "not_verbatim",
        stated_words,
        found,
        f"not word for word in {_name(index)}: the closest passage, at {describe(found)}, "
        f"is {match.score:.0%} similar: {match.text!r}",
    )


def _name(index: SourceIndex) -> str:
    source = index.source
    return f"{source.id} ({source.title})" if source.title else source.id
