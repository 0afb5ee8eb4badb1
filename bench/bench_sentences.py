"""Source-sentence segmentation speed: `sentence_spans` over 2 MB of source text.

Run: ``.venv/bin/python bench/bench_sentences.py [--megabytes 2] [--repeat 5]``. The text is
the distinct QuoteSum source paragraphs (``$CITEPROOF_DATA/quotesum/dev_half.jsonl``, default
``../shared/data`` beside the checkout), one blank line between them, repeated up to the size
asked. Reports the best of ``--repeat`` runs in MB/s and sentences/s, with and without
``line_breaks``.

Beside it: the floor, one regex split at every ``.``, ``!`` or ``?`` before whitespace (the
rule the extractive provider used before, which knows no abbreviation), and NLTK's Punkt
(untrained parameters: its pretrained English model is not shipped) when NLTK is installed.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

from citeproof.sources import sentence_spans

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "eval"))
from support_data import DATA  # noqa: E402

_FLOOR = re.compile(r"(?<=[.!?])\s+")


def corpus(megabytes: float) -> str:
    """The distinct QuoteSum source paragraphs, repeated to ``megabytes`` MB of text."""
    seen: dict[str, None] = {}
    for line in (DATA / "quotesum" / "dev_half.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        for key, value in row.items():
            if key.startswith("source") and isinstance(value, str) and value.strip():
                seen.setdefault(value.strip())
    block = "\n\n".join(seen)
    wanted = int(megabytes * 1_000_000)
    return ("\n\n".join([block] * (wanted // len(block) + 1)))[:wanted]


def best_of(repeat: int, run: Callable[[], int]) -> tuple[float, int]:
    """The fastest of ``repeat`` runs in seconds, and the sentence count it gave."""
    best = float("inf")
    count = 0
    for _ in range(repeat):
        started = time.perf_counter()
        count = run()
        best = min(best, time.perf_counter() - started)
    return best, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=float, default=2.0)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    text = corpus(args.megabytes)
    size = len(text.encode("utf-8")) / 1_000_000
    rows: list[tuple[str, Callable[[], int]]] = [
        ("sentence_spans", lambda: len(sentence_spans(text))),
        ("sentence_spans(line_breaks=True)", lambda: len(sentence_spans(text, line_breaks=True))),
        ("floor: re.split at [.!?] + space", lambda: len(_FLOOR.split(text))),
    ]
    try:
        from nltk.tokenize.punkt import PunktSentenceTokenizer  # type: ignore[import-untyped]
    except ImportError:
        print("NLTK not installed: no Punkt row")
    else:
        punkt = PunktSentenceTokenizer()
        rows.append(("NLTK Punkt (untrained)", lambda: len(list(punkt.span_tokenize(text)))))
    print(f"{size:.2f} MB of QuoteSum source paragraphs, best of {args.repeat}")
    print(f"{'segmenter':36} {'seconds':>8} {'MB/s':>7} {'sentences':>10} {'sentences/s':>12}")
    for name, run in rows:
        seconds, count = best_of(args.repeat, run)
        print(
            f"{name:36} {seconds:8.3f} {size / seconds:7.1f} {count:10,} {count / seconds:12,.0f}"
        )


if __name__ == "__main__":
    main()
