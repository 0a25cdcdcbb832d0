"""Rule options and the named variants built from them."""

from adjudicator.rules.options import RuleOptions
from adjudicator.rules.presets import PRESETS, find_variant

__all__ = ["PRESETS", "RuleOptions", "find_variant"]
