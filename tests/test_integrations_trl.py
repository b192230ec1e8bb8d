"""refscore.integrations.trl: TRL-signature reward functions equal the metric's sentence scores (sacreBLEU's
sentence_chrf / sentence_bleu) for plain and conversational completions, weights combine, token ids use the
cached encoded references, errors name the fix; and a real 2-step GRPOTrainer run on CPU with a tiny random causal
LM (tokenizer trained here, no downloads) logs exactly sacreBLEU's sentence_chrf of its completions."""
from __future__ import annotations

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

import refscore
from refscore.errors import InputError, InputTypeError
from refscore.integrations.trl import reward

WORDS = st.sampled_from(["the", "cat", "sat", "on", "a", "mat", ",", ".", "über", "猫", "кошка", "x1", ""])
TEXT = st.lists(WORDS, max_size=8).map(" ".join)


def _chat(text):
    return [{"role": "assistant", "content": text}]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(TEXT, st.lists(TEXT, min_size=1, max_size=2)), min_size=1, max_size=6))
def test_rewards_equal_sacrebleu_sentence_scores(pairs):
    completions = [text for text, _ in pairs]
    solutions = [refs for _, refs in pairs]
    chrf = reward("chrf", reference_column="solution")
    expected = [sacrebleu.sentence_chrf(c, r).score / 100 for c, r in pairs]
    assert chrf(prompts=["p"] * len(pairs), completions=completions, solution=solutions) == pytest.approx(
        expected, abs=1e-15)
    assert chrf(completions=[_chat(c) for c in completions], solution=solutions) == chrf(
        completions=completions, solution=solutions)
    bleu = reward("bleu", reference_column="solution")
    assert bleu(completions=completions, solution=solutions) == pytest.approx(
        [sacrebleu.sentence_bleu(c, r).score / 100 for c, r in pairs], abs=1e-15)
    mixed = reward(["chrf", "bleu"], weights=[0.7, 0.3], reference_column="solution")
    assert mixed(completions=completions, solution=solutions) == pytest.approx(
        [0.7 * c + 0.3 * b for c, b in zip(chrf(completions=completions, solution=solutions),
                                             bleu(completions=completions, solution=solutions))], abs=1e-15)


def test_names_options_and_reward_objects():
    assert reward("chrf").__name__ == "refscore_chrf"
    assert reward(["chrf", refscore.reward("ter")]).__name__ == "refscore_chrf_ter"
    assert reward("chrf", name="my_chrf").__name__ == "my_chrf"
    chrfpp = reward("chrf", word_order=2, reference_column="answer")
    assert chrfpp(completions=["a cat sat"], answer=["the cat sat"]) == [
        pytest.approx(sacrebleu.sentence_chrf("a cat sat", ["the cat sat"], word_order=2).score / 100, abs=1e-15)]
    rouge_l = reward("rouge", score="rougeL", types=("rouge1", "rougeL"))
    metric = refscore.ROUGE(types=("rouge1", "rougeL"))
    assert rouge_l(completions=["a b c"], reference=["a c b"]) == [
        float(metric.scores_from_totals(metric.statistics(["a b c"], ["a c b"]).data)[0, 1])]


def test_token_ids_use_encoded_references_cached_across_steps():
    vocabulary = {"the": 1, "cat": 2, "sat": 3, "mat": 4}
    encode = lambda text: [vocabulary[word] for word in text.split()]  # noqa: E731
    bleu = reward("bleu", token_ids=True, encode=encode, tokenize="none")
    for _ in range(3):   # three steps, same references: encoded once
        scores = bleu(completions=["ignored", "ignored"], completion_ids=[[1, 2, 3], [1, 4]],
                      reference=["the cat sat", "the cat sat"])
    assert scores == pytest.approx([refscore.sentence_bleu("1 2 3", "1 2 3", tokenize="none").score,
                                    refscore.sentence_bleu("1 4", "1 2 3", tokenize="none").score], abs=1e-15)
    assert bleu.rewards[0].encode_calls == 1 and bleu.rewards[0].cached_references == 1


def test_errors_name_the_fix():
    chrf = reward("chrf", reference_column="solution")
    with pytest.raises(InputError, match="column 'solution', which this batch lacks .*columns: answer"):
        chrf(completions=["a"], answer=["a"])
    with pytest.raises(InputError, match="2 completions but 1 rows"):
        chrf(completions=["a", "b"], solution=["a"])
    with pytest.raises(InputTypeError, match=r"completions\[1\] must be a string or a list of message dicts"):
        chrf(completions=["a", 3], solution=["a", "b"])
    with pytest.raises(InputError, match="weights must be 2 finite numbers"):
        reward(["chrf", "bleu"], weights=[1.0])
    with pytest.raises(InputError, match="apply to one metric"):
        reward(["chrf", "bleu"], word_order=2)
    with pytest.raises(InputError, match="token_ids=True needs encode="):
        reward("bleu", token_ids=True)
    with pytest.raises(InputError, match="unknown metric"):
        reward("chrff")
    assert reward("chrf")(completions=[], reference=[]) == []


# -- a real GRPOTrainer run ---------------------------------------------------------------------------------------
CORPUS = ["the cat sat on the mat", "a dog barked at the cat", "the mat is red", "a red dog sat",
          "translate : the cat", "translate : a dog", "die katze sass", "ein hund bellte"]


def _tiny_model_and_tokenizer():
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    core = Tokenizer(models.WordLevel(unk_token="<unk>"))
    core.pre_tokenizer = pre_tokenizers.Whitespace()
    core.train_from_iterator(CORPUS, trainers.WordLevelTrainer(special_tokens=["<pad>", "<unk>", "<eos>"]))
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=core, pad_token="<pad>", unk_token="<unk>",
                                        eos_token="<eos>")
    tokenizer.padding_side = "left"
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                         num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=64,
                         pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id,
                         bos_token_id=tokenizer.eos_token_id)
    import torch

    torch.manual_seed(0)
    return LlamaForCausalLM(config), tokenizer


def test_grpo_trainer_logs_sacrebleu_sentence_chrf(tmp_path):
    pytest.importorskip("trl")
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    model, tokenizer = _tiny_model_and_tokenizer()
    dataset = Dataset.from_dict({"prompt": ["translate : the cat", "translate : a dog"] * 4,
                                 "solution": ["die katze sass", "ein hund bellte"] * 4})
    seen: list[tuple[list[str], list[str]]] = []

    def recorder(prompts=None, completions=None, completion_ids=None, solution=None, **_):
        seen.append((list(completions), list(solution)))
        return [0.0] * len(completions)

    chrf = reward("chrf", reference_column="solution")
    args = GRPOConfig(output_dir=str(tmp_path), per_device_train_batch_size=4, num_generations=2,
                      max_completion_length=6, max_steps=2, logging_steps=1, report_to=[], use_cpu=True,
                      save_strategy="no", reward_weights=[1.0, 0.0], seed=0, temperature=1.0,
                      dataloader_num_workers=0)
    trainer = GRPOTrainer(model=model, reward_funcs=[chrf, recorder], args=args, train_dataset=dataset,
                          processing_class=tokenizer)
    trainer.train()
    logged = [entry for entry in trainer.state.log_history if f"rewards/{chrf.__name__}/mean" in entry]
    assert len(logged) == 2 and len(seen) == 2
    assert any(text for completions, _ in seen for text in completions)   # the model wrote something
    totals = []
    for entry, (completions, solutions) in zip(logged, seen):
        expected = [sacrebleu.sentence_chrf(c, [s]).score / 100 for c, s in zip(completions, solutions)]
        assert entry[f"rewards/{chrf.__name__}/mean"] == pytest.approx(float(np.mean(expected)), abs=1e-6)
        assert chrf(completions=completions, solution=solutions) == pytest.approx(expected, abs=1e-15)
        totals += expected
    assert max(totals) > 0   # not a vacuous match of zeros
