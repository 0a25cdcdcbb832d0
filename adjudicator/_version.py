"""The package's version: the installed distribution's, which the build took from the git tag.

The tag is the one place a version is written (``git tag v0.3.0``; docs/development.md,
"Releasing"): setuptools-scm reads it when the package is built or installed (a wheel, an
sdist's PKG-INFO, ``pip install -e .``), and the metadata written then is read here.  The
static site's own wheel carries the same metadata (adjudicator/web/site.py).  A checkout
run without any install says ``0+unknown``.  No version file is written into the sources:
a build would change a checkout's version behind its metadata's back.
"""

from __future__ import annotations

from importlib import metadata

DISTRIBUTION = "skitgubbe-adjudicator"
"""The name on the package index ("adjudicator" there is another project)."""


def _installed() -> str:
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "0+unknown"


__version__ = _installed()
