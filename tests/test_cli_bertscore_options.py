"""BERTScore's runtime options on ``score`` and ``compare`` (one definition), and every BERTScore option checked
before a model loads: a bad model, layer or device fails at once, with no weights read."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

import refscore.metrics.bertscore.models as models
import refscore.metrics.bertscore.scorer as scorer_module
from refscore.cli.exit_codes import ExitCode
from refscore.cli.main import build_parser, main
from refscore.cli.metric_setup import metrics_from_args


@pytest.fixture
def config_only_model(tmp_path):
    """A local model directory with a 3-layer config.json and nothing else: loading it would fail."""
    directory = tmp_path / "tiny-model"
    directory.mkdir()
    (directory / "config.json").write_text(json.dumps({"model_type": "bert", "num_hidden_layers": 3,
                                                       "hidden_size": 32}), encoding="utf-8")
    return directory


@pytest.fixture
def no_loading(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a model was loaded before the options were checked")

    monkeypatch.setattr(models, "load_model", refuse)
    monkeypatch.setattr(scorer_module, "load_model", refuse)


@pytest.mark.parametrize("command", ["score", "compare"])
def test_runtime_options_on_score_and_compare(command, config_only_model):
    args = build_parser().parse_args([command, "-m", "bertscore", "--bertscore-model", str(config_only_model),
                                      "--bertscore-layers", "2", "--device", "cpu", "--bertscore-batch-tokens", "512",
                                      "-w", "3", "-r", "ref.txt", "-i", "a.txt", "b.txt"])
    assert (args.device, args.bertscore_batch_tokens, args.width) == ("cpu", 512, 3)
    (metric,) = metrics_from_args(args.metrics, args)
    assert (metric.device, metric.batch_tokens) == ("cpu", 512)   # lazily loaded: nothing read yet


@pytest.mark.parametrize("options, exit_code, message", [
    ([], ExitCode.BAD_INPUT, "it has 3 layers; pass num_layers=N to use the output of layer N (0 = embeddings) "
                             "(on the command line: num_layers is --bertscore-layers)"),
    (["--bertscore-layers", "7"], ExitCode.BAD_INPUT, "num_layers=7 is out of range for model"),
    (["--bertscore-layers", "2", "--device", "gpu0"], ExitCode.USAGE, "argument --device: 'gpu0' is not a device"),
    (["--bertscore-layers", "2", "--bertscore-batch-tokens", "0"], ExitCode.USAGE, "--bertscore-batch-tokens"),
])
def test_bad_options_fail_before_any_loading(config_only_model, no_loading, capsys, tmp_path, options, exit_code,
                                             message):
    missing = tmp_path / "not-read.txt"   # the inputs are read after the checks: a missing file is not reported
    try:
        code = main(["score", "-m", "bleu,bertscore", "--bertscore-model", str(config_only_model), *options,
                     "-r", str(missing), "-i", str(missing)])
    except SystemExit as exc:  # argparse's own usage errors
        code = exc.code
    assert code == exit_code
    assert message in capsys.readouterr().err


def test_unknown_model_name_without_layers_fails_up_front(no_loading, capsys, tmp_path):
    missing = tmp_path / "not-read.txt"
    assert main(["score", "-m", "bertscore", "--bertscore-model", "my-org/not-in-the-table", "-r", str(missing),
                 "-i", str(missing)]) == ExitCode.BAD_INPUT
    assert "num_layers is required for model 'my-org/not-in-the-table'" in capsys.readouterr().err


def test_the_check_needs_no_torch(config_only_model, tmp_path):
    """In a fresh interpreter the failed check has imported neither torch nor transformers (so it is quick)."""
    code = ("import sys; from refscore.cli.main import main; "
            f"rc = main(['score', '-m', 'bertscore', '--bertscore-model', {str(config_only_model)!r}, "
            f"'-r', 'x', '-i', 'x']); "
            "print(rc, 'torch' in sys.modules, 'transformers' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == [str(int(ExitCode.BAD_INPUT)), "False", "False"]


def test_directory_without_weights_is_a_clear_error(config_only_model):
    pytest.importorskip("transformers")
    from refscore.errors import InputError

    with pytest.raises(InputError, match="give the directory that holds the model's config.json, weights"):
        models.from_pretrained(pytest.importorskip("transformers").AutoModel, str(config_only_model), "weights")
