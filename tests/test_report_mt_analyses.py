"""The report's compare-mt analyses (length ratio, brevity penalty, word F-measure by frequency bucket, length
differences) against compare-mt 0.2.10's own functions, called in-process on the same words (sacreBLEU's 13a
tokens), on WMT17 en-de; the HTML section, the LaTeX export and ``refscore report --latex``."""
from __future__ import annotations

import math
import subprocess
import sys
import warnings

import pytest
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from conftest import read_segments, shared_data_path, write_segment_files
from refscore.cli.exit_codes import ExitCode
from refscore.errors import TokenizedInputWarning
from refscore.example import load_example
from refscore.metrics.bleu import BLEU
from refscore.metrics.chrf import CHRF
from refscore.metrics.rouge.metric import ROUGE

pytest.importorskip("bokeh", reason="the report needs the 'report' extra: pip install 'refscore[report]'")
bucketers = pytest.importorskip("compare_mt.bucketers", reason="parity needs compare-mt: pip install compare-mt==0.2.10 six")
from compare_mt import scorers  # noqa: E402

import refscore  # noqa: E402
from refscore.reporting.data import gather  # noqa: E402
from refscore.reporting.mt_analyses import (analyse, length_difference_counts, report_latex,  # noqa: E402
                                            word_accuracy_by_frequency)


def compare_mt_words(texts: list[str]) -> list[list[str]]:
    """What compare-mt reads from a file tokenized with sacreBLEU's 13a tokenizer: the words of each line."""
    tokenizer = Tokenizer13a()
    return [tokenizer(text.rstrip()).split() for text in texts]


def compare_mt_brevity_penalty(reference: list[list[str]], output: list[list[str]]) -> float:
    """The brevity penalty inside compare-mt's BLEU: its score divided by its own precisions' geometric mean (from
    its cached statistics), so that the number is compare-mt's, not a formula written here."""
    scorer = scorers.BleuScorer()
    cached = scorer.cache_stats(reference, output)
    score, _ = scorer.score_cached_corpus(range(len(reference)), cached)   # what its score_corpus returns
    matches, totals = [0] * 4, [0] * 4
    for _, _, precisions in cached:
        for n, (num, denom) in enumerate(precisions):
            matches[n] += num
            totals[n] += denom
    return score / scorer.scale / math.exp(sum(0.25 * math.log(m / t) for m, t in zip(matches, totals)))


def check_against_compare_mt(systems: dict[str, list[str]], references: list[str]) -> None:
    # real systems are longer than the reference here: one made shorter gives a brevity penalty below 1
    first = next(iter(systems.values()))
    systems = {**systems, "shortened": [" ".join(text.split()[:-3]) for text in first]}
    data = gather(systems, [[r] for r in references], [BLEU()], n=10)
    analyses = analyse(data)
    reference = compare_mt_words(references)
    outputs = [compare_mt_words(systems[name]) for name in data.systems]
    # lengths: compare-mt's "length" score and the brevity penalty of its BLEU (and of sacreBLEU's)
    length = scorers.create_scorer_from_profile("length")
    for name, output in zip(data.systems, outputs):
        ratio = analyses.lengths[name]
        assert ratio.ratio == length.score_corpus(reference, output)[0]
        assert (ratio.hypothesis_words, ratio.reference_words) == (sum(map(len, output)), sum(map(len, reference)))
        assert ratio.brevity_penalty == pytest.approx(compare_mt_brevity_penalty(reference, output), rel=1e-12)
        assert ratio.brevity_penalty == SacreBLEU().corpus_score(systems[name], [references]).bp
    assert analyses.lengths["shortened"].brevity_penalty < 0.9
    # word accuracy by reference frequency: compare-mt's default bucketer, frequencies counted in the reference
    bucketer = bucketers.create_word_bucketer_from_profile("freq", freq_data=reference)
    statistics, *_ = bucketer.calc_statistics(reference, outputs)
    words = analyses.words
    assert words.labels == bucketer.bucket_strs
    for name, rows in zip(data.systems, statistics):
        mine = list(zip(words.matches[name], words.reference_words, words.output_words[name], words.recall[name],
                        words.precision[name], words.fmeasure[name]))
        assert mine == [tuple(row) for row in rows]   # counts and floats alike, exactly
    # length differences: compare-mt's lengthdiff sentence bucketer, counting segments
    lengthdiff = bucketers.create_sentence_bucketer_from_profile("lengthdiff")
    assert analyses.length_differences.labels == lengthdiff.bucket_strs
    for name, output in zip(data.systems, outputs):
        corpus = lengthdiff.create_bucketed_corpus(output, ref=reference)
        assert analyses.length_differences.counts[name] == [len(bucket[0]) for bucket in corpus]


def test_equal_to_compare_mt_on_the_bundled_wmt17_sample():
    example = load_example()
    check_against_compare_mt(example.systems, [refs[0] for refs in example.references])


def test_equal_to_compare_mt_on_wmt17_en_de():
    folder = shared_data_path("wmt17", "en-de")
    names = ("uedin-nmt.4722", "online-A.0", "PROMT-Rule-based.4735")
    systems = {name: read_segments(folder / "sys" / f"{name}.txt") for name in names}
    check_against_compare_mt(systems, read_segments(folder / "ref.txt"))


def test_training_corpus_frequencies_as_compare_mt():
    example = load_example()
    reference = compare_mt_words([refs[0] for refs in example.references])
    outputs = {name: compare_mt_words(texts) for name, texts in example.systems.items()}
    counts = {}
    for words in compare_mt_words(example.systems["online-B"]):   # any other corpus stands in for training data
        for word in words:
            counts[word] = counts.get(word, 0) + 1
    edges = (1, 3, 10)
    mine = word_accuracy_by_frequency(reference, outputs, frequencies=counts, edges=edges)
    bucketer = bucketers.FreqWordBucketer(freq_counts=counts, bucket_cutoffs=list(edges))
    statistics, *_ = bucketer.calc_statistics(reference, list(outputs.values()))
    assert mine.labels == bucketer.bucket_strs == ["<1", "[1,3)", "[3,10)", ">=10"]
    for name, rows in zip(outputs, statistics):
        assert mine.fmeasure[name] == [row[5] for row in rows] and mine.matches[name] == [row[0] for row in rows]


def test_words_follow_the_reports_bleu_settings_and_several_references_use_the_first():
    systems = {"a": ["The Cat sat .", "", "x"], "b": ["the cat", "A dog barked loudly", "x"]}
    references = [["the cat sat .", "a cat"], ["a dog barked", "the dog"], ["x", "y"]]
    data = gather(systems, references, [BLEU(lowercase=True)], n=10)
    analyses = analyse(data)
    assert sum(analyses.words.matches["a"]) == 5        # lowercased as the report's BLEU: "the cat sat ." and "x"
    differences = analyses.length_differences
    assert differences.counts["b"][differences.labels.index("1")] == 1   # 4 words against the first reference's 3
    # the length ratio is BLEU's (closest reference length per segment)
    expected = BLEU(lowercase=True).corpus_score(systems["b"], references)
    lengths = analyses.lengths["b"]
    assert (lengths.reference_words, lengths.ratio) == (expected.values["ref_len"], expected.values["ratio"])
    with pytest.raises(refscore.errors.InputError, match=r"systems\['x'\] has 1 segments but there are 2"):
        length_difference_counts([["a"], ["b"]], {"x": [["a"]]})


def test_report_shows_the_section_and_writes_latex(tmp_path):
    example = load_example()
    latex = tmp_path / "tables.tex"
    page = refscore.report(example.systems, example.references, ["chrf"], n=20, latex=latex)
    assert '<section id="mt-analyses"' in page and 'href="#mt-analyses"' in page
    analyses = analyse(gather(example.systems, example.references, [CHRF()], n=20))   # BLEU's words all the same
    section = page[page.index('<section id="mt-analyses"'):page.index('<section id="differences"')]
    for number, (name, ratio) in enumerate(analyses.lengths.items(), 1):   # systems numbered as on the whole page
        assert f'<th scope="row">{number}&nbsp;{name}</th><td>{ratio.hypothesis_words}</td>' in section
        assert f"<td>{ratio.ratio:.4f}</td><td>{ratio.brevity_penalty:.4f}</td>" in section
        assert section.count(f'<th scope="col"><abbr title="{name}">{number}</abbr></th>') == 2
    fmeasure = "".join(f"<td>{analyses.words.fmeasure[name][5]:.4f}</td>" for name in analyses.lengths)
    assert f'<th scope="row">[5,10)</th><td>{analyses.words.reference_words[5]}</td>{fmeasure}</tr>' in section
    text = latex.read_text(encoding="utf-8")
    assert text.count("\\begin{tabular}") == 4 and "\\toprule" in text and "PROMT-Rule-based" in text
    assert f"[5,10) & {analyses.words.reference_words[5]} & " in text   # a bucket and its reference words
    assert "% words: nrefs:1|case:mixed|eff:no|tok:13a" in text


def test_report_latex_escapes_names():
    data = gather({"sys_1 & 50%": ["a b c d e"], "b": ["a b c d"]}, [["a b c d e"]], [BLEU()], n=10)
    text = report_latex(data, analyse(data))
    assert "sys\\_1 \\& 50\\%" in text and "sys_1 &" not in text
    lower, upper = data.intervals["b"]["bleu"]   # the corpus table: the page's 0-100 numbers with the interval
    assert f"b & {100 * data.corpus['b']['bleu']:.2f} [{100 * lower:.2f}, {100 * upper:.2f}] \\\\" in text


def test_command_line_latex(tmp_path):
    example = load_example()
    paths = write_segment_files(tmp_path, {"ref": [refs[0] for refs in example.references], **example.systems})
    out, latex = tmp_path / "report.html", tmp_path / "report.tex"
    process = subprocess.run([sys.executable, "-m", "refscore.cli", "report", "-r", str(paths["ref"]), "-i",
                              *(str(paths[name]) for name in example.systems), "-m", "bleu", "--n", "20", "-o",
                              str(out), "--latex", str(latex)], capture_output=True, text=True)
    assert process.returncode == ExitCode.OK, process.stderr
    assert f"refscore: wrote {latex} (LaTeX tables)" in process.stdout
    assert "mt-analyses" in out.read_text(encoding="utf-8")
    text = latex.read_text(encoding="utf-8")
    assert text.count("\\begin{tabular}") == 4 and "length ratio" in text


def test_command_line_latex_errors(tmp_path):
    example = load_example()
    paths = write_segment_files(tmp_path, {"ref": [refs[0] for refs in example.references], **example.systems})
    inputs = ["-r", str(paths["ref"]), "-i", *(str(paths[name]) for name in example.systems), "-m", "bleu"]
    out = tmp_path / "report.html"
    for arguments, code, message in (
            ([*inputs, "--latex", str(tmp_path / "missing" / "t.tex")], ExitCode.UNWRITABLE_OUTPUT,
             f"--latex {tmp_path / 'missing' / 't.tex'}: the folder does not exist"),
            (["--test-run", str(tmp_path / "run.json"), "--latex", str(tmp_path / "t.tex")], ExitCode.USAGE,
             "--latex writes the tables of systems: add -i FILE")):
        process = subprocess.run([sys.executable, "-m", "refscore.cli", "report", *arguments, "-o", str(out)],
                                 capture_output=True, text=True)
        assert process.returncode == code and process.stderr.startswith(f"refscore: error: {message}"), \
            process.stderr
        assert "Traceback" not in process.stderr and not out.exists()   # refused before any work
    with pytest.raises(refscore.errors.InputError, match="latex: the LaTeX tables are those of systems"):
        refscore.report(test_run={"cases": []}, latex=tmp_path / "t.tex")


def test_frequencies_from_a_training_file_as_compare_mt(tmp_path):
    example = load_example()
    data = gather(example.systems, example.references, [BLEU()], n=10)
    training = read_segments(shared_data_path("wmt17", "en-de", "sys", "online-A.0.txt"))   # stands in for it
    analyses = analyse(data, frequency_texts=training)
    corpus = tmp_path / "train.tok"   # what compare-mt reads: one tokenized line per segment
    corpus.write_text("".join(" ".join(words) + "\n" for words in compare_mt_words(training)), encoding="utf-8")
    reference = compare_mt_words([refs[0] for refs in example.references])
    outputs = [compare_mt_words(example.systems[name]) for name in data.systems]
    bucketer = bucketers.create_word_bucketer_from_profile("freq", freq_corpus_file=str(corpus))
    statistics, *_ = bucketer.calc_statistics(reference, outputs)
    for name, rows in zip(data.systems, statistics):
        assert list(zip(analyses.words.matches[name], analyses.words.reference_words,
                        analyses.words.output_words[name], analyses.words.fmeasure[name])) == \
            [(row[0], row[1], row[2], row[5]) for row in rows]
    assert analyses.words.reference_words[0] > 0   # reference words the training text lacks: bucket <1
    with pytest.raises(refscore.errors.InputError, match="frequency_texts must be a list of strings"):
        analyse(data, frequency_texts="one string")


def test_analyses_without_the_users_bleu_give_no_bleu_advice():
    """The analyses count BLEU's words even when the report has no BLEU: sacreBLEU's "looks tokenized" advice
    (100+ outputs ending in ' .') is about a BLEU the user did not ask for, so it is not shown."""
    tokenized = [f"word {i} ." for i in range(120)]
    with warnings.catch_warnings():
        warnings.simplefilter("error", TokenizedInputWarning)
        with pytest.warns(TokenizedInputWarning):   # the check fires on this input when BLEU is asked for
            BLEU().statistics(tokenized, [[t] for t in tokenized])
        analyse(gather({"a": tokenized, "b": tokenized[::-1]}, [[t] for t in tokenized], [ROUGE(types=("rouge1",))],
                       n=10))
