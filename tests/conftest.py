"""Shared fixtures and helpers: the location of ../shared/data, skips when it is absent, segment files."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("REFSCORE_SHARED_DATA", REPO_ROOT.parent / "shared" / "data"))


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


@pytest.fixture()
def sacrebleu_seed():
    """Restores $SACREBLEU_SEED after a test that sets it (sacreBLEU reads it when it resamples)."""
    old = os.environ.get("SACREBLEU_SEED")
    yield
    if old is None:
        os.environ.pop("SACREBLEU_SEED", None)
    else:
        os.environ["SACREBLEU_SEED"] = old
