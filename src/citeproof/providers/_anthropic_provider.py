"""Claude through the anthropic SDK.

Settings come from the arguments, else the environment: ``ANTHROPIC_API_KEY``,
``ANTHROPIC_BASE_URL`` (optional) and ``CITEPROOF_MODEL``. The SDK's own retries are off;
citeproof's `RetryPolicy` applies, within the caller's deadline.
"""

from __future__ import annotations

from collections.abc import Sequence

import anthropic
from anthropic.types import Message as AnthropicMessage
from anthropic.types import MessageParam

from citeproof import environment
from citeproof.errors import ProviderConfigError
from citeproof.providers._base import ChatMessage, Generation, Message, Usage
from citeproof.providers._openai_compat import DEFAULT_TIMEOUT
from citeproof.providers._retry import DEFAULT_RETRY, RetryPolicy
from citeproof.providers._sdk import SdkErrorTypes, SdkProvider


class AnthropicProvider(SdkProvider):
    """Claude's Messages API. System messages are joined into Claude's ``system`` field.

    ``temperature`` is accepted for the `Provider` protocol but not sent: the anthropic SDK
    this was built on (2.x) has no such parameter.
    """

    name = "anthropic"
    errors = SdkErrorTypes(
        anthropic.AnthropicError,
        anthropic.APITimeoutError,
        anthropic.APIConnectionError,
        anthropic.APIStatusError,
    )

    def __init__(
        self,
        model: str | None = None,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        retry: RetryPolicy = DEFAULT_RETRY,
        client: anthropic.Anthropic | None = None,
    ) -> None:
        model = model or environment.MODEL.get()
        if model is None:
            raise ProviderConfigError(
                "no model: pass model= or set CITEPROOF_MODEL", provider=self.name
            )
        self.model = model
        self.timeout = timeout
        self.retry = retry
        if client is None:
            api_key = api_key or environment.ANTHROPIC_API_KEY.get()
            if api_key is None:
                raise ProviderConfigError(
                    "no API key: pass api_key or set ANTHROPIC_API_KEY", provider=self.name
                )
            base_url = base_url or environment.ANTHROPIC_BASE_URL.get()
            client = anthropic.Anthropic(
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
    ) -> Generation:
        """Send ``messages`` to Claude; see `Provider.generate`."""
        self._check(messages, max_tokens, temperature)
        system = "\n\n".join(m.content for m in messages if m.role == "system")
        turns = [_turn(m) for m in messages if m.role != "system"]
        if not turns:
            turns = [_turn(Message("user", ""))]

        def call(timeout: float) -> Generation:
            if system:
                reply = self.client.messages.create(
                    model=self.model,
                    max_tokens=max_tokens,
                    messages=turns,
                    system=system,
                    timeout=timeout,
                )
            else:
                reply = self.client.messages.create(
                    model=self.model, max_tokens=max_tokens, messages=turns, timeout=timeout
                )
            return self._generation(reply)

        return self._send(call, deadline)

    def _generation(self, reply: AnthropicMessage) -> Generation:
        text = "".join(block.text for block in reply.content if block.type == "text")
        return Generation(
            text=text,
            model=reply.model or self.model,
            provider=self.name,
            usage=Usage(reply.usage.input_tokens, reply.usage.output_tokens),
            finish_reason=reply.stop_reason,
        )


def _turn(message: ChatMessage) -> MessageParam:
    if message.role == "assistant":
        return {"role": "assistant", "content": message.content}
    return {"role": "user", "content": message.content}
