"""The embedded model for real (issue 3, section 5): SmolLM2 served by xllamacpp on loopback.

The OpenAI-compatible provider is tested against this real server, not a mock. One model
is started for the whole module; each generation is kept short.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from citeproof.errors import (
    ProviderConnectionError,
    ProviderModelError,
    ProviderRequestError,
    ProviderTimeout,
)
from citeproof.providers import (
    Message,
    RetryPolicy,
    deadline_after,
    forbid_model_requests,
    get_provider,
)
from citeproof.providers.embedded import (
    MODEL_NAME,
    EmbeddedModel,
    EmbeddedProvider,
    default_threads,
    model_file,
)
from citeproof.providers.openai_compat import OpenAICompatProvider

pytestmark = pytest.mark.model

ASK = [Message("system", "You are brief."), Message("user", "Name one colour.")]


@pytest.fixture(scope="module")
def embedded() -> Iterator[EmbeddedModel]:
    with EmbeddedModel() as model:
        yield model


def test_the_model_ships_in_a_package_and_serves_on_loopback(embedded: EmbeddedModel) -> None:
    assert model_file().suffix == ".gguf"
    assert embedded.running
    assert urlsplit(embedded.base_url).hostname == "127.0.0.1"
    assert embedded.threads == default_threads() >= 1
    assert embedded.startup_seconds is not None and embedded.startup_seconds < 30


def test_embedded_provider_generates_text_and_reports_usage(embedded: EmbeddedModel) -> None:
    generation = EmbeddedProvider(embedded).generate(ASK, max_tokens=16)
    assert generation.text.strip()
    assert generation.provider == "embedded"
    assert generation.model == MODEL_NAME
    assert generation.usage.prompt_tokens and generation.usage.prompt_tokens > 0
    assert generation.usage.completion_tokens and 0 < generation.usage.completion_tokens <= 16


def test_greedy_generation_is_repeatable(embedded: EmbeddedModel) -> None:
    provider = EmbeddedProvider(embedded)
    first = provider.generate(ASK, max_tokens=12, temperature=0.0)
    second = provider.generate(ASK, max_tokens=12, temperature=0.0)
    assert first.text == second.text


def test_openai_compat_provider_talks_to_the_real_server(embedded: EmbeddedModel) -> None:
    provider = OpenAICompatProvider(MODEL_NAME, base_url=embedded.base_url, check_model=True)
    with forbid_model_requests():  # loopback is not a remote call
        generation = provider.generate(ASK, max_tokens=8)
    assert generation.text.strip()
    assert generation.provider == "openai"
    assert generation.usage.completion_tokens and generation.usage.completion_tokens <= 8


def test_a_wrong_model_name_is_reported(embedded: EmbeddedModel) -> None:
    # llama.cpp answers any model name with the model it has, so the provider checks the
    # server's model list first.
    provider = OpenAICompatProvider("gpt-4o", base_url=embedded.base_url, check_model=True)
    with pytest.raises(ProviderModelError, match=f"has no model 'gpt-4o'.*{MODEL_NAME}"):
        provider.generate(ASK, max_tokens=4)


def test_a_prompt_beyond_the_context_is_a_clear_request_error(embedded: EmbeddedModel) -> None:
    provider = EmbeddedProvider(embedded)
    huge = [Message("user", "word " * (embedded.context_tokens + 200))]
    with pytest.raises(ProviderRequestError, match="context"):
        provider.generate(huge, max_tokens=4)


def test_a_deadline_too_short_raises_provider_timeout(embedded: EmbeddedModel) -> None:
    provider = EmbeddedProvider(embedded)
    story = [Message("user", "Write a long story about a lighthouse keeper.")]
    with pytest.raises(ProviderTimeout):
        provider.generate(story, max_tokens=400, deadline=deadline_after(0.05))
    assert provider.generate(ASK, max_tokens=4).text  # the server still answers


def test_a_stopped_model_refuses_connections() -> None:
    model = EmbeddedModel().start()
    provider = OpenAICompatProvider(
        MODEL_NAME, base_url=model.base_url, retry=RetryPolicy(attempts=1)
    )
    model.stop()
    assert not model.running
    with pytest.raises(ProviderConnectionError):
        provider.generate(ASK, max_tokens=4)


def test_the_registry_default_is_the_shared_embedded_model(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    provider = get_provider()
    assert isinstance(provider, EmbeddedProvider)
    assert provider.generate(ASK, max_tokens=4).text
