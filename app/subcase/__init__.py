"""subcase: a truecasing editor for subtitles."""

from importlib import metadata as _metadata

try:
    __version__ = _metadata.version("subcase")
except _metadata.PackageNotFoundError:  # running from a source tree or a frozen bundle
    from subcase._version import VERSION as __version__  # noqa: F401
