"""The ``statistics-files`` hostile-input family (issue 40 item 5), registered in ``hostile_families.FAMILIES``.

Each variant saves the statistics of a drawn metric (BLEU, chrF++, GLEU, TER, ROUGE) with
``refscore.save_statistics``, tampers with the file one drawn way, and loads it the way a user does
(``refscore.load_statistics(path, metric=metric)``, then ``metric.score_from_statistics``). Clean:

- ``permuted`` (columns and carried columns permuted in the header and the data together): the original score;
- ``renamed`` (a column renamed), ``negative`` (a count below 0), ``above-total`` (a match count above its total),
  ``overflow`` (an int64 column summing past int64), ``npy-header`` (a ``.npy`` header that does not parse): an
  ``InputError`` naming the file;
- ``nan`` (a NaN in TER or ROUGE statistics): a NaN score, no exception.
"""
from __future__ import annotations

import io
import json
import math
import random
import zipfile
from pathlib import Path

import numpy as np

HYPOTHESES = ["the cat sat on the mat", "a dog barked", "hello there", "sales rose by ten percent"]
REFERENCES = [["the cat is on the mat"], ["a dog barked loudly"], ["hello world"], ["sales rose 10 percent"]]
#: tamper -> the metrics it applies to (registry names)
TAMPERS = {"permuted": ("bleu", "chrf", "gleu", "ter", "rouge"), "renamed": ("bleu", "chrf", "gleu", "ter", "rouge"),
           "negative": ("bleu", "chrf", "gleu", "ter", "rouge"), "above-total": ("bleu", "chrf", "gleu"),
           "overflow": ("bleu", "chrf", "gleu"), "nan": ("ter", "rouge"), "npy-header": ("bleu", "ter", "rouge")}
#: .npy header texts that numpy cannot parse (its fallback tokenizer raises tokenize.TokenError on some)
BROKEN_NPY = ("{'descr': '''<i8", "{'descr': ('<i8', ", "{'descr': '<i8', 'shape': (3,", "{'descr\\", "{{{{", "(")


def _metric(name: str):
    import refscore

    return {"bleu": refscore.BLEU, "chrf": lambda: refscore.CHRF(word_order=2), "gleu": refscore.GLEU,
            "ter": refscore.TER, "rouge": lambda: refscore.ROUGE(types=("rouge1", "rougeL"))}[name]()


def statistics_files(rng: random.Random, folder: Path) -> tuple[bool, str]:
    from refscore.errors import InputError
    from refscore.io.statistics import load_statistics, save_statistics

    tamper = rng.choice(sorted(TAMPERS))
    name = rng.choice(TAMPERS[tamper])
    metric = _metric(name)
    stats = metric.statistics(HYPOTHESES, REFERENCES)
    path = folder / f"{name}-{tamper}.npz"
    save_statistics(path, stats)
    with np.load(path) as archive:
        members = {key: archive[key].copy() for key in archive.files}
    header = json.loads(members["header"].tobytes())
    detail = _tamper(tamper, rng, header, members)
    members["header"] = np.frombuffer(json.dumps(header).encode(), np.uint8)
    _write(path, members, rng.choice(BROKEN_NPY) if tamper == "npy-header" else None)
    detail = f"{name} {tamper} {detail}"
    try:
        score = metric.score_from_statistics(load_statistics(path, metric=metric)).score
    except InputError as exc:
        refused = str(path) in str(exc) and "\n" not in str(exc)
        return refused and tamper not in ("permuted", "nan"), f"{detail}: InputError: {exc}"[:300]
    except Exception as exc:  # noqa: BLE001 - an escaping exception is what the family looks for
        return False, f"{detail}: {type(exc).__name__}: {exc}"[:300]
    if tamper == "permuted":
        expected = metric.score_from_statistics(stats).score
        return score == expected, f"{detail}: score {score} for {expected}"
    return tamper == "nan" and math.isnan(score), f"{detail}: loaded, score {score}"


def _tamper(tamper: str, rng: random.Random, header: dict, members: dict) -> str:
    columns, data = header["columns"], members["data"]
    row = rng.randrange(data.shape[0])
    if tamper == "permuted":
        order = rng.sample(range(len(columns)), len(columns))
        while order == sorted(order):
            order = rng.sample(range(len(columns)), len(columns))
        header["columns"] = [columns[i] for i in order]
        members["data"] = np.ascontiguousarray(data[:, order])
        if header.get("carried_columns"):
            kept = list(range(len(header["carried_columns"])))[::-1]
            header["carried_columns"] = [header["carried_columns"][i] for i in kept]
            members["carried"] = np.ascontiguousarray(members["carried"][:, kept])
        return f"order {order}"
    if tamper == "renamed":
        at = rng.randrange(len(columns))
        columns[at] = rng.choice(["x", columns[at] + "s", columns[at].upper(), ""])
        return f"column {at} as {columns[at]!r}"
    if tamper in ("negative", "nan"):
        column = rng.randrange(len(columns))
        data[row, column] = -rng.choice([1, 2, 1000]) if tamper == "negative" else np.nan
        return f"segment {row} column {columns[column]!r}"
    if tamper == "above-total":
        matches = [i for i, c in enumerate(columns) if "match" in c]
        column = rng.choice(matches)
        data[row, column] = data[row].max() + rng.randint(1, 50)
        return f"segment {row} column {columns[column]!r}"
    if tamper == "overflow":
        column = rng.randrange(len(columns))
        data[:, column] = 2 ** 62 + rng.randrange(2 ** 40)   # each fits; the sum of 4 does not
        return f"column {columns[column]!r}"
    return "header"


def _write(path: Path, members: dict, npy_header: str | None) -> None:
    """The archive of ``members``; with ``npy_header`` the ``data`` member's .npy header replaced by it (padded to
    the header's length, so the array's bytes stay where they were)."""
    with zipfile.ZipFile(path, "w") as archive:
        for key, array in members.items():
            buffer = io.BytesIO()
            np.save(buffer, array)
            content = buffer.getvalue()
            if key == "data" and npy_header is not None:
                length = int.from_bytes(content[8:10], "little")
                content = content[:10] + ((npy_header + " " * length)[:length - 1] + "\n").encode() + \
                    content[10 + length:]
            archive.writestr(f"{key}.npy", content)
