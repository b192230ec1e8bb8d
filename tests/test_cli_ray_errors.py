"""``--engine ray`` errors are one line with the cause (issue 40, item 14): a bad record used to print 288 lines,
Ray Data's logged traceback and the task's traceback after ``refscore: error:``."""
from __future__ import annotations

import json
import subprocess

import pytest

from refscore.cli.exit_codes import ExitCode
from refscore.errors import InputError
from test_cli_process import refscore_command

ray = pytest.importorskip("ray")
pytest.importorskip("ray.data")


def test_a_bad_record_on_ray_is_one_line(tmp_path):
    lines = [json.dumps({"prediction": f"a cat {i}", "references": [f"the cat {i}"]}) for i in range(50)]
    lines[20] = '{"prediction": "a cat", "references": [nul'
    (tmp_path / "bad.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = subprocess.run(refscore_command("score", "-m", "bleu", "-i", "bad.jsonl", "--engine", "ray",
                                             "--no-progress"), cwd=tmp_path, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == ExitCode.BAD_INPUT, result.stderr[-3000:]
    assert result.stderr.splitlines() == [
        "refscore: error: bad.jsonl: line 21: not valid JSON (Expecting value at column 40); fix the record, or "
        "skip such records with --skip-bad-records (skip_bad_records=True: they are counted and reported)"], \
        result.stderr[-3000:]
    assert result.stdout == ""


def test_task_errors_are_unwrapped_to_their_cause():
    from refscore.cli.engines import _ray_error
    from refscore.cli.io import CliError
    from refscore.distributed import task_cause

    cause = InputError("runs.jsonl: line 3: 'prediction' must be a string\nFailed to apply UDF transform ...")
    wrapped = ray.exceptions.RayTaskError("read", "Traceback (most recent call last):\n  ...", cause)
    dual = wrapped.as_instanceof_cause()   # what ray.get raises: RayTaskError(InputError)
    assert isinstance(dual, InputError) and "line 3" not in str(dual).splitlines()[0]
    assert task_cause(dual) is cause and task_cause(wrapped) is cause
    error = _ray_error(dual)
    assert isinstance(error, CliError) and error.exit_code == ExitCode.BAD_INPUT
    assert str(error) == "runs.jsonl: line 3: 'prediction' must be a string"
    crashed = _ray_error(ray.exceptions.RayTaskError("score", "Traceback ...\n  ...", MemoryError("worker "
                                                                                                 "out of memory")))
    assert str(crashed) == "the Ray engine failed: MemoryError: worker out of memory"
    plain = ValueError("not Ray's")
    assert _ray_error(plain) is plain
