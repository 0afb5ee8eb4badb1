"""The command classes every citeproof command uses: errors become exit codes, and a group's
commands are imported only when one of them is run (or the group's help lists them).

Kept apart from `citeproof.cli._common` so that ``citeproof --version`` and the group's usage
errors import no command's dependencies.
"""

from __future__ import annotations

import importlib
import textwrap
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import click

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
    """A citeproof command: errors leave it through `errors_to_exit_status`."""

    def invoke(self, ctx: click.Context) -> Any:
        with errors_to_exit_status():
            return super().invoke(ctx)


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


def exit_codes(*codes: tuple[int, str]) -> str:
    """A help epilog listing a command's exit codes; status 2 (usage) is click's everywhere."""
    usage = (2, "usage error: an unknown option, a missing or unreadable argument")
    lines = [
        textwrap.fill(meaning, width=76, initial_indent=f"  {code}  ", subsequent_indent="     ")
        for code, meaning in (*codes, usage)
    ]
    return "\b\nExit codes:\n" + "\n".join(lines)
