"""The learned layer: a logistic head over the fact layer's counts and, when the MiniLM
encoder is installed, the embedding similarity of claim and passage (paraphrase).

The head's parameters ship as ``head.json`` beside this module, written by
``make train-support`` (eval/train_support.py) from the tuning halves of AttributionBench
and WiCE dev. The file's sha256 is checked on load: scores are reproducible only with the
exact parameters the figures in docs/measurements.md were measured with. Nothing is downloaded.
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
from dataclasses import dataclass
from importlib import resources
from typing import Any

from citeproof.embedding import TextEncoder
from citeproof.errors import RerankUnavailableError, SupportHeadError
from citeproof.verifier.support._facts import FactCheck

HEAD_FILE = "head.json"
HEAD_SHA256 = "db945b2addcff1075b168a90126f234f1b59a60f5b8c4a4162a8647a75c73aaf"
LEXICAL = "features"
EMBEDDING = "features+minilm"
LEXICAL_FEATURES = (
    "weighted_recall",
    "recall",
    "anchor",
    "pair_recall",
    "number_recall",
    "has_number",
    "name_recall",
    "negation_conflict",
    "conflict",
    "longest_run",
    "content",
    "unbacked_words",
    "source_recall",
    "source_weighted_recall",
)
EMBEDDING_FEATURES = (*LEXICAL_FEATURES, "cos_passage", "cos_sentence")


def features(check: FactCheck, cosines: tuple[float, float] | None) -> dict[str, float]:
    """The head's inputs, by name (the embedding ones only when ``cosines`` is given)."""
    values = {
        "weighted_recall": check.weighted_recall,
        "recall": check.recall,
        "anchor": check.anchor,
        "pair_recall": check.pair_recall,
        "number_recall": check.number_recall,
        "has_number": check.has_number,
        "name_recall": check.name_recall,
        "negation_conflict": check.negation_conflict,
        "conflict": 1.0 if check.conflicts else 0.0,
        "longest_run": check.longest_run,
        "content": math.log1p(check.content) / 3.0,
        "unbacked_words": math.log1p(check.unbacked_words) / 2.0,
        "source_recall": check.source_recall,
        "source_weighted_recall": check.source_weighted_recall,
    }
    if cosines is not None:
        values["cos_passage"], values["cos_sentence"] = cosines
    return values


@dataclass(frozen=True, slots=True)
class Head:
    """One logistic head: standardised features, weights and a bias."""

    names: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float

    def score(self, values: dict[str, float]) -> float:
        """P(supported) in [0, 1], rounded to 4 decimals so it is stable across platforms."""
        z = self.bias
        for name, mean, scale, weight in zip(
            self.names, self.mean, self.scale, self.weights, strict=True
        ):
            z += weight * (values[name] - mean) / scale
        return round(1.0 / (1.0 + math.exp(-max(min(z, 40.0), -40.0))), 4)

    def to_json(self) -> dict[str, Any]:
        return {
            "features": list(self.names),
            "mean": list(self.mean),
            "scale": list(self.scale),
            "weights": list(self.weights),
            "bias": self.bias,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Head:
        names = tuple(str(n) for n in data["features"])
        lists = [tuple(float(x) for x in data[k]) for k in ("mean", "scale", "weights")]
        if any(len(v) != len(names) for v in lists) or any(s <= 0 for s in lists[1]):
            raise SupportHeadError("the support head's vectors do not fit its features")
        return cls(names, lists[0], lists[1], lists[2], float(data["bias"]))


@dataclass(frozen=True, slots=True)
class Rules:
    """Deterministic limits on ``supported``, tuned with the head (eval/train_support.py):
    ``max_gap``: a stretch of this many unbacked words or more is a part of the claim the
    passage does not hold (0: no limit); ``names_block``: an unbacked name rules it out."""

    max_gap: int = 0
    names_block: bool = False


_heads: dict[str, Head] | None = None
_rules: Rules | None = None
_heads_lock = threading.Lock()


def load_heads(*, raw: bytes | None = None, expected: str | None = HEAD_SHA256) -> dict[str, Head]:
    """The shipped heads by method name, read once and checked against `HEAD_SHA256`."""
    global _heads
    if raw is None and _heads is not None:
        return _heads
    with _heads_lock:
        data_bytes = raw if raw is not None else _read_head_file()
        digest = hashlib.sha256(data_bytes).hexdigest()
        if expected is not None and digest != expected:
            raise SupportHeadError(
                f"{HEAD_FILE} has sha256 {digest}, expected {expected}: reinstall citeproof "
                "or retrain with `make train-support`"
            )
        try:
            data = json.loads(data_bytes)
            heads = {name: Head.from_json(body) for name, body in data["heads"].items()}
        except (ValueError, KeyError, TypeError) as error:
            raise SupportHeadError(f"{HEAD_FILE} is malformed: {error}") from None
        if raw is None:
            global _rules
            _heads = heads
            rules = data.get("rules", {})
            _rules = Rules(int(rules.get("max_gap", 0)), bool(rules.get("names_block", False)))
        return heads


def load_rules() -> Rules:
    """The decision rules shipped beside the heads (checked with them)."""
    load_heads()
    assert _rules is not None
    return _rules


def _read_head_file() -> bytes:
    try:
        return resources.files(__package__).joinpath(HEAD_FILE).read_bytes()
    except (FileNotFoundError, OSError) as error:
        raise SupportHeadError(f"{HEAD_FILE} is missing: {error}") from None


class Encoder:
    """The MiniLM encoder shared by every verification in this process, built on first use;
    `get` returns None when it is not installed (the lexical head is used instead)."""

    _instance: TextEncoder | None = None
    _failed = False
    _lock = threading.Lock()

    @classmethod
    def get(cls) -> TextEncoder | None:
        with cls._lock:
            if cls._instance is None and not cls._failed:
                try:
                    cls._instance = TextEncoder(threads=1)
                except RerankUnavailableError:
                    cls._failed = True
            return cls._instance


def cosines(
    encoder: TextEncoder, claim: str, passage: str, sentences: list[str]
) -> tuple[float, float]:
    """Cosine similarity of the claim with the whole passage and with its closest sentence."""
    vectors = encoder.embed([claim, passage, *sentences])
    similarities = vectors[1:] @ vectors[0]
    return round(float(similarities[0]), 4), round(float(similarities[1:].max()), 4)
