"""``-l/--language-pair SRC-TGT`` (sacreBLEU's ``-l``) on ``score``, ``compare``, ``report`` and ``meta-eval``:
BLEU's tokenizer is the one sacreBLEU's BLEU picks for the target (``trg_lang``), an explicit ``--tokenize`` wins,
the signature names it, and text that is mostly CJK scored with 13a gets one warning line (issue 39, item 14)."""
from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import pytest

import refscore
from conftest import write_segment_files
from refscore.cli.exit_codes import ExitCode
from refscore.cli.main import build_parser, main
from refscore.cli.metric_setup import metrics_from_args
from refscore.errors import CJKTokenizerWarning
from refscore.metrics.bleu import BLEU
from refscore.text.external import get_tokenizer

sacrebleu = pytest.importorskip("sacrebleu")

CHINESE = ["我喜欢在公园里散步。", "今天天气很好，我们去海边吧。", "他昨天买了一本新书。", "这家饭店的菜非常好吃。",
           "我们明天早上八点出发。", "请把窗户关上，外面太冷了。", "她每天晚上都学习中文。", "这个问题比我想的更难。"]
CHINESE_SYSTEMS = {"a": ["我喜欢在公园散步。", "今天天气很好，我们去海边。", "他昨天买了新书。", "这家饭店的菜很好吃。",
                         "我们明天八点出发。", "请把窗户关上，外面冷。", "她每天都学习中文。", "这个问题比我想的难。"],
                   "b": ["我爱公园。", "天气好，去海边吧。", "他买了一本书。", "饭店的菜好吃。", "明天早上出发。",
                         "关上窗户。", "她晚上学习。", "问题很难。"],
                   "c": ["公园里散步。", "今天很好。", "昨天买了书。", "菜非常好吃。", "我们八点出发。",
                         "外面太冷了。", "她学习中文。", "这个问题更难。"]}
ENGLISH = ["the cat sat on the mat", "a dog ran in the park", "we leave at eight tomorrow", "the soup was good"]


def _files(folder: Path, references: list[str], systems: dict[str, list[str]]) -> tuple[str, list[str]]:
    paths = write_segment_files(folder, {"ref": references, **systems})
    return str(paths.pop("ref")), [str(path) for path in paths.values()]


def _judgments(folder: Path, references: list[str], systems: dict[str, list[str]]) -> str:
    path = folder / "ratings.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for rank, (system, lines) in enumerate(systems.items()):
            for i, (hypothesis, reference) in enumerate(zip(lines, references)):
                out.write(json.dumps({"system": system, "seg_id": i + 1, "hypothesis": hypothesis,
                                      "reference": reference, "mqm": -float(rank + (i % 3))},
                                     ensure_ascii=False) + "\n")
    return str(path)


def _command(command: str, folder: Path, references: list[str], systems: dict[str, list[str]]) -> list[str]:
    """The command line of ``command`` with BLEU on ``systems`` (small: no bootstrap, no significance)."""
    if command == "meta-eval":
        return ["meta-eval", _judgments(folder, references, systems), "-m", "bleu", "--bootstrap", "0", "--k", "0",
                "--format", "json"]
    ref, paths = _files(folder, references, systems)
    if command == "score":
        return ["score", "-m", "bleu", "-r", ref, "-i", *paths]
    if command == "compare":
        return ["compare", "-m", "bleu", "-r", ref, "-i", *paths, "--n", "20"]
    return ["report", "-m", "bleu", "-r", ref, "-i", *paths, "-o", str(folder / "report.html"), "--n", "10"]


COMMANDS = ("score", "compare", "report", "meta-eval")
PAIRS = ("en-zh", "en-ja", "en-ko", "zh-en", "en-de", "ja-zh", "de-fr")


def _sacrebleu_tok(target: str, tokenize: str | None = None) -> str:
    """The ``tok`` field of sacreBLEU's own BLEU signature for target language ``target``."""
    metric = sacrebleu.BLEU(trg_lang=target, tokenize=tokenize)
    metric.corpus_score(["a"], [["a"]])
    return dict(field.split(":", 1) for field in metric.get_signature().format().split("|"))["tok"]


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("pair", PAIRS)
def test_the_tokenizer_is_sacrebleus_choice_for_the_target(tmp_path, command, pair):
    args = build_parser().parse_args([*_command(command, tmp_path, ENGLISH, {"a": ENGLISH}), "-l", pair])
    (metric,) = metrics_from_args(args.metrics, args)
    assert metric.signature().fields["tok"] == _sacrebleu_tok(pair.split("-")[1])


@pytest.mark.parametrize("command", COMMANDS)
def test_an_explicit_tokenizer_wins(tmp_path, command):
    args = build_parser().parse_args([*_command(command, tmp_path, ENGLISH, {"a": ENGLISH}), "-l", "en-zh",
                                      "--tokenize", "char"])
    (metric,) = metrics_from_args(args.metrics, args)
    assert metric.config.tokenize == "char" == _sacrebleu_tok("zh", "char")


@pytest.mark.parametrize("command", COMMANDS)
def test_cjk_text_with_13a_warns_once_and_the_hint_silences_it(tmp_path, command, capsys):
    argv = _command(command, tmp_path, CHINESE, CHINESE_SYSTEMS)
    assert main(argv) == ExitCode.OK
    out, err = capsys.readouterr()
    warned = [line for line in err.splitlines() if "mostly Chinese text" in line]
    assert len(warned) == 1 and "-l SRC-zh" in warned[0], err
    before = _tokenizer_evidence(command, out, tmp_path)

    assert main([*argv, "-l", "en-zh"]) == ExitCode.OK
    out, err = capsys.readouterr()
    assert "mostly Chinese" not in err
    after = _tokenizer_evidence(command, out, tmp_path)
    if command == "meta-eval":   # no signature in its output (yet): the correlations move
        assert before != after
    else:
        assert "tok:13a" in before and "tok:zh" in after and "tok:13a" not in after


def _tokenizer_evidence(command: str, out: str, folder: Path) -> object:
    if command == "meta-eval":
        return [row["value"] for row in json.loads(out)["results"] if row["value"] is not None]
    return (folder / "report.html").read_text(encoding="utf-8") if command == "report" else out


@pytest.mark.parametrize("command", COMMANDS)
def test_latin_text_gets_no_warning(tmp_path, command, capsys):
    assert main(_command(command, tmp_path, ENGLISH, {"a": ENGLISH, "b": ENGLISH[::-1], "c": ENGLISH})) == 0
    assert "mostly" not in capsys.readouterr().err


def test_the_numbers_are_sacrebleus_with_its_target_language(tmp_path, capsys):
    ref, paths = _files(tmp_path, CHINESE, {"a": CHINESE_SYSTEMS["a"]})
    for hint, target in (([], ""), (["-l", "en-zh"], "zh")):
        assert main(["score", "-m", "bleu", "-r", ref, "-i", paths[0], "--format", "json", *hint]) == 0
        (row,) = json.loads(capsys.readouterr().out)
        peer = sacrebleu.BLEU(trg_lang=target).corpus_score(CHINESE_SYSTEMS["a"], [CHINESE])
        assert row["scores"]["bleu"]["score"] == peer.score
    assert peer.score > 10   # with zh; 13a sees each clause as one word (BLEU 0 here)


def test_the_missing_extra_names_the_install_command(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "MeCab", None)     # `import MeCab` raises ImportError
    get_tokenizer.__globals__["_mecab_tokenizer"].cache_clear()
    try:
        ref, paths = _files(tmp_path, ENGLISH, {"a": ENGLISH})
        assert main(["score", "-m", "bleu", "-r", ref, "-i", *paths, "-l", "en-ja"]) == ExitCode.MISSING_EXTRA
    finally:
        get_tokenizer.__globals__["_mecab_tokenizer"].cache_clear()
    assert "pip install 'refscore[ja]'" in capsys.readouterr().err


def test_a_malformed_pair_names_the_flag_and_the_form(tmp_path, capsys):
    ref, paths = _files(tmp_path, ENGLISH, {"a": ENGLISH})
    with pytest.raises(SystemExit) as exited:
        main(["score", "-r", ref, "-i", *paths, "-l", "zh"])
    assert exited.value.code == ExitCode.USAGE
    assert "-l/--language-pair 'zh' is not SRC-TGT" in capsys.readouterr().err


def test_the_api_warns_for_cjk_with_13a_only():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        refscore.bleu(CHINESE_SYSTEMS["a"], CHINESE)
        refscore.bleu(CHINESE_SYSTEMS["a"], CHINESE, tokenize="zh")
        refscore.bleu(ENGLISH, ENGLISH)
        BLEU(tokenize="intl").corpus_score(["猫が好きです。"], ["猫が大好きです。"])
        from refscore.compat.sacrebleu import BLEU as PeerBLEU  # sacreBLEU does not warn: neither does its drop-in
        PeerBLEU().corpus_score(CHINESE_SYSTEMS["a"], [CHINESE])
    messages = [str(w.message) for w in caught if issubclass(w.category, CJKTokenizerWarning)]
    assert len(messages) == 2 and "Chinese" in messages[0] and "Japanese" in messages[1], messages
