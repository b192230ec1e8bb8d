"""``refscore.compat.install()`` / ``uninstall()`` and ``python -m refscore.compat run``: existing programs run
unchanged on refscore and print what they print on the real peers."""
from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import refscore.compat as compat

PROGRAMS = Path(__file__).parent / "compat_programs"
PEER_ROOTS = ("sacrebleu", "rouge_score", "bert_score", "rouge", "jiwer")


def run(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONHASHSEED": "0", "TOKENIZERS_PARALLELISM": "false"}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=300, env=env,
                          cwd=PROGRAMS)


@pytest.mark.parametrize("program", ["uses_sacrebleu.py", "uses_rouge_score.py", "uses_rouge.py", "uses_nltk.py"])
def test_programs_print_the_same_under_the_switch(program: str) -> None:
    peer = run(program)
    ours = run("-m", "refscore.compat", "run", program)
    assert peer.returncode == 0, peer.stderr
    assert ours.returncode == 0, ours.stderr
    assert "refscore" not in peer.stderr.splitlines()[-1]
    assert ours.stderr.splitlines()[-1].startswith("refscore.compat")   # the drop-in really ran
    assert ours.stdout == peer.stdout


def test_bert_score_program_prints_the_same_under_the_switch(tmp_path) -> None:
    from bertscore_helpers import build_tiny_bert
    model = str(build_tiny_bert(tmp_path / "bert"))
    peer = run("uses_bert_score.py", model)
    ours = run("-m", "refscore.compat", "run", "uses_bert_score.py", model)
    assert peer.returncode == 0 and ours.returncode == 0, (peer.stderr, ours.stderr)
    assert ours.stderr.splitlines()[-1].startswith("refscore.compat")
    # refscore's BERTScore matches bert-score's float32 values to ~1e-7, tested at 1e-6 (docs/bertscore.md)
    for mine, theirs in zip(ours.stdout.splitlines(), peer.stdout.splitlines()):
        got, expected = ast.literal_eval(f"({mine.replace('] ', '], ')})"), ast.literal_eval(
            f"({theirs.replace('] ', '], ')})")
        assert got[-1] == expected[-1]
        for our_values, peer_values in zip(got[:-1], expected[:-1]):
            assert our_values == pytest.approx(peer_values, abs=1e-6)


def test_evaluate_load_goes_to_refscore_under_the_switch() -> None:
    import sacrebleu
    from rouge_score import rouge_scorer
    result = run("-m", "refscore.compat", "run", "uses_evaluate.py")
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[-1].startswith("refscore.compat")
    lines = dict(line.split(" ", 1) for line in result.stdout.splitlines())
    predictions = ["the cat sat on the mat", "a dog barked at night"]
    streams = [["the cat sat on a mat", "the dog barked at night"], ["a cat sat on the mat", "a dog barked"]]
    assert ast.literal_eval(lines["sacrebleu"])["score"] == sacrebleu.corpus_bleu(predictions, streams).score
    assert ast.literal_eval(lines["chrf"])["score"] == sacrebleu.corpus_chrf(predictions, streams).score
    assert ast.literal_eval(lines["ter"])["score"] == sacrebleu.corpus_ter(predictions, streams).score
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"])
    expected = [scorer.score(t, p) for t, p in zip(streams[0], predictions)]
    rouge = ast.literal_eval(lines["rouge"].replace("np.float64", ""))
    assert rouge["rouge1"] == [s["rouge1"].fmeasure for s in expected]


COMBINE_PROGRAM = """
import json, sys
if sys.argv[1] == "evaluate-first":
    import evaluate
import refscore.compat
refscore.compat.install()
import evaluate
from evaluate.evaluator import TranslationEvaluator
predictions, references = json.loads(sys.argv[2])
combined = evaluate.combine(["bleu", "rouge"])
print(json.dumps(combined.compute(predictions=predictions, references=references), default=float))
for prediction, reference in zip(predictions, references):
    combined.add(prediction=prediction, reference=reference)
print(json.dumps(combined.compute(), default=float))
print(type(TranslationEvaluator().prepare_metric("bleu")).__module__)
"""


@pytest.mark.parametrize("order", ["evaluate-first", "install-first"])
def test_evaluate_combine_and_evaluators_load_refscore_offline(order: str) -> None:
    """``evaluate.combine`` loads through ``evaluate.loading.load`` and the evaluators through the ``load`` bound in
    ``evaluate.evaluator.base``: both reach refscore's modules under the switch, with the Hub unreachable."""
    import json

    from refscore.compat import evaluate as drop_in
    predictions = ["the cat sat on the mat", "a dog barked at night"]
    references = [["the cat sat on a mat", "a cat sat on the mat"], ["the dog barked at night", "a dog barked"]]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "HF_EVALUATE_OFFLINE": "1",
           "TOKENIZERS_PARALLELISM": "false"}
    result = subprocess.run([sys.executable, "-c", COMBINE_PROGRAM, order, json.dumps([predictions, references])],
                            capture_output=True, text=True, timeout=300, env=env, cwd=PROGRAMS)
    assert result.returncode == 0, result.stderr
    computed, added, evaluator_module = result.stdout.splitlines()
    expected = {**drop_in.load("bleu").compute(predictions=predictions, references=references),
                **drop_in.load("rouge").compute(predictions=predictions, references=references)}
    assert json.loads(computed) == json.loads(added) == json.loads(json.dumps(expected, default=float))
    assert evaluator_module == "refscore.compat._evaluate_bleu"


def _modules_binding_load(package: Any) -> list[str]:
    """The modules of ``package`` whose top level binds ``load`` from evaluate's ``loading`` module by name."""
    root = Path(package.__file__).parent
    names = []
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        module = ".".join([package.__name__, *(parts[:-1] if parts[-1] == "__init__" else parts)])
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ImportFrom) and any(alias.name == "load" for alias in node.names) and (
                    (node.module or "").endswith("loading") or node.module == package.__name__):
                names.append(module)
    return names


def test_every_evaluate_module_that_binds_load_is_redirected_and_restored() -> None:
    """Every module of the installed ``evaluate`` that binds ``load`` by name at import (``evaluate``,
    ``evaluate.evaluator.base``), and ``evaluate.loading`` itself (read at call time by ``combine``), holds the
    wrapper while installed and the real function afterwards."""
    import importlib

    evaluate = pytest.importorskip("evaluate")
    binders = _modules_binding_load(evaluate)
    assert {"evaluate", "evaluate.evaluator.base"} <= set(binders)
    modules = [importlib.import_module(name) for name in [*binders, "evaluate.loading"]]
    original = evaluate.loading.load
    compat.install()
    try:
        for module in modules:
            assert module.load.__refscore_original__ is original, module.__name__
        combined = evaluate.combine(["bleu", "chrf"])
        assert [type(m).__module__ for m in combined.evaluation_modules] == [
            "refscore.compat._evaluate_bleu", "refscore.compat._evaluate_chrf"]
    finally:
        compat.uninstall()
    assert all(module.load is original for module in modules)


def test_run_usage_errors() -> None:
    assert run("-m", "refscore.compat").returncode == 2
    missing = run("-m", "refscore.compat", "run", "no_such_program.py")
    assert missing.returncode == 2 and "no_such_program.py: no such file" in missing.stderr


@pytest.fixture
def switched():
    saved = {name: module for name, module in sys.modules.items() if name.partition(".")[0] in PEER_ROOTS}
    compat.install()
    try:
        yield
    finally:
        compat.uninstall()
        for name in [n for n in sys.modules if n.partition(".")[0] in PEER_ROOTS and n not in saved]:
            del sys.modules[name]
        sys.modules.update(saved)


def test_install_aliases_packages_and_submodules(switched) -> None:
    import sacrebleu
    import sacrebleu.tokenizers.tokenizer_13a
    from bert_score.utils import model2layers
    from nltk.translate import bleu_score, chrf_score, gleu_score
    from rouge_score import rouge_scorer, tokenize  # noqa: F401
    from rouge.rouge_score import rouge_n  # noqa: F401
    from sacrebleu.metrics.bleu import BLEU
    assert sacrebleu is sys.modules["refscore.compat.sacrebleu"] and compat.installed()
    assert sacrebleu.__spec__.name == "refscore.compat.sacrebleu"   # the alias does not rename refscore's module
    assert BLEU.__module__ == "refscore.compat._sacrebleu_bleu"
    assert sacrebleu.tokenizers.tokenizer_13a.Tokenizer13a.__module__.startswith("refscore.")
    assert rouge_scorer.__name__ == "refscore.compat.rouge_score.rouge_scorer"
    assert {m.__name__ for m in (bleu_score, gleu_score, chrf_score)} == {
        f"refscore.compat.nltk.translate.{n}" for n in ("bleu_score", "gleu_score", "chrf_score")}
    assert model2layers["roberta-large"] == 17
    with pytest.raises(ModuleNotFoundError):
        import sacrebleu.no_such_module  # noqa: F401


def test_uninstall_restores_the_real_modules() -> None:
    import nltk.translate
    import sacrebleu as real
    real_bleu_score = nltk.translate.bleu_score
    compat.install()
    compat.install()   # idempotent
    import sacrebleu
    from nltk.translate import bleu_score
    assert sacrebleu is not real and bleu_score is not real_bleu_score
    assert nltk.translate.bleu.__module__.startswith("refscore.")
    compat.uninstall()
    import sacrebleu
    from nltk.translate import bleu_score
    from sacrebleu.metrics import BLEU
    assert sacrebleu is real and bleu_score is real_bleu_score and not compat.installed()
    assert BLEU.__module__ == "sacrebleu.metrics.bleu"
    assert nltk.translate.bleu.__module__ == "nltk.translate.bleu_score"
    assert sacrebleu.__spec__.name == "sacrebleu"


def test_evaluate_load_is_patched_and_restored() -> None:
    evaluate = pytest.importorskip("evaluate")
    original = evaluate.load
    compat.install()
    try:
        module = evaluate.load("bleu")
        assert type(module).__module__ == "refscore.compat._evaluate_bleu"
        assert evaluate.load.__refscore_original__ is original
    finally:
        compat.uninstall()
    assert evaluate.load is original
