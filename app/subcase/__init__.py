"""subcase: a truecasing editor for subtitles."""

# Not importlib.metadata: reading the installed metadata costs ~84 ms at every
# start.  _version.py is kept equal to pyproject.toml by a test.
from subcase._version import VERSION as __version__  # noqa: F401
