"""sacreBLEU's "that looks tokenized" check (issue 29, item 20): refscore's BLEU, chrF and TER warn once per call,
as a :class:`TokenizedInputWarning`, when 100 or more hypotheses end in " ." (sacreBLEU 2.6's rule, checked here
against sacreBLEU's own log); the command line prints it once on stderr; the sacreBLEU drop-in behaves as sacreBLEU
(a log message for BLEU, no Python warning).

Tokenized text is the bundled WMT17 output run through sacreBLEU's 13a tokenizer, as a tokenized system would be.
"""
from __future__ import annotations

import logging
import subprocess
import sys
import warnings
from importlib import resources

import pytest
import sacrebleu
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

import refscore
from refscore.compat import evaluate
from refscore.compat import sacrebleu as compat
from refscore.compat.sacrebleu.significance import PairedTest
from refscore.errors import RefscoreWarning, TokenizedInputWarning
from conftest import write_segment_files

DATA = resources.files("refscore") / "data" / "wmt17_en_de"
DETOKENIZED = DATA.joinpath("uedin-nmt.txt").read_text(encoding="utf-8").splitlines()
REFERENCES = DATA.joinpath("ref.txt").read_text(encoding="utf-8").splitlines()
TOKENIZED = [Tokenizer13a()(line) for line in DETOKENIZED]
METRICS = {"bleu": refscore.bleu, "chrf": refscore.chrf, "ter": refscore.ter}


def sacrebleu_says_tokenized(hypotheses: list[str], caplog: pytest.LogCaptureFixture) -> bool:
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="sacrebleu"):
        sacrebleu.BLEU().corpus_score(hypotheses, [REFERENCES[:len(hypotheses)]])
    return any("tokenized period" in record.getMessage() for record in caplog.records)


def tokenized_warnings(score, hypotheses: list[str], **options) -> list[warnings.WarningMessage]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        score(hypotheses, REFERENCES[:len(hypotheses)], **options)
    return [w for w in caught if issubclass(w.category, TokenizedInputWarning)]


def test_the_bundled_data_has_enough_tokenized_periods() -> None:
    assert sum(line.endswith(" .") for line in TOKENIZED) >= 150
    assert not any(line.endswith(" .") for line in DETOKENIZED)


@pytest.mark.parametrize("name", METRICS)
@pytest.mark.parametrize("hypotheses", [TOKENIZED, TOKENIZED[:150], DETOKENIZED,
                                        [h + " " if h.endswith(" .") else h for h in TOKENIZED],
                                        [h.replace(" .", " .\n x") for h in TOKENIZED]],
                         ids=["tokenized", "first-150", "detokenized", "trailing-space", "period-mid-text"])
def test_warns_once_per_call_exactly_where_sacrebleu_does(name: str, hypotheses: list[str], caplog) -> None:
    found = tokenized_warnings(METRICS[name], hypotheses)
    assert len(found) == int(sacrebleu_says_tokenized(hypotheses, caplog))
    if found:
        message = str(found[0].message)
        count = sum(h.endswith(" .") for h in hypotheses)
        assert message.startswith(f"{'chrF2' if name == 'chrf' else name.upper()}: {count} of the "
                                  f"{len(hypotheses)} hypotheses end in a tokenized period ('.')")
        assert "it looks like you forgot to detokenize your test data, which may hurt your score" in message
        assert "warnings.filterwarnings('ignore', category=refscore.errors.TokenizedInputWarning)" in message
        assert found[0].filename == __file__   # points at the caller's line, not into refscore
        assert issubclass(found[0].category, RefscoreWarning) and issubclass(found[0].category, UserWarning)


def test_the_threshold_is_sacrebleus_100_lines(caplog) -> None:
    periods = [h for h in TOKENIZED if h.endswith(" .")]
    for lines in (99, 100):
        hypotheses = periods[:lines]
        assert sacrebleu_says_tokenized(hypotheses, caplog) == (lines == 100)
        assert [len(tokenized_warnings(score, hypotheses)) for score in METRICS.values()] == [int(lines == 100)] * 3


def test_bleu_advises_tokenize_none_and_is_quiet_with_it() -> None:
    assert "pass tokenize='none' (command line: --tokenize none)" in str(
        tokenized_warnings(refscore.bleu, TOKENIZED)[0].message)
    assert tokenized_warnings(refscore.bleu, TOKENIZED, tokenize="none") == []
    token_ids = [[len(word) for word in line.split()] + [0] for line in TOKENIZED]
    assert tokenized_warnings(lambda h, r: refscore.BLEU().corpus_score(h, [[0]] * len(h)), token_ids) == []


@pytest.mark.parametrize("name", METRICS)
def test_a_warnings_filter_silences_it(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", category=TokenizedInputWarning)
        METRICS[name](TOKENIZED, REFERENCES)


@pytest.mark.parametrize("call", [
    lambda: compat.corpus_bleu(TOKENIZED, [REFERENCES]),
    lambda: compat.corpus_chrf(TOKENIZED, [REFERENCES]),
    lambda: compat.corpus_ter(TOKENIZED, [REFERENCES]),
    lambda: compat.BLEU(tokenize="none").corpus_score(TOKENIZED, [REFERENCES], n_bootstrap=2),
    lambda: PairedTest([("a", TOKENIZED), ("b", DETOKENIZED)], {"BLEU": compat.BLEU()},
                       [REFERENCES], n_samples=2)(),
    lambda: evaluate.load("sacrebleu").compute(predictions=TOKENIZED, references=[[r] for r in REFERENCES]),
    lambda: evaluate.load("chrf").compute(predictions=TOKENIZED, references=[[r] for r in REFERENCES]),
    lambda: evaluate.load("ter").compute(predictions=TOKENIZED, references=[[r] for r in REFERENCES]),
], ids=["corpus_bleu", "corpus_chrf", "corpus_ter", "BLEU-bootstrap", "PairedTest", "hf-sacrebleu", "hf-chrf",
        "hf-ter"])
def test_drop_ins_raise_no_python_warning_as_sacrebleu(call) -> None:
    with warnings.catch_warnings(record=True) as peer:
        warnings.simplefilter("always")
        sacrebleu.corpus_bleu(TOKENIZED, [REFERENCES])
        sacrebleu.corpus_chrf(TOKENIZED, [REFERENCES])
        sacrebleu.corpus_ter(TOKENIZED, [REFERENCES])
    assert not [w for w in peer if issubclass(w.category, UserWarning)]   # sacreBLEU only logs (BLEU)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RefscoreWarning)
        call()


def test_drop_in_logs_sacrebleus_three_lines_for_bleu_only(caplog) -> None:
    logged = []
    for module in (sacrebleu, compat):
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="sacrebleu"):
            module.corpus_bleu(TOKENIZED, [REFERENCES])
            module.corpus_chrf(TOKENIZED, [REFERENCES])
            module.corpus_ter(TOKENIZED, [REFERENCES])
        logged.append([record.getMessage() for record in caplog.records])
    assert logged[0] == logged[1] and len(logged[0]) == 3


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "refscore.cli", *args], capture_output=True, text=True)


def test_command_line_prints_the_warning_once_on_stderr(tmp_path) -> None:
    half = TOKENIZED[:150] + DETOKENIZED[150:]   # a second system, tokenized too: no second line
    files = write_segment_files(tmp_path, {"tok": TOKENIZED, "half": half, "detok": DETOKENIZED, "ref": REFERENCES})
    process = cli("score", "-m", "bleu,chrf,ter", "-r", str(files["ref"]), "-i", str(files["tok"]),
                  str(files["half"]), "--format", "json")
    assert sum(h.endswith(" .") for h in half) >= 100
    assert process.returncode == 0, process.stderr
    lines = process.stderr.splitlines()
    count = sum(h.endswith(" .") for h in TOKENIZED)
    assert lines == [f"refscore: warning: BLEU: {count} of the 300 hypotheses end in a tokenized period ('.'), "
                     f"sacreBLEU's sign of tokenized text (from 100 such lines on): it looks like you forgot to "
                     f"detokenize your test data, which may hurt your score. Detokenize the hypotheses (and "
                     f"references); if both sides are tokenized on purpose, pass tokenize='none' (command line: "
                     f"--tokenize none) so that they are not tokenized again. To silence this warning: "
                     f"warnings.filterwarnings('ignore', category=refscore.errors.TokenizedInputWarning) (command "
                     f"line: PYTHONWARNINGS=ignore::UserWarning)"]
    assert '"bleu"' in process.stdout   # the scores are printed as usual
    for args in (("-m", "bleu", "--tokenize", "none", "-i", str(files["tok"])),
                 ("-m", "bleu,chrf,ter", "-i", str(files["detok"]))):
        quiet = cli("score", "-r", str(files["ref"]), *args)
        assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr


def test_command_line_warning_is_silenced_by_pythonwarnings(tmp_path) -> None:
    files = write_segment_files(tmp_path, {"tok": TOKENIZED, "ref": REFERENCES})
    process = subprocess.run([sys.executable, "-W", "ignore::UserWarning", "-m", "refscore.cli", "score", "-m",
                              "chrf", "-r", str(files["ref"]), "-i", str(files["tok"])], capture_output=True, text=True)
    assert process.returncode == 0 and process.stderr == ""
