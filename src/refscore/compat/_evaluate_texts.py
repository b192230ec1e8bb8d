"""The metadata texts of the Hugging Face ``evaluate`` metric scripts that :mod:`refscore.compat.evaluate` stands in
for (``description``, ``citation``, ``inputs_description``, homepage and URLs), copied from the scripts in
github.com/huggingface/evaluate (``metrics/<name>/<name>.py``; Apache-2.0, Copyright The HuggingFace Evaluate
Authors). Data only.
"""
from __future__ import annotations

#: name -> {"citation", "description", "inputs_description", "homepage", "codebase_urls", "reference_urls"}
TEXTS: dict[str, dict[str, object]] = {}

TEXTS['bleu'] = {
    'citation': (
        '@INPROCEEDINGS{Papineni02bleu:a,\n'
        '    author = {Kishore Papineni and Salim Roukos and Todd Ward and Wei-jing Zhu},\n'
        '    title = {BLEU: a Method for Automatic Evaluation of Machine Translation},\n'
        '    booktitle = {},\n'
        '    year = {2002},\n'
        '    pages = {311--318}\n'
        '}\n'
        '@inproceedings{lin-och-2004-orange,\n'
        '    title = "{ORANGE}: a Method for Evaluating Automatic Evaluation Metrics for Machine Translation",\n'
        '    author = "Lin, Chin-Yew  and\n'
        '      Och, Franz Josef",\n'
        '    booktitle = "{COLING} 2004: Proceedings of the 20th International Conference on Computational Linguistics",\n'
        '    month = "aug 23{--}aug 27",\n'
        '    year = "2004",\n'
        '    address = "Geneva, Switzerland",\n'
        '    publisher = "COLING",\n'
        '    url = "https://www.aclweb.org/anthology/C04-1072",\n'
        '    pages = "501--507",\n'
        '}\n'
    ),
    'description': (
        'BLEU (Bilingual Evaluation Understudy) is an algorithm for evaluating the quality of text which has been machine-translated from one natural language to another.\n'
        'Quality is considered to be the correspondence between a machine\'s output and that of a human: "the closer a machine translation is to a professional human translation, the better it is"\n'
        '– this is the central idea behind BLEU. BLEU was one of the first metrics to claim a high correlation with human judgements of quality, and remains one of the most popular automated and inexpensive metrics.\n'
        '\n'
        'Scores are calculated for individual translated segments—generally sentences—by comparing them with a set of good quality reference translations.\n'
        "Those scores are then averaged over the whole corpus to reach an estimate of the translation's overall quality.\n"
        'Neither intelligibility nor grammatical correctness are not taken into account.\n'
    ),
    'inputs_description': (
        '\n'
        'Computes BLEU score of translated segments against one or more references.\n'
        'Args:\n'
        '    predictions: list of translations to score.\n'
        '    references: list of lists of or just a list of references for each translation.\n'
        '    tokenizer : approach used for tokenizing `predictions` and `references`.\n'
        '        The default tokenizer is `tokenizer_13a`, a minimal tokenization approach that is equivalent to `mteval-v13a`, used by WMT.\n'
        '        This can be replaced by any function that takes a string as input and returns a list of tokens as output.\n'
        '    max_order: Maximum n-gram order to use when computing BLEU score.\n'
        '    smooth: Whether or not to apply Lin et al. 2004 smoothing.\n'
        'Returns:\n'
        "    'bleu': bleu score,\n"
        "    'precisions': geometric mean of n-gram precisions,\n"
        "    'brevity_penalty': brevity penalty,\n"
        "    'length_ratio': ratio of lengths,\n"
        "    'translation_length': translation_length,\n"
        "    'reference_length': reference_length\n"
        'Examples:\n'
        '\n'
        '    >>> predictions = ["hello there general kenobi", "foo bar foobar"]\n'
        '    >>> references = [\n'
        '    ...     ["hello there general kenobi", "hello there!"],\n'
        '    ...     ["foo bar foobar"]\n'
        '    ... ]\n'
        '    >>> bleu = evaluate.load("bleu")\n'
        '    >>> results = bleu.compute(predictions=predictions, references=references)\n'
        '    >>> print(results["bleu"])\n'
        '    1.0\n'
    ),
    'homepage': '',
    'codebase_urls': ['https://github.com/tensorflow/nmt/blob/master/nmt/scripts/bleu.py'],
    'reference_urls': ['https://en.wikipedia.org/wiki/BLEU', 'https://towardsdatascience.com/evaluating-text-output-in-nlp-bleu-at-your-own-risk-e8609665a213'],
}

TEXTS['google_bleu'] = {
    'citation': (
        '@misc{wu2016googles,\n'
        "      title={Google's Neural Machine Translation System: Bridging the Gap between Human and Machine Translation},\n"
        '      author={Yonghui Wu and Mike Schuster and Zhifeng Chen and Quoc V. Le and Mohammad Norouzi and Wolfgang Macherey\n'
        '              and Maxim Krikun and Yuan Cao and Qin Gao and Klaus Macherey and Jeff Klingner and Apurva Shah and Melvin\n'
        '              Johnson and Xiaobing Liu and Łukasz Kaiser and Stephan Gouws and Yoshikiyo Kato and Taku Kudo and Hideto\n'
        '              Kazawa and Keith Stevens and George Kurian and Nishant Patil and Wei Wang and Cliff Young and\n'
        '              Jason Smith and Jason Riesa and Alex Rudnick and Oriol Vinyals and Greg Corrado and Macduff Hughes\n'
        '              and Jeffrey Dean},\n'
        '      year={2016},\n'
        '      eprint={1609.08144},\n'
        '      archivePrefix={arXiv},\n'
        '      primaryClass={cs.CL}\n'
        '}\n'
    ),
    'description': (
        'The BLEU score has some undesirable properties when used for single\n'
        'sentences, as it was designed to be a corpus measure. We therefore\n'
        'use a slightly different score for our RL experiments which we call\n'
        "the 'GLEU score'. For the GLEU score, we record all sub-sequences of\n"
        '1, 2, 3 or 4 tokens in output and target sequence (n-grams). We then\n'
        'compute a recall, which is the ratio of the number of matching n-grams\n'
        'to the number of total n-grams in the target (ground truth) sequence,\n'
        'and a precision, which is the ratio of the number of matching n-grams\n'
        'to the number of total n-grams in the generated output sequence. Then\n'
        'GLEU score is simply the minimum of recall and precision. This GLEU\n'
        "score's range is always between 0 (no matches) and 1 (all match) and\n"
        'it is symmetrical when switching output and target. According to\n'
        'our experiments, GLEU score correlates quite well with the BLEU\n'
        'metric on a corpus level but does not have its drawbacks for our per\n'
        'sentence reward objective.\n'
    ),
    'inputs_description': (
        'Computes corpus-level Google BLEU (GLEU) score of translated segments against one or more references.\n'
        'Instead of averaging the sentence level GLEU scores (i.e. macro-average precision), Wu et al. (2016) sum up the matching\n'
        'tokens and the max of hypothesis and reference tokens for each sentence, then compute using the aggregate values.\n'
        '\n'
        'Args:\n'
        '    predictions (list of str): list of translations to score.\n'
        '    references (list of list of str): list of lists of references for each translation.\n'
        '    tokenizer : approach used for tokenizing `predictions` and `references`.\n'
        '        The default tokenizer is `tokenizer_13a`, a minimal tokenization approach that is equivalent to `mteval-v13a`, used by WMT.\n'
        '        This can be replaced by any function that takes a string as input and returns a list of tokens as output.\n'
        '    min_len (int): The minimum order of n-gram this function should extract. Defaults to 1.\n'
        '    max_len (int): The maximum order of n-gram this function should extract. Defaults to 4.\n'
        '\n'
        'Returns:\n'
        "    'google_bleu': google_bleu score\n"
        '\n'
        'Examples:\n'
        '    Example 1:\n'
        "        >>> predictions = ['It is a guide to action which ensures that the rubber duck always disobeys the commands of the cat',         'he read the book because he was interested in world history']\n"
        "        >>> references = [['It is the guiding principle which guarantees the rubber duck forces never being under the command of the cat'],         ['he was interested in world history because he read the book']]\n"
        '        >>> google_bleu = evaluate.load("google_bleu")\n'
        '        >>> results = google_bleu.compute(predictions=predictions, references=references)\n'
        '        >>> print(round(results["google_bleu"], 2))\n'
        '        0.44\n'
        '\n'
        '    Example 2:\n'
        "        >>> predictions = ['It is a guide to action which ensures that the rubber duck always disobeys the commands of the cat',         'he read the book because he was interested in world history']\n"
        "        >>> references = [['It is the guiding principle which guarantees the rubber duck forces never being under the command of the cat',         'It is a guide to action that ensures that the rubber duck will never heed the cat commands',         'It is the practical guide for the rubber duck army never to heed the directions of the cat'],         ['he was interested in world history because he read the book']]\n"
        '        >>> google_bleu = evaluate.load("google_bleu")\n'
        '        >>> results = google_bleu.compute(predictions=predictions, references=references)\n'
        '        >>> print(round(results["google_bleu"], 2))\n'
        '        0.61\n'
        '\n'
        '    Example 3:\n'
        "        >>> predictions = ['It is a guide to action which ensures that the rubber duck always disobeys the commands of the cat',         'he read the book because he was interested in world history']\n"
        "        >>> references = [['It is the guiding principle which guarantees the rubber duck forces never being under the command of the cat',         'It is a guide to action that ensures that the rubber duck will never heed the cat commands',         'It is the practical guide for the rubber duck army never to heed the directions of the cat'],         ['he was interested in world history because he read the book']]\n"
        '        >>> google_bleu = evaluate.load("google_bleu")\n'
        '        >>> results = google_bleu.compute(predictions=predictions, references=references, min_len=2)\n'
        '        >>> print(round(results["google_bleu"], 2))\n'
        '        0.53\n'
        '\n'
        '    Example 4:\n'
        "        >>> predictions = ['It is a guide to action which ensures that the rubber duck always disobeys the commands of the cat',         'he read the book because he was interested in world history']\n"
        "        >>> references = [['It is the guiding principle which guarantees the rubber duck forces never being under the command of the cat',         'It is a guide to action that ensures that the rubber duck will never heed the cat commands',         'It is the practical guide for the rubber duck army never to heed the directions of the cat'],         ['he was interested in world history because he read the book']]\n"
        '        >>> google_bleu = evaluate.load("google_bleu")\n'
        '        >>> results = google_bleu.compute(predictions=predictions,references=references, min_len=2, max_len=6)\n'
        '        >>> print(round(results["google_bleu"], 2))\n'
        '        0.4\n'
    ),
    'homepage': '',
    'codebase_urls': [],
    'reference_urls': [],
}

TEXTS['sacrebleu'] = {
    'citation': (
        '@inproceedings{post-2018-call,\n'
        '    title = "A Call for Clarity in Reporting {BLEU} Scores",\n'
        '    author = "Post, Matt",\n'
        '    booktitle = "Proceedings of the Third Conference on Machine Translation: Research Papers",\n'
        '    month = oct,\n'
        '    year = "2018",\n'
        '    address = "Belgium, Brussels",\n'
        '    publisher = "Association for Computational Linguistics",\n'
        '    url = "https://www.aclweb.org/anthology/W18-6319",\n'
        '    pages = "186--191",\n'
        '}\n'
    ),
    'description': (
        'SacreBLEU provides hassle-free computation of shareable, comparable, and reproducible BLEU scores.\n'
        "Inspired by Rico Sennrich's `multi-bleu-detok.perl`, it produces the official WMT scores but works with plain text.\n"
        'It also knows all the standard test sets and handles downloading, processing, and tokenization for you.\n'
        '\n'
        'See the [README.md] file at https://github.com/mjpost/sacreBLEU for more information.\n'
    ),
    'inputs_description': (
        '\n'
        'Produces BLEU scores along with its sufficient statistics\n'
        'from a source against one or more references.\n'
        '\n'
        'Args:\n'
        '    predictions (`list` of `str`): list of translations to score. Each translation should be tokenized into a list of tokens.\n'
        '    references (`list` of `list` of `str`): A list of lists of references. The contents of the first sub-list are the references for the first prediction, the contents of the second sub-list are for the second prediction, etc. Note that there must be the same number of references for each prediction (i.e. all sub-lists must be of the same length).\n'
        "    smooth_method (`str`): The smoothing method to use, defaults to `'exp'`. Possible values are:\n"
        "        - `'none'`: no smoothing\n"
        "        - `'floor'`: increment zero counts\n"
        "        - `'add-k'`: increment num/denom by k for n>1\n"
        "        - `'exp'`: exponential decay\n"
        "    smooth_value (`float`): The smoothing value. Only valid when `smooth_method='floor'` (in which case `smooth_value` defaults to `0.1`) or `smooth_method='add-k'` (in which case `smooth_value` defaults to `1`).\n"
        "    tokenize (`str`): Tokenization method to use for BLEU. If not provided, defaults to `'zh'` for Chinese, `'ja-mecab'` for Japanese and `'13a'` (mteval) otherwise. Possible values are:\n"
        "        - `'none'`: No tokenization.\n"
        "        - `'zh'`: Chinese tokenization.\n"
        "        - `'13a'`: mimics the `mteval-v13a` script from Moses.\n"
        "        - `'intl'`: International tokenization, mimics the `mteval-v14` script from Moses\n"
        "        - `'char'`: Language-agnostic character-level tokenization.\n"
        "        - `'ja-mecab'`: Japanese tokenization. Uses the [MeCab tokenizer](https://pypi.org/project/mecab-python3).\n"
        '    lowercase (`bool`): If `True`, lowercases the input, enabling case-insensitivity. Defaults to `False`.\n'
        '    force (`bool`): If `True`, insists that your tokenized input is actually detokenized. Defaults to `False`.\n'
        '    use_effective_order (`bool`): If `True`, stops including n-gram orders for which precision is 0. This should be `True`, if sentence-level BLEU will be computed. Defaults to `False`.\n'
        '\n'
        'Returns:\n'
        "    'score': BLEU score,\n"
        "    'counts': Counts,\n"
        "    'totals': Totals,\n"
        "    'precisions': Precisions,\n"
        "    'bp': Brevity penalty,\n"
        "    'sys_len': predictions length,\n"
        "    'ref_len': reference length,\n"
        '\n'
        'Examples:\n'
        '\n'
        '    Example 1:\n'
        '        >>> predictions = ["hello there general kenobi", "foo bar foobar"]\n'
        '        >>> references = [["hello there general kenobi", "hello there !"], ["foo bar foobar", "foo bar foobar"]]\n'
        '        >>> sacrebleu = evaluate.load("sacrebleu")\n'
        '        >>> results = sacrebleu.compute(predictions=predictions, references=references)\n'
        '        >>> print(list(results.keys()))\n'
        "        ['score', 'counts', 'totals', 'precisions', 'bp', 'sys_len', 'ref_len']\n"
        '        >>> print(round(results["score"], 1))\n'
        '        100.0\n'
        '\n'
        '    Example 2:\n'
        '        >>> predictions = ["hello there general kenobi",\n'
        '        ...                 "on our way to ankh morpork"]\n'
        '        >>> references = [["hello there general kenobi", "hello there !"],\n'
        '        ...                 ["goodbye ankh morpork", "ankh morpork"]]\n'
        '        >>> sacrebleu = evaluate.load("sacrebleu")\n'
        '        >>> results = sacrebleu.compute(predictions=predictions,\n'
        '        ...                             references=references)\n'
        '        >>> print(list(results.keys()))\n'
        "        ['score', 'counts', 'totals', 'precisions', 'bp', 'sys_len', 'ref_len']\n"
        '        >>> print(round(results["score"], 1))\n'
        '        39.8\n'
    ),
    'homepage': 'https://github.com/mjpost/sacreBLEU',
    'codebase_urls': ['https://github.com/mjpost/sacreBLEU'],
    'reference_urls': ['https://github.com/mjpost/sacreBLEU', 'https://en.wikipedia.org/wiki/BLEU', 'https://towardsdatascience.com/evaluating-text-output-in-nlp-bleu-at-your-own-risk-e8609665a213'],
}

TEXTS['chrf'] = {
    'citation': (
        '@inproceedings{popovic-2015-chrf,\n'
        '    title = "chr{F}: character n-gram {F}-score for automatic {MT} evaluation",\n'
        '    author = "Popovi{\\\'c}, Maja",\n'
        '    booktitle = "Proceedings of the Tenth Workshop on Statistical Machine Translation",\n'
        '    month = sep,\n'
        '    year = "2015",\n'
        '    address = "Lisbon, Portugal",\n'
        '    publisher = "Association for Computational Linguistics",\n'
        '    url = "https://aclanthology.org/W15-3049",\n'
        '    doi = "10.18653/v1/W15-3049",\n'
        '    pages = "392--395",\n'
        '}\n'
        '@inproceedings{popovic-2017-chrf,\n'
        '    title = "chr{F}++: words helping character n-grams",\n'
        '    author = "Popovi{\\\'c}, Maja",\n'
        '    booktitle = "Proceedings of the Second Conference on Machine Translation",\n'
        '    month = sep,\n'
        '    year = "2017",\n'
        '    address = "Copenhagen, Denmark",\n'
        '    publisher = "Association for Computational Linguistics",\n'
        '    url = "https://aclanthology.org/W17-4770",\n'
        '    doi = "10.18653/v1/W17-4770",\n'
        '    pages = "612--618",\n'
        '}\n'
        '@inproceedings{post-2018-call,\n'
        '    title = "A Call for Clarity in Reporting {BLEU} Scores",\n'
        '    author = "Post, Matt",\n'
        '    booktitle = "Proceedings of the Third Conference on Machine Translation: Research Papers",\n'
        '    month = oct,\n'
        '    year = "2018",\n'
        '    address = "Belgium, Brussels",\n'
        '    publisher = "Association for Computational Linguistics",\n'
        '    url = "https://www.aclweb.org/anthology/W18-6319",\n'
        '    pages = "186--191",\n'
        '}\n'
    ),
    'description': (
        'ChrF and ChrF++ are two MT evaluation metrics. They both use the F-score statistic for character n-gram matches,\n'
        'and ChrF++ adds word n-grams as well which correlates more strongly with direct assessment. We use the implementation\n'
        'that is already present in sacrebleu.\n'
        '\n'
        'The implementation here is slightly different from sacrebleu in terms of the required input format. The length of\n'
        'the references and hypotheses lists need to be the same, so you may need to transpose your references compared to\n'
        "sacrebleu's required input format. See https://github.com/huggingface/datasets/issues/3154#issuecomment-950746534\n"
        '\n'
        'See the README.md file at https://github.com/mjpost/sacreBLEU#chrf--chrf for more information.\n'
    ),
    'inputs_description': (
        '\n'
        'Produces ChrF(++) scores for hypotheses given reference translations.\n'
        '\n'
        'Args:\n'
        '    predictions (list of str): The predicted sentences.\n'
        '    references (list of list of str): The references. There should be one reference sub-list for each prediction sentence.\n'
        '    char_order (int): Character n-gram order. Defaults to `6`.\n'
        '    word_order (int): Word n-gram order. If equals to `2`, the metric is referred to as chrF++. Defaults to `0`.\n'
        '    beta (int): Determine the importance of recall w.r.t precision. Defaults to `2`.\n'
        '    lowercase (bool): if `True`, enables case-insensitivity. Defaults to `False`.\n'
        '    whitespace (bool): If `True`, include whitespaces when extracting character n-grams.\n'
        '    eps_smoothing (bool): If `True`, applies epsilon smoothing similar\n'
        '    to reference chrF++.py, NLTK and Moses implementations. If `False`,\n'
        '    it takes into account effective match order similar to sacreBLEU < 2.0.0. Defaults to `False`.\n'
        '\n'
        'Returns:\n'
        "    'score' (float): The chrF (chrF++) score,\n"
        "    'char_order' (int): The character n-gram order,\n"
        "    'word_order' (int): The word n-gram order. If equals to 2, the metric is referred to as chrF++,\n"
        "    'beta' (int): Determine the importance of recall w.r.t precision\n"
        '\n'
        'Examples:\n'
        '    Example 1--a simple example of calculating chrF:\n'
        '        >>> prediction = ["The relationship between cats and dogs is not exactly friendly.", "a good bookshop is just a genteel black hole that knows how to read."]\n'
        '        >>> reference = [["The relationship between dogs and cats is not exactly friendly."], ["A good bookshop is just a genteel Black Hole that knows how to read."]]\n'
        '        >>> chrf = evaluate.load("chrf")\n'
        '        >>> results = chrf.compute(predictions=prediction, references=reference)\n'
        '        >>> print(results)\n'
        "        {'score': 84.64214891738334, 'char_order': 6, 'word_order': 0, 'beta': 2}\n"
        '\n'
        '    Example 2--the same example, but with the argument word_order=2, to calculate chrF++ instead of chrF:\n'
        '        >>> prediction = ["The relationship between cats and dogs is not exactly friendly.", "a good bookshop is just a genteel black hole that knows how to read."]\n'
        '        >>> reference = [["The relationship between dogs and cats is not exactly friendly."], ["A good bookshop is just a genteel Black Hole that knows how to read."]]\n'
        '        >>> chrf = evaluate.load("chrf")\n'
        '        >>> results = chrf.compute(predictions=prediction,\n'
        '        ...                         references=reference,\n'
        '        ...                         word_order=2)\n'
        '        >>> print(results)\n'
        "        {'score': 82.87263732906315, 'char_order': 6, 'word_order': 2, 'beta': 2}\n"
        '\n'
        '    Example 3--the same chrF++ example as above, but with `lowercase=True` to normalize all case:\n'
        '        >>> prediction = ["The relationship between cats and dogs is not exactly friendly.", "a good bookshop is just a genteel black hole that knows how to read."]\n'
        '        >>> reference = [["The relationship between dogs and cats is not exactly friendly."], ["A good bookshop is just a genteel Black Hole that knows how to read."]]\n'
        '        >>> chrf = evaluate.load("chrf")\n'
        '        >>> results = chrf.compute(predictions=prediction,\n'
        '        ...                         references=reference,\n'
        '        ...                         word_order=2,\n'
        '        ...                         lowercase=True)\n'
        '        >>> print(results)\n'
        "        {'score': 92.12853119829202, 'char_order': 6, 'word_order': 2, 'beta': 2}\n"
    ),
    'homepage': 'https://github.com/mjpost/sacreBLEU#chrf--chrf',
    'codebase_urls': ['https://github.com/mjpost/sacreBLEU#chrf--chrf'],
    'reference_urls': ['https://github.com/m-popovic/chrF'],
}

TEXTS['ter'] = {
    'citation': (
        '@inproceedings{snover-etal-2006-study,\n'
        '    title = "A Study of Translation Edit Rate with Targeted Human Annotation",\n'
        '    author = "Snover, Matthew  and\n'
        '      Dorr, Bonnie  and\n'
        '      Schwartz, Rich  and\n'
        '      Micciulla, Linnea  and\n'
        '      Makhoul, John",\n'
        '    booktitle = "Proceedings of the 7th Conference of the Association for Machine Translation in the Americas: Technical Papers",\n'
        '    month = aug # " 8-12",\n'
        '    year = "2006",\n'
        '    address = "Cambridge, Massachusetts, USA",\n'
        '    publisher = "Association for Machine Translation in the Americas",\n'
        '    url = "https://aclanthology.org/2006.amta-papers.25",\n'
        '    pages = "223--231",\n'
        '}\n'
        '@inproceedings{post-2018-call,\n'
        '    title = "A Call for Clarity in Reporting {BLEU} Scores",\n'
        '    author = "Post, Matt",\n'
        '    booktitle = "Proceedings of the Third Conference on Machine Translation: Research Papers",\n'
        '    month = oct,\n'
        '    year = "2018",\n'
        '    address = "Belgium, Brussels",\n'
        '    publisher = "Association for Computational Linguistics",\n'
        '    url = "https://www.aclweb.org/anthology/W18-6319",\n'
        '    pages = "186--191",\n'
        '}\n'
    ),
    'description': (
        'TER (Translation Edit Rate, also called Translation Error Rate) is a metric to quantify the edit operations that a\n'
        'hypothesis requires to match a reference translation. We use the implementation that is already present in sacrebleu\n'
        '(https://github.com/mjpost/sacreBLEU#ter), which in turn is inspired by the TERCOM implementation, which can be found\n'
        'here: https://github.com/jhclark/tercom.\n'
        '\n'
        'The implementation here is slightly different from sacrebleu in terms of the required input format. The length of\n'
        'the references and hypotheses lists need to be the same, so you may need to transpose your references compared to\n'
        "sacrebleu's required input format. See https://github.com/huggingface/datasets/issues/3154#issuecomment-950746534\n"
        '\n'
        'See the README.md file at https://github.com/mjpost/sacreBLEU#ter for more information.\n'
    ),
    'inputs_description': (
        '\n'
        'Produces TER scores alongside the number of edits and reference length.\n'
        '\n'
        'Args:\n'
        '    predictions (list of str): The system stream (a sequence of segments).\n'
        '    references (list of list of str): A list of one or more reference streams (each a sequence of segments).\n'
        '    normalized (boolean): If `True`, applies basic tokenization and normalization to sentences. Defaults to `False`.\n'
        '    ignore_punct (boolean): If `True`, applies basic tokenization and normalization to sentences. Defaults to `False`.\n'
        '    support_zh_ja_chars (boolean): If `True`, tokenization/normalization supports processing of Chinese characters,\n'
        '                                    as well as Japanese Kanji, Hiragana, Katakana, and Phonetic Extensions of Katakana.\n'
        '                                    Only applies if `normalized = True`. Defaults to `False`.\n'
        '    case_sensitive (boolean): If `False`, makes all predictions and references lowercase to ignore differences in case. Defaults to `False`.\n'
        '\n'
        'Returns:\n'
        "    'score' (float): TER score (num_edits / sum_ref_lengths * 100)\n"
        "    'num_edits' (int): The cumulative number of edits\n"
        "    'ref_length' (float): The cumulative average reference length\n"
        '\n'
        'Examples:\n'
        '    Example 1:\n'
        '        >>> predictions = ["does this sentence match??",\n'
        '        ...                     "what about this sentence?",\n'
        '        ...                     "What did the TER metric user say to the developer?"]\n'
        '        >>> references = [["does this sentence match", "does this sentence match!?!"],\n'
        '        ...             ["wHaT aBoUt ThIs SeNtEnCe?", "wHaT aBoUt ThIs SeNtEnCe?"],\n'
        '        ...             ["Your jokes are...", "...TERrible"]]\n'
        '        >>> ter = evaluate.load("ter")\n'
        '        >>> results = ter.compute(predictions=predictions,\n'
        '        ...                         references=references,\n'
        '        ...                         case_sensitive=True)\n'
        '        >>> print(results)\n'
        "        {'score': 150.0, 'num_edits': 15, 'ref_length': 10.0}\n"
        '\n'
        '    Example 2:\n'
        '        >>> predictions = ["does this sentence match??",\n'
        '        ...                     "what about this sentence?"]\n'
        '        >>> references = [["does this sentence match", "does this sentence match!?!"],\n'
        '        ...             ["wHaT aBoUt ThIs SeNtEnCe?", "wHaT aBoUt ThIs SeNtEnCe?"]]\n'
        '        >>> ter = evaluate.load("ter")\n'
        '        >>> results = ter.compute(predictions=predictions,\n'
        '        ...                         references=references,\n'
        '        ...                         case_sensitive=True)\n'
        '        >>> print(results)\n'
        "        {'score': 62.5, 'num_edits': 5, 'ref_length': 8.0}\n"
        '\n'
        '    Example 3:\n'
        '        >>> predictions = ["does this sentence match??",\n'
        '        ...                     "what about this sentence?"]\n'
        '        >>> references = [["does this sentence match", "does this sentence match!?!"],\n'
        '        ...             ["wHaT aBoUt ThIs SeNtEnCe?", "wHaT aBoUt ThIs SeNtEnCe?"]]\n'
        '        >>> ter = evaluate.load("ter")\n'
        '        >>> results = ter.compute(predictions=predictions,\n'
        '        ...                         references=references,\n'
        '        ...                         normalized=True,\n'
        '        ...                         case_sensitive=True)\n'
        '        >>> print(results)\n'
        "        {'score': 57.14285714285714, 'num_edits': 6, 'ref_length': 10.5}\n"
        '\n'
        '    Example 4:\n'
        '        >>> predictions = ["does this sentence match??",\n'
        '        ...                     "what about this sentence?"]\n'
        '        >>> references = [["does this sentence match", "does this sentence match!?!"],\n'
        '        ...             ["wHaT aBoUt ThIs SeNtEnCe?", "wHaT aBoUt ThIs SeNtEnCe?"]]\n'
        '        >>> ter = evaluate.load("ter")\n'
        '        >>> results = ter.compute(predictions=predictions,\n'
        '        ...                         references=references,\n'
        '        ...                         ignore_punct=True,\n'
        '        ...                         case_sensitive=False)\n'
        '        >>> print(results)\n'
        "        {'score': 0.0, 'num_edits': 0, 'ref_length': 8.0}\n"
        '\n'
        '    Example 5:\n'
        '        >>> predictions = ["does this sentence match??",\n'
        '        ...                    "what about this sentence?",\n'
        '        ...                    "What did the TER metric user say to the developer?"]\n'
        '        >>> references = [["does this sentence match", "does this sentence match!?!"],\n'
        '        ...             ["wHaT aBoUt ThIs SeNtEnCe?", "wHaT aBoUt ThIs SeNtEnCe?"],\n'
        '        ...             ["Your jokes are...", "...TERrible"]]\n'
        '        >>> ter = evaluate.load("ter")\n'
        '        >>> results = ter.compute(predictions=predictions,\n'
        '        ...                         references=references,\n'
        '        ...                         ignore_punct=True,\n'
        '        ...                         case_sensitive=False)\n'
        '        >>> print(results)\n'
        "        {'score': 100.0, 'num_edits': 10, 'ref_length': 10.0}\n"
    ),
    'homepage': 'http://www.cs.umd.edu/~snover/tercom/',
    'codebase_urls': ['https://github.com/mjpost/sacreBLEU#ter'],
    'reference_urls': ['https://github.com/jhclark/tercom'],
}

TEXTS['rouge'] = {
    'citation': (
        '@inproceedings{lin-2004-rouge,\n'
        '    title = "{ROUGE}: A Package for Automatic Evaluation of Summaries",\n'
        '    author = "Lin, Chin-Yew",\n'
        '    booktitle = "Text Summarization Branches Out",\n'
        '    month = jul,\n'
        '    year = "2004",\n'
        '    address = "Barcelona, Spain",\n'
        '    publisher = "Association for Computational Linguistics",\n'
        '    url = "https://www.aclweb.org/anthology/W04-1013",\n'
        '    pages = "74--81",\n'
        '}\n'
    ),
    'description': (
        'ROUGE, or Recall-Oriented Understudy for Gisting Evaluation, is a set of metrics and a software package used for\n'
        'evaluating automatic summarization and machine translation software in natural language processing.\n'
        'The metrics compare an automatically produced summary or translation against a reference or a set of references (human-produced) summary or translation.\n'
        '\n'
        'Note that ROUGE is case insensitive, meaning that upper case letters are treated the same way as lower case letters.\n'
        '\n'
        'This metrics is a wrapper around Google Research reimplementation of ROUGE:\n'
        'https://github.com/google-research/google-research/tree/master/rouge\n'
    ),
    'inputs_description': (
        '\n'
        'Calculates average rouge scores for a list of hypotheses and references\n'
        'Args:\n'
        '    predictions: list of predictions to score. Each prediction\n'
        '        should be a string with tokens separated by spaces.\n'
        '    references: list of reference for each prediction. Each\n'
        '        reference should be a string with tokens separated by spaces.\n'
        '    rouge_types: A list of rouge types to calculate.\n'
        '        Valid names:\n'
        '        `"rouge{n}"` (e.g. `"rouge1"`, `"rouge2"`) where: {n} is the n-gram based scoring,\n'
        '        `"rougeL"`: Longest common subsequence based scoring.\n'
        '        `"rougeLsum"`: rougeLsum splits text using `"\\n"`.\n'
        '        See details in https://github.com/huggingface/datasets/issues/617\n'
        '    use_stemmer: Bool indicating whether Porter stemmer should be used to strip word suffixes.\n'
        '    use_aggregator: Return aggregates if this is set to True\n'
        'Returns:\n'
        '    rouge1: rouge_1 (f1),\n'
        '    rouge2: rouge_2 (f1),\n'
        '    rougeL: rouge_l (f1),\n'
        '    rougeLsum: rouge_lsum (f1)\n'
        'Examples:\n'
        '\n'
        "    >>> rouge = evaluate.load('rouge')\n"
        '    >>> predictions = ["hello there", "general kenobi"]\n'
        '    >>> references = ["hello there", "general kenobi"]\n'
        '    >>> results = rouge.compute(predictions=predictions, references=references)\n'
        '    >>> print(results)\n'
        "    {'rouge1': 1.0, 'rouge2': 1.0, 'rougeL': 1.0, 'rougeLsum': 1.0}\n"
    ),
    'homepage': '',
    'codebase_urls': ['https://github.com/google-research/google-research/tree/master/rouge'],
    'reference_urls': ['https://en.wikipedia.org/wiki/ROUGE_(metric)', 'https://github.com/google-research/google-research/tree/master/rouge'],
}

TEXTS['bertscore'] = {
    'citation': (
        '@inproceedings{bert-score,\n'
        '  title={BERTScore: Evaluating Text Generation with BERT},\n'
        '  author={Tianyi Zhang* and Varsha Kishore* and Felix Wu* and Kilian Q. Weinberger and Yoav Artzi},\n'
        '  booktitle={International Conference on Learning Representations},\n'
        '  year={2020},\n'
        '  url={https://openreview.net/forum?id=SkeHuCVFDr}\n'
        '}\n'
    ),
    'description': (
        'BERTScore leverages the pre-trained contextual embeddings from BERT and matches words in candidate and reference\n'
        'sentences by cosine similarity.\n'
        'It has been shown to correlate with human judgment on sentence-level and system-level evaluation.\n'
        'Moreover, BERTScore computes precision, recall, and F1 measure, which can be useful for evaluating different language\n'
        'generation tasks.\n'
        '\n'
        "See the project's README at https://github.com/Tiiiger/bert_score#readme for more information.\n"
    ),
    'inputs_description': (
        '\n'
        'BERTScore Metrics with the hashcode from a source against one or more references.\n'
        '\n'
        'Args:\n'
        '    predictions (list of str): Prediction/candidate sentences.\n'
        '    references (list of str or list of list of str): Reference sentences.\n'
        "    lang (str): Language of the sentences; required (e.g. 'en').\n"
        '    model_type (str): Bert specification, default using the suggested\n'
        '        model for the target language; has to specify at least one of\n'
        '        `model_type` or `lang`.\n'
        '    num_layers (int): The layer of representation to use,\n'
        '        default using the number of layers tuned on WMT16 correlation data.\n'
        '    verbose (bool): Turn on intermediate status update.\n'
        '    idf (bool or dict): Use idf weighting; can also be a precomputed idf_dict.\n'
        '    device (str): On which the contextual embedding model will be allocated on.\n'
        '        If this argument is None, the model lives on cuda:0 if cuda is available.\n'
        '    nthreads (int): Number of threads.\n'
        '    batch_size (int): Bert score processing batch size,\n'
        '        at least one of `model_type` or `lang`. `lang` needs to be\n'
        '        specified when `rescale_with_baseline` is True.\n'
        '    rescale_with_baseline (bool): Rescale bertscore with pre-computed baseline.\n'
        '    baseline_path (str): Customized baseline file.\n'
        '    use_fast_tokenizer (bool): `use_fast` parameter passed to HF tokenizer. New in version 0.3.10.\n'
        '\n'
        'Returns:\n'
        '    precision: Precision.\n'
        '    recall: Recall.\n'
        '    f1: F1 score.\n'
        '    hashcode: Hashcode of the library.\n'
        '\n'
        'Examples:\n'
        '\n'
        '    >>> predictions = ["hello there", "general kenobi"]\n'
        '    >>> references = ["hello there", "general kenobi"]\n'
        '    >>> bertscore = evaluate.load("bertscore")\n'
        '    >>> results = bertscore.compute(predictions=predictions, references=references, lang="en")\n'
        '    >>> print([round(v, 2) for v in results["f1"]])\n'
        '    [1.0, 1.0]\n'
    ),
    'homepage': 'https://github.com/Tiiiger/bert_score',
    'codebase_urls': ['https://github.com/Tiiiger/bert_score'],
    'reference_urls': ['https://github.com/Tiiiger/bert_score', 'https://arxiv.org/abs/1904.09675'],
}
