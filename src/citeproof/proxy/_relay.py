"""What a vendor's stream holds, read event by event: the answer's text as it grows, where
the stream ends, and how citeproof's own events are written in it.

- OpenAI Chat Completions: ``data:`` chunks, ``choices[0].delta.content``, ended by
  ``data: [DONE]``. The OpenAI SDK reads every event of this stream as a chunk whatever its
  type, so citeproof's events are chunks too, with ``choices: []`` (the shape of the usage
  chunk every client already skips) and the verdict in a ``citeproof`` member.
- OpenAI Responses: typed events (``response.output_text.delta``), ended by
  ``response.completed`` (or ``.incomplete``, ``.failed``), whose ``response`` is the whole
  response. citeproof's events are typed ``citeproof.verdict`` and ``citeproof.record``.
- Anthropic Messages: ``content_block_start``, ``content_block_delta`` (``text_delta``,
  ``citations_delta``), ``content_block_stop``, ended by ``message_stop``; unknown event
  types are ignored by the SDK. A text block with native citations is fed whole at its end,
  converted by the Anthropic adapter (its cited text as an inline quote, its marker), since
  its citations come before its text.

The final record is written just before the stream's last event, so a client that stops
reading there has it.

A relay keeps the answer's text (and an Anthropic block's citations) for `Relay.response`;
`Relay.kept` is about how many bytes that holds, which the stream counts against the proxy's
buffer budget, and once verification has stopped `Relay.forget` lets it all go: the stream
is still read to its end (the ids, the end), but nothing more of its text is kept.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Callable
from typing import Any, Protocol

from citeproof.proxy._apis import VendorApi
from citeproof.proxy._sse import Event, write_event


class Relay(Protocol):
    def take(self, event: Event) -> str | None:
        """The answer text this event adds (None: none)."""

    def is_end(self, event: Event) -> bool:
        """Whether this is the stream's last event (the record goes before it)."""

    def response(self) -> dict[str, Any]:
        """The whole response as its non-streamed form, for the vendor's adapter."""

    def answer_id(self) -> str | None:
        """The vendor's id of the response, once seen."""

    def with_text(self, event: Event, text: str) -> bytes | None:
        """``event``, a delta of the answer's text, with ``text`` as its text instead (None:
        the event is not such a delta)."""

    def ours(self, payload: dict[str, Any]) -> bytes:
        """citeproof's event (a verdict, the record) in this stream."""

    def error(self, message: str) -> bytes:
        """An error event in this vendor's shape (the SDK raises it)."""

    @property
    def kept(self) -> int:
        """About how many bytes of the answer this relay holds."""

    def forget(self) -> None:
        """Let go of the answer's text and keep no more (verification has stopped)."""


def relay_for(api: VendorApi, convert_block: Callable[[dict[str, Any]], str]) -> Relay:
    """The relay for ``api``; ``convert_block`` turns an Anthropic text block with citations
    into the answer text to verify."""
    if api.name == "chat.completions":
        return ChatRelay()
    if api.name == "responses":
        return ResponsesRelay()
    return MessagesRelay(convert_block)


class _Keeping:
    """What each relay keeps of the answer, counted, until it is told to forget it."""

    def __init__(self) -> None:
        self._text: list[str] = []
        self._kept = 0
        self._forgotten = False

    @property
    def kept(self) -> int:
        return self._kept

    def forget(self) -> None:
        self._text = []
        self._kept = 0
        self._forgotten = True

    def _keep(self, text: str) -> None:
        if not self._forgotten:
            self._text.append(text)
            self._kept += sys.getsizeof(text)


class ChatRelay(_Keeping):
    def __init__(self) -> None:
        super().__init__()
        self._head: dict[str, Any] = {}
        self._finish: object = None

    def take(self, event: Event) -> str | None:
        chunk = event.json()
        if not isinstance(chunk, dict):
            return None
        if not self._head:
            self._head = {key: chunk.get(key) for key in ("id", "created", "model")}
        choices = chunk.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            return None
        self._finish = choices[0].get("finish_reason") or self._finish
        delta = choices[0].get("delta")
        text = delta.get("content") if isinstance(delta, dict) else None
        if isinstance(text, str) and text:
            self._keep(text)
            return text
        return None

    def is_end(self, event: Event) -> bool:
        return event.data.strip() == "[DONE]"

    def with_text(self, event: Event, text: str) -> bytes | None:
        chunk = event.json()
        choices = chunk.get("choices") if isinstance(chunk, dict) else None
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            return None
        delta = choices[0].get("delta")
        if not isinstance(delta, dict) or not isinstance(delta.get("content"), str):
            return None
        first = {**choices[0], "delta": {**delta, "content": text}}
        return write_event(event.name, {**chunk, "choices": [first, *choices[1:]]})

    def response(self) -> dict[str, Any]:
        return {
            **self._head,
            "object": "chat.completion",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": "".join(self._text)},
                    "finish_reason": self._finish,
                }
            ],
        }

    def answer_id(self) -> str | None:
        value = self._head.get("id")
        return value if isinstance(value, str) and value else None

    def ours(self, payload: dict[str, Any]) -> bytes:
        chunk = {
            **self._head,
            "object": "chat.completion.chunk",
            "choices": [],
            "citeproof": payload,
        }
        return write_event(payload["type"], chunk)

    def error(self, message: str) -> bytes:
        body = {"message": message, "type": "citeproof_blocked", "param": None, "code": "blocked"}
        return write_event(None, {"error": body})


_RESPONSES_END = ("response.completed", "response.incomplete", "response.failed")


class ResponsesRelay(_Keeping):
    def __init__(self) -> None:
        super().__init__()
        self._final: dict[str, Any] | None = None
        self._id: str | None = None
        self._sequence = 0

    def take(self, event: Event) -> str | None:
        data = event.json()
        if not isinstance(data, dict):
            return None
        if isinstance(data.get("sequence_number"), int):
            self._sequence = data["sequence_number"]
        response = data.get("response")
        if isinstance(response, dict) and isinstance(response.get("id"), str):
            self._id = response["id"]
        if data.get("type") == "response.output_text.delta" and isinstance(data.get("delta"), str):
            self._keep(data["delta"])
            return str(data["delta"])
        return None

    def is_end(self, event: Event) -> bool:
        data = event.json()
        if isinstance(data, dict) and data.get("type") in _RESPONSES_END:
            if isinstance(data.get("response"), dict):
                self._final = data["response"]
            return True
        return False

    def with_text(self, event: Event, text: str) -> bytes | None:
        data = event.json()
        if not isinstance(data, dict) or data.get("type") != "response.output_text.delta":
            return None
        if not isinstance(data.get("delta"), str):
            return None
        return write_event(event.name, {**data, "delta": text})

    def response(self) -> dict[str, Any]:
        if self._final is not None:
            return self._final
        part = {"type": "output_text", "text": "".join(self._text), "annotations": []}
        return {"id": self._id, "output": [{"type": "message", "content": [part]}]}

    def answer_id(self) -> str | None:
        return self._id

    def ours(self, payload: dict[str, Any]) -> bytes:
        return write_event(payload["type"], {**payload, "sequence_number": self._sequence})

    def error(self, message: str) -> bytes:
        body = {"type": "error", "code": "citeproof_blocked", "message": message, "param": None}
        return write_event("error", {**body, "sequence_number": self._sequence + 1})


class MessagesRelay(_Keeping):
    def __init__(self, convert_block: Callable[[dict[str, Any]], str]) -> None:
        super().__init__()
        self._convert_block = convert_block
        self._message: dict[str, Any] = {}
        self._blocks: dict[int, dict[str, Any]] = {}
        self._texts: dict[int, list[str]] = {}  # each text block's deltas (joined when read)
        self._held: set[int] = set()  # text blocks whose citations came before their text
        self._fed: set[int] = set()

    def take(self, event: Event) -> str | None:
        data = event.json()
        if not isinstance(data, dict):
            return None
        kind = data.get("type")
        index = data.get("index")
        if kind == "message_start" and isinstance(data.get("message"), dict):
            self._message = copy.deepcopy(data["message"])
        elif kind == "message_delta" and isinstance(data.get("delta"), dict):
            self._message.update(data["delta"])
        elif not isinstance(index, int):
            return None
        elif kind == "content_block_start" and isinstance(data.get("content_block"), dict):
            self._start(index, data["content_block"], len(event.data))
        elif kind == "content_block_delta" and isinstance(data.get("delta"), dict):
            return self._delta(index, data["delta"], len(event.data))
        elif kind == "content_block_stop" and index in self._held and not self._forgotten:
            block = self._blocks.get(index)
            return self._convert_block(self._whole(index)) if block is not None else None
        return None

    def _start(self, index: int, block: dict[str, Any], size: int) -> None:
        if self._forgotten:
            self._blocks[index] = {"type": block.get("type")}
            return
        self._blocks[index] = copy.deepcopy(block)
        self._kept += size
        if block.get("type") == "text":
            text = self._blocks[index].pop("text", "")
            self._texts[index] = [text] if isinstance(text, str) else []

    def _delta(self, index: int, delta: dict[str, Any], size: int) -> str | None:
        block = self._blocks.setdefault(index, {"type": "text"})
        if block.get("type") != "text":
            return None
        if delta.get("type") == "citations_delta" and isinstance(delta.get("citation"), dict):
            if index not in self._fed:
                self._held.add(index)
            if not self._forgotten:
                block.setdefault("citations", []).append(delta["citation"])
                self._kept += size
        elif delta.get("type") == "text_delta" and isinstance(delta.get("text"), str):
            text = delta["text"]
            if not self._forgotten:
                self._texts.setdefault(index, []).append(text)
                self._kept += sys.getsizeof(text)
            if index not in self._held:
                self._fed.add(index)
                return str(text)
        return None

    def _whole(self, index: int) -> dict[str, Any]:
        """Block ``index`` as the non-streamed answer has it: its text joined."""
        block = self._blocks[index]
        if block.get("type") != "text":
            return block
        return {**block, "text": "".join(self._texts.get(index, ()))}

    def forget(self) -> None:
        super().forget()
        self._texts = {}
        for block in self._blocks.values():
            block.pop("citations", None)

    def is_end(self, event: Event) -> bool:
        return event.name == "message_stop"

    def with_text(self, event: Event, text: str) -> bytes | None:
        data = event.json()
        if not isinstance(data, dict) or data.get("type") != "content_block_delta":
            return None
        delta = data.get("delta")
        if not isinstance(delta, dict) or delta.get("type") != "text_delta":
            return None
        if data.get("index") in self._held:
            return None  # a block with native citations: its text is the vendor's
        return write_event(event.name, {**data, "delta": {**delta, "text": text}})

    def response(self) -> dict[str, Any]:
        content = [self._whole(index) for index in sorted(self._blocks)]
        return {**self._message, "content": content}

    def answer_id(self) -> str | None:
        value = self._message.get("id")
        return value if isinstance(value, str) and value else None

    def ours(self, payload: dict[str, Any]) -> bytes:
        return write_event(payload["type"], payload)

    def error(self, message: str) -> bytes:
        body = {"type": "invalid_request_error", "message": message}
        return write_event("error", {"type": "error", "error": body})
