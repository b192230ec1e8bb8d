"""Thread-count policy of the compiled core."""
from __future__ import annotations

import pytest

import refscore
from refscore._core import openmp_enabled, resolve_num_threads


def test_explicit_thread_count_and_validation():
    assert resolve_num_threads(1) == 1
    with pytest.raises(ValueError, match=">= 1"):
        resolve_num_threads(0)
    with pytest.raises(TypeError):
        resolve_num_threads(1.5)


def test_environment_variable(monkeypatch):
    monkeypatch.setenv("REFSCORE_NUM_THREADS", "2")
    assert resolve_num_threads() == (2 if openmp_enabled() else 1)
    monkeypatch.setenv("REFSCORE_NUM_THREADS", "many")
    with pytest.raises(ValueError, match="REFSCORE_NUM_THREADS"):
        resolve_num_threads()


def test_show_config_reports_build():
    config = refscore.show_config()
    assert config["version"] == refscore.__version__
    assert isinstance(config["openmp"], bool)
