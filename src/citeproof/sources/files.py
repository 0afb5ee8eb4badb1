"""A source from one file given on the command line (``citeproof verify --source``).

Reads ``.txt``, ``.md``, ``.html``, ``.pdf``, ``.docx`` (``document`` sources), files with no
suffix (plain text) and ``.eml`` (its body becomes an ``email_body`` source; attachments are
not read here: ingest the message into a store to get them as sources of their own).
"""

from __future__ import annotations

import os
from pathlib import Path

from citeproof.errors import SourceError
from citeproof.model import Source, SourceKind
from citeproof.sources._build import read_file
from citeproof.sources._ids import readable_path
from citeproof.sources._limits import DEFAULT_LIMITS, ReadLimits, check_extent, read_file_bounded
from citeproof.sources._locations import paragraph_locations
from citeproof.sources._readers import reads_suffix
from citeproof.sources._text_reader import read_text


def read_source_file(
    path: str | os.PathLike[str],
    *,
    source_id: str | None = None,
    kind: SourceKind | None = None,
    limits: ReadLimits = DEFAULT_LIMITS,
) -> Source:
    """Read ``path`` into a `Source` with paragraph spans and a ``file://`` url.

    The id defaults to the file name without its suffix and the title is the file name, so a
    citation label on the command line names the file. Raises `SourceError` naming the file
    when it cannot be read, its format is not supported or it breaks one of ``limits``.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix and not reads_suffix(suffix):
        raise SourceError(
            f"cannot read {suffix} files here; "
            "give the text as a .txt file or in a --sources JSON file",
            where=str(path),
        )
    if suffix:
        first = read_file(path, limits=limits).drafts[0]
        default_kind: SourceKind = first.kind
        text, paragraphs, locations = first.text, first.paragraphs, first.locations
    else:
        raw = read_file_bounded(path, limits, str(path))
        document = read_text(raw, str(path))
        check_extent(document.text, len(document.paragraphs), limits, str(path))
        default_kind, text, paragraphs = "document", document.text, document.paragraphs
        locations = paragraph_locations(text, paragraphs)
    return Source(
        id=source_id or path.stem,
        kind=kind or default_kind,
        text=text,
        title=readable_path(path.name),
        url=path.resolve().as_uri(),
        paragraphs=paragraphs or None,
        locations=locations if locations and any(locations) else None,
    )
