"""The terminal's and the exported page's renderers (rich, textual): an edge.

Nothing below the command line imports this package: the page and the API take their
words from :mod:`adjudicator.service`.
"""
