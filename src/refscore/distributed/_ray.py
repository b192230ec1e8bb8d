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


#: Loggers by which Ray Data writes a failed task's whole traceback to stderr (at ERROR) before the error reaches the
#: caller: its executor, and its wrapper of a dataset's execution (which calls a datasource's error "internal").
_TASK_FAILURE_LOGGERS = ("ray.data._internal.execution.streaming_executor_state", "ray.data.exceptions")


def task_cause(error: BaseException) -> BaseException:
    """The exception a Ray task raised, unwrapped from Ray's wrappers (``RayTaskError(MalformedRecordError)``,
    whose text is the task's whole traceback, and Ray Data's ``UserCodeException``); ``error`` itself when it
    is not such a wrapper.

    >>> str(task_cause(ValueError("bad record")))
    'bad record'
    """
    seen: set[int] = set()
    while id(error) not in seen:
        seen.add(id(error))
        module = type(error).__module__ or ""
        cause = getattr(error, "cause", None) if module.startswith("ray.") else None
        if isinstance(cause, BaseException):
            error = cause
        elif type(error).__name__ == "UserCodeException" and isinstance(error.__cause__, BaseException):
            error = error.__cause__
        else:
            break
    return error


def quiet_task_failures() -> None:
    """Keep Ray Data's log of a failed task (its traceback, at ERROR) off stderr: the caller reports the error
    (the command line: one line with the cause)."""
    for name in _TASK_FAILURE_LOGGERS:
        logging.getLogger(name).setLevel(logging.CRITICAL)
