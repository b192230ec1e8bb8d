"""refscore.integrations.mlflow inside real MLflow 3, with a local tracking store (a SQLite file in a temporary
folder): ``mlflow.genai.evaluate`` on precomputed outputs with refscore's scorers gives each row the metric's
sentence score (sacreBLEU's sentence_chrf / sentence_bleu, TER) with refscore's explanation as rationale, and
``log_run`` logs a run that reads back with its corpus scores, intervals, signatures and the report artifact."""
from __future__ import annotations

import json

import numpy as np
import pytest

mlflow = pytest.importorskip("mlflow", reason="MLflow is not installed: pip install 'refscore[mlflow]' (CI installs "
                             "it with the test extra)")
pytest.importorskip("mlflow.genai", reason="MLflow 3 (mlflow.genai) is needed")
sacrebleu = pytest.importorskip("sacrebleu", reason="sacreBLEU (the oracle) is not installed")

import refscore  # noqa: E402
from refscore.errors import InputError, InputTypeError  # noqa: E402
from refscore.integrations.mlflow import log_run, scorer  # noqa: E402

OUTPUTS = ["the cat sat on the mat", "a dog barked", "", "über 猫 кошка", "the end ."]
REFERENCES = ["the cat sat on a mat", "a dog barked loudly", "nothing here", "über alles 猫", "the end ."]


@pytest.fixture()
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("MLFLOW_TRACKING_URI", f"sqlite:///{tmp_path / 'mlflow.db'}")
    monkeypatch.setenv("MLFLOW_ARTIFACT_ROOT", str(tmp_path / "artifacts"))
    monkeypatch.chdir(tmp_path)   # the default artifact location (./mlruns) lands in the temporary folder
    mlflow.set_tracking_uri(f"sqlite:///{tmp_path / 'mlflow.db'}")
    yield mlflow.MlflowClient()
    while mlflow.active_run() is not None:
        mlflow.end_run()
    mlflow.set_tracking_uri(None)


def test_genai_evaluate_gives_refscore_sentence_scores(store):
    data = [{"inputs": {"id": i}, "outputs": out, "expectations": {"expected_response": ref}}
            for i, (out, ref) in enumerate(zip(OUTPUTS, REFERENCES))]
    scorers = [scorer("chrf"), scorer("bleu"), scorer("ter", name="ter_cs", case_sensitive=True)]
    result = mlflow.genai.evaluate(data=data, scorers=scorers)
    table = result.result_df
    by_id = {json.loads(row["request"])["id"] if isinstance(row["request"], str) else row["request"]["id"]: row
             for _, row in table.iterrows()}
    chrf = [sacrebleu.sentence_chrf(o, [r]).score / 100 for o, r in zip(OUTPUTS, REFERENCES)]
    bleu = [sacrebleu.sentence_bleu(o, [r]).score / 100 for o, r in zip(OUTPUTS, REFERENCES)]
    ter = [float(refscore.TER(case_sensitive=True).sentence_score(o, [r]).score) for o, r in zip(OUTPUTS, REFERENCES)]
    for i in range(len(OUTPUTS)):
        assert by_id[i]["refscore_chrf/value"] == pytest.approx(chrf[i], abs=1e-12)
        assert by_id[i]["refscore_bleu/value"] == pytest.approx(bleu[i], abs=1e-12)
        assert by_id[i]["ter_cs/value"] == pytest.approx(ter[i], abs=1e-12)
        assert by_id[i]["refscore_bleu/rationale"] == refscore.BLEU(effective_order=True).explain_case(
            OUTPUTS[i], [REFERENCES[i]])
    assert result.metrics["refscore_chrf/mean"] == pytest.approx(np.mean(chrf), abs=1e-12)
    assert result.metrics["refscore_bleu/mean"] == pytest.approx(np.mean(bleu), abs=1e-12)
    # the run mlflow.genai.evaluate logged holds the same aggregates
    assert store.get_run(result.run_id).data.metrics["refscore_chrf/mean"] == pytest.approx(np.mean(chrf))


def test_scorer_options_and_errors():
    two = scorer("chrf", expectation="refs", word_order=2)
    feedback = two(outputs="the cat", expectations={"refs": ["a cat", "the cat sat"]})
    assert feedback.value == pytest.approx(
        sacrebleu.sentence_chrf("the cat", ["a cat", "the cat sat"], word_order=2).score / 100, abs=1e-12)
    with pytest.raises(InputError, match=r"expectations\['refs'\], which this row lacks .*expected_response"):
        two(outputs="x", expectations={"expected_response": "x"})
    with pytest.raises(InputTypeError, match="scores text outputs"):
        two(outputs={"text": "x"}, expectations={"refs": "x"})
    with pytest.raises(InputTypeError, match="string or a non-empty list"):
        two(outputs="x", expectations={"refs": []})
    with pytest.raises(InputError, match="unknown metric"):
        scorer("nope")


def test_log_run_reads_back_with_metrics_signatures_and_report(store, tmp_path):
    systems = {"base": OUTPUTS, "other": [o.upper() for o in OUTPUTS]}
    run_id = log_run(systems, REFERENCES, ["bleu", "chrf", "ter"], n=200, run_name="refscore-test")
    run = store.get_run(run_id)
    metrics = run.data.metrics
    for system, outputs in systems.items():
        for metric in (refscore.BLEU(), refscore.CHRF(), refscore.TER()):
            ci = refscore.bootstrap_ci(metric, outputs, refscore.per_segment(REFERENCES), n=200, seed=12345)
            key = f"{system}/{metric.name}"
            assert metrics[key] == pytest.approx(metric.corpus_score(outputs, refscore.per_segment(
                REFERENCES)).score, abs=1e-12)
            assert (metrics[f"{key}/lower"], metrics[f"{key}/upper"], metrics[f"{key}/ci"]) == pytest.approx(
                (ci.lower, ci.upper, ci.ci), abs=1e-12)
            assert run.data.params[f"signature/{metric.name}"] == str(ci.signature)
    assert metrics["base/bleu"] == pytest.approx(sacrebleu.corpus_bleu(OUTPUTS, [REFERENCES]).score / 100)
    assert sorted(a.path for a in store.list_artifacts(run_id, "refscore")) == ["refscore/report.html",
                                                                                "refscore/scores.json"]
    page = (tmp_path / "dl").mkdir() or store.download_artifacts(run_id, "refscore/report.html", str(tmp_path / "dl"))
    text = open(page, encoding="utf-8").read()
    assert "<html" in text.lower() and "base" in text and "other" in text
    saved = json.loads(open(store.download_artifacts(run_id, "refscore/scores.json", str(tmp_path / "dl")),
                            encoding="utf-8").read())
    assert saved["systems"]["other"]["chrf"]["score"] == metrics["other/chrf"]
    # into an active run, without the report
    with mlflow.start_run() as active:
        assert log_run(OUTPUTS, REFERENCES, "chrf", n=50, report=False) == active.info.run_id
    assert "system/chrf" in store.get_run(active.info.run_id).data.metrics
    with pytest.raises(InputTypeError, match="dict of system name"):
        log_run(3, REFERENCES)
