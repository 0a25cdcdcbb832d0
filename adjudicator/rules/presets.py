"""Named variants: each one a RuleOptions value."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.rules.options import RuleOptions


@dataclass(frozen=True)
class Preset:
    """A named variant and where its rules are written down."""

    name: str
    title: str
    source: str
    options: RuleOptions


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset(
            name="pagat",
            title="Basic Skitgubbe: two-card tricks, then beat or pick up single cards",
            source="000 'Skitgubbe' (main description); 004",
            options=RuleOptions(),
        ),
    )
}


def find_variant(name: str) -> Preset:
    """The preset called ``name``; KeyError with the known names otherwise."""
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(PRESETS)
        raise KeyError(f"{name!r} is not a variant ({known})") from None
