"""refscore.integrations.inspect_ai inside a real inspect_ai eval: Python ``inspect_ai.eval`` and the ``inspect``
command line with the mock model (``mockllm/model``, fixed outputs) score exactly what sacreBLEU and refscore give
for those outputs (sentence chrF's mean, corpus BLEU/chrF++/TER from summed statistics, refscore's bootstrap
interval); ``inspect score LOG --scorer refscore/...`` finds the scorers through the inspect_ai entry point."""
from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

import refscore
from refscore.errors import InputError

inspect_ai = pytest.importorskip("inspect_ai", reason="inspect_ai is not installed (pip install 'refscore[inspect]'; "
                                                      "the test extra pins it)")
from inspect_ai.dataset import Sample  # noqa: E402
from inspect_ai.model import ModelOutput, ModelUsage, get_model  # noqa: E402
from inspect_ai.solver import generate  # noqa: E402

from refscore.integrations import inspect_ai as ri  # noqa: E402

# prompt -> (fixed model output, references); two references each so sacreBLEU's streams are rectangular
PAIRS = {
    "p1": ("the cat sat on the mat", ["the cat sat on a mat", "a cat sat"]),
    "p2": ("a dog barked", ["a dog barked loudly", "the dog barked"]),
    "p3": ("", ["empty output", "nothing"]),
    "p4": ("кошка сидит на ковре", ["кошка сидела на ковре", "кот на ковре"]),
    "p5": ("猫が座った", ["猫が座っていた", "猫は座った"]),
}
HYPS = [out for out, _ in PAIRS.values()]
REFS = [refs for _, refs in PAIRS.values()]
STREAMS = [list(stream) for stream in zip(*REFS)]


def _fixed_output(messages, tools, tool_choice, config):
    output = ModelOutput.from_content(model="mockllm/model", content=PAIRS[messages[-1].text][0])
    output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)   # else mockllm counts (tiktoken)
    return output


def _metrics(log):
    """scorer name -> {metric name: value} of an eval log (a scorer's metric groups merged)."""
    found: dict[str, dict[str, float]] = {}
    for score in log.results.scores:
        found.setdefault(score.name, {}).update({name: m.value for name, m in score.metrics.items()})
    return found


@pytest.mark.filterwarnings("ignore::refscore.errors.CJKTokenizerWarning")   # 13a on Japanese, as sacreBLEU
def test_inspect_eval_scores_equal_sacrebleu_and_refscore(tmp_path):
    task = inspect_ai.Task(
        dataset=[Sample(input=prompt, target=refs, id=prompt) for prompt, (_, refs) in PAIRS.items()],
        solver=generate(),
        scorer=[ri.scorer("chrf"), ri.scorer("bleu", corpus=True), ri.scorer("chrf", corpus=True, word_order=2),
                ri.scorer("ter", corpus=True)])
    log = inspect_ai.eval(task, model=get_model("mockllm/model", custom_outputs=_fixed_output), display="none",
                          log_dir=str(tmp_path))[0]
    assert log.status == "success", log.error
    metrics = _metrics(log)
    sentence = [sacrebleu.sentence_chrf(h, r).score / 100 for h, r in zip(HYPS, REFS)]
    assert metrics["chrf"]["mean"] == pytest.approx(np.mean(sentence), abs=1e-12)
    assert metrics["bleu_corpus"]["corpus_score"] == pytest.approx(
        sacrebleu.corpus_bleu(HYPS, STREAMS).score / 100, abs=1e-12)
    assert metrics["chrf_corpus"]["corpus_score"] == pytest.approx(
        sacrebleu.corpus_chrf(HYPS, STREAMS, word_order=2).score / 100, abs=1e-12)
    assert metrics["ter_corpus"]["corpus_score"] == pytest.approx(
        sacrebleu.corpus_ter(HYPS, STREAMS).score / 100, abs=1e-12)
    # the bootstrap metric is refscore's interval: of the corpus score (statistics) and of the sentence mean
    ci = refscore.bootstrap_ci("bleu", HYPS, REFS, n=1000, seed=12345)
    assert (metrics["bleu_corpus"]["ci_lower"], metrics["bleu_corpus"]["ci_upper"]) == pytest.approx(
        (ci.lower, ci.upper), abs=1e-12)
    means = refscore.external_scores(np.array(sentence), name="check")
    ci_mean = refscore.bootstrap_ci(means, HYPS, REFS, n=1000, seed=12345)
    assert (metrics["chrf"]["ci_lower"], metrics["chrf"]["ci_upper"]) == pytest.approx(
        (ci_mean.lower, ci_mean.upper), abs=1e-12)
    # per sample: the sentence score, and the statistics row kept for the corpus metric
    by_id = {sample.id: sample for sample in log.samples}
    for prompt, (output, refs) in PAIRS.items():
        scores = by_id[prompt].scores
        assert scores["chrf"].value == pytest.approx(sacrebleu.sentence_chrf(output, refs).score / 100, abs=1e-12)
        row = refscore.BLEU().statistics([output], [refs]).data[0].tolist()
        assert scores["bleu_corpus"].metadata["refscore"]["row"] == row


def _installed_entry_point() -> bool:
    return any(ep.name == "refscore" and ep.value.startswith("refscore.integrations.inspect_ai")
               for ep in importlib.metadata.entry_points(group="inspect_ai"))


@pytest.mark.filterwarnings("ignore::refscore.errors.CJKTokenizerWarning")
def test_inspect_command_line_finds_refscore_scorers(tmp_path):
    """``inspect eval task.py`` (the mock model's fixed outputs) then ``inspect score LOG --scorer
    refscore/chrf_corpus -S word_order=2``: the name is resolved through the inspect_ai entry point."""
    if not _installed_entry_point():
        pytest.skip("refscore's inspect_ai entry point is not installed (pip install the checkout; from a source "
                    "tree without install the CLI cannot find refscore/NAME)")
    outputs = {prompt: output for prompt, (output, _) in PAIRS.items()}
    (tmp_path / "task.py").write_text(textwrap.dedent(f"""
        from inspect_ai import Task, task
        from inspect_ai.dataset import Sample
        from inspect_ai.model import ModelOutput, ModelUsage, get_model
        from inspect_ai.solver import generate
        from refscore.integrations.inspect_ai import scorer

        OUTPUTS = {json.dumps(outputs, ensure_ascii=False)}
        REFS = {json.dumps({prompt: refs for prompt, (_, refs) in PAIRS.items()}, ensure_ascii=False)}

        def fixed(messages, tools, tool_choice, config):
            output = ModelOutput.from_content(model="mockllm/model", content=OUTPUTS[messages[-1].text])
            output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
            return output

        @task
        def translate():
            return Task(dataset=[Sample(input=p, target=r, id=p) for p, r in REFS.items()], solver=generate(),
                        scorer=scorer("chrf"),
                        model=get_model("mockllm/model", custom_outputs=fixed))
        """), encoding="utf-8")
    env = {**os.environ, "INSPECT_LOG_DIR": str(tmp_path / "logs"), "NO_COLOR": "1"}
    inspect_cli = [sys.executable, "-m", "inspect_ai"]
    subprocess.run([*inspect_cli, "eval", "task.py", "--display", "none", "--log-format", "json"],
                   check=True, env=env, cwd=tmp_path, timeout=300)
    log_file = next((tmp_path / "logs").glob("*.json"))
    scored = tmp_path / "scored.json"
    subprocess.run([*inspect_cli, "score", str(log_file), "--scorer", "refscore/chrf_corpus", "-S", "word_order=2",
                    "--action", "append", "--output-file", str(scored), "--display", "none"],
                   check=True, env=env, cwd=tmp_path, timeout=300)
    log = inspect_ai.log.read_eval_log(str(scored))
    metrics = _metrics(log)
    assert metrics["chrf"]["mean"] == pytest.approx(
        np.mean([sacrebleu.sentence_chrf(h, r).score / 100 for h, r in zip(HYPS, REFS)]), abs=1e-12)
    assert metrics["chrf_corpus"]["corpus_score"] == pytest.approx(
        sacrebleu.corpus_chrf(HYPS, STREAMS, word_order=2).score / 100, abs=1e-12)


WORDS = st.sampled_from(["the", "cat", "sat", "on", "a", "mat", ",", ".", "über", "猫", "кошка", "x1", ""])
TEXT = st.lists(WORDS, max_size=8).map(" ".join)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=6))
def test_corpus_value_of_summed_rows_equals_sacrebleu(pairs):
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    for name, peer in (("chrf", sacrebleu.corpus_chrf), ("bleu", sacrebleu.corpus_bleu),
                       ("ter", sacrebleu.corpus_ter)):
        value = ri.corpus_value(name, {}, [(h, [r]) for h, r in pairs])
        assert value == pytest.approx(peer(hyps, [refs]).score / 100, abs=1e-12)


def test_names_and_errors():
    assert "refscore/chrf_corpus" in ri.scorer_names() and "refscore/squad" in ri.scorer_names()
    assert set(ri.scorers()) == {name[len("refscore/"):] for name in ri.scorer_names()}
    with pytest.raises(InputError, match="unknown metric|not a registered|chrf"):
        ri.scorer("chrff")
    with pytest.raises(InputError, match="score 'rougeX' is not one of rouge's scores"):
        ri.scorer("rouge", corpus=True, score="rougeX")
    metric = ri.corpus_score()
    bare = inspect_ai.scorer.SampleScore(score=inspect_ai.scorer.Score(value=1.0), sample_id="s1")
    with pytest.raises(InputError, match="sample 's1'.* has none"):
        metric([bare])
    sentence = inspect_ai.scorer.SampleScore(score=inspect_ai.scorer.Score(
        value=0.5, metadata={"refscore": {"metric": "chrf", "options": {}, "score": None, "nrefs": 1}}))
    with pytest.raises(InputError, match="needs statistics rows: use the corpus scorer"):
        metric([sentence])


def test_import_does_not_import_inspect_ai():
    code = "import refscore.integrations.inspect_ai, sys; print('inspect_ai' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                            cwd=Path(__file__).parent)
    assert result.stdout.strip() == "False"
