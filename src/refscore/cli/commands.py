"""The subcommands of ``refscore``, declared without importing them: the module that registers each one and its
one-line help. ``refscore --help`` is built from this table alone; a command's own module (its flags, and the
metrics it offers) is imported only when that command is run (refscore.cli.main).

>>> COMMANDS["score"].module, command_help("pairwise")
('refscore.cli.score', 'sentence scores of every candidate against every reference, per item')
"""
from __future__ import annotations

from typing import NamedTuple


class Command(NamedTuple):
    """``module`` has ``register(commands)``, adding this command's parser (and any other of this table's commands
    it registers) to the argparse subparsers object and setting ``handler`` on it; ``help`` is its line in
    ``refscore --help``."""

    module: str
    help: str


#: name -> where it lives and its help, in the order ``refscore --help`` lists them.
COMMANDS: dict[str, Command] = {
    "score": Command("refscore.cli.score", "score one or more systems against references"),
    "example": Command("refscore.cli.example", "score the bundled example systems with every metric"),
    "compare": Command("refscore.cli.compare", "paired significance tests of a baseline against other systems"),
    "bertscore-baseline": Command("refscore.cli.bertscore_baseline",
                                  "compute a BERTScore rescaling baseline (bert-score TSV) for a model"),
    "check": Command("refscore.cli.check",
                     "check test cases (actual_output vs expected_output) against thresholds"),
    "report": Command("refscore.cli.report", "write a self-contained HTML report comparing systems"),
    "meta-eval": Command("refscore.cli.meta_eval",
                         "correlate metrics with human judgments (WMT statistics, intervals, significance)"),
    "pairwise": Command("refscore.cli.pairs", "sentence scores of every candidate against every reference, per item"),
    "mbr": Command("refscore.cli.pairs", "minimum Bayes risk selection of one candidate per item"),
}


def command_help(name: str) -> str:
    """The help line of command ``name`` (for its module's ``register``)."""
    return COMMANDS[name].help
