"""``--lang`` on every command: the language the run speaks, its help and click's own words.

``--lang`` (on the group or any command), else ``ADJUDICATOR_LANG``, else the locale
(``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English.  An unknown language ends the run
with one line listing the languages there are, exit status 2.  ``--json`` keeps its keys
and rule ids in English; only the messages follow the language.

click parses a command line in the order it is written and shows ``--help`` (or a usage
error) as soon as it meets it, so the language is read from the arguments before click
parses them (:func:`before_parsing`): ``check --help --lang sv`` is helped in Swedish.
click's own words ("Usage:", "Show this message and exit.", "No such option") are looked
up in our catalogue under the context ``click`` (:func:`speak_for_click`).
"""

from __future__ import annotations

import gettext
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any

import click

from adjudicator import i18n
from adjudicator.exits import EXIT_INVALID
from adjudicator.i18n import N_, _, pgettext

MEANT = "adjudicator.lang"
"""Where a context chain keeps the language its command line named (``ctx.meta``)."""

LANG_HELP = N_(
    "The language of rulings and messages: {languages}. Default: ADJUDICATOR_LANG, else the "
    "locale (LANG), else English."
)


def lang_help() -> str:
    """``--lang``'s help, in the language speaking now (the languages each by its own name)."""
    names = ", ".join(f"{code} ({name})" for code, name in i18n.LANGUAGES.items())
    return _(LANG_HELP).format(languages=names)


def _refuse(message: str) -> None:
    click.echo(message, err=True)
    sys.exit(EXIT_INVALID)


def asked(args: Sequence[str]) -> str | None:
    """The language a command line names (``--lang sv``, ``--lang=sv``), read before click
    parses it; None if it names none (nothing after ``--`` counts)."""
    for at, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and at + 1 < len(args):
            return args[at + 1]
        if arg.startswith("--lang="):
            return arg.removeprefix("--lang=")
    return None


def before_parsing(args: Sequence[str], ctx: click.Context) -> str:
    """The language to parse ``args`` in (their help and usage errors): ``--lang`` among
    them, else the one a group before named, else the environment's.  An unknown one ends
    the run with one line, as ``--lang``'s own check does."""
    given = asked(args)
    try:
        if given is not None:
            return i18n.choose(given)
    except i18n.UnknownLanguage as exc:
        _refuse(f"--lang: {exc}")
    named = ctx.meta.get(MEANT)
    if isinstance(named, str):
        return named
    try:
        return i18n.from_environment(os.environ)
    except i18n.UnknownLanguage as exc:
        _refuse(f"ADJUDICATOR_LANG: {exc}")
    return i18n.SOURCE  # not reached: _refuse exits


def _chosen(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    """Speak the option's language for the rest of the command's run (put back when it
    ends: a caller in the same process, a test, keeps its own), and keep it for the
    command under a group.  Without the option the language read before parsing stands."""
    if value is None:
        return
    try:
        code = i18n.choose(value)
    except i18n.UnknownLanguage as exc:
        _refuse(f"--lang: {exc}")
        return
    ctx.with_resource(i18n.speaking(code))
    ctx.meta[MEANT] = code


class LangOption(click.Option):
    """``--lang``: its help names the languages there are, in the language asked for."""

    def said_help(self) -> str:
        return lang_help()


def option() -> click.Option:
    """A fresh ``--lang`` option (a click parameter belongs to one command)."""
    with i18n.speaking(i18n.SOURCE):
        english = lang_help()
    return LangOption(
        ["--lang"],
        metavar="LANG",
        default=None,
        expose_value=False,
        is_eager=True,
        callback=_chosen,
        help=english,
    )


def everywhere(command: click.Command) -> None:
    """Give ``command`` and every command under it a ``--lang`` option."""
    if not any(p.name == "lang" for p in command.params):
        command.params.append(option())
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            everywhere(sub)


# --- click's own words ---------------------------------------------------------------------

CLICK = "click"
"""The catalogue's context of click's own words: they never mix with ours."""

CLICK_MODULES = ("core", "decorators", "exceptions", "formatting", "parser", "types", "utils")
"""click's modules that say something to the person at the command line."""


def click_gettext(message: str) -> str:
    """One of click's words in the language speaking now (English when we have none)."""
    return pgettext(CLICK, message)


def click_ngettext(singular: str, plural: str, n: int) -> str:
    """One of click's plurals, by the language's own rule."""
    return i18n.translations(i18n.language()).npgettext(CLICK, singular, plural, n)


def speak_for_click() -> None:
    """Point click's gettext calls at our catalogue: click marks its words with the standard
    library's ``gettext`` (the global domain, read from ``.mo`` files by the process's
    locale), which knows neither our catalogues nor the language a run chose.  Once is
    enough; what click says in a run it never set (English) is what click says itself."""
    for name in CLICK_MODULES:
        try:
            module = importlib.import_module(f"click.{name}")
        except ImportError:  # a click without that module: its words stay English
            continue
        if getattr(module, "_", None) is gettext.gettext:
            module._ = click_gettext  # type: ignore[attr-defined]
        if getattr(module, "ngettext", None) is gettext.ngettext:
            module.ngettext = click_ngettext  # type: ignore[attr-defined]


def click_words() -> list[Any]:
    """The words of click's that the catalogue translates, in English (a test holds each to
    click's own source): its help, and the usage errors a person meets.  The context is
    written out: ``pybabel extract`` reads only a literal."""
    with i18n.speaking(i18n.SOURCE):
        t = i18n.translations(i18n.SOURCE)
        return [
            pgettext("click", "Usage:"),
            pgettext("click", "Options"),
            pgettext("click", "Commands"),
            pgettext("click", "Show this message and exit."),
            pgettext("click", "Show the version and exit."),
            pgettext("click", "default: {default}"),
            pgettext("click", "env var: {var}"),
            pgettext("click", "required"),
            pgettext("click", "Error: {message}"),
            pgettext("click", "Aborted!"),
            pgettext("click", "Missing command."),
            pgettext("click", "Missing argument"),
            pgettext("click", "Missing option"),
            pgettext("click", "Missing parameter"),
            pgettext("click", "No such option {name!r}."),
            pgettext("click", "No such command {name!r}."),
            pgettext("click", "Option {name!r} does not take a value."),
            pgettext("click", "Invalid value: {message}"),
            pgettext("click", "Invalid value for {param_hint}: {message}"),
            pgettext("click", "{value!r} is not a valid {number_type}."),
            pgettext("click", "{value} is not in the range {range}."),
            pgettext("click", "file"),
            pgettext("click", "directory"),
            pgettext("click", "path"),
            pgettext("click", "{name} {filename!r} does not exist."),
            pgettext("click", "{name} {filename!r} is a file."),
            pgettext("click", "{name} {filename!r} is a directory."),
            pgettext("click", "{name} {filename!r} is not readable."),
            pgettext("click", "{name} {filename!r} is not writable."),
            t.npgettext(
                "click",
                "Got unexpected extra argument ({args})",
                "Got unexpected extra arguments ({args})",
                1,
            ),
            t.npgettext(
                "click",
                "Option {name!r} requires an argument.",
                "Option {name!r} requires {nargs} arguments.",
                1,
            ),
            t.npgettext(
                "click",
                "Did you mean {possibility}?",
                "(Did you mean one of: {possibilities}?)",
                1,
            ),
            t.npgettext(
                "click", "{value!r} is not {choice}.", "{value!r} is not one of {choices}.", 1
            ),
        ]
