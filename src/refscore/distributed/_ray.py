"""The one place that imports Ray: a missing ``ray`` extra is a :class:`~refscore.errors.MissingExtraError` that
names the install command, never a bare ``ModuleNotFoundError`` deep inside a run."""
from __future__ import annotations

import logging
from typing import Any

from refscore.errors import MissingExtraError


def import_ray(feature: str = "refscore.distributed") -> Any:
    """The ``ray`` module with Ray Data loaded, or :class:`MissingExtraError` naming ``pip install 'refscore[ray]'``.

    >>> try:
    ...     ray = import_ray()
    ... except MissingExtraError as error:
    ...     assert "refscore[ray]" in str(error)
    """
    try:
        import ray
        import ray.data  # noqa: F401 -- the Data library is a separate part of the ray[data] install
    except ImportError as exc:
        missing = getattr(exc, "name", None) or "ray"
        raise MissingExtraError(feature, "ray", missing) from None
    return ray


def ensure_ray(address: str | None = None, quiet: bool = False) -> Any:
    """Ray, connected: an existing connection is kept; otherwise ``ray.init(address)`` (None starts or joins a
    local Ray, as ``ray.init()`` does). ``quiet`` keeps Ray's informational log lines off stderr (the command
    line's ``--no-progress``)."""
    ray = import_ray()
    if quiet:
        for name in ("ray", "ray.data"):
            logging.getLogger(name).setLevel(logging.ERROR)
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False,
                 logging_level=logging.ERROR if quiet else logging.INFO)
    if quiet:
        ray.data.DataContext.get_current().enable_progress_bars = False
    return ray
