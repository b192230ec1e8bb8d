"""Words of messages and reports that depend on a number: the one place for plural agreement (``1 system``,
``2 systems``), for every layer (the record readers below, the command line and the reports above).

>>> counted(1, "system"), counted(2, "segment"), counted(0, "malformed record"), counted(3, "hypothesis")
('1 system', '2 segments', '0 malformed records', '3 hypotheses')
"""
from __future__ import annotations

__all__ = ["counted", "fixed"]


def fixed(value: float, digits: int) -> str:
    """``value`` with ``digits`` decimals, never ``-0.00``: a value that rounds to zero has no sign (an MQM score
    of 0, a tiny negative difference).

    >>> fixed(-0.0, 3), fixed(-0.0004, 3), fixed(-1.052, 2), fixed(float("nan"), 2)
    ('0.000', '0.000', '-1.05', 'nan')
    """
    text = f"{value:.{digits}f}"
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` and ``noun``, in the plural unless the count is 1: ``plural`` when given, else ``noun`` + ``s``
    (``...is`` becomes ``...es``: hypothesis, hypotheses).

    >>> counted(1, "layer row"), counted(1000, "resample"), counted(2, "index", "indices")
    ('1 layer row', '1000 resamples', '2 indices')
    """
    if count == 1:
        return f"{count} {noun}"
    if plural is None:
        plural = noun[:-2] + "es" if noun.endswith("is") else noun + "s"
    return f"{count} {plural}"
