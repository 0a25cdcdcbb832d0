"""``--lang`` on every command: the language the run speaks.

``--lang`` (on the group or any command), else ``ADJUDICATOR_LANG``, else the locale
(``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English.  An unknown language ends the run
with one line listing the languages there are, exit status 2.  ``--json`` keeps its keys
and rule ids in English; only the messages follow the language.
"""

from __future__ import annotations

import os
import sys

import click

from adjudicator import i18n

EXIT_INVALID = 2

LANG_HELP = (
    "The language of rulings and messages: "
    + ", ".join(f"{code} ({name})" for code, name in i18n.LANGUAGES.items())
    + ". Default: ADJUDICATOR_LANG, else the locale (LANG), else English."
)


def _refuse(message: str) -> None:
    click.echo(message, err=True)
    sys.exit(EXIT_INVALID)


def _chosen(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    """Set the language for the command's run (put back when it ends: a caller in the same
    process, a test, keeps its own): the option when given; else, at the command that runs
    (not a group on the way to it, whose command may still name one), the environment's."""
    if value is not None:
        try:
            ctx.with_resource(i18n.speaking(value))
        except i18n.UnknownLanguage as exc:
            _refuse(f"--lang: {exc}")
        ctx.meta["adjudicator.lang"] = value
    elif "adjudicator.lang" not in ctx.meta and not isinstance(ctx.command, click.Group):
        try:
            ctx.with_resource(i18n.speaking(i18n.from_environment(os.environ)))
        except i18n.UnknownLanguage as exc:
            _refuse(f"ADJUDICATOR_LANG: {exc}")


def option() -> click.Option:
    """A fresh ``--lang`` option (a click parameter belongs to one command)."""
    return click.Option(
        ["--lang"],
        metavar="LANG",
        default=None,
        expose_value=False,
        is_eager=True,
        callback=_chosen,
        help=LANG_HELP,
    )


def everywhere(command: click.Command) -> None:
    """Give ``command`` and every command under it a ``--lang`` option."""
    if not any(p.name == "lang" for p in command.params):
        command.params.append(option())
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            everywhere(sub)
