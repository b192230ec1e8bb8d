"""Shared fixtures and helpers: the location of ../shared/data, skips when it is absent, segment files."""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("REFSCORE_SHARED_DATA", REPO_ROOT.parent / "shared" / "data"))
#: How this interpreter's ``sum()`` adds floats: compensated (Neumaier) from CPython 3.12 on, left to right before.
#: sacreBLEU sums BLEU's log precisions with it, so a golden cache of sacreBLEU's BLEU values records the kind it
#: was written under (tests/golden/make_*.py) and is compared exactly only under the same kind.
FLOAT_SUM = "compensated" if sys.version_info >= (3, 12) else "plain"


def shared_data_path(*parts: str) -> Path:
    """A path under ../shared/data; skips the calling test with the reason when it is not there."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared data not available: {path} (set REFSCORE_SHARED_DATA to its location)")
    return path


def read_segments(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    return lines[:-1] if text.endswith("\n") else lines


def write_segment_files(folder: Path, texts: dict[str, list[str]]) -> dict[str, Path]:
    """``folder/NAME.txt`` for each ``NAME -> lines`` of ``texts``, one segment a line; name -> path."""
    paths = {}
    for name, lines in texts.items():
        paths[name] = folder / f"{name}.txt"
        paths[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return paths


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory):
    """A tiny random 3-layer BERT (bertscore_helpers.build_tiny_bert) saved to a temporary folder, one per test
    module; skips without torch and transformers."""
    from bertscore_helpers import build_tiny_bert

    return str(build_tiny_bert(tmp_path_factory.mktemp("tiny_bert")))


@pytest.fixture()
def sacrebleu_seed():
    """Restores $SACREBLEU_SEED after a test that sets it (sacreBLEU reads it when it resamples)."""
    old = os.environ.get("SACREBLEU_SEED")
    yield
    if old is None:
        os.environ.pop("SACREBLEU_SEED", None)
    else:
        os.environ["SACREBLEU_SEED"] = old


#: Runtimes that a sanitizer build's preloaded ASan runtime would also reach (docs/reliability.md), and the text
#: of a test module that shows it uses one: its tests get the marker, so `-m "not browser and not ray and not
#: torch"` leaves them out.
NATIVE_RUNTIMES = {
    "browser": re.compile(r"\bselenium\b|\bwebdriver\b"),
    "ray": re.compile(r"^\s*(import|from) ray\b|\bray\.init\(|^\s*(import|from) refscore\.distributed\b", re.M),
    "torch": re.compile(r"^\s*(import|from) (torch|transformers|bertscore_helpers)\b|\bBERTScorer\(|"
                        r"importorskip\(\"torch\"\)|bertscore\(", re.M),
}


def pytest_configure(config):
    for name in NATIVE_RUNTIMES:
        config.addinivalue_line("markers", f"{name}: the test uses {name} (left out of sanitizer runs)")


def pytest_collection_modifyitems(items):
    markers: dict[str, list[str]] = {}
    for item in items:
        path = str(item.path)
        if path not in markers:
            source = item.path.read_text(encoding="utf-8") if item.path.suffix == ".py" else ""
            markers[path] = [name for name, pattern in NATIVE_RUNTIMES.items() if pattern.search(source)]
        for name in markers[path]:
            item.add_marker(name)
