"""``refscore meta-eval`` over several language pairs, and the statistics chosen on the command line.

``meta-eval en-de=ende.jsonl zh-en=zhen.jsonl -m bleu,chrf`` evaluates each language pair on its own (its tables,
as for one file) and adds WMT's global pairwise accuracy over the system pairs of all language pairs
(:mod:`refscore.meta.language_pairs`). A pair named ``SRC-TGT`` gives BLEU sacreBLEU's tokenizer for its target
(``-l`` for that pair) unless ``-l`` or ``--tokenize`` is given; ``-m file:scores/{pair}.tsv`` reads each pair's
scores from its own file (the metric is named by the stem without ``{pair}``).

``--system-statistics`` / ``--segment-statistics`` take ``STAT[:GROUPING[:VARIANT]]`` items (mt-metrics-eval's
``average_by``: ``none``, ``sys``, ``item``; Kendall's ``variant``: ``b``, ``c``, ``23``, ``acc23``).

>>> parse = statistics_argument("segment")
>>> parse("kendall:none,kendall:sys,pearson:item")
(('kendall', 'none', {'variant': 'b'}), ('kendall', 'sys', {'variant': 'b'}), ('pearson', 'item', {}))
"""
from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from refscore.cli.exit_codes import ExitCode
from refscore.cli.io import CliError, os_error_text
from refscore.cli.metric_setup import metrics_from_args
from refscore.errors import InputError
from refscore.meta.correlations import KENDALL_VARIANTS
from refscore.meta.evaluate import SEGMENT_STATISTICS, SYSTEM_STATISTICS, Entry
from refscore.protocol import Metric
from refscore.text.languages import parse_language_pair

GROUPINGS = ("none", "sys", "item")
#: The statistics each level offers (refscore.meta.evaluate computes them).
LEVEL_STATISTICS = {"system": ("pearson", "spearman", "kendall", "pairwise_accuracy", "soft_pairwise_accuracy"),
                    "segment": ("pearson", "spearman", "kendall", "kendall_like", "kendall_ties_opt")}
VARIANTS = {"kendall": ("b", *[v for v in KENDALL_VARIANTS if v != "b"]), "kendall_ties_opt": ("acc23", "23")}
#: ``LP=FILE``: a judgments file of language pair LP (a name without '=' or ',').
PAIR_FILE = re.compile(r"([A-Za-z0-9][A-Za-z0-9_.-]*)=(.+)")
Statistics = tuple[tuple[str, str, dict[str, Any]], ...]


def statistics_argument(level: str) -> Callable[[str], Statistics]:
    """The argparse type of ``--LEVEL-statistics``: comma-separated ``STAT[:GROUPING[:VARIANT]]``."""
    offered = LEVEL_STATISTICS[level]

    def parse(text: str) -> Statistics:
        chosen: list[tuple[str, str, dict[str, Any]]] = []
        for position, item in enumerate((part.strip() for part in text.split(",")), 1):
            parts = item.split(":")
            name, grouping = parts[0].strip().lower(), (parts[1].strip().lower() if len(parts) > 1 else "none")
            where = f"item {position} ({item!r})"
            if name not in offered or len(parts) > 3:
                raise argparse.ArgumentTypeError(
                    f"{where}: write STAT[:GROUPING[:VARIANT]] with STAT one of {', '.join(offered)} (e.g. "
                    f"{'kendall:sys' if level == 'segment' else 'kendall'})")
            allowed = GROUPINGS if level == "segment" else ("none",)
            if grouping not in allowed:
                raise argparse.ArgumentTypeError(f"{where}: grouping {grouping!r} is not one of "
                                                 f"{', '.join(allowed)} at the {level} level")
            options: dict[str, Any] = {}
            if name in VARIANTS:
                options["variant"] = parts[2].strip().lower() if len(parts) > 2 else VARIANTS[name][0]
                if options["variant"] not in VARIANTS[name]:
                    raise argparse.ArgumentTypeError(f"{where}: variant {options['variant']!r} of {name} is not one "
                                                     f"of {', '.join(VARIANTS[name])}")
            elif len(parts) > 2:
                raise argparse.ArgumentTypeError(f"{where}: {name} has no variant; drop ':{parts[2]}'")
            if any((name, grouping) == (s, g) for s, g, _ in chosen):
                raise argparse.ArgumentTypeError(f"{where}: {name} with grouping {grouping} is given twice; give "
                                                 f"each statistic and grouping once")
            chosen.append((name, grouping, options))
        return tuple(chosen)

    return parse


def statistics_text(statistics: Statistics) -> list[str]:
    """The ``STAT:GROUPING[:VARIANT]`` spelling of chosen statistics (for the JSON's record of the run)."""
    return [":".join([name, grouping, *options.values()]) for name, grouping, options in statistics]


def add_pair_arguments(parser: argparse.ArgumentParser) -> None:
    """``--system-statistics`` and ``--segment-statistics`` (the defaults: refscore.meta.evaluate's)."""
    parser.add_argument("--system-statistics", type=statistics_argument("system"), default=SYSTEM_STATISTICS,
                        metavar="LIST", help="system-level statistics, comma-separated STAT (pearson, spearman, "
                        "kendall[:none:VARIANT], pairwise_accuracy, soft_pairwise_accuracy; default: all five)")
    parser.add_argument("--segment-statistics", type=statistics_argument("segment"), default=SEGMENT_STATISTICS,
                        metavar="LIST", help="segment-level statistics, comma-separated STAT[:GROUPING[:VARIANT]] "
                        "with GROUPING none (no grouping), sys (per system) or item (per segment), as "
                        "mt-metrics-eval's average_by, e.g. kendall:none,kendall:sys (default: pearson:none, "
                        "pearson:item, kendall:item, kendall_ties_opt:item:acc23)")


def named_pairs(files: Sequence[str]) -> dict[str, list[str]] | None:
    """Language pair -> its files when the files are given as ``LP=FILE`` (a pair named twice: its files are
    read together); None when none is (one set of judgments)."""
    matches = [None if os.path.exists(name) else PAIR_FILE.fullmatch(name) for name in files]
    if not any(matches):
        return None
    unnamed = [name for name, match in zip(files, matches) if match is None]
    if unnamed:
        raise CliError(f"FILE {unnamed[0]!r} has no language pair while others have one: give every judgments "
                       f"file as LP=FILE (e.g. en-de=ende.jsonl zh-en=zhen.jsonl) or none", ExitCode.USAGE)
    pairs: dict[str, list[str]] = {}
    for match in matches:
        pairs.setdefault(match[1], []).append(match[2])
    return pairs


def grid_text(judgments: Any, humans: Sequence[str]) -> str:
    """The judgments' grid for stderr: systems x segments and how many of those cells each human score rates.

    >>> from refscore.meta.inputs import Judgments
    >>> data = Judgments(["A", "B"], ["1", "2"], {}, {}, {"mqm": np.array([[0.0, np.nan], [1.0, 2.0]])}, None, "f")
    >>> grid_text(data, ["mqm"])
    'f: 2 systems x 2 segments, 3 rated (mqm)'
    """
    counts = judgments.rated_cells(humans)
    if len(set(counts.values())) == 1:   # one count for all: "4216 rated (mqm)"
        rated = f"{counts[humans[0]]} rated ({', '.join(humans)})"
    else:
        rated = "rated: " + ", ".join(f"{name} {count}" for name, count in counts.items())
    return f"{judgments.source_file}: {len(judgments.systems)} systems x {len(judgments.segment_ids)} segments, {rated}"


def system_scores(judgments: Any, humans: Sequence[str], metrics: Sequence[Metric],
                  scores: Sequence[Any], system_score: str = "corpus") -> dict[str, Any]:
    """The JSON's system scores: each human score's mean rating per system, each metric's system score (its corpus
    score, on the metric's own scale and direction) and, with ``system_score="rated_mean"``, per human score the
    mean sentence score over the segments it rates (``rated_mean``)."""
    from refscore.meta.evaluate import human_system_scores

    def named(values: np.ndarray) -> dict[str, float | None]:
        return {system: _plain(float(value)) for system, value in zip(judgments.systems, values)}

    found = {"human": {human: named(human_system_scores(judgments.human[human])[0]) for human in humans},
             "metrics": {metric.name: named(s.sign * s.systems) for metric, s in zip(metrics, scores)}}
    if system_score == "rated_mean":
        found["rated_mean"] = {human: {s.name: named(s.sign * s.rated_mean(judgments.human[human]).systems)
                                       for s in scores} for human in humans}
    return found


def _plain(value: Any) -> Any:
    return None if isinstance(value, float) and math.isnan(value) else value


def pair_metrics(args: argparse.Namespace, pair: str) -> list[Metric]:
    """The metrics of language pair ``pair``: ``-l`` from the pair's name (``SRC-TGT``) unless given, and
    ``file:...{pair}...`` paths filled in (named by the stem without ``{pair}``)."""
    language = args.language_pair
    if language is None:
        try:
            language = parse_language_pair(pair)
        except InputError:
            language = None
    return metrics_from_args(args.metrics, argparse.Namespace(**{**vars(args), "language_pair": language}),
                             pair=pair)


def cmd_meta_eval_pairs(args: argparse.Namespace, pairs: Mapping[str, list[str]], fields: Any) -> int:
    """``meta-eval LP=FILE ...``: every pair's tables, then the global pairwise accuracy over all pairs."""
    from refscore.meta.evaluate import MetricScores, meta_evaluate
    from refscore.meta.inputs import load_judgments
    from refscore.meta.language_pairs import global_accuracy_table

    levels = ("system", "segment") if args.level == "both" else (args.level,)
    wanted = [name.strip() for name in args.human.split(",") if name.strip()] if args.human else None
    about, results, grids = {}, {}, {}
    for pair, paths in pairs.items():
        try:
            judgments = load_judgments(paths, fields, align=args.align)
        except OSError as exc:
            raise CliError(f"{pair}: {os_error_text(exc)}", ExitCode.UNREADABLE_FILE) from None
        except InputError as exc:
            raise CliError(f"{pair}: {exc}", ExitCode.BAD_INPUT) from None
        humans = wanted or judgments.human_names
        unknown = [name for name in humans if name not in judgments.human_names]
        if unknown:
            raise CliError(f"--human: no human score {unknown[0]!r} in {pair} ({judgments.source_file}); its human "
                           f"scores are {', '.join(judgments.human_names)}", ExitCode.BAD_INPUT)
        print(f"{pair}: {grid_text(judgments, humans)}", file=sys.stderr)
        metrics = pair_metrics(args, pair)
        scores = [MetricScores.from_metric(metric, judgments, num_threads=args.num_threads) for metric in metrics]
        results[pair] = {human: meta_evaluate(
            judgments.human[human], scores, levels=levels, system_statistics=args.system_statistics,
            segment_statistics=args.segment_statistics, n_bootstrap=args.bootstrap, k=args.k, alpha=args.alpha,
            confidence=args.confidence, seed=args.seed, resampler=args.resampler, resample_ties=args.resample_ties,
            system_score=args.system_score) for human in humans}
        grids[pair] = (judgments, scores)
        nrefs = {len(refs) for system in judgments.systems for refs in judgments.references[system]}
        about[pair] = {"files": judgments.source_file, "systems": len(judgments.systems),
                       "segments": len(judgments.segment_ids), "rated": judgments.rated_cells(humans),
                       "signatures": {m.name: m.signature_text(nrefs.pop() if len(nrefs) == 1 else -1)
                                      for m in metrics},
                       "system_scores": system_scores(judgments, humans, metrics, scores, args.system_score)}
    common = [h for h in next(iter(results.values())) if all(h in by_human for by_human in results.values())]
    overall = {human: global_accuracy_table({pair: (grids[pair][0].human[human], grids[pair][1]) for pair in grids},
                                            args.system_score) for human in common} if "system" in levels else {}
    settings = {"bootstrap": args.bootstrap, "k": args.k, "alpha": args.alpha, "confidence": args.confidence,
                "seed": args.seed, "resampler": args.resampler, "system_score": args.system_score,
                "system_statistics": statistics_text(args.system_statistics),
                "segment_statistics": statistics_text(args.segment_statistics)}
    print(_render(args.format, about, results, overall, settings))
    return ExitCode.OK


def _render(fmt: str, about: Mapping[str, Any], results: Mapping[str, Mapping[str, Sequence[Entry]]],
            overall: Mapping[str, Sequence[Any]], settings: Mapping[str, Any]) -> str:
    from refscore.meta.table import entry_record, to_latex, to_text

    if fmt == "json":
        rows = [{"pair": pair, "human": human, **entry_record(e)}
                for pair, by_human in results.items() for human, entries in by_human.items() for e in entries]
        global_rows = [{"human": human, "metric": g.metric, "statistic": "pairwise_accuracy",
                        "value": _plain(g.accuracy), "agree": g.agree, "pairs": g.pairs,
                        "per_pair": {p: {"agree": a, "pairs": n} for p, (a, n) in g.per_pair.items()}}
                       for human, table in overall.items() for g in table]
        return json.dumps({"pairs": about, **settings, "results": rows, "global": global_rows}, indent=2,
                          ensure_ascii=False)
    render, comment = (to_latex, "% ") if fmt == "latex" else (to_text, "")
    parts = []
    for pair, by_human in results.items():
        head = f"{comment}pair: {pair} ({about[pair]['systems']} systems x {about[pair]['segments']} segments)"
        parts += [f"{head}\n{comment}human: {human}\n{render(entries)}" for human, entries in by_human.items()]
    for human, table in overall.items():
        parts.append(_global_table(human, table, comment, fmt == "latex"))
    return "\n\n".join(parts)


def _global_table(human: str, table: Sequence[Any], comment: str, latex: bool) -> str:
    pairs = list(table[0].per_pair)
    total = table[0].pairs
    head = (f"{comment}all pairs: global pairwise accuracy over {total} system pairs "
            f"({', '.join(f'{p} {n}' for p, (_, n) in table[0].per_pair.items())})\n{comment}human: {human}")
    rows = [["metric", "global", *pairs]] + [
        [g.metric, f"{g.accuracy:.3f}", *(f"{a / n:.3f}" if n else "nan" for a, n in g.per_pair.values())]
        for g in sorted(table, key=lambda g: -g.accuracy)]
    if latex:
        lines = [r"\begin{tabular}{l" + "r" * (len(pairs) + 1) + "}", r"\toprule",
                 " & ".join(["Metric", "Global", *pairs]) + r" \\", r"\midrule",
                 *(" & ".join(row).replace("_", r"\_") + r" \\" for row in rows[1:]), r"\bottomrule",
                 r"\end{tabular}"]
        return head + "\n" + "\n".join(lines)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return head + "\n" + "\n".join("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows)
