"""One definition of a text's key. The source store names a version by its content hash and
the audit log stores and finds that source's text by its key: a record names its texts by
their sources' content hashes, so if the two ever differed, every logged text would be
"missing" or "changed". Both now come from `citeproof.text_hash`; these tests pin that they
agree on any text, and that a real log finds each source's text under its content hash."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from citeproof import text_hash
from citeproof.audit import open_store, text_key
from citeproof.sources import content_hash
from tests.cli_runs import EXAMPLE_SOURCES, LENDING, invoke

TEXTS = [
    "",
    "Applications above 80% must be referred.",
    "Cafe\u0301 and caf\u00e9 are two texts",  # NFD and NFC: never normalised away
    "\U0001f4b7 a character outside the BMP",
    "a lone surrogate \udc80 read from bytes that were not UTF-8",
    "line\r\nbreaks\rkept\n",
]


def test_the_audit_log_keys_texts_with_the_one_definition() -> None:
    assert text_key is text_hash.text_key


@pytest.mark.parametrize("text", TEXTS, ids=range(len(TEXTS)))
def test_a_sources_content_hash_is_its_texts_key_in_the_audit_log(text: str) -> None:
    key = text_key(text)
    assert content_hash(text) == key
    assert content_hash(text) == key  # the remembered digest too
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    assert key == f"sha256:{digest}"


def test_a_logged_answer_finds_each_source_text_under_its_content_hash(tmp_path: Path) -> None:
    audit = tmp_path / "audit.db"
    code, _, err = invoke(
        "verify", str(LENDING / "answer.md"), *EXAMPLE_SOURCES, "--audit", str(audit)
    )
    assert code in (0, 1), err
    with open_store(audit) as log:
        (record,) = log.records()
        logged = record.payload["sources"]
        stored, changed = log.check_texts()
        texts = log.texts(source["content_hash"] for source in logged)
    assert changed == []
    assert stored == {source["content_hash"] for source in logged} == set(texts)
    for source in logged:
        assert content_hash(texts[source["content_hash"]]) == source["content_hash"]
