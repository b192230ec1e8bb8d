"""refscore.integrations.lm_eval inside the real harness: a local generation task (a JSON-lines dataset and a task
YAML written here) run by ``lm_eval.simple_evaluate`` and by the ``lm_eval run`` command line with a model
registered here that returns fixed outputs. The reported BLEU / chrF++ (with its YAML options) / TER equal
sacreBLEU's corpus scores of those outputs, and their stderr equals the standard deviation of refscore's bootstrap
replicates (``bootstrap_ci(..., n=bootstrap_iters, seed=12345)``)."""
from __future__ import annotations

import glob
import json
import os
import random
import subprocess
import sys
import textwrap

import numpy as np
import pytest

lm_eval = pytest.importorskip("lm_eval", reason="lm-evaluation-harness is not installed: pip install "
                              "'refscore[lm_eval]' (CI installs it with the test extra)")
sacrebleu = pytest.importorskip("sacrebleu", reason="sacreBLEU (the oracle) is not installed")

import refscore  # noqa: E402
from refscore.errors import InputError, InputTypeError  # noqa: E402
from refscore.integrations import lm_eval as rle  # noqa: E402

WORDS = ["the", "cat", "sat", "on", "a", "mat", ",", ".", "über", "猫", "кошка", "x1", "dog", "barked", "loudly"]

MODEL_MODULE = '''
import json
from lm_eval.api.model import LM
from lm_eval.api.registry import register_model


@register_model("refscore-fixed-outputs")
class FixedOutputs(LM):
    """Returns the output stored for each prompt (a JSON file {prompt: output})."""

    def __init__(self, outputs_file, **kwargs):
        super().__init__()
        with open(outputs_file, encoding="utf-8") as handle:
            self.outputs = json.load(handle)

    def generate_until(self, requests, disable_tqdm=False):
        return [self.outputs[request.args[0]] for request in requests]

    def loglikelihood(self, requests, disable_tqdm=False):
        raise NotImplementedError("a generation task only")

    def loglikelihood_rolling(self, requests, disable_tqdm=False):
        raise NotImplementedError("a generation task only")
'''


def _corpus(n=40, seed=7):
    rng = random.Random(seed)
    sentence = lambda: " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 9)))  # noqa: E731
    references = [sentence() for _ in range(n)]
    outputs = [sentence() if i % 3 else ref.replace("cat", "dog") for i, ref in enumerate(references)]
    outputs[5] = ""   # an empty output is valid input
    return outputs, references


@pytest.fixture()
def task(tmp_path):
    outputs, references = _corpus()
    with open(tmp_path / "docs.jsonl", "w", encoding="utf-8") as handle:
        for i, reference in enumerate(references):
            handle.write(json.dumps({"source": f"source {i}", "reference": reference}, ensure_ascii=False) + "\n")
    (tmp_path / "outputs.json").write_text(json.dumps({f"source {i}": out for i, out in enumerate(outputs)},
                                                      ensure_ascii=False), encoding="utf-8")
    (tmp_path / "fixed_model.py").write_text(MODEL_MODULE, encoding="utf-8")
    (tmp_path / "tasks").mkdir()
    (tmp_path / "tasks" / "mt.yaml").write_text(textwrap.dedent(f"""\
        task: refscore_local_mt
        dataset_path: json
        dataset_kwargs:
          data_files:
            test: {tmp_path / "docs.jsonl"}
          cache_dir: {tmp_path / "hf-cache"}
        test_split: test
        output_type: generate_until
        doc_to_text: "{{{{source}}}}"
        doc_to_target: "{{{{reference}}}}"
        generation_kwargs:
          until: ["\\n"]
        metric_list:
          - metric: !function refscore.integrations.lm_eval.bleu
            aggregation: !function refscore.integrations.lm_eval.aggregate
            higher_is_better: true
          - metric: !function refscore.integrations.lm_eval.chrfpp
            aggregation: !function refscore.integrations.lm_eval.aggregate
            higher_is_better: true
            beta: 1
          - metric: refscore_ter
            higher_is_better: false
          - metric: bleu
        """), encoding="utf-8")
    return tmp_path, outputs, references


def _check_results(results, outputs, references, bootstrap_iters):
    refs = [references]
    expected = {"refscore_bleu": (sacrebleu.corpus_bleu(outputs, refs).score, refscore.BLEU()),
                "refscore_chrfpp": (sacrebleu.corpus_chrf(outputs, refs, word_order=2, beta=1).score,
                                    refscore.CHRF(word_order=2, beta=1)),
                "refscore_ter": (sacrebleu.corpus_ter(outputs, refs).score, refscore.TER())}
    for name, (score, metric) in expected.items():
        assert results[f"{name},none"] == pytest.approx(score, abs=1e-9), name
        samples = refscore.bootstrap_ci(metric, outputs, refscore.per_segment(references), n=bootstrap_iters,
                                        seed=12345).samples[:, 0]
        assert results[f"{name}_stderr,none"] == pytest.approx(float(np.std(100 * samples, ddof=1)), rel=1e-12)
    # the parameters are honoured: chrF++ with beta=1 is not lm-eval's chrf++ (beta=2)
    assert results["refscore_chrfpp,none"] != pytest.approx(
        sacrebleu.corpus_chrf(outputs, refs, word_order=2).score, abs=1e-6)
    assert results["bleu,none"] == pytest.approx(results["refscore_bleu,none"], abs=1e-9)   # lm-eval's own BLEU


def test_simple_evaluate_reports_sacrebleu_scores_and_refscore_bootstrap_stderr(task, monkeypatch):
    folder, outputs, references = task
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    import fixed_model
    from lm_eval.tasks import TaskManager

    model = fixed_model.FixedOutputs(outputs_file=str(folder / "outputs.json"))
    run = lm_eval.simple_evaluate(model=model, tasks=["refscore_local_mt"], bootstrap_iters=300,
                                  task_manager=TaskManager(include_path=str(folder / "tasks")))
    _check_results(run["results"]["refscore_local_mt"], outputs, references, 300)
    logged = run["samples"]["refscore_local_mt"][0]["refscore_bleu"]
    assert isinstance(logged, rle.SegmentStatistics) and logged.metric == "bleu" and len(logged.statistics) == 1


def test_lm_eval_command_line(task):
    folder, outputs, references = task
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), *sys.path]), "HF_DATASETS_OFFLINE": "1",
           "HF_HOME": str(folder / "hf")}
    # the harness's own entry point (lm_eval.__main__.cli_evaluate), with the test's model registered first
    command = [sys.executable, "-c", "import sys, fixed_model; from lm_eval.__main__ import cli_evaluate; "
               "sys.argv[0] = 'lm_eval'; cli_evaluate()", "run", "--model", "refscore-fixed-outputs",
               "--model_args", f"outputs_file={folder / 'outputs.json'}", "--tasks", "refscore_local_mt",
               "--include_path", str(folder / "tasks"), "--output_path", str(folder / "out")]
    finished = subprocess.run(command, env=env, cwd=folder, capture_output=True, text=True, timeout=600)
    assert finished.returncode == 0, finished.stderr[-3000:]
    assert "refscore_chrfpp" in finished.stdout   # the printed table
    [path] = glob.glob(str(folder / "out" / "**" / "results_*.json"), recursive=True)
    with open(path, encoding="utf-8") as handle:
        saved = json.load(handle)
    _check_results(saved["results"]["refscore_local_mt"], outputs, references, saved["config"]["bootstrap_iters"])


def test_functions_aggregate_and_errors():
    outputs, references = _corpus(12)
    items = [rle.chrf(references=[r], predictions=[h], word_order=2) for h, r in zip(outputs, references)]
    assert rle.aggregate(items) == pytest.approx(
        sacrebleu.corpus_chrf(outputs, [references], word_order=2).score, abs=1e-9)
    positional = rle.chrf([references[0], outputs[0]])   # the harness's other call form, f([gold, output])
    assert np.array_equal(positional.statistics.data,
                          rle.chrf(references=[references[0]], predictions=[outputs[0]]).statistics.data)
    rouge = rle.rouge(references=["a b c"], predictions=["a c b"], types=["rouge1", "rougeL"])
    assert rouge.options == (("types", ("rouge1", "rougeL")),)
    assert rle.aggregate([rouge]) == pytest.approx(100.0)
    with pytest.raises(AttributeError, match="no refscore metric"):
        rle.nonexistent_metric  # noqa: B018
    with pytest.raises(InputError, match="item 1 is chrf .* but item 0 is chrf"):
        rle.aggregate([items[0], rle.chrf(references=["a"], predictions=["a"])])
    with pytest.raises(InputTypeError, match="multiple_target"):
        rle.aggregate([items[0], 1.0])
    with pytest.raises(InputError, match="no documents"):
        rle.aggregate([])
    # not TypeErrors: the harness would swallow those and retry another call form
    with pytest.raises(InputError, match="extra keys of its metric_list entry"):
        rle.bleu(references=["a"], predictions=["a"], no_such_option=1)
    with pytest.raises(InputError):
        rle.bleu(references=["a"], predictions=[3])


def test_stderr_hook_answers_for_aggregate_only():
    rle.register()
    from lm_eval.api import metrics
    from lm_eval import evaluator_utils

    assert evaluator_utils.stderr_for_metric is metrics.stderr_for_metric
    items = [rle.ter(references=[r], predictions=[h]) for h, r in zip(*_corpus(20))]
    assert metrics.stderr_for_metric(rle.aggregate, 200)(items) == rle.stderr(items, 200)
    assert metrics.stderr_for_metric(rle.aggregate, 0) is None
    assert metrics.stderr_for_metric(metrics.mean, 10) is metrics.mean_stderr   # the harness's own, untouched
    from lm_eval.api.registry import get_aggregation, get_metric_aggregation, is_higher_better
    assert get_aggregation("refscore") is rle.aggregate and get_metric_aggregation("refscore_bleu") is rle.aggregate
    assert is_higher_better("refscore_ter") is False
