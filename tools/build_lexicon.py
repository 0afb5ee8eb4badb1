"""Builds the word lexicon the claim judge reads (`citeproof.verifier.support.lexicon`) from
WordNet 3.0 as Debian's `wordnet-base` installs it (/usr/share/wordnet; WordNet licence,
kept beside the data as WORDNET-LICENSE).

For every lemma of nouns, verbs, adjectives and adverbs: its first `SENSES` senses (WordNet
orders them by frequency in its tagged corpus), each sense's synset numbered; for each synset
its hypernyms (nouns and verbs) and its similar-to adjective clusters; and the antonym and
derivation pairs WordNet states between lemmas ("approve" and "approval"). The judge reads
only the first senses (lexicon._wordnet.SENSES): "to let" is a rare sense of "leave", and a
judge that read every sense would call "may leave" a restatement of "may let".

Run: ``.venv/bin/python tools/build_lexicon.py`` (writes wordnet.json.gz and prints its SHA-256,
which goes into lexicon/_wordnet.py's `SHA256`).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import sys
from pathlib import Path

WORDNET = Path("/usr/share/wordnet")
OUT = Path(__file__).resolve().parents[1] / "src/citeproof/verifier/support/lexicon"
SENSES = 8  # packed; lexicon._wordnet.SENSES reads the first 3
POS = {"noun": "n", "verb": "v", "adj": "a", "adv": "r"}


def _data(pos: str) -> dict[str, list[str]]:
    """Synset offset -> its data line's fields."""
    out = {}
    for line in (WORDNET / f"data.{pos}").open(encoding="latin-1"):
        if line.startswith("  "):
            continue
        fields = line.split(" | ")[0].split()
        out[fields[0]] = fields
    return out


def main() -> int:
    if not WORDNET.is_dir():
        print(f"{WORDNET} not found: apt-get install wordnet-base", file=sys.stderr)
        return 1
    ids: dict[str, int] = {}

    def sid(pos: str, offset: str) -> int:
        return ids.setdefault(f"{pos}{offset}", len(ids))

    senses: dict[str, dict[str, list[int]]] = {}
    for name, pos in POS.items():
        table: dict[str, list[int]] = {}
        for line in (WORDNET / f"index.{name}").open(encoding="latin-1"):
            if line.startswith("  "):
                continue
            fields = line.split()
            lemma, synsets = fields[0], int(fields[2])
            offsets = fields[-synsets:]
            table[lemma.replace("_", " ")] = [sid(pos, o) for o in offsets[:SENSES]]
        senses[pos] = table
    hypernyms: dict[int, list[int]] = {}
    similar: dict[int, list[int]] = {}
    antonyms: set[tuple[str, str]] = set()
    derived: set[tuple[str, str]] = set()
    for name, pos in POS.items():
        for offset, f in _data(name).items():
            words = int(f[3], 16)
            lemmas = [f[4 + 2 * i].split("(")[0].replace("_", " ").lower() for i in range(words)]
            at = 4 + 2 * words
            count = int(f[at])
            at += 1
            for _ in range(count):
                symbol, target, tpos, st = f[at : at + 4]
                at += 4
                tpos = "a" if tpos == "s" else tpos
                if symbol in ("@", "@i") and pos in ("n", "v"):
                    hypernyms.setdefault(sid(pos, offset), []).append(sid(tpos, target))
                elif symbol == "&" and pos == "a":
                    similar.setdefault(sid(pos, offset), []).append(sid(tpos, target))
                elif symbol == "+" and st != "0000":
                    pair = _lemma_pair(name, tpos, target, st, lemmas)
                    if pair is not None and pair[0] != pair[1]:
                        derived.add(pair)
                elif symbol == "!" and st != "0000":
                    source_word = lemmas[int(st[:2], 16) - 1]
                    target_data = _data_cache(name, tpos).get(target)
                    if target_data is None:
                        continue
                    target_word = target_data[4 + 2 * (int(st[2:], 16) - 1)]
                    target_word = target_word.split("(")[0].replace("_", " ").lower()
                    antonyms.add(tuple(sorted((source_word, target_word))))  # type: ignore[arg-type]
    payload = {
        "about": "WordNet 3.0 (Princeton University; WordNet licence): first "
        f"{SENSES} senses per lemma, hypernyms, similar-to clusters and antonym pairs.",
        "senses": senses,
        "hypernyms": {str(k): v for k, v in hypernyms.items()},
        "similar": {str(k): v for k, v in similar.items()},
        "antonyms": sorted(antonyms),
        "derived": sorted(derived),
    }
    raw = json.dumps(payload, separators=(",", ":"), sort_keys=True).encode()
    path = OUT / "wordnet.json.gz"
    path.write_bytes(gzip.compress(raw, compresslevel=9, mtime=0))
    shutil.copyfile("/usr/share/doc/wordnet-base/copyright", OUT / "WORDNET-LICENSE")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    print(f"{path}: {path.stat().st_size} bytes, sha256 {digest}")
    return 0


_CACHE: dict[str, dict[str, list[str]]] = {}


def _lemma_pair(
    name: str, tpos: str, target: str, st: str, lemmas: list[str]
) -> tuple[str, str] | None:
    """The (source lemma, target lemma) a lexical pointer joins, sorted."""
    source_word = lemmas[int(st[:2], 16) - 1]
    target_data = _data_cache(name, tpos).get(target)
    if target_data is None:
        return None
    word = target_data[4 + 2 * (int(st[2:], 16) - 1)].split("(")[0].replace("_", " ").lower()
    a, b = sorted((source_word, word))
    return a, b


def _data_cache(name: str, pos: str) -> dict[str, list[str]]:
    target = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}[pos]
    if target not in _CACHE:
        _CACHE[target] = _data(target)
    return _CACHE[target]


if __name__ == "__main__":
    sys.exit(main())
