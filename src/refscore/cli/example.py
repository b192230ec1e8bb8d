"""``refscore example``: the bundled example systems scored with every metric, printed as ``score`` prints them."""
from __future__ import annotations

import argparse
import sys
from typing import Any

from refscore.cli.arguments import positive_int
from refscore.cli.commands import command_help
from refscore.cli.exit_codes import ExitCode
from refscore.cli.score import emit, score_systems


def cmd_example(args: argparse.Namespace) -> int:
    from refscore.example import example_sets

    results = []
    for example, metrics, skipped in example_sets():
        if not metrics:
            continue
        scored = score_systems(metrics, example.systems, example.references, False, args.num_threads)
        if args.format == "json":
            results += scored
        else:
            print(f"Bundled example: {example.description}\n")
            emit(scored, args.format, False)
            print()
        for name, reason in skipped.items():
            print(f"\n{name}: skipped ({reason})", file=sys.stderr)
    if args.format == "json":
        emit(results, args.format, False)
    return ExitCode.OK


def register(commands: Any) -> None:
    example = commands.add_parser(
        "example", help=command_help("example"),
        description="Score the bundled examples with every registered metric and print the tables (0-100, as "
                    "score prints them) with their signatures: WMT17 en-de (3 systems x 300 segments) with the "
                    "translation metrics, XSum summaries (4 systems x 75 documents) with ROUGE. A metric whose "
                    "optional dependencies are missing is skipped, with the install command on stderr.")
    example.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    example.add_argument("--num-threads", type=positive_int, default=None,
                         help="threads for the compiled core (default: all)")
    example.set_defaults(handler=cmd_example)
