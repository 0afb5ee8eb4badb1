"""What the commands share: how an answer is formatted and where it is written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

import click

from citeproof.contract import answer_to_json
from citeproof.model import VerifiedAnswer
from citeproof.render import render

Format = Literal["html", "md", "term", "json"]


def format_answer(verified: VerifiedAnswer, fmt: Format) -> str:
    if fmt == "json":
        return json.dumps(answer_to_json(verified), ensure_ascii=False, indent=2) + "\n"
    return render(verified, fmt)


def emit(text: str, out: Path | None) -> None:
    """Print ``text``, or write it to ``out`` (its folder made when missing)."""
    if out is None:
        click.echo(text, nl=not text.endswith("\n"))
    else:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
