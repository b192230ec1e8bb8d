"""``assert_scores``: one output against its expected output(s), inside any test.

>>> assert_scores("The cat sat on the mat.", "The cat sat on the mat.", bleu=0.5, rougeL=0.5)
>>> assert_scores("A dog.", "The cat sat on the mat.", chrf=0.5)
Traceback (most recent call last):
...
AssertionError: 1 of 1 check failed
  chrf: 0.026 (threshold >= 0.5) FAILED — reference words not in the output: 'The', 'cat', 'sat', 'on', 'the', 'mat.'
"""
from __future__ import annotations

from collections.abc import Sequence

from refscore.errors import InputError
from refscore.testing.checks import Check


def assert_scores(actual: str | None, expected: str | Sequence[str], *checks: Check, **thresholds: float) -> None:
    """Raise :class:`AssertionError` unless ``actual`` passes every check.

    Checks are :class:`Check` objects and/or ``metric=threshold`` keywords (``bleu=0.3``, ``rougeL=0.5``,
    ``ter=0.4``...). The message shows each check's score, threshold, band and explanation; a None ``actual``
    fails with "no output".
    """
    from refscore.wording import counted
    from refscore.testing.run import evaluate

    all_checks = [*checks, *(Check(name, threshold) for name, threshold in thresholds.items())]
    if not all_checks:
        raise InputError("assert_scores needs at least one check, e.g. assert_scores(actual, expected, bleu=0.3)")
    run = evaluate([{"actual_output": actual, "expected_output": expected, "id": "assert_scores"}], all_checks,
                   explain="all", n_bootstrap=1)
    results = run.results()
    failed = [result for result in results if not result.passed]
    if failed:
        lines = [f"{len(failed)} of {counted(len(results), 'check')} failed"]
        lines += [f"  {result.describe()}" for result in results]
        raise AssertionError("\n".join(lines))


__all__ = ["assert_scores"]
