"""Plug-ins found through real entry points: an installed distribution (a ``.dist-info`` with its
``entry_points.txt`` on ``sys.path``, as pip installs it) offers a reader and a provider, and
citeproof finds them only when a name is not its own."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from citeproof import SourceError, read_source_file
from citeproof.errors import ProviderConfigError
from citeproof.plugins import _entry_points
from citeproof.providers import get_provider, provider_names
from citeproof.sources._readers import plugin_reader
from tests.cli_runs import invoke

PLUGIN = '''
"""A plug-in for citeproof: ``.rtf`` files (plain paragraphs between braces) and a provider."""

from citeproof.providers import Generation
from citeproof.sources import Segmented


class RtfReader:
    def read(self, raw, *, where, limits):
        text = raw.decode("utf-8").strip().removeprefix("{\\\\rtf1").removesuffix("}").strip()
        paragraphs, start = [], 0
        for block in text.split("\\n\\n"):
            start = text.index(block, start)
            paragraphs.append((start, start + len(block)))
            start += len(block)
        return Segmented(text, tuple(paragraphs), title="an RTF file")


class Echo:
    def __init__(self, reply="No answer."):
        self.reply = reply

    def generate(self, messages, *, max_tokens, temperature=0.0, deadline=None):
        return Generation(text=self.reply, model="echo-1", provider="echo")


NOT_A_READER = 42


def not_a_provider(**settings):
    return "a string"
'''

ENTRY_POINTS = """
[citeproof.readers]
rtf = citeproof_demo_plugin:RtfReader
broken = citeproof_demo_plugin.missing:Reader
notreader = citeproof_demo_plugin:NOT_A_READER

[citeproof.providers]
echo = citeproof_demo_plugin:Echo
broken = citeproof_demo_plugin:no_such_name
strange = citeproof_demo_plugin:not_a_provider
"""


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on ``sys.path`` holding the plug-in package and its distribution metadata."""
    site = tmp_path / "site"
    package = site / "citeproof_demo_plugin"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(PLUGIN, encoding="utf-8")
    info = site / "citeproof_demo_plugin-0.1.0.dist-info"
    info.mkdir()
    metadata = "Metadata-Version: 2.1\nName: citeproof-demo-plugin\nVersion: 0.1.0\n"
    (info / "METADATA").write_text(metadata, encoding="utf-8")
    (info / "entry_points.txt").write_text(textwrap.dedent(ENTRY_POINTS), encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    _forget()
    yield tmp_path
    _forget()


def _forget() -> None:
    """citeproof lists the entry points once per process: start each test afresh."""
    _entry_points.cache_clear()
    plugin_reader.cache_clear()


def test_a_plugin_reads_a_format_citeproof_does_not(installed: Path) -> None:
    (installed / "terms.rtf").write_text(
        "{\\rtf1 The rate is fixed for two years.\n\nThe fee is 1.5 percent.}", encoding="utf-8"
    )
    (installed / "answer.md").write_text('The fee "is 1.5 percent" [1].\n', encoding="utf-8")
    code, out, err = invoke(
        "verify", str(installed / "answer.md"), "--source", f"1={installed / 'terms.rtf'}",
        "--format", "json",
    )  # fmt: skip
    assert code == 0, err
    record = json.loads(out)
    assert [q["status"] for q in record["quotes"]] == ["verified"]
    source = read_source_file(installed / "terms.rtf")
    assert source.text == "The rate is fixed for two years.\n\nThe fee is 1.5 percent."
    assert source.paragraphs == ((0, 32), (34, 57))


def test_without_the_plugin_the_format_is_refused_as_before(tmp_path: Path) -> None:
    _forget()
    (tmp_path / "terms.rtf").write_text("{\\rtf1 The fee is 1.5 percent.}", encoding="utf-8")
    with pytest.raises(SourceError, match=r"cannot read \.rtf files here"):
        read_source_file(tmp_path / "terms.rtf")


def test_ingesting_a_folder_picks_up_the_plugin_format(installed: Path) -> None:
    folder = installed / "docs"
    folder.mkdir()
    (folder / "terms.rtf").write_text("{\\rtf1 The fee is 1.5 percent.}", encoding="utf-8")
    (folder / "photo.jpg").write_bytes(b"\xff\xd8")
    code, out, err = invoke("ingest", str(folder), "--store", str(installed / "store.db"))
    assert code == 0, err
    assert "1 file ingested" in out, out


def test_a_plugin_that_fails_to_load_is_named(installed: Path) -> None:
    (installed / "a.broken").write_text("text", encoding="utf-8")
    with pytest.raises(SourceError) as raised:
        read_source_file(installed / "a.broken")
    message = str(raised.value)
    assert "entry point 'broken = citeproof_demo_plugin.missing:Reader'" in message
    assert "group citeproof.readers, from citeproof-demo-plugin 0.1.0" in message
    assert "failed to load: ModuleNotFoundError" in message


def test_a_plugin_that_is_not_a_reader_is_named(installed: Path) -> None:
    (installed / "a.notreader").write_text("text", encoding="utf-8")
    with pytest.raises(SourceError, match=r"'notreader = citeproof_demo_plugin:NOT_A_READER'.*"
                       r"is not a reader: int has no read"):  # fmt: skip
        read_source_file(installed / "a.notreader")


def test_a_plugin_provider_is_found_by_name_and_answers(installed: Path) -> None:
    assert "echo" not in provider_names()  # a plug-in is not built in
    provider = get_provider("echo", reply="Hello.")
    assert provider.generate([], max_tokens=5).text == "Hello."
    (installed / "memo.txt").write_text("The fee is 1.5 percent.\n", encoding="utf-8")
    code, out, err = invoke(
        "ask", "What is the fee?", "--source", str(installed / "memo.txt"), "--provider", "echo",
        "--format", "json",
    )  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["turn"]["generation"]["model"] == "echo-1"


def test_a_provider_plugin_that_fails_or_gives_no_provider_is_named(installed: Path) -> None:
    with pytest.raises(ProviderConfigError, match=r"'broken = citeproof_demo_plugin:no_such_name'"
                       r".*failed to load: AttributeError"):  # fmt: skip
        get_provider("broken")
    with pytest.raises(ProviderConfigError, match=r"'strange = citeproof_demo_plugin:not_a_prov"
                       r"ider'.*gave str, not a provider"):  # fmt: skip
        get_provider("strange")


def test_an_unknown_provider_lists_the_plugin_names_too(installed: Path) -> None:
    with pytest.raises(ProviderConfigError, match=r"unknown provider 'nope'; expected one of "
                       r"anthropic, broken, echo, embedded, extractive"):  # fmt: skip
        get_provider("nope")
    code, _, err = invoke("ask", "Q?", "--source", str(installed), "--provider", "nope")
    assert code == 2 and "'nope' is not one of" in err
