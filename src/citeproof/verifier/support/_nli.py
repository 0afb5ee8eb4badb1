"""The shipped entailment model: does a passage entail, contradict, or neither, a claim?

A cross-encoder fine-tuned here from all-MiniLM-L6-v2 (`train/train_support_model.py`,
``make train-support-model``), exported to ONNX and quantised to int8; it ships in the
``entailment/`` folder beside this module with its tokenizer and model card. Both files'
SHA-256 are checked against `MODEL_SHA256` and `TOKENIZER_SHA256` before the first use:
verdicts are reproducible only with the exact weights the figures in docs/measurements.md
were measured with. Nothing is downloaded.

Every pair runs on its own: one pair per call, no padding. The int8 model quantises its
activations dynamically (26 DynamicQuantizeLinear nodes, each one scale and zero point over its
whole input tensor), so in a batch a pair's probabilities would move with its batch-mates and
their padding, even mates of exactly its length, and the cache would keep whatever its first
batch gave it. Alone, a pair's score depends only on its passage and claim.

It runs with onnxruntime and tokenizers (the ``rerank`` extra); without them `NliModel.get`
returns None and claim support falls back to the lexical head.
"""

from __future__ import annotations

import hashlib
import math
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from citeproof.errors import SupportModelError

MODEL_FOLDER = "entailment"
MODEL_SHA256 = "60fb1cb23af8188ad5a1356f2e29345a164b5564b3522b1f8fc3fea1fc028789"
TOKENIZER_SHA256 = "1b19820b21bee2ab9a5d3f2ac461f9517c4589536c7d751d60d38877993c5e8b"
MAX_TOKENS = 160
CACHE_PAIRS = 50_000
"""Scored (passage, claim) pairs kept for the next verification of the same text."""


@dataclass(frozen=True, slots=True)
class Entailment:
    """The model's probabilities for one (passage, claim) pair, rounded to 4 decimals so
    verdicts are stable across platforms."""

    entails: float
    contradicts: float
    neither: float


class NliModel:
    """One loaded model; `score` is thread-safe. Use `get` for the process's shared one."""

    _shared: NliModel | None = None
    _failed = False
    _lock = threading.Lock()

    def __init__(self, model: bytes, tokenizer_json: str, *, threads: int | None = None) -> None:
        import onnxruntime  # type: ignore[import-untyped]
        from tokenizers import Tokenizer

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads or min(2, os.cpu_count() or 1)
        options.inter_op_num_threads = 1
        self._session = onnxruntime.InferenceSession(
            model, options, providers=["CPUExecutionProvider"]
        )
        tokenizer = Tokenizer.from_str(tokenizer_json)
        # The longer of passage and claim is cut first: a claim longer than the limit on its
        # own cannot make truncating the passage fail.
        tokenizer.enable_truncation(max_length=MAX_TOKENS, strategy="longest_first")
        tokenizer.no_padding()
        self._tokenizer = tokenizer
        self._cache: OrderedDict[tuple[str, str], Entailment] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._run_lock = threading.Lock()

    @classmethod
    def get(cls) -> NliModel | None:
        """The shared model, loaded and checked on first use; None when onnxruntime or
        tokenizers is not installed. Raises `SupportModelError` when the shipped files are
        missing or altered."""
        with cls._lock:
            if cls._shared is None and not cls._failed:
                try:
                    import onnxruntime  # noqa: F401
                    import tokenizers  # noqa: F401
                except ImportError:
                    cls._failed = True
                    return None
                model, tokenizer = read_shipped()
                cls._shared = cls(model, tokenizer)
            return cls._shared

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[Entailment]:
        """The probabilities for each (passage, claim) pair, in order, each the same whatever
        else is scored with it; pairs seen before come from a bounded cache, the rest run one
        at a time."""
        out: list[Entailment | None] = []
        todo: list[int] = []
        with self._cache_lock:
            for i, pair in enumerate(pairs):
                found = self._cache.get(pair)
                if found is not None:
                    self._cache.move_to_end(pair)
                out.append(found)
                if found is None:
                    todo.append(i)
        if todo:
            unique = list(dict.fromkeys(pairs[i] for i in todo))
            scored = dict(zip(unique, self._run(unique), strict=True))
            with self._cache_lock:
                for pair, result in scored.items():
                    self._cache[pair] = result
                while len(self._cache) > CACHE_PAIRS:
                    self._cache.popitem(last=False)
            for i in todo:
                out[i] = scored[pairs[i]]
        return [e for e in out if e is not None]

    def _run(self, pairs: list[tuple[str, str]]) -> list[Entailment]:
        """Each pair alone, as a batch of one without padding (see the module docstring)."""
        import numpy as np

        results = []
        for encoding in self._tokenizer.encode_batch(pairs):
            feeds: dict[str, Any] = {
                "input_ids": np.array([encoding.ids], dtype=np.int64),
                "attention_mask": np.array([encoding.attention_mask], dtype=np.int64),
                "token_type_ids": np.array([encoding.type_ids], dtype=np.int64),
            }
            with self._run_lock:
                (logits,) = self._session.run(["logits"], feeds)
            results.append(_probabilities(logits[0].tolist()))
        return results


def _probabilities(logits: list[float]) -> Entailment:
    top = max(logits)
    exps = [math.exp(x - top) for x in logits]
    total = sum(exps)
    e, c, n = (round(x / total, 4) for x in exps)
    return Entailment(e, c, n)


def read_shipped(
    *,
    model_sha256: str = MODEL_SHA256,
    tokenizer_sha256: str = TOKENIZER_SHA256,
) -> tuple[bytes, str]:
    """The shipped model's bytes and tokenizer, each checked against its SHA-256."""
    folder = resources.files(__package__).joinpath(MODEL_FOLDER)
    try:
        model = folder.joinpath("model.onnx").read_bytes()
        tokenizer = folder.joinpath("tokenizer.json").read_bytes()
    except (FileNotFoundError, OSError) as error:
        raise SupportModelError(
            f"the claim-support model is missing ({error}): reinstall citeproof"
        ) from None
    for name, data, expected in (
        ("model.onnx", model, model_sha256),
        ("tokenizer.json", tokenizer, tokenizer_sha256),
    ):
        digest = hashlib.sha256(data).hexdigest()
        if digest != expected:
            raise SupportModelError(
                f"the claim-support model's {name} has sha256 {digest}, expected {expected}: "
                "reinstall citeproof or retrain with `make train-support-model`"
            )
    return model, tokenizer.decode("utf-8")
