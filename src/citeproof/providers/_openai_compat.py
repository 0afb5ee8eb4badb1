"""Any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama, llama.cpp...) via the openai SDK.

Settings come from the arguments, else the environment: ``OPENAI_BASE_URL``,
``OPENAI_API_KEY`` and ``CITEPROOF_MODEL``. The SDK's own retries are off; citeproof's
`RetryPolicy` applies, within the caller's deadline.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import openai
from openai.types.chat import (
    ChatCompletion,
    ChatCompletionMessageParam,
    ChatCompletionStreamOptionsParam,
)

from citeproof import environment
from citeproof.errors import (
    ProviderConfigError,
    ProviderError,
    ProviderModelError,
    ProviderTimeout,
)
from citeproof.providers._base import ChatMessage, Generation, Usage
from citeproof.providers._model_requests import check_model_request, is_loopback
from citeproof.providers._pace import Pace, Progress, estimated_tokens, report_progress
from citeproof.providers._retry import DEFAULT_RETRY, RetryPolicy
from citeproof.providers._sdk import SdkErrorTypes, SdkProvider

DEFAULT_TIMEOUT = 120.0
LOCAL_API_KEY = "not-needed"  # local servers take any key, but the SDK insists on one


class OpenAICompatProvider(SdkProvider):
    """Chat completions from an OpenAI-compatible server.

    ``timeout`` bounds each request when no deadline is given. With ``check_model``, the
    first `generate` first asks the server's model list for ``model`` (see `verify_model`):
    some servers (llama.cpp) answer with whatever model they have loaded, whatever name is
    asked for. With ``quote_first`` (for llama.cpp-compatible servers, which accept a GBNF
    ``grammar``), the turn pipeline asks for evidence lines under a grammar first
    (`citeproof.providers._constrained`). With a ``pace`` (a model on this machine), the
    answer is streamed and its time scaled to the work (`citeproof.providers._pace`): one
    attempt, ``timeout`` unused.
    """

    errors = SdkErrorTypes(
        openai.OpenAIError, openai.APITimeoutError, openai.APIConnectionError, openai.APIStatusError
    )

    def __init__(
        self,
        model: str | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        retry: RetryPolicy = DEFAULT_RETRY,
        check_model: bool = False,
        name: str = "openai",
        client: openai.OpenAI | None = None,
        quote_first: bool = False,
        pace: Pace | None = None,
    ) -> None:
        self.name = name
        self.pace = pace
        self.quote_first = quote_first
        self.model = _setting(model, environment.MODEL, "model", name)
        self.timeout = timeout
        self.retry = retry
        self._check_model = check_model
        if client is None:
            base_url = base_url or environment.OPENAI_BASE_URL.get()
            api_key = api_key or environment.OPENAI_API_KEY.get()
            if api_key is None and is_loopback(base_url):
                api_key = LOCAL_API_KEY
            if api_key is None:
                raise ProviderConfigError(
                    "no API key: pass api_key or set OPENAI_API_KEY (any value for a server "
                    "that needs none)",
                    provider=name,
                )
            client = openai.OpenAI(
                api_key=api_key, base_url=base_url, max_retries=0, timeout=timeout
            )
        self.client = client
        self.base_url = str(client.base_url)

    def generate(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int,
        temperature: float = 0.0,
        deadline: float | None = None,
        grammar: str | None = None,
    ) -> Generation:
        """Send ``messages`` and return the first choice; see `Provider.generate`.

        ``grammar`` (GBNF) is sent as llama.cpp's ``grammar`` field; other servers may ignore
        or refuse it.
        """
        self._check(messages, max_tokens, temperature)
        if self._check_model:
            self.verify_model()
            self._check_model = False
        wire = [_wire_message(m) for m in messages]
        extra = {"grammar": grammar} if grammar is not None else None
        if self.pace is not None:
            prompt_tokens = estimated_tokens([m.content for m in messages])
            return self._paced(
                self.pace, wire, prompt_tokens, max_tokens, temperature, deadline, extra
            )

        def call(timeout: float) -> Generation:
            completion = self.client.chat.completions.create(
                model=self.model,
                messages=wire,
                max_tokens=max_tokens,
                temperature=temperature,
                timeout=timeout,
                extra_body=extra,
            )
            return self._generation(completion)

        return self._send(call, deadline)

    def _paced(
        self,
        pace: Pace,
        wire: list[ChatCompletionMessageParam],
        prompt_tokens: int,
        max_tokens: int,
        temperature: float,
        deadline: float | None,
        extra: dict[str, Any] | None,
    ) -> Generation:
        """One streamed call whose time is scaled to ``prompt_tokens`` and ``max_tokens``:
        any wait for the next token is bounded by the time to read the prompt, the whole by
        the time to read it and write ``max_tokens`` (and by ``deadline``, if given)."""
        started = time.monotonic()
        scaled = pace.total_seconds(prompt_tokens, max_tokens)
        end = started + scaled if deadline is None else min(deadline, started + scaled)
        stall = min(pace.first_token_seconds(prompt_tokens), max(end - started, 0.001))
        parts: list[str] = []
        written = 0
        finish: str | None = None
        usage = Usage()
        answered_by = self.model
        with self._sdk_errors(stall):
            stream = self.client.chat.completions.create(
                model=self.model,
                messages=wire,
                max_tokens=max_tokens,
                temperature=temperature,
                timeout=openai.Timeout(stall, connect=10.0),
                extra_body=extra,
                stream=True,
                stream_options=ChatCompletionStreamOptionsParam(include_usage=True),
            )
            with stream:
                for chunk in stream:
                    now = time.monotonic()
                    if now > end:
                        raise ProviderTimeout(
                            f"no whole answer within {end - started:.0f} s: the time for "
                            f"about {prompt_tokens:,} prompt tokens and {max_tokens:,} to "
                            f"write at the slowest pace taken as progress "
                            f"({written:,} written)",
                            provider=self.name,
                            model=self.model,
                        )
                    answered_by = chunk.model or answered_by
                    if chunk.usage is not None:
                        usage = Usage(chunk.usage.prompt_tokens, chunk.usage.completion_tokens)
                    for choice in chunk.choices:
                        if choice.delta.content:
                            parts.append(choice.delta.content)
                            written += 1
                        finish = choice.finish_reason or finish
                    report_progress(
                        Progress(
                            read=usage.prompt_tokens or prompt_tokens,
                            written=usage.completion_tokens or written,
                            seconds=now - started,
                            budget=end - started,
                        )
                    )
        return Generation(
            text="".join(parts),
            model=answered_by,
            provider=self.name,
            usage=usage,
            seconds=time.monotonic() - started,
            finish_reason=finish,
        )

    def verify_model(self) -> None:
        """Raise `ProviderModelError` unless the server lists ``model`` among its models."""
        check_model_request(self.name, self.base_url)
        with self._sdk_errors(self.timeout):
            listed = [m.id for m in self.client.models.list(timeout=self.timeout)]
        if self.model not in listed:
            raise ProviderModelError(
                f"the server at {self.base_url} has no model {self.model!r}; it lists: "
                + (", ".join(sorted(listed)[:20]) or "nothing"),
                provider=self.name,
                model=self.model,
            )

    def _generation(self, completion: ChatCompletion) -> Generation:
        if not completion.choices:
            raise ProviderError(
                "the server returned no choices", provider=self.name, model=self.model
            )
        choice = completion.choices[0]
        usage = completion.usage
        return Generation(
            text=choice.message.content or "",
            model=completion.model or self.model,
            provider=self.name,
            usage=Usage(usage.prompt_tokens, usage.completion_tokens) if usage else Usage(),
            finish_reason=choice.finish_reason,
        )


def _setting(value: str | None, env: environment.Variable, field: str, provider: str) -> str:
    value = value or env.get()
    if value is None:
        raise ProviderConfigError(f"no {field}: pass {field}= or set {env.name}", provider=provider)
    return value


def _wire_message(message: ChatMessage) -> ChatCompletionMessageParam:
    if message.role == "system":
        return {"role": "system", "content": message.content}
    if message.role == "assistant":
        return {"role": "assistant", "content": message.content}
    return {"role": "user", "content": message.content}
