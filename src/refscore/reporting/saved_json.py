"""Reading a file an earlier command saved as JSON (a test run, a calibration) for a report section.

>>> import json, tempfile, os
>>> with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
...     _ = f.write(json.dumps({"a": 1}))
>>> read_saved_json(f.name, "test_run", "TestRun.save()")
{'a': 1}
>>> os.remove(f.name)
"""
from __future__ import annotations

import json
import os
from typing import Any

from refscore.errors import InputError
from refscore.io.limits import parse_bounded, read_text_within_budget

__all__ = ["read_saved_json"]


def read_saved_json(path: str | os.PathLike[str], argument: str, writer: str) -> Any:
    """The JSON value in ``path``; an unreadable or non-JSON file is an :class:`InputError` naming ``argument`` and
    saying which command (``writer``) writes the file expected."""
    try:
        return parse_bounded(json.loads, read_text_within_budget(path), f"{argument}: {path}")
    except OSError as exc:
        raise InputError(f"{argument}: cannot read {path}: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{argument}: {path} is not JSON ({exc.msg} at line {exc.lineno}); give the file {writer} "
                         f"wrote") from None
