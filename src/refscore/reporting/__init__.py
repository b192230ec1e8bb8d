"""``refscore.report()``: one self-contained HTML page analysing several systems with several metrics (this package
is named ``reporting`` so that a submodule named ``report`` never shadows the function ``refscore.report``).

Sections: overview (scores, bootstrap intervals, signatures, paired significance, ranking clusters), distributions,
buckets, differences and a segment browser. See ``docs/report.md``. Needs the ``report`` extra (Bokeh).

>>> import refscore
>>> page = refscore.report({"base": ["the cat sat", "a dog"], "new": ["the cat sat down", "a dog barked"]},
...                        [["the cat sat down"], ["a dog barked"]], metrics=["bleu", "chrf"], n=100)
>>> page.startswith("<!DOCTYPE html>"), "Segment browser" in page
(True, True)
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from refscore.io.atomic import output_transaction, write_text_atomically
from refscore.errors import InputError, MissingExtraError
from refscore.protocol import Metric

#: Metrics of a report when none are named: the lexical ones with sacreBLEU's defaults.
DEFAULT_METRICS: tuple[str, ...] = ("bleu", "chrf", "ter")
#: Multiple-comparison corrections of the significance matrix: none (as sacreBLEU and compare-mt), or Holm's.
CORRECTIONS: tuple[str, ...] = ("none", "holm")
#: File name endings a report may be written to: the report is one HTML page (print it from a browser for a PDF).
HTML_SUFFIXES: tuple[str, ...] = (".html", ".htm")


def check_output_name(output: str | os.PathLike[str]) -> None:
    """Refuse an output path that does not end in ``.html`` or ``.htm`` (any case): writing HTML into ``r.pdf``
    would be a silently wrong file.

    >>> check_output_name("report.HTML")
    >>> check_output_name("report.pdf")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    refscore.errors.InputError: output 'report.pdf' ends in '.pdf', but a report is one HTML page: name the file ...
    """
    name = os.fspath(output)
    suffix = os.path.splitext(name)[1]
    if suffix.lower() not in HTML_SUFFIXES:
        found = f"ends in {suffix!r}" if suffix else "has no extension"
        raise InputError(f"output {name!r} {found}, but a report is one HTML page: name the file .html or .htm "
                         f"(for a PDF, open the page in a browser and print it)")


def require_extra() -> None:
    """Raise :class:`MissingExtraError` naming ``pip install 'refscore[report]'`` unless Bokeh is installed."""
    try:
        import bokeh  # noqa: F401
    except ImportError:
        raise MissingExtraError("refscore report", "report", "bokeh") from None


def resolve_metrics(metrics: Sequence[Metric | str] | Metric | str) -> list[Metric]:
    """Metric instances from instances or registered names (``"bleu"``, ``"chrf"``, ...)."""
    from refscore.metrics import get_metric_class

    items = [metrics] if isinstance(metrics, (str, Metric)) else list(metrics)
    resolved = []
    for index, item in enumerate(items):
        if isinstance(item, str):
            resolved.append(get_metric_class(item)())
        elif isinstance(item, Metric):
            resolved.append(item)
        else:
            raise InputError(f"metrics[{index}] must be a metric name or a refscore Metric, got "
                             f"{type(item).__name__}")
    names = [m.name for m in resolved]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise InputError(f"metrics: {repeated} given more than once; give each metric once")
    return resolved


def report(systems: Mapping[str, Sequence[str]] | None = None, references: Sequence[Any] | None = None,
           metrics: Sequence[Metric | str] | Metric | str = DEFAULT_METRICS, *,
           metadata: Mapping[str, Sequence[Any]] | None = None, sources: Sequence[str] | None = None,
           ids: Sequence[Any] | None = None, baseline: str | None = None, correction: str = "none",
           test_run: Any = None, judgments: Any = None, human: str | None = None, calibration: Any = None,
           output: str | os.PathLike[str] | None = None, latex: str | os.PathLike[str] | None = None,
           title: str = "refscore report",
           max_segments: int | None = None, n: int = 1000, seed: int | None = 12345,
           num_threads: int | None = None, progress: bool | None = None, system_score: str = "corpus") -> str:
    """Build the HTML report; returns the page and, when ``output`` is given, also writes it there.

    Args:
        systems: name -> hypotheses, one per segment; the baseline first (or name it with ``baseline``).
        references: per-segment references (a string or a list of strings each).
        metrics: metric names or instances (default: BLEU, chrF, TER); each runs once per system.
        metadata: optional field name -> one value per segment (domain, document ...); fields with 2–30
            distinct values become buckets.
        sources: optional source segments (shown beside the texts; source length and rare-word buckets).
        ids: optional segment ids (strings or numbers, e.g. records' ``id``): shown and searched in the segment
            browser beside the segment numbers.
        correction: ``"none"`` or ``"holm"``: which p-values decide the significance marks and the ranking
            (Holm's correction over each score's pairs of systems); both p-values are shown either way.
        max_segments: segments whose texts are embedded (default 2000); larger inputs keep every number but
            embed an even sample of texts.
        n: bootstrap resamples of the intervals and paired tests (sacreBLEU's default).
        seed: seed of those resamples (sacreBLEU's default).
        progress: progress bar on stderr (``None``: automatic for long runs on a terminal).
        test_run: a ``refscore.testing`` run (a ``TestRun``, its ``to_dict()`` or the path of a saved run): adds
            the test-case view; alone (no systems), the page has that view only.
        judgments: human judgments (a path or a :class:`refscore.meta.inputs.Judgments`): adds the section on the
            metrics' agreement with the human score ``human`` (default: the first); without ``systems`` the
            judgments' systems, hypotheses and references are the report's.
        calibration: a saved threshold calibration (``refscore check --calibrate LABELS --save FILE``, or its
            dict): adds its agreement curves to that section.
        system_score: a metric's system score in the judgments' section: ``"corpus"`` (its corpus score over all
            segments, as ``refscore meta-eval`` and WMT) or ``"rated_mean"`` (the mean of its sentence scores over
            the rated segments); :data:`refscore.meta.evaluate.SYSTEM_SCORES`.
        latex: also write the report's tables as LaTeX (booktabs) to this file: corpus scores with intervals and
            compare-mt's length, word-frequency and length-difference tables (:mod:`refscore.reporting.mt_analyses`).
    """
    if output is not None:
        check_output_name(output)
    meta = _meta_inputs(judgments, human, calibration, metrics, n, seed, system_score)
    if systems is None and references is None and meta is not None and meta.judgments is not None:
        loaded = meta.judgments
        from refscore.metrics.external import keyed_systems

        # keyed by (system, segment id), so that scores from outside join the judgments' segments
        systems = keyed_systems({name: loaded.hypotheses[name] for name in loaded.systems}, loaded.segment_ids)
        references = loaded.references[loaded.systems[0]]
        sources, ids = (loaded.sources if sources is None else sources), (loaded.segment_ids if ids is None else ids)
    elif systems is None and references is None and meta is not None:
        raise InputError("calibration: the report needs systems and references (or judgments) beside it")
    if systems is None and references is None:
        if test_run is None:
            raise InputError("report needs systems and references, a test_run, or both")
        if latex is not None:
            raise InputError("latex: the LaTeX tables are those of systems; give systems and references too")
        from refscore.reporting.render import render_test_run
        from refscore.reporting.testcases import load_test_run

        page = render_test_run(load_test_run(test_run), title=title)
        if output is not None:
            write_text_atomically(output, page)
        return page
    if systems is None or references is None:
        raise InputError(f"report: {'systems' if systems is None else 'references'} is missing; give systems and "
                         f"references together")
    require_extra()
    from refscore.reporting.data import gather
    from refscore.reporting.render import DEFAULT_MAX_SEGMENTS, render
    from refscore.reporting.testcases import load_test_run

    run = load_test_run(test_run) if test_run is not None else None

    limit = DEFAULT_MAX_SEGMENTS if max_segments is None else max_segments
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise InputError(f"max_segments must be a positive integer, got {max_segments!r}")
    if correction not in CORRECTIONS:
        raise InputError(f"correction must be one of {', '.join(map(repr, CORRECTIONS))}, got {correction!r}")
    data = gather(systems, references, resolve_metrics(metrics), metadata=metadata, sources=sources, ids=ids,
                  baseline=baseline, n=n, seed=seed, num_threads=num_threads, progress=progress)
    page = render(data, title=title, max_segments=limit, test_run=run, correction=correction, meta=meta)
    with output_transaction() as outputs:   # the page and the LaTeX tables together, or neither
        if latex is not None:
            from refscore.reporting.mt_analyses import analyse, report_latex

            outputs.write_text(latex, report_latex(data, analyse(data)))
        if output is not None:
            outputs.write_text(output, page)
    return page


def _meta_inputs(judgments: Any, human: str | None, calibration: Any, metrics: Any, n: int,
                 seed: int | None, system_score: str = "corpus") -> Any:
    """The meta-evaluation section's inputs (None when neither judgments nor a calibration is given)."""
    from refscore.meta.evaluate import SYSTEM_SCORES

    if system_score not in SYSTEM_SCORES:
        raise InputError(f"system_score must be one of {', '.join(map(repr, SYSTEM_SCORES))}, got {system_score!r}")
    if judgments is None and calibration is None:
        return None
    from refscore.meta.inputs import Judgments, load_judgments
    from refscore.reporting.meta_section import MetaInputs, load_calibration

    loaded = judgments if judgments is None or isinstance(judgments, Judgments) else load_judgments(judgments)
    if loaded is not None and human is not None and human not in loaded.human:
        raise InputError(f"human: no human score {human!r} in the judgments; they have "
                         f"{', '.join(loaded.human_names)}")
    return MetaInputs(None if calibration is None else load_calibration(calibration), loaded, human,
                      resolve_metrics(metrics) if loaded is not None else [], n, seed, system_score)


__all__ = ["DEFAULT_METRICS", "HTML_SUFFIXES", "check_output_name", "report", "require_extra"]

