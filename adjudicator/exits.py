"""Every exit status the command line and its workers end with, written once.

A check's: 0 every record legal, 1 any illegal, 2 any invalid or unreadable (or a
mistake in the command).  ``conformance``'s comparisons say 0 the same, 1 different.
"""

from __future__ import annotations

EXIT_LEGAL, EXIT_ILLEGAL, EXIT_INVALID = 0, 1, 2
"""Exit statuses of a check: all legal, any illegal, any invalid (or unreadable)."""

EXIT_SAME, EXIT_DIFFER = EXIT_LEGAL, EXIT_ILLEGAL
"""A comparison of engines (``conformance``): the same answers, or not."""

EXIT_ORPHANED = 70
"""A worker's exit status when its run is gone (nobody reads it; see ``EX_SOFTWARE``)."""

EXIT_INTERRUPTED, EXIT_TERMINATED = 130, 143
"""Ctrl-C (SIGINT) and SIGTERM: 128 plus the signal's number, as a shell reports it."""
