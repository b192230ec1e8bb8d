"""COMET against unbabel-comet 2.2.7's own ``model.predict`` on random-weight checkpoints built in the test.

unbabel-comet pins numpy<2, transformers<5 and more, so it lives in a venv of its own (.ci/constraints-comet.txt,
built by .ci/run): ``REFSCORE_COMET_PYTHON`` (default: ``../venv-comet/bin/python`` next to the checkout) runs
tests/comet_peer/make_checkpoint.py, which builds a tiny XLM-R encoder, a SentencePiece tokenizer and unbabel-comet's
own model class with random weights, saves the checkpoint and records ``model.predict(..., gpus=0)`` per segment
for several batch sizes. refscore (this venv, no comet import) loads the checkpoint and must agree within 1e-6.
Without that python the parity tests skip (``REFSCORE_REQUIRE_COMET=1`` makes that a failure, as in CI).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

import refscore  # noqa: E402
from refscore.errors import InputError, MissingModelError  # noqa: E402
from refscore.metrics.comet import COMET  # noqa: E402

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "comet_peer" / "make_checkpoint.py"
BATCH_SIZES = [1, 4, 16]
TOLERANCE = 1e-6
LONG = " ".join(["The committee approved the amendment after a long debate about the budget."] * 90)  # > 510 tokens

SOURCES = ["Der Hund bellt laut.", "", "敏捷的棕色狐狸跳过了懒狗。", "Быстрая коричневая лиса.", LONG,
           "Ein Satz mit Zahlen: 12, 345 und 6789.", "الثعلب البني السريع", "Der Hund bellt laut.", "x", "Hallo Welt"]
HYPS = ["The dog barks loudly.", "", "The quick brown fox jumps over the lazy dog.", "A fast brown fox.", LONG,
        "A sentence with numbers: 12, 345 and 6789.", "", "The dog is barking.", "素早い茶色の狐", "Hello world"]
REFS = ["The dog is barking loudly.", "", "The agile brown fox jumped over the lazy dog.", "", LONG[:300],
        "A sentence with the numbers 12, 345 and 6789.", "The quick brown fox", "The dog barks loudly.", "빠른 갈색 여우",
        "Hello, world!"]


def _comet_python() -> str | None:
    given = os.environ.get("REFSCORE_COMET_PYTHON")
    candidate = Path(given) if given else HERE.parent.parent / "venv-comet" / "bin" / "python"
    return str(candidate) if candidate.is_file() else None


def _need_peer() -> str:
    python = _comet_python()
    if python is None:
        reason = ("unbabel-comet's venv is absent: set REFSCORE_COMET_PYTHON to the python of a venv with "
                  "unbabel-comet==2.2.7 (.ci/constraints-comet.txt; .ci/run builds it)")
        if os.environ.get("REFSCORE_REQUIRE_COMET") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    return python


FAMILIES = ["regression", "regression-softmax", "referenceless", "unified", "unified-kiwi"]


def _run_peer(root: Path, *arguments: str) -> None:
    python = _need_peer()
    done = subprocess.run([python, str(SCRIPT), str(root), *arguments], capture_output=True, text=True, timeout=900,
                          env={**os.environ, "PYTHONWARNINGS": "ignore", "TOKENIZERS_PARALLELISM": "false"})
    assert done.returncode == 0, done.stderr[-3000:]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """Every family's checkpoint and unbabel-comet's scores, from one run of the peer's python."""
    root = tmp_path_factory.mktemp("comet")
    cases = root / "cases.json"
    samples = [{"src": s, "mt": h, "ref": r} for s, h, r in zip(SOURCES, HYPS, REFS)]
    cases.write_text(json.dumps({"samples": samples, "batch_sizes": BATCH_SIZES}), encoding="utf-8")
    _run_peer(root, str(cases), "--family", *FAMILIES)
    return root


@pytest.fixture(params=FAMILIES)
def checkpoint(request, built):
    folder = built / request.param
    return request.param, folder, json.loads((folder / "scores.json").read_text(encoding="utf-8"))


def test_per_segment_scores_are_unbabel_comets(checkpoint):
    family, folder, expected = checkpoint
    for batch_tokens in (64, 4096):
        metric = COMET(model=str(folder), sources=SOURCES, batch_tokens=batch_tokens)
        ours = metric.sentence_scores(HYPS, REFS, num_threads=1)
        for batch_size, theirs in expected.items():
            assert np.abs(ours - np.array(theirs)).max() <= TOLERANCE, (family, batch_size, batch_tokens)
        result = metric.corpus_score(HYPS, REFS)
        assert result.score == pytest.approx(float(np.mean(expected["16"])), abs=TOLERANCE)
        assert result.higher_is_better and result.statistics.data.dtype == np.float64
        assert metric.integer_statistics is False and result.statistics.columns == ("score", "documents")


def test_public_function_and_systems_share_embeddings(checkpoint):
    family, folder, expected = checkpoint
    result = refscore.comet(HYPS, REFS, sources=SOURCES, model=str(folder))
    assert result.score == pytest.approx(float(np.mean(expected["1"])), abs=TOLERANCE)
    metric = COMET(model=str(folder), sources=SOURCES)
    from refscore.metrics.systems import statistics_by_system

    stats = statistics_by_system(metric, {"A": HYPS, "B": list(reversed(HYPS))}, REFS)
    misses = metric.model.cache.misses
    assert np.abs(metric.segment_scores(stats["A"]) - np.array(expected["4"])).max() <= TOLERANCE
    metric.statistics(list(reversed(HYPS)), REFS)   # every text already embedded: no new embeddings
    assert metric.model.cache.misses == misses


def test_workflows_take_it_unchanged(checkpoint, tmp_path, capsys):
    family, folder, expected = checkpoint
    check = refscore.testing.Check("unbabel_comet", threshold=-0.2, model=str(folder), sources=SOURCES)
    scores, _ = check.scores(HYPS, [[r] for r in REFS])
    assert np.abs(scores - np.array(expected["1"])).max() <= TOLERANCE
    assert check.passes(scores).tolist() == [s >= -0.2 for s in scores]
    metric = COMET(model=str(folder), sources=SOURCES)
    assert "COMET" in metric.explain_case(HYPS[0], [REFS[0]])
    paired = refscore.paired_test(metric, {"A": HYPS, "B": list(reversed(HYPS))}, REFS, n=50, seed=3)
    assert paired.results["unbabel_comet"][0].score == pytest.approx(float(np.mean(expected["1"])), abs=TOLERANCE)
    from refscore.cli.main import main

    for name, lines in (("hyp.txt", HYPS), ("ref.txt", REFS), ("src.txt", SOURCES)):
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["score", "-m", "unbabel_comet", "--comet-model", str(folder), "--comet-sources",
                 str(tmp_path / "src.txt"), "-r", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt"),
                 "--format", "json"]) == 0
    record = json.loads(capsys.readouterr().out)[0]["scores"]["unbabel_comet"]
    from refscore.cli.io import read_lines   # the command line's reading (it strips each line, as sacreBLEU)

    read = {name: read_lines(str(tmp_path / name)) for name in ("hyp.txt", "ref.txt", "src.txt")}
    api = COMET(model=str(folder), sources=read["src.txt"]).corpus_score(read["hyp.txt"], read["ref.txt"])
    assert record["score"] == api.score


def test_mbr_matrix_embeds_each_candidate_once(checkpoint):
    family, folder, _ = checkpoint
    candidates = [HYPS[:4], HYPS[5:9]]
    metric = COMET(model=str(folder), sources=[SOURCES[0], SOURCES[5]])
    texts = list(dict.fromkeys(candidates[0] + candidates[1]))
    items = [(np.array([texts.index(t) for t in dict.fromkeys(c)]),) * 2 for c in candidates]
    matrices = metric.pair_matrices(texts, items)
    for (cand, ref), matrix, source in zip(items, matrices, [SOURCES[0], SOURCES[5]]):
        hyps = [texts[i] for i in cand for _ in ref]
        refs = [texts[j] for _ in cand for j in ref]
        single = COMET(model=str(folder), sources=[source] * len(hyps)).sentence_scores(hyps, refs)
        assert np.abs(matrix.ravel() - single).max() <= TOLERANCE
    # refscore.mbr takes the metric unchanged: each candidate's mean utility against the item's other candidates
    chosen = refscore.mbr([list(dict.fromkeys(c)) for c in candidates], metric)
    for k, matrix in enumerate(matrices):
        n = matrix.shape[0]
        utilities = (matrix.sum(1) - np.diag(matrix)) / (n - 1)
        assert np.abs(np.asarray(chosen.utilities[k]) - utilities).max() <= TOLERANCE
        assert chosen.chosen[k] == int(np.argmax(utilities))


def test_bad_checkpoints_name_the_file(tmp_path):
    with pytest.raises(MissingModelError, match="no checkpoint at"):
        COMET(model=str(tmp_path / "absent"), sources=["a"]).warm_up()
    (tmp_path / "empty").mkdir()
    with pytest.raises(MissingModelError, match="without checkpoints/model.ckpt"):
        COMET(model=str(tmp_path / "empty"), sources=["a"]).warm_up()
    fake = tmp_path / "fake"
    (fake / "checkpoints").mkdir(parents=True)
    (fake / "checkpoints" / "model.ckpt").write_text("not a checkpoint", encoding="utf-8")
    with pytest.raises(MissingModelError, match="hparams.yaml"):
        COMET(model=str(fake), sources=["a"]).warm_up()
    (fake / "hparams.yaml").write_text("class_identifier: regression_metric\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"model.ckpt.*not a PyTorch Lightning checkpoint"):
        COMET(model=str(fake), sources=["a"]).warm_up()
    with pytest.raises(MissingModelError, match="no checkpoint given"):
        COMET(sources=["a"]).warm_up()


def test_unknown_family_and_missing_tokenizer(built, tmp_path):
    folder = built / "regression"
    bad = tmp_path / "bad"
    shutil.copytree(folder, bad)
    (bad / "hparams.yaml").write_text("class_identifier: fancy_metric\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"hparams.yaml.*'fancy_metric'.*expected one of"):
        COMET(model=str(bad), sources=["a"]).warm_up()
    (bad / "hparams.yaml").write_text("class_identifier: ranking_metric\n", encoding="utf-8")
    with pytest.raises(InputError, match="'ranking_metric' checkpoint"):
        COMET(model=str(bad), sources=["a"]).warm_up()
    encoder = tmp_path / "encoder-only-config"
    encoder.mkdir()
    shutil.copy(folder / "encoder" / "config.json", encoder / "config.json")
    with pytest.raises(MissingModelError, match="no tokenizer file; expected tokenizer.json"):
        COMET(model=str(folder), encoder=str(encoder), sources=["a"]).warm_up()
    with pytest.raises(InputError, match="no sources"):
        COMET(model=str(folder)).statistics(["a"], ["b"])
    with pytest.raises(InputError, match="2 sources for 1 segment"):
        COMET(model=str(folder), sources=["a", "b"]).statistics(["a"], ["b"])
    with pytest.raises(InputError, match="segment 0 has 2 references"):
        COMET(model=str(folder), sources=["a"]).statistics(["x"], [["y", "z"]])


def test_import_refscore_does_not_load_torch():
    done = subprocess.run([sys.executable, "-c", "import sys, refscore; refscore.COMET; "
                           "print('torch' in sys.modules, 'transformers' in sys.modules)"],
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(Path(
                              refscore.__file__).parents[1])})
    assert done.stdout.split() == ["False", "False"], done.stderr


def test_bfloat16_is_opt_in_and_close(checkpoint):
    family, folder, expected = checkpoint
    exact = COMET(model=str(folder), sources=SOURCES)
    fast = COMET(model=str(folder), sources=SOURCES, dtype="bfloat16")
    assert fast.config_hash != exact.config_hash and "dtype:bfloat16" in fast.signature_text()
    deviation = np.abs(fast.sentence_scores(HYPS, REFS) - np.array(expected["1"])).max()
    assert 0 < deviation < 0.05, deviation
    with pytest.raises(InputError, match="dtype must be one of float32, bfloat16"):
        COMET(model=str(folder), dtype="float16")


def test_report_and_meta_evaluation_take_it_unchanged(built, tmp_path):
    """The report and meta-evaluation read COMET through the protocol alone: the report's corpus score is the
    metric's, and meta-evaluation's per-segment scores are the metric's segment scores of each system."""
    from refscore.meta import MetricScores, meta_evaluate
    from refscore.meta.inputs import load_judgments

    folder = built / "regression"
    metric = COMET(model=str(folder), sources=SOURCES)
    systems = {"A": HYPS, "B": [HYPS[(i + 1) % len(HYPS)] for i in range(len(HYPS))], "C": REFS}
    page = refscore.report(systems, REFS, metrics=[metric], sources=SOURCES, n=50, seed=3)
    data = json.loads(page.split('id="refscore-data">', 1)[1].split("</script>", 1)[0])
    assert data["scoreNames"] == ["unbabel_comet"] and data["higherIsBetter"]["unbabel_comet"] is True
    for name, hyps in systems.items():   # the segment browser's scores (4 places) and the headline (2 places)
        shown = np.array(data["segments"]["scores"]["unbabel_comet"][name])
        assert np.abs(shown - metric.sentence_scores(hyps, REFS)).max() <= 5e-5
        assert f"{metric.corpus_score(hyps, REFS).score:.2f} <span" in page
    path = tmp_path / "judgments.jsonl"
    with path.open("w", encoding="utf-8") as records:
        for name, hyps in systems.items():
            for item, (hypothesis, reference) in enumerate(zip(hyps, REFS)):
                human = -float(abs(len(hypothesis) - len(reference)))   # any rating: the pipeline is under test
                records.write(json.dumps({"system": name, "seg_id": item, "hypothesis": hypothesis,
                                          "reference": reference, "mqm": human}) + "\n")
    judgments = load_judgments(str(path))
    scores = MetricScores.from_metric(metric, judgments)
    order = list(judgments.systems)
    for row, name in enumerate(order):
        assert np.abs(np.asarray(scores.segments[row]) - metric.sentence_scores(systems[name], REFS)).max() \
            <= TOLERANCE
    entries = meta_evaluate(judgments.human["mqm"], [scores], n_bootstrap=0, k=0)
    assert {entry.level for entry in entries if entry.metric == scores.name} == {"system", "segment"}
