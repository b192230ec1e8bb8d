# Ported from bert-score 0.3.13, bert_score/utils.py (padding, bert_encode, collate_idf, get_bert_embedding,
# greedy_cos_idf, bert_cos_score_idf). MIT License, Copyright (c) 2019 Tianyi Zhang, Varsha Kishore, Felix Wu,
# Kilian Q. Weinberger, and Yoav Artzi. Changes: type hints, torch imported lazily, sentences encoded with the
# drop-in's sent_encode, the progress bar is refscore's.
"""bert-score's embedding helpers over a model object the caller loaded (``get_bert_embedding``,
``bert_cos_score_idf``): bert-score's own batching, padding and greedy matching, step for step, so the tensors are
bert-score's. refscore's scorer (:class:`~refscore.compat.bert_score.BERTScorer`) does not use them; they are here
for code that calls bert-score's helpers directly.

>>> callable(bert_cos_score_idf) and callable(get_bert_embedding)
True
"""
from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from refscore.metrics.bertscore.deps import torch_and_transformers
from refscore.metrics.bertscore.encoding import PREFIX_SPACE_TOKENIZERS, special_token_wrapper
from refscore.progress import progress_bar



def sent_encode(tokenizer: Any, sent: str) -> list[int]:
    """The token ids bert-score feeds the model for ``sent``: stripped, special tokens added, a prefix space for
    GPT-2/RoBERTa tokenizers, truncated to ``tokenizer.model_max_length``; ``""`` gives the special tokens only."""
    sent = sent.strip()
    if sent == "":
        return list(special_token_wrapper(tokenizer)([]))
    options: dict[str, Any] = {}
    if type(tokenizer).__name__ in PREFIX_SPACE_TOKENIZERS or any(
            cls.__name__ in PREFIX_SPACE_TOKENIZERS for cls in type(tokenizer).__mro__):
        options["add_prefix_space"] = True
    return tokenizer.encode(sent, add_special_tokens=True, max_length=tokenizer.model_max_length, truncation=True,
                            **options)


def _padding(arr: list[list[Any]], pad_token: Any, dtype: Any) -> tuple[Any, Any, Any]:
    torch, _ = torch_and_transformers()
    lens = torch.LongTensor([len(a) for a in arr])
    max_len = lens.max().item()
    padded = torch.ones(len(arr), max_len, dtype=dtype) * pad_token
    mask = torch.zeros(len(arr), max_len, dtype=torch.long)
    for i, a in enumerate(arr):
        padded[i, : lens[i]] = torch.tensor(a, dtype=dtype)
        mask[i, : lens[i]] = 1
    return padded, lens, mask


def _bert_encode(model: Any, x: Any, attention_mask: Any, all_layers: bool = False) -> Any:
    torch, _ = torch_and_transformers()
    model.eval()
    with torch.no_grad():
        out = model(x, attention_mask=attention_mask, output_hidden_states=all_layers)
    return torch.stack(out[-1], dim=2) if all_layers else out[0]


def _collate_idf(arr: Sequence[str], tokenizer: Any, idf_dict: Any, device: Any) -> tuple[Any, Any, Any, Any]:
    torch, _ = torch_and_transformers()
    encoded = [sent_encode(tokenizer, a) for a in arr]
    idf_weights = [[idf_dict[i] for i in a] for a in encoded]
    padded, lens, mask = _padding(encoded, tokenizer.pad_token_id, dtype=torch.long)
    padded_idf, _, _ = _padding(idf_weights, 0, dtype=torch.float)
    return padded.to(device=device), padded_idf, lens.to(device=device), mask.to(device=device)


def get_bert_embedding(all_sens: Sequence[str], model: Any, tokenizer: Any, idf_dict: Any, batch_size: int = -1,
                       device: Any = "cuda:0", all_layers: bool = False) -> tuple[Any, Any, Any]:
    """bert-score's ``get_bert_embedding``: ``(embeddings, attention mask, padded idf weights)`` of ``all_sens``."""
    torch, _ = torch_and_transformers()
    padded_sens, padded_idf, _, mask = _collate_idf(all_sens, tokenizer, idf_dict, device=device)
    if batch_size == -1:
        batch_size = len(all_sens)
    embeddings = []
    with torch.no_grad():
        for i in range(0, len(all_sens), batch_size):
            embeddings.append(_bert_encode(model, padded_sens[i: i + batch_size],
                                           attention_mask=mask[i: i + batch_size], all_layers=all_layers))
    return torch.cat(embeddings, dim=0), mask, padded_idf


def _greedy_cos_idf(ref_embedding: Any, ref_masks: Any, ref_idf: Any, hyp_embedding: Any, hyp_masks: Any,
                    hyp_idf: Any, all_layers: bool = False) -> tuple[Any, Any, Any]:
    torch, _ = torch_and_transformers()
    ref_embedding.div_(torch.norm(ref_embedding, dim=-1).unsqueeze(-1))
    hyp_embedding.div_(torch.norm(hyp_embedding, dim=-1).unsqueeze(-1))
    if all_layers:
        B, _, L, D = hyp_embedding.size()
        hyp_embedding = hyp_embedding.transpose(1, 2).transpose(0, 1).contiguous().view(L * B, hyp_embedding.size(1),
                                                                                          D)
        ref_embedding = ref_embedding.transpose(1, 2).transpose(0, 1).contiguous().view(L * B, ref_embedding.size(1),
                                                                                          D)
    batch_size = ref_embedding.size(0)
    sim = torch.bmm(hyp_embedding, ref_embedding.transpose(1, 2))
    masks = torch.bmm(hyp_masks.unsqueeze(2).float(), ref_masks.unsqueeze(1).float())
    if all_layers:
        masks = masks.unsqueeze(0).expand(L, -1, -1, -1).contiguous().view_as(sim)
    else:
        masks = masks.expand(batch_size, -1, -1).contiguous().view_as(sim)
    masks = masks.float().to(sim.device)
    sim = sim * masks
    word_precision = sim.max(dim=2)[0]
    word_recall = sim.max(dim=1)[0]
    hyp_idf.div_(hyp_idf.sum(dim=1, keepdim=True))
    ref_idf.div_(ref_idf.sum(dim=1, keepdim=True))
    precision_scale = hyp_idf.to(word_precision.device)
    recall_scale = ref_idf.to(word_recall.device)
    if all_layers:
        precision_scale = precision_scale.unsqueeze(0).expand(L, B, -1).contiguous().view_as(word_precision)
        recall_scale = recall_scale.unsqueeze(0).expand(L, B, -1).contiguous().view_as(word_recall)
    P = (word_precision * precision_scale).sum(dim=1)
    R = (word_recall * recall_scale).sum(dim=1)
    F = 2 * P * R / (P + R)
    hyp_zero_mask = hyp_masks.sum(dim=1).eq(2)
    ref_zero_mask = ref_masks.sum(dim=1).eq(2)
    if all_layers:
        P, R, F = P.view(L, B), R.view(L, B), F.view(L, B)
    if torch.any(hyp_zero_mask):
        print("Warning: Empty candidate sentence detected; setting raw BERTscores to 0.", file=sys.stderr)
        P = P.masked_fill(hyp_zero_mask, 0.0)
        R = R.masked_fill(hyp_zero_mask, 0.0)
    if torch.any(ref_zero_mask):
        print("Warning: Empty reference sentence detected; setting raw BERTScores to 0.", file=sys.stderr)
        P = P.masked_fill(ref_zero_mask, 0.0)
        R = R.masked_fill(ref_zero_mask, 0.0)
    F = F.masked_fill(torch.isnan(F), 0.0)
    return P, R, F


def _pad_batch_stats(sen_batch: Sequence[str], stats_dict: dict[str, Any], device: Any) -> tuple[Any, Any, Any]:
    torch, _ = torch_and_transformers()
    from torch.nn.utils.rnn import pad_sequence
    stored_emb, stored_idf = zip(*[stats_dict[s] for s in sen_batch])
    emb = [e.to(device) for e in stored_emb]
    idf = [i.to(device) for i in stored_idf]
    lens = torch.tensor([e.size(0) for e in emb], dtype=torch.long)
    emb_pad = pad_sequence(emb, batch_first=True, padding_value=2.0)
    idf_pad = pad_sequence(idf, batch_first=True)
    max_len = max(lens)
    pad_mask = torch.arange(max_len, dtype=torch.long).expand(len(lens), max_len) < lens.unsqueeze(1)
    return emb_pad, pad_mask.to(device), idf_pad


def bert_cos_score_idf(model: Any, refs: Sequence[str], hyps: Sequence[str], tokenizer: Any, idf_dict: Any,
                       verbose: bool = False, batch_size: int = 64, device: Any = "cuda:0",
                       all_layers: bool = False) -> Any:
    """bert-score's ``bert_cos_score_idf``: a ``(N, 3)`` tensor of P, R, F per pair (``(L, N, 3)`` with
    ``all_layers``), embedding each distinct sentence once, longest first, as bert-score batches them."""
    torch, _ = torch_and_transformers()
    sentences = sorted(set(list(refs) + list(hyps)), key=lambda x: len(x.split(" ")), reverse=True)
    stats_dict: dict[str, Any] = {}
    starts = range(0, len(sentences), batch_size)
    with progress_bar(len(starts), "BERTScore embeddings", True if verbose else None, 0.0, "batch") as bar:
        for batch_start in starts:
            sen_batch = sentences[batch_start: batch_start + batch_size]
            embs, masks, padded_idf = get_bert_embedding(sen_batch, model, tokenizer, idf_dict, device=device,
                                                         all_layers=all_layers)
            embs, masks, padded_idf = embs.cpu(), masks.cpu(), padded_idf.cpu()
            for i, sen in enumerate(sen_batch):
                sequence_len = masks[i].sum().item()
                stats_dict[sen] = (embs[i, :sequence_len], padded_idf[i, :sequence_len])
            bar.update(1)
    device = next(model.parameters()).device
    preds = []
    with torch.no_grad():
        for batch_start in range(0, len(refs), batch_size):
            ref_stats = _pad_batch_stats(refs[batch_start: batch_start + batch_size], stats_dict, device)
            hyp_stats = _pad_batch_stats(hyps[batch_start: batch_start + batch_size], stats_dict, device)
            P, R, F1 = _greedy_cos_idf(*ref_stats, *hyp_stats, all_layers)
            preds.append(torch.stack((P, R, F1), dim=-1).cpu())
    return torch.cat(preds, dim=1 if all_layers else 0)
