"""Start-up: ``import refscore`` and the command line's parser load only what they need (issue 42 "The CLI builds
only what the command needs", issue 46 "Start-up"). Each check runs a fresh interpreter and reads its
``sys.modules`` at exit; the timings against sacreBLEU are in benchmarks/bench_startup.py, not here."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from refscore.cli.metric_flags import render_table
from refscore.metrics import built_in_names, get_metric_class
from test_plugin_metrics import install_plugin, install_unimportable_plugin

TABLE = Path(__file__).parents[1] / "src" / "refscore" / "metrics" / "flag_table.py"
#: Never imported by ``import refscore``: the extras, and numpy (the core's dependency, loaded on first use).
NOT_ON_IMPORT = ("numpy", "torch", "transformers", "scipy", "bokeh", "pyarrow", "ray", "nltk", "regex", "yaml",
                 "sentencepiece", "MeCab", "tqdm", "refscore._core", "refscore.protocol")
#: The metric modules and what they pull in: none is needed to list the flags.
METRIC_MODULES = ("refscore.metrics.bleu", "refscore.metrics.chrf", "refscore.metrics.ter", "refscore.metrics.gleu",
                  "refscore.metrics.rouge", "refscore.metrics.meteor", "refscore.metrics.bertscore", "torch",
                  "transformers", "scipy")


def modules_after(code: str, *argv: str, env: dict[str, str] | None = None) -> tuple[set[str], str, str]:
    """The modules loaded when ``code`` has run (with ``sys.argv[1:] = argv``), its stdout and its stderr."""
    program = ("import atexit, json, sys\n"
               "atexit.register(lambda: sys.__stderr__.write('MODULES ' + json.dumps(sorted(sys.modules)) + '\\n'))\n"
               f"sys.argv[1:] = {list(argv)!r}\n{code}\n")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=300,
                          env=env or dict(os.environ))
    lines = done.stderr.splitlines()
    modules = json.loads(next(line for line in lines if line.startswith("MODULES "))[len("MODULES "):])
    return set(modules), done.stdout, "\n".join(line for line in lines if not line.startswith("MODULES "))


CLI = "from refscore.cli.main import main\ntry:\n    main()\nexcept SystemExit:\n    pass"


def loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == name or m.startswith(name + ".") for name in names))


def test_import_refscore_loads_no_extra_and_not_numpy():
    modules, _, _ = modules_after("import refscore; refscore.__version__")
    assert loaded(modules, NOT_ON_IMPORT) == []
    assert "importlib.metadata" not in modules   # the version is read from the dist-info directly


def test_lazy_names_still_resolve_numpy_when_used():
    modules, stdout, _ = modules_after("import refscore; print(refscore.Statistics.__name__, "
                                       "refscore.from_streams([['a']]))")
    assert stdout.split() == ["Statistics", "[['a']]"] and "numpy" in modules


def test_the_declared_flag_table_is_what_the_metric_classes_declare():
    # regenerate with: python -m refscore.cli.metric_flags > src/refscore/metrics/flag_table.py
    assert TABLE.read_text(encoding="utf-8") == render_table()


def every_flag() -> dict[str, list[str]]:
    """Each built-in metric's flags (every spelling), read from the classes."""
    return {name: [flag for option in (*cls.cli_options, *cls.runtime_cli_options) for flag in option.flags]
            for name in built_in_names() for cls in [get_metric_class(name)]}


def test_refscore_help_lists_every_metric_with_its_flags_importing_no_metric_and_not_numpy():
    modules, stdout, stderr = modules_after(CLI, "--help")
    assert stderr == ""
    listed: dict[str, list[str]] = {}
    for line in stdout.split("metrics (-m) and their flags", 1)[1].splitlines()[1:]:
        if line.startswith("  ") and not line.startswith("   "):   # "  NAME: FLAG ...", then "      FLAG ..."
            name, line = line.split(":", 1)
            listed[name.strip()] = []
        listed[name.strip()] += line.split()
    for name in built_in_names():
        cls = get_metric_class(name)
        assert [option.flags[0] for option in (*cls.cli_options, *cls.runtime_cli_options)] == listed[name]
    assert loaded(modules, (*METRIC_MODULES, "numpy", "refscore.cli.score", "refscore.cli.compare")) == []


@pytest.mark.parametrize("command", ["score", "compare"])
def test_command_help_lists_every_flag_of_every_metric_importing_no_metric(command):
    modules, stdout, stderr = modules_after(CLI, command, "--help")
    assert stderr == "" and f"usage: refscore {command}" in stdout
    words = set(stdout.replace(",", " ").replace("[", " ").replace("]", " ").split())
    for name, flags in every_flag().items():
        missing = [flag for flag in flags if flag not in words and flag.replace("--", "--[no-]") not in words]
        assert not missing, (name, missing)
    assert loaded(modules, METRIC_MODULES) == []


def test_a_flag_value_is_converted_by_its_metric_when_given(tmp_path):
    (tmp_path / "ref.txt").write_text("the cat sat\n")
    good, stdout, stderr = modules_after(CLI, "score", "-m", "chrf", "--chrf-beta", "1", "-r",
                                         str(tmp_path / "ref.txt"), "-i", str(tmp_path / "ref.txt"))
    assert "nc:6" in stdout and "refscore.metrics.chrf" in good and "refscore.metrics.bertscore" not in good, stderr
    _, _, stderr = modules_after(CLI, "score", "-m", "rouge", "--rouge-types", "rouge0", "-r",
                                 str(tmp_path / "ref.txt"))
    assert "--rouge-types" in stderr and "rouge0" in stderr and "Traceback" not in stderr, stderr


def _with_site(site: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}


@pytest.mark.parametrize("argv", [["--help"], ["score", "--help"], ["pairwise", "--help"]])
def test_a_broken_plugin_is_one_warning_line_in_every_help(tmp_path, argv):
    site = install_unimportable_plugin(tmp_path / "site")
    _, stdout, stderr = modules_after(CLI, *argv, env=_with_site(site))
    assert "usage: refscore" in stdout and "Traceback" not in stderr, stderr
    assert stderr.splitlines() == [stderr.splitlines()[0]] and stderr.startswith("refscore: warning: "), stderr
    assert "refscore-crashing 2.3" in stderr and "RuntimeError: this plug-in is broken on purpose" in stderr


def test_a_working_plugin_lists_its_flags_in_the_help(tmp_path):
    site = install_plugin(tmp_path / "site")
    _, stdout, stderr = modules_after(CLI, "--help", env=_with_site(site))
    assert "  wordrecall: --wordrecall-lowercase" in stdout and stderr == "", stderr
    _, stdout, _ = modules_after(CLI, "score", "--help", env=_with_site(site))
    assert "--wordrecall-lowercase" in stdout


#: What ``refscore score --help`` needs none of: the arrays, the protocol and the input readers (they load when a
#: run reads its inputs), and importlib.metadata's imports (the plug-ins' entry points are read directly).
NOT_IN_SCORE_HELP = ("numpy", "refscore.protocol", "refscore._core", "refscore.inputs", "refscore.cli.io",
                     "refscore.io.record_files", "refscore.metrics.external", "importlib.metadata", "email")


def test_score_help_builds_its_parser_without_arrays_inputs_or_importlib_metadata():
    modules, stdout, stderr = modules_after(CLI, "score", "--help")
    assert stderr == "" and "usage: refscore score" in stdout
    assert loaded(modules, NOT_IN_SCORE_HELP) == []


def test_scoring_one_line_reads_the_plugins_without_importlib_metadata(tmp_path):
    (tmp_path / "ref.txt").write_text("the cat sat on the mat\n")
    modules, stdout, stderr = modules_after(CLI, "score", "-m", "bleu", "-r", str(tmp_path / "ref.txt"), "-i",
                                            str(tmp_path / "ref.txt"))
    assert "100.00" in stdout and stderr == "", stderr
    assert loaded(modules, ("importlib.metadata", "email", "refscore.metrics.external", "refscore.metrics.chrf",
                            "refscore.significance")) == []


def test_the_entry_points_are_those_importlib_metadata_reads():
    from importlib.metadata import entry_points

    from refscore.metrics._entry_points import group_entry_points

    for group in ("console_scripts", "refscore.metrics", "pytest11"):
        expected = sorted((point.name, point.value, f"{point.dist.name} {point.dist.version}")
                          for point in entry_points(group=group) if point.dist is not None)
        assert sorted(group_entry_points(group)) == expected, group
