"""The command classes every citeproof command uses: errors become exit codes, and a group's
commands are imported only when one of them is run (or the group's help lists them).

Kept apart from `citeproof.cli._common` so that ``citeproof --version`` and the group's usage
errors import no command's dependencies.
"""

from __future__ import annotations

import importlib
import os
import textwrap
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import click
from click.utils import format_filename

from citeproof.errors import CiteproofError
from citeproof.render import visible


@contextmanager
def errors_to_exit_status() -> Iterator[None]:
    """The one translation of errors to exit codes: a `CiteproofError` prints ``Error:`` and
    its message (which names what and where) on standard error and exits with status 1
    (click's `ClickException`); usage errors are click's status 2."""
    try:
        yield
    except CiteproofError as error:
        raise click.ClickException(str(error)) from None


class Command(click.Command):
    """A citeproof command: errors leave it through `errors_to_exit_status`.

    ``sections`` lists the options its help shows under their own headings, after the
    basic ones: ``(("Batch options", ("batch", "workers")), ...)``, by parameter name. The
    options named in no section are listed first, under "Options"."""

    def __init__(
        self, *args: Any, sections: Sequence[tuple[str, Sequence[str]]] = (), **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.sections = tuple((title, tuple(names)) for title, names in sections)
        known = {param.name for param in self.params}
        unknown = [n for _, names in self.sections for n in names if n not in known]
        if unknown:  # pragma: no cover - a wiring mistake
            raise TypeError(f"{self.name}: sections name no option {', '.join(unknown)}")

    def invoke(self, ctx: click.Context) -> Any:
        with errors_to_exit_status():
            return super().invoke(ctx)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The basic options under "Options", then each section's, the columns aligned."""
        rows: dict[str | None, tuple[str, str]] = {}
        for param in self.get_params(ctx):
            row = param.get_help_record(ctx)
            if row is not None and not isinstance(param, click.Argument):
                rows[param.name] = row
        placed = {name for _, names in self.sections for name in names}
        parts = [("Options", [row for name, row in rows.items() if name not in placed])]
        parts += [(title, [rows[n] for n in names if n in rows]) for title, names in self.sections]
        width = min(max((len(term) for term, _ in rows.values()), default=0), _TERM_WIDTH)
        for title, part in parts:
            if part:
                with formatter.section(title):
                    formatter.write_dl([(term.ljust(width), text) for term, text in part])


_TERM_WIDTH = 30
"""click's widest option column; a longer option name puts its help on the next line."""


class PathType(click.Path):
    """click's ``Path``, in citeproof's words: a folder is a "folder" (``FOLDER`` in the
    help, "... is a folder." in an error), never a "directory"."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if self.name == "directory":
            self.name = "folder"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        dash = self.file_okay and self.allow_dash and value in ("-", b"-")
        if not self.dir_okay and not dash and os.path.isdir(value):
            self.fail(f"{self.name.title()} {format_filename(value)!r} is a folder.", param, ctx)
        return super().convert(value, param, ctx)


class Group(click.Group):
    """A citeproof command group: its commands are `Command`s, its errors translated alike.

    ``lazy`` maps a command's name to ``"module:attribute"``: that module is imported when
    the command is looked up (to run it, or to list it in the group's help), never before.

    Error messages quote file names, paths and values from outside: they reach the terminal
    as text, unsafe characters shown, never acted on (usage errors keep their exit status)."""

    command_class = Command
    group_class = type  # subgroups are `Group`s too

    def __init__(self, *args: Any, lazy: Mapping[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy: dict[str, str] = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = self.lazy.get(cmd_name)
        if target is None or cmd_name in self.commands:
            return super().get_command(ctx, cmd_name)
        module, _, attribute = target.partition(":")
        command = getattr(importlib.import_module(module), attribute)
        if not isinstance(command, click.Command):  # pragma: no cover - a wiring mistake
            raise TypeError(f"{target} is not a click command")
        self.add_command(command, cmd_name)
        return command

    def invoke(self, ctx: click.Context) -> Any:
        try:
            with errors_to_exit_status():
                return super().invoke(ctx)
        except click.ClickException as error:
            setattr(error, "message", visible(error.message))  # noqa: B010 (click marks it Final)
            raise


def examples(*lines: str) -> str:
    """A help epilog's examples, each a command line as typed, kept as written; put before
    `exit_codes`: ``epilog=examples("citeproof verify ...") + exit_codes(...)``."""
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines) + "\n\n"


def exit_codes(*codes: tuple[int, str]) -> str:
    """A help epilog listing a command's exit codes; status 2 (usage) is click's everywhere."""
    usage = (2, "usage error: an unknown option, a missing or unreadable argument")
    lines = [
        textwrap.fill(meaning, width=76, initial_indent=f"  {code}  ", subsequent_indent="     ")
        for code, meaning in (*codes, usage)
    ]
    return "\b\nExit codes:\n" + "\n".join(lines)
