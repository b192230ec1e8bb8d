"""How scores from outside are named wherever a metric is named: the one ``file:PATH`` parser (``-m file:PATH``,
``Check("file:PATH")``, ``metric = "file:PATH"`` in pyproject.toml), light enough for the command line's parser
(no numpy, no score tables); :mod:`refscore.metrics.external` reads the files.

>>> external_name("file:runs/comet.{pair}.tsv"), external_path("bleu")
('comet', None)
"""
from __future__ import annotations

import os
from typing import Any

__all__ = ["DECLARATIONS", "EXTERNAL_PREFIX", "OPTIONS", "PAIR_FIELD", "external_name", "external_path"]

#: What names scores from outside wherever a metric is named: ``-m file:PATH``, ``Check("file:PATH")``,
#: ``metric = "file:PATH"`` in pyproject.toml's checks (case-insensitive, as metric names are).
EXTERNAL_PREFIX = "file:"
#: Where a ``meta-eval LP=FILE`` run puts the language pair in a path (``-m file:comet.{pair}.tsv``).
PAIR_FIELD = "{pair}"

#: What a user declares about outside scores (:func:`external_scores`' keyword arguments besides ``name``): the
#: options of ``-m file:PATH`` (``--metric-option NAME.OPTION=VALUE``) and of a check on them.
DECLARATIONS = ("higher_is_better", "range")
#: The options of ``-m file:PATH`` (``--metric-option NAME.OPTION=VALUE``): the declarations and the printed scale.
OPTIONS = (*DECLARATIONS, "scale")


def external_path(spec: Any) -> str | None:
    """The path of a ``file:PATH`` metric name (empty when the path is missing: the caller names what to give);
    None when ``spec`` names no file, e.g. a registered metric.

    >>> external_path("file:scores/comet.tsv"), external_path(" FILE:mqm.jsonl "), external_path("bleu")
    ('scores/comet.tsv', 'mqm.jsonl', None)
    """
    if not isinstance(spec, str) or not spec.strip().lower().startswith(EXTERNAL_PREFIX):
        return None
    return spec.strip()[len(EXTERNAL_PREFIX):]


def external_name(spec: Any) -> str | None:
    """The name scores of ``file:PATH`` go by (printed, and named by options and checks): the file's stem, without
    a ``{pair}`` field and the separators around it; None when ``spec`` names no file.

    >>> external_name("file:runs/comet.{pair}.tsv"), external_name("file:mqm.jsonl"), external_name("chrf")
    ('comet', 'mqm', None)
    """
    path = external_path(spec)
    if path is None:
        return None
    stem = os.path.splitext(os.path.basename(path))[0]
    return (stem.replace(PAIR_FIELD, "").strip("._-") or "scores") if PAIR_FIELD in stem else stem
