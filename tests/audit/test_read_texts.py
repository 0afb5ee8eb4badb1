"""The texts a log's readers read back are kept for the next record, within a bound."""

from __future__ import annotations

from pathlib import Path

from citeproof.audit import open_store, text_key
from citeproof.audit._texts import ReadTexts


def test_the_read_texts_keep_at_most_their_characters_the_least_recently_read_dropped() -> None:
    cache = ReadTexts(chars=40)
    for name in ("a", "b", "c", "d"):
        cache.put(name, name * 10)
    assert cache.get("a") == "a" * 10
    cache.put("e", "e" * 10)  # 50 characters: the least recently read, "b", goes
    assert [cache.get(k) is not None for k in "abcde"] == [True, False, True, True, True]
    cache.put("huge", "h" * 11)  # over a quarter of the bound: never kept
    assert cache.get("huge") is None


def test_a_text_read_once_is_not_read_from_the_database_again(tmp_path: Path) -> None:
    text = "Loans above 80 % LTV are referred."
    with open_store(tmp_path / "audit.db") as log:
        log.append({"n": 1}, "req-1", texts={text_key(text): text})
        reads: list[list[str]] = []
        read = log._texts

        def counted(keys):  # type: ignore[no-untyped-def]
            reads.append(list(keys))
            return read(keys)

        log._texts = counted  # type: ignore[method-assign]
        for _ in range(3):
            assert log.texts([text_key(text)]) == {text_key(text): text}
        assert reads == [[text_key(text)]]
