"""``refscore bertscore-baseline --model M --corpus FILE``: compute a BERTScore rescaling baseline for any model
(the mean P/R/F per layer over random pairs of corpus sentences) and write it in bert-score's TSV format."""
from __future__ import annotations

import argparse
import sys
from typing import Any

from refscore.cli.arguments import add_progress_argument
from refscore.cli.commands import command_help
from refscore.cli.exit_codes import ExitCode
from refscore.wording import counted
from refscore.cli.io import read_lines


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "bertscore-baseline", help=command_help("bertscore-baseline"),
        description="Scores random pairs of unrelated sentences from a corpus at every layer and writes the mean "
                    "P/R/F per layer; use the file with rescale_with_baseline=True, baseline_path=FILE.")
    parser.add_argument("--model", required=True, help="hub name or local directory of the model")
    parser.add_argument("--corpus", required=True, metavar="FILE", help="text file, one sentence per line")
    parser.add_argument("-o", "--output", metavar="FILE", default="-",
                        help="where to write the TSV (default: standard output)")
    parser.add_argument("--pairs", type=int, default=2000, help="random sentence pairs (default: 2000)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda or cuda:N (default: auto)")
    parser.add_argument("--num-threads", type=int, default=None, help="CPU threads for torch")
    add_progress_argument(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from refscore.io.atomic import check_output_paths
    from refscore.metrics.bertscore.baseline import compute_baseline, format_baseline, write_baseline
    from refscore.metrics.bertscore.engine import torch_threads
    from refscore.metrics.bertscore.scorer import BERTScorer

    check_output_paths({"-o": args.output}, [("--corpus", args.corpus)])  # before the model loads (exit 9)
    sentences = read_lines(args.corpus, "--corpus")
    scorer = BERTScorer(args.model, all_layers=True, device=args.device, progress=args.progress)
    with torch_threads(args.num_threads):
        table = compute_baseline(scorer, sentences, pairs=args.pairs, seed=args.seed)
    if args.output == "-":
        sys.stdout.write(format_baseline(table))
    else:
        write_baseline(args.output, table)
        print(f"wrote {counted(len(table), 'layer row')} to {args.output}", file=sys.stderr)
    return ExitCode.OK
