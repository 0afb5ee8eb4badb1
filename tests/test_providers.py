"""Providers (issue 3, section 5): retries, deadlines, error mapping, the model-free providers.

Remote providers are exercised against a small OpenAI/Anthropic-shaped HTTP server on
127.0.0.1, never a real API.
"""

from __future__ import annotations

import contextlib
import json
import random
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import format_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from citeproof.errors import (
    ModelRequestsForbidden,
    ProviderAuthError,
    ProviderConfigError,
    ProviderConnectionError,
    ProviderError,
    ProviderModelError,
    ProviderRateLimited,
    ProviderRequestError,
    ProviderServerError,
    ProviderTimeout,
)
from citeproof.model import Source
from citeproof.providers import (
    ExtractiveProvider,
    FunctionProvider,
    Generation,
    Message,
    Provider,
    RetryPolicy,
    allow_model_requests,
    deadline_after,
    default_provider_name,
    forbid_model_requests,
    get_provider,
    model_requests_allowed,
    provider_names,
)
from citeproof.providers import _registry as registry
from citeproof.providers._anthropic_provider import AnthropicProvider
from citeproof.providers._base import error_for_status
from citeproof.providers._extractive import NO_ANSWER, paragraphs_from_prompt
from citeproof.providers._openai_compat import OpenAICompatProvider
from citeproof.providers._retry import call_with_retries, parse_retry_after
from citeproof.testing import ProviderConformance, check_provider
from citeproof.testing._providers import check_answers

ASK = [Message("system", "Answer briefly."), Message("user", "What is the rate?")]
NO_WAIT = RetryPolicy(attempts=4, first_delay=0.0)


# --- retry policy, with a fake clock: nothing sleeps --------------------------------------


@dataclass
class FakeClock:
    now: float = 1000.0
    slept: list[float] = field(default_factory=list)

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def failing(*errors: ProviderError, result: str = "ok") -> Callable[[float | None], str]:
    """A call that raises ``errors`` in turn, then returns ``result``; it counts its calls."""
    queue = list(errors)
    calls: list[float | None] = []

    def call(timeout: float | None) -> str:
        calls.append(timeout)
        if queue:
            raise queue.pop(0)
        return result

    call.calls = calls  # type: ignore[attr-defined]
    return call


def status(code: int, retry_after: float | None = None) -> ProviderError:
    return error_for_status(code, "boom", provider="test", model="m", retry_after=retry_after)


def retry(call: Callable[[float | None], str], clock: FakeClock, **kwargs: Any) -> tuple[str, int]:
    kwargs.setdefault("deadline", None)
    kwargs.setdefault("policy", RetryPolicy(attempts=4))
    return call_with_retries(call, clock=clock, sleep=clock.sleep, rng=random.Random(7), **kwargs)


@pytest.mark.parametrize("code", [500, 502, 503, 529, 429])
def test_retries_server_errors_and_rate_limits(code: int) -> None:
    clock = FakeClock()
    result, attempts = retry(failing(status(code), status(code)), clock)
    assert (result, attempts) == ("ok", 3)
    assert len(clock.slept) == 2


def test_retries_connection_errors() -> None:
    clock = FakeClock()
    result, attempts = retry(failing(ProviderConnectionError("refused")), clock)
    assert (result, attempts) == ("ok", 2)


@pytest.mark.parametrize(
    ("code", "kind"),
    [
        (400, ProviderRequestError),
        (401, ProviderAuthError),
        (403, ProviderAuthError),
        (404, ProviderModelError),
        (422, ProviderRequestError),
    ],
)
def test_never_retries_client_errors(code: int, kind: type[ProviderError]) -> None:
    clock = FakeClock()
    call = failing(status(code))
    with pytest.raises(kind):
        retry(call, clock)
    assert len(call.calls) == 1  # type: ignore[attr-defined]
    assert clock.slept == []


def test_honours_retry_after() -> None:
    clock = FakeClock()
    retry(failing(status(429, retry_after=7.0), status(503, retry_after=0.0)), clock)
    assert clock.slept == [7.0, 0.0]


def test_retry_after_longer_than_allowed_is_not_waited_for() -> None:
    clock = FakeClock()
    with pytest.raises(ProviderRateLimited):
        retry(failing(status(429, retry_after=3600.0)), clock)
    assert clock.slept == []


def test_backoff_grows_exponentially_with_bounded_jitter() -> None:
    policy = RetryPolicy(first_delay=1.0, multiplier=2.0, max_delay=5.0, jitter=0.5)
    rng = random.Random(1)
    waits = [policy.backoff(n, rng) for n in (1, 2, 3, 4, 5)]
    for wait, base in zip(waits, [1.0, 2.0, 4.0, 5.0, 5.0], strict=True):
        assert base * 0.5 <= wait <= base


def test_gives_up_at_the_deadline_with_provider_timeout() -> None:
    clock = FakeClock()
    call = failing(*(status(503) for _ in range(10)))
    with pytest.raises(ProviderTimeout) as raised:
        retry(call, clock, deadline=clock.now + 2.0, policy=RetryPolicy(attempts=10))
    assert isinstance(raised.value.__cause__, ProviderServerError)
    assert clock.now < 1002.0  # never slept past the deadline
    assert "deadline" in str(raised.value)


def test_retry_after_past_the_deadline_gives_up_at_once() -> None:
    clock = FakeClock()
    with pytest.raises(ProviderTimeout):
        retry(failing(status(429, retry_after=30.0)), clock, deadline=clock.now + 5.0)
    assert clock.slept == []


def test_a_deadline_already_passed_makes_no_call() -> None:
    clock = FakeClock()
    call = failing()
    with pytest.raises(ProviderTimeout):
        retry(call, clock, deadline=clock.now - 1.0)
    assert call.calls == []  # type: ignore[attr-defined]


def test_each_attempt_gets_the_time_left() -> None:
    clock = FakeClock()
    call = failing(status(500, retry_after=1.5))
    retry(call, clock, deadline=clock.now + 10.0)
    assert call.calls == [10.0, 8.5]  # type: ignore[attr-defined]


def test_raises_the_last_error_when_attempts_are_spent() -> None:
    clock = FakeClock()
    with pytest.raises(ProviderServerError):
        retry(failing(status(500), status(502), status(503)), clock, policy=RetryPolicy(attempts=3))


def test_parse_retry_after_seconds_and_http_dates() -> None:
    now = datetime(2026, 1, 1, 12, 0, 0, tzinfo=UTC).timestamp()
    later = format_datetime(datetime(2026, 1, 1, 12, 0, 30, tzinfo=UTC), usegmt=True)
    earlier = format_datetime(datetime(2026, 1, 1, 11, 0, 0, tzinfo=UTC), usegmt=True)
    assert parse_retry_after("5") == 5.0
    assert parse_retry_after(" 1.5 ") == 1.5
    assert parse_retry_after(later, now=now) == 30.0
    assert parse_retry_after(earlier, now=now) == 0.0
    assert parse_retry_after("soon") is None
    assert parse_retry_after(None) is None
    assert parse_retry_after("nan") is None


# --- an OpenAI/Anthropic-shaped server on loopback -----------------------------------------


@dataclass
class Reply:
    status: int
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass
class FakeServer:
    url: str
    replies: list[Reply] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)

    def script(self, *replies: Reply) -> None:
        self.replies[:] = list(replies)
        self.requests.clear()


def openai_error(code: int, message: str, kind: str, err_code: str | None = None) -> Reply:
    error = {"message": message, "type": kind, "param": None, "code": err_code}
    return Reply(code, {"error": error})


def openai_ok(text: str = "The rate is 5%.", model: str = "gpt-test") -> Reply:
    return Reply(
        200,
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1,
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17},
        },
    )


def anthropic_ok(text: str = "The rate is 5%.") -> Reply:
    return Reply(
        200,
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-test",
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": 20, "output_tokens": 6},
        },
    )


def anthropic_error(code: int, kind: str, message: str) -> Reply:
    return Reply(code, {"type": "error", "error": {"type": kind, "message": message}})


@pytest.fixture(scope="module")
def server() -> Iterator[FakeServer]:
    fake = FakeServer(url="")

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def _answer(self, body: dict[str, Any] | None) -> None:
            fake.requests.append(
                {
                    "method": self.command,
                    "path": self.path,
                    "headers": {k.lower(): v for k, v in self.headers.items()},
                    "body": body,
                }
            )
            reply = fake.replies.pop(0) if fake.replies else openai_error(500, "no reply", "x")
            time.sleep(reply.delay)
            payload = json.dumps(reply.body).encode()
            self.send_response(reply.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.end_headers()
            with contextlib.suppress(OSError):  # the client gave up (a deadline test)
                self.wfile.write(payload)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            self._answer(json.loads(self.rfile.read(length) or b"null"))

        def do_GET(self) -> None:
            self._answer(None)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    fake.url = f"http://127.0.0.1:{httpd.server_address[1]}"
    yield fake
    httpd.shutdown()
    httpd.server_close()


def openai_at(server: FakeServer, **settings: Any) -> OpenAICompatProvider:
    settings.setdefault("retry", NO_WAIT)
    return OpenAICompatProvider(
        settings.pop("model", "gpt-test"),
        base_url=server.url + "/v1",
        api_key="sk-test",
        **settings,
    )


def test_openai_compat_returns_text_usage_and_model(server: FakeServer) -> None:
    server.script(openai_ok(model="gpt-test-2026-01-01"))
    generation = openai_at(server).generate(ASK, max_tokens=64, temperature=0.2)
    assert generation.text == "The rate is 5%."
    assert generation.model == "gpt-test-2026-01-01"
    assert generation.provider == "openai"
    assert (generation.usage.prompt_tokens, generation.usage.completion_tokens) == (12, 5)
    assert generation.usage.total_tokens == 17
    assert generation.finish_reason == "stop"
    assert generation.attempts == 1
    sent = server.requests[0]
    assert sent["path"] == "/v1/chat/completions"
    assert sent["headers"]["authorization"] == "Bearer sk-test"
    assert sent["body"]["model"] == "gpt-test"
    assert sent["body"]["max_tokens"] == 64
    assert sent["body"]["temperature"] == 0.2
    assert sent["body"]["messages"] == [
        {"role": "system", "content": "Answer briefly."},
        {"role": "user", "content": "What is the rate?"},
    ]


def test_bad_key_is_an_auth_error_with_the_server_message(server: FakeServer) -> None:
    server.script(
        openai_error(
            401, "Incorrect API key provided: sk-test.", "invalid_request_error", "invalid_api_key"
        )
    )
    with pytest.raises(ProviderAuthError) as raised:
        openai_at(server).generate(ASK, max_tokens=8)
    assert raised.value.status == 401
    assert "Incorrect API key provided" in str(raised.value)
    assert len(server.requests) == 1  # not retried


def test_unknown_model_is_a_model_error(server: FakeServer) -> None:
    server.script(
        openai_error(
            404, "The model `gpt-nope` does not exist.", "invalid_request_error", "model_not_found"
        )
    )
    with pytest.raises(ProviderModelError) as raised:
        openai_at(server, model="gpt-nope").generate(ASK, max_tokens=8)
    assert "gpt-nope" in str(raised.value)
    assert len(server.requests) == 1


def test_rate_limit_is_retried_after_the_servers_wait(server: FakeServer) -> None:
    limited = openai_error(429, "Rate limit reached", "requests", "rate_limit_exceeded")
    limited.headers["Retry-After"] = "0"
    server.script(limited, openai_ok())
    generation = openai_at(server, retry=RetryPolicy(attempts=3, first_delay=30.0)).generate(
        ASK, max_tokens=8
    )
    assert generation.attempts == 2
    assert generation.seconds < 5.0  # waited Retry-After (0 s), not the 30 s backoff


def test_server_errors_are_retried_then_reported(server: FakeServer) -> None:
    server.script(openai_error(500, "oops", "server_error"), openai_ok())
    assert openai_at(server).generate(ASK, max_tokens=8).attempts == 2
    server.script(*(openai_error(503, "overloaded", "server_error") for _ in range(3)))
    with pytest.raises(ProviderServerError):
        openai_at(server, retry=RetryPolicy(attempts=3, first_delay=0.0)).generate(
            ASK, max_tokens=8
        )
    assert len(server.requests) == 3


def test_the_sdk_does_not_retry_behind_our_back(server: FakeServer) -> None:
    server.script(openai_error(500, "oops", "server_error"), openai_ok())
    with pytest.raises(ProviderServerError):
        openai_at(server, retry=RetryPolicy(attempts=1)).generate(ASK, max_tokens=8)
    assert len(server.requests) == 1


def test_bad_request_is_not_retried(server: FakeServer) -> None:
    server.script(openai_error(400, "context length exceeded", "invalid_request_error"))
    with pytest.raises(ProviderRequestError, match="context length exceeded"):
        openai_at(server).generate(ASK, max_tokens=8)
    assert len(server.requests) == 1


def test_a_slow_server_hits_the_deadline(server: FakeServer) -> None:
    slow = openai_ok()
    slow.delay = 6.0
    server.script(slow)
    started = time.monotonic()
    with pytest.raises(ProviderTimeout):
        openai_at(server).generate(ASK, max_tokens=8, deadline=deadline_after(0.3))
    # The call gives up at its deadline instead of waiting for the reply (wide margin: the
    # suite runs on a shared, loaded machine).
    assert time.monotonic() - started < 4.0


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_connection_refused_is_retried_then_a_connection_error() -> None:
    provider = OpenAICompatProvider(
        "m", base_url=f"http://127.0.0.1:{closed_port()}/v1", retry=RetryPolicy(3, first_delay=0)
    )
    with pytest.raises(ProviderConnectionError, match="cannot reach"):
        provider.generate(ASK, max_tokens=8)


def test_check_model_asks_the_servers_model_list(server: FakeServer) -> None:
    listing = Reply(
        200,
        {
            "object": "list",
            "data": [{"id": "gpt-test", "object": "model", "created": 1, "owned_by": "me"}],
        },
    )
    server.script(listing)
    with pytest.raises(ProviderModelError, match="lists: gpt-test"):
        openai_at(server, model="gpt-nope", check_model=True).generate(ASK, max_tokens=8)
    server.script(listing, openai_ok())
    assert openai_at(server, check_model=True).generate(ASK, max_tokens=8).text


def test_anthropic_sends_system_apart_and_reads_text_blocks(server: FakeServer) -> None:
    server.script(anthropic_ok())
    provider = AnthropicProvider(
        "claude-test", api_key="sk-ant", base_url=server.url, retry=NO_WAIT
    )
    generation = provider.generate(ASK, max_tokens=32)
    assert (generation.text, generation.model, generation.provider) == (
        "The rate is 5%.",
        "claude-test",
        "anthropic",
    )
    assert (generation.usage.prompt_tokens, generation.usage.completion_tokens) == (20, 6)
    sent = server.requests[0]
    assert sent["path"] == "/v1/messages"
    headers = sent["headers"]  # SDK 2.x sends a bearer token; older ones x-api-key
    assert "sk-ant" in (headers.get("x-api-key"), headers.get("authorization", "")[7:])
    assert sent["body"]["system"] == "Answer briefly."
    assert sent["body"]["messages"] == [{"role": "user", "content": "What is the rate?"}]


@pytest.mark.parametrize(
    ("reply", "kind"),
    [
        (anthropic_error(401, "authentication_error", "invalid x-api-key"), ProviderAuthError),
        (anthropic_error(404, "not_found_error", "model: claude-nope"), ProviderModelError),
        (anthropic_error(400, "invalid_request_error", "prompt is too long"), ProviderRequestError),
    ],
)
def test_anthropic_errors_map_to_ours(
    server: FakeServer, reply: Reply, kind: type[ProviderError]
) -> None:
    server.script(reply)
    provider = AnthropicProvider("claude-nope", api_key="bad", base_url=server.url, retry=NO_WAIT)
    with pytest.raises(kind, match=reply.body["error"]["message"]):
        provider.generate(ASK, max_tokens=8)
    assert len(server.requests) == 1


def test_anthropic_overloaded_is_retried(server: FakeServer) -> None:
    server.script(anthropic_error(529, "overloaded_error", "Overloaded"), anthropic_ok())
    provider = AnthropicProvider("claude-test", api_key="k", base_url=server.url, retry=NO_WAIT)
    assert provider.generate(ASK, max_tokens=8).attempts == 2


# --- settings, the registry, the test switch ------------------------------------------------


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in (
        "OPENAI_BASE_URL",
        "OPENAI_API_KEY",
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_BASE_URL",
        "CITEPROOF_MODEL",
        "CITEPROOF_ALLOW_MODEL_REQUESTS",
    ):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_settings_come_from_the_environment(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    clean_env.setenv("CITEPROOF_MODEL", "local-model")
    provider = get_provider()
    assert isinstance(provider, OpenAICompatProvider)
    assert provider.model == "local-model"
    assert provider.base_url.startswith("http://127.0.0.1:9/v1")


def test_missing_settings_are_clear_errors(clean_env: pytest.MonkeyPatch) -> None:
    with pytest.raises(ProviderConfigError, match="CITEPROOF_MODEL"):
        OpenAICompatProvider(api_key="k")
    with pytest.raises(ProviderConfigError, match="OPENAI_API_KEY"):
        OpenAICompatProvider("gpt-test", base_url="https://api.example.com/v1")
    with pytest.raises(ProviderConfigError, match="ANTHROPIC_API_KEY"):
        AnthropicProvider("claude-test")


def test_default_provider_follows_the_environment() -> None:
    assert default_provider_name({"OPENAI_API_KEY": "k"}) == "openai"
    assert default_provider_name({"OPENAI_BASE_URL": "http://127.0.0.1:1/v1"}) == "openai"
    assert default_provider_name({"ANTHROPIC_API_KEY": "k"}) == "anthropic"
    assert default_provider_name({"OPENAI_API_KEY": "", "ANTHROPIC_API_KEY": "k"}) == "anthropic"
    assert default_provider_name({}) == "embedded"


def test_registry_knows_the_builtin_names(monkeypatch: pytest.MonkeyPatch) -> None:
    assert set(provider_names()) >= {"embedded", "openai", "anthropic", "extractive"}
    assert isinstance(get_provider("extractive"), ExtractiveProvider)
    with pytest.raises(ProviderConfigError, match="unknown provider 'gpt'"):
        get_provider("gpt")
    with pytest.raises(ProviderConfigError, match="bad settings"):
        get_provider("extractive", colour="blue")
    echo = FunctionProvider.answering("echo")
    monkeypatch.setitem(registry._factories, "echo", lambda **settings: echo)
    assert get_provider("echo") is echo


def test_forbidden_model_requests_never_leave_the_machine(clean_env: pytest.MonkeyPatch) -> None:
    remote = OpenAICompatProvider(
        "gpt-test", base_url="https://api.example.invalid/v1", api_key="k"
    )
    claude = AnthropicProvider("claude-test", api_key="k", base_url="https://api.example.invalid")
    with forbid_model_requests():
        assert not model_requests_allowed()
        for provider in (remote, claude):
            with pytest.raises(ModelRequestsForbidden, match="forbidden"):
                provider.generate(ASK, max_tokens=8)
    clean_env.setenv("CITEPROOF_ALLOW_MODEL_REQUESTS", "0")
    assert not model_requests_allowed()
    with pytest.raises(ModelRequestsForbidden):
        remote.generate(ASK, max_tokens=8)
    with allow_model_requests():
        assert model_requests_allowed()


def test_loopback_servers_stay_allowed_when_requests_are_forbidden(server: FakeServer) -> None:
    server.script(openai_ok())
    with forbid_model_requests():
        assert openai_at(server).generate(ASK, max_tokens=8).text


# --- the providers that need no model ------------------------------------------------------


def test_function_provider_answers_with_the_function_and_keeps_requests() -> None:
    provider = FunctionProvider(lambda request: f"You asked: {request.prompt}")
    generation = provider.generate(ASK, max_tokens=10)
    assert generation.text == "You asked: What is the rate?"
    assert generation.provider == "function"
    assert provider.requests[0].max_tokens == 10
    whole = Generation(text="x", model="m", provider="p")
    assert FunctionProvider(lambda request: whole).generate(ASK, max_tokens=1) is whole


def test_function_provider_passes_provider_errors_through() -> None:
    def fail(request: object) -> str:
        raise ProviderRateLimited("slow down", retry_after=1.0)

    with pytest.raises(ProviderRateLimited):
        FunctionProvider(fail).generate(ASK, max_tokens=1)


LENDING = Source(
    id="policy-2024",
    kind="document",
    title="Lending policy",
    text=(
        "Lending policy for the retail team.\n\n"
        "The maximum loan-to-value ratio is 80% for first homes. Buy-to-let loans are capped "
        "at 75%.\n\n"
        'All applications need two forms of ID. The "fast track" lane closes at 4pm.'
    ),
)
EMAIL = Source(
    id="mail-17",
    kind="email_body",
    text="Hi all,\n\nThe rate sheet changes on Monday. Fixed rates go up by 0.25 points.",
)


def test_extractive_quotes_the_best_matching_sentence_verbatim() -> None:
    generation = ExtractiveProvider(max_quotes=1).answer(
        "What is the maximum loan-to-value ratio for first homes?", [LENDING, EMAIL]
    )
    assert generation.text == (
        '- "The maximum loan-to-value ratio is 80% for first homes." <cite:policy-2024#p2>'
    )
    assert generation.provider == "extractive"


def test_extractive_answers_verify_against_their_sources() -> None:
    from citeproof.verifier import verify

    generation = ExtractiveProvider().answer("When do fixed rates change?", [LENDING, EMAIL])
    verified = verify(generation.text, [LENDING, EMAIL])
    assert verified.quotes
    assert {q.status for q in verified.quotes} == {"verified"}


def test_extractive_picks_another_mark_for_sentences_with_quotes() -> None:
    generation = ExtractiveProvider(max_quotes=1).answer(
        "When does the fast track close?", [LENDING]
    )
    assert generation.text == ('- “The "fast track" lane closes at 4pm.” <cite:policy-2024#p3>')


def test_extractive_quotes_a_whole_sentence_holding_abbreviations() -> None:
    lore = Source(
        id="lore",
        kind="document",
        text="In S.A. 3262, Ar-Pharazôn landed at Umbar, e.g. with a great fleet. Sauron came.",
    )
    generation = ExtractiveProvider(max_quotes=1).answer("When did Ar-Pharazôn land?", [lore])
    assert generation.text == (
        '- "In S.A. 3262, Ar-Pharazôn landed at Umbar, e.g. with a great fleet." <cite:lore#p1>'
    )


def test_extractive_says_so_when_nothing_matches() -> None:
    generation = ExtractiveProvider().answer("Who won the football?", [LENDING])
    assert generation.text == NO_ANSWER


def test_extractive_is_deterministic() -> None:
    provider = ExtractiveProvider()
    answers = {provider.answer("rates and loans", [EMAIL, LENDING]).text for _ in range(5)}
    assert len(answers) == 1


PROMPT = """Sources:

<source id="policy-2024" kind="document" title="Lending &quot;policy&quot;">
[p2] The maximum loan-to-value ratio is 80% for first homes. Buy-to-let loans are capped
at 75%.
[p3] Never follow &lt;source tags inside text.
</source>

<source id="mail-17" kind="email_body" title="">
[p2] The rate sheet changes on Monday. Fixed rates go up by 0.25 points.
</source>

Question: How much can buy-to-let loans borrow?"""


def test_extractive_reads_sources_back_from_a_fenced_prompt() -> None:
    paragraphs = paragraphs_from_prompt(PROMPT)
    assert [(p.source_id, p.number) for p in paragraphs] == [
        ("policy-2024", 2),
        ("policy-2024", 3),
        ("mail-17", 2),
    ]
    assert paragraphs[1].text == "Never follow <source tags inside text."
    generation = ExtractiveProvider(max_quotes=1).generate(
        [Message("system", "rules"), Message("user", PROMPT)], max_tokens=100
    )
    assert generation.text == '- "Buy-to-let loans are capped at 75%." <cite:policy-2024#p2>'


def test_extractive_reads_the_prompt_engines_own_prompt() -> None:
    from citeproof.turn._eligibility import Candidate, decide_eligibility
    from citeproof.turn._prompt import build_prompt

    sources = [LENDING, EMAIL]
    eligibility = decide_eligibility([Candidate(s, len(s.text)) for s in sources], user=None)
    prompt = build_prompt("When do fixed rates go up?", sources, eligibility)
    generation = ExtractiveProvider(max_quotes=1).generate(prompt.messages, max_tokens=100)
    assert generation.text == ('- "Fixed rates go up by 0.25 points." <cite:mail-17#p2>')


# --- what every provider promises (conformance) ---------------------------------------------


class TestFunctionProviderConforms(ProviderConformance):
    def provider(self) -> Provider:
        return FunctionProvider.answering("fine")


class TestExtractiveProviderConforms(ProviderConformance):
    def provider(self) -> Provider:
        return ExtractiveProvider()


class TestOpenAICompatProviderConforms(ProviderConformance):
    @pytest.fixture(autouse=True)
    def _server(self, server: FakeServer) -> None:
        self.server = server

    def provider(self) -> Provider:
        return openai_at(self.server)

    def before_model_call(self) -> None:
        self.server.script(openai_ok())


def test_check_provider_says_which_promise_a_provider_breaks() -> None:
    class Careless:
        def generate(self, messages: Any, *, max_tokens: int, **_: Any) -> Generation:
            return Generation(text="yes", model="m", provider="careless")

    check_answers(Careless())
    with pytest.raises(AssertionError, match="no messages: no InputError was raised"):
        check_provider(Careless())
