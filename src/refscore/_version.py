"""refscore's version, read from the installed distribution's metadata (set in meson.build)."""
from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("refscore")
except PackageNotFoundError:  # pragma: no cover - running from a source tree without installing
    __version__ = "0.0.0+unknown"
