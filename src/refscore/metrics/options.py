"""Command-line options of a metric, declared next to its config so the CLI is generated, not hand-written."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class CliOption:
    """One command-line flag mapped onto one config field.

    ``flags`` e.g. ``("--tokenize", "-tok")``; ``field`` is the config attribute it sets; ``type`` converts the
    string (``bool`` makes a store-true switch); ``choices`` restricts values.
    """

    flags: tuple[str, ...]
    field: str
    help: str
    type: Callable[[str], Any] | type = str
    choices: tuple[Any, ...] | None = None

    @property
    def dest(self) -> str:
        return self.flags[0].lstrip("-").replace("-", "_")
