"""The embedded model for real (issue 3, section 5): served by xllamacpp on loopback.

The OpenAI-compatible provider is tested against this real server, not a mock. The small
model (SmolLM2-135M) is started once for the whole module, and each generation is kept short;
the default model answers one real question in test_cli_turn.py.
"""

from __future__ import annotations

import http.server
import json
import threading
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from citeproof.errors import (
    ProviderConnectionError,
    ProviderModelError,
    ProviderRequestError,
    ProviderTimeout,
)
from citeproof.model import Source
from citeproof.providers import (
    EmbeddedModel,
    EmbeddedProvider,
    Message,
    Pace,
    Progress,
    RetryPolicy,
    deadline_after,
    forbid_model_requests,
    get_provider,
    progress_to,
    wants_quote_first,
)
from citeproof.providers._embedded import default_threads, model_file
from citeproof.providers._openai_compat import OpenAICompatProvider
from citeproof.providers._weights import SMOLLM2_135M
from citeproof.turn._evidence_first import evidence_grammar, evidence_lines
from tests.conftest import require_model
from tests.test_evidence_first import HOSTILE

pytestmark = pytest.mark.model
MODEL_NAME = SMOLLM2_135M.name

ASK = [Message("system", "You are brief."), Message("user", "Name one colour.")]


@pytest.fixture(scope="module")
def embedded() -> Iterator[EmbeddedModel]:
    require_model("small")
    with EmbeddedModel("small") as model:
        yield model


def test_the_model_ships_in_a_package_and_serves_on_loopback(embedded: EmbeddedModel) -> None:
    assert model_file(SMOLLM2_135M).suffix == ".gguf"
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
    require_model("small")
    model = EmbeddedModel("small").start()
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
    require_model("small")
    provider = get_provider(model="small")
    assert isinstance(provider, EmbeddedProvider) and provider.quote_first
    assert provider.generate(ASK, max_tokens=4).text
    assert isinstance(get_provider(), EmbeddedProvider)  # the default model, not started


def test_the_server_compiles_the_grammar_of_hostile_source_text_D_F_5(
    embedded: EmbeddedModel,
) -> None:
    source = Source(id="doc-1", kind="document", text=HOSTILE)
    lines = evidence_lines([source])
    ask = [Message("user", "Quote the sources, evidence first.")]
    # Any llama.cpp-compatible server takes the grammar through the OpenAI-compatible provider.
    provider = OpenAICompatProvider(MODEL_NAME, base_url=embedded.base_url, quote_first=True)
    assert wants_quote_first(provider)
    generation = provider.generate(ask, max_tokens=80, grammar=evidence_grammar(lines))
    # Whatever the small model picks, the grammar held: the no-answer form, or evidence
    # lines, each (the last perhaps cut by the token limit) the start of a source sentence.
    text = generation.text
    assert text.startswith("Evidence:")
    if not text.startswith("Evidence: none"):
        written = [line.written or "" for line in lines]
        for item in text.split("\n")[1:]:
            if item.startswith("- "):
                assert any(w.startswith(item[2:]) for w in written), item


def test_a_grammar_that_does_not_compile_is_refused_by_the_server_D(
    embedded: EmbeddedModel,
) -> None:
    # So the test above shows something: the server does check what it is given.
    with pytest.raises(ProviderRequestError, match="grammar"):
        EmbeddedProvider(embedded).generate(ASK, max_tokens=4, grammar='root ::= "open')


def test_the_embedded_model_streams_its_progress_within_a_budget_scaled_to_the_work(
    embedded: EmbeddedModel,
) -> None:
    provider = EmbeddedProvider(embedded)
    seen: list[Progress] = []
    story = [Message("user", "Write a long story about a lighthouse keeper.")]
    with progress_to(seen.append):
        generation = provider.generate(story, max_tokens=24)
    assert generation.usage.completion_tokens and len(seen) >= generation.usage.completion_tokens
    written = [p.written for p in seen]
    assert written == sorted(written) and written[-1] == generation.usage.completion_tokens
    assert seen[-1].read == generation.usage.prompt_tokens
    # The budget is the time for this prompt and 24 tokens at the slowest pace, no constant.
    assert seen[0].budget > Pace().total_seconds(0, 24) > Pace().total_seconds(0, 4)


class _Stalling(http.server.BaseHTTPRequestHandler):
    """An OpenAI-compatible server whose model writes one token and then stops."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        chunk = {
            "id": "c1",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": "stalling",
            "choices": [{"index": 0, "delta": {"content": "Once"}, "finish_reason": None}],
        }
        self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
        self.wfile.flush()
        time.sleep(5)

    def log_message(self, *args: object) -> None:
        pass


def test_a_model_that_stops_writing_fails_at_its_pace_not_a_fixed_timeout() -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Stalling)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        provider = OpenAICompatProvider(
            "stalling",
            base_url=f"http://127.0.0.1:{server.server_address[1]}/v1",
            pace=Pace(start_seconds=0.5, read_floor=1e6, write_floor=1e6),
        )
        seen: list[Progress] = []
        with progress_to(seen.append), pytest.raises(ProviderTimeout, match=r"within 0\.5"):
            provider.generate(ASK, max_tokens=8)
        assert [p.written for p in seen] == [1]  # it wrote, then stalled
    finally:
        server.shutdown()
