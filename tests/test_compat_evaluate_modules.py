"""Every ``refscore.compat.evaluate.load(name)`` module has HF's ``add``/``add_batch`` protocol and the HF metric
script's metadata (``description``, ``citation``, ``inputs_description``, ``features``, ``info``)."""
from __future__ import annotations

import pytest

from refscore.compat import evaluate

PREDICTIONS = ["the cat sat on the mat", "a dog barked at night", "it rained"]
REFERENCES = [["the cat sat on a mat"], ["the dog barked at night"], ["it rained all day"]]
TITLES = {"bleu": "Papineni02bleu", "google_bleu": "wu2016googles", "sacrebleu": "post-2018-call",
          "chrf": "popovic-2015-chrf", "ter": "snover-etal-2006-study", "rouge": "lin-2004-rouge",
          "meteor": "banarjee2005", "bertscore": "bert-score", "exact_match": "",   # HF's citation is empty
          "squad": "Rajpurkar2016SQuAD10", "squad_v2": "Rajpurkar2016SQuAD10",
          "wer": "From WER and RIL to MER and WIL", "cer": "From WER and RIL to MER and WIL"}
#: metrics whose HF script takes other inputs than texts (one reference string, or SQuAD's dicts)
OWN_LAYOUTS = {"exact_match", "squad", "squad_v2", "wer", "cer"}


@pytest.mark.parametrize("name", sorted(evaluate.list_metrics()))
def test_loaded_modules_carry_hf_metadata(name: str) -> None:
    module = evaluate.load(name)
    assert TITLES[name] in module.citation and module.info.citation == module.citation
    assert module.description and module.inputs_description.lstrip().split("\n")[0]
    assert module.info.module_name == name
    if name not in OWN_LAYOUTS:
        assert module.features[0] == {"predictions": "string", "references": ["string"]}
    else:
        assert set(module.features[0]) == {"predictions", "references"}


@pytest.mark.parametrize("name", ["bleu", "google_bleu", "sacrebleu", "chrf", "ter", "rouge"])
def test_add_and_add_batch_queue_examples(name: str) -> None:
    whole = evaluate.load(name, seed=3) if name == "rouge" else evaluate.load(name)
    expected = whole.compute(predictions=PREDICTIONS, references=REFERENCES)
    module = evaluate.load(name, seed=3) if name == "rouge" else evaluate.load(name)
    module.add(prediction=PREDICTIONS[0], reference=REFERENCES[0])
    module.add_batch(predictions=PREDICTIONS[1:], references=REFERENCES[1:])
    assert module.compute() == expected
    with pytest.raises(Exception, match="predictions"):
        module.compute()   # the queue was cleared
