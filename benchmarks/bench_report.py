"""Benchmark: size and generation time of ``refscore report`` (issue: < 8 MB and < 10 s for 3 systems x 2,000
segments x 4 lexical metrics), and, when Chromium is installed, the time until the page is interactive.

Data: ../shared/data/wmt22/en-de (2037 segments, reference ref.txt), the first three systems in name order.
Metrics: BLEU, chrF, TER and GLEU (one headline score each); ``--metrics`` changes them (e.g. add rouge).
Times the in-process ``refscore.report(...)`` (wall and CPU time: wall time is inflated when the machine is
shared; metrics, 1,000 bootstrap resamples per interval,
every pairwise paired bootstrap, analyses, charts and the page), split into gathering and rendering, and the
``refscore report`` command as a separate process (imports and file reading included).

Usage: python benchmarks/bench_report.py [--data DIR] [--systems 3] [--metrics bleu,chrf,ter,gleu] [--browser]
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DATA = REPO.parent / "shared" / "data" / "wmt22" / "en-de"


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def browser_timings(page: Path) -> dict[str, float]:
    """Milliseconds from navigation to an interactive table and to all charts drawn, in headless Chromium."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        runs = []
        for _ in range(3):
            driver.get(page.resolve().as_uri())
            while driver.execute_script("return document.body.dataset.ready") != "true":
                time.sleep(0.05)
            runs.append(driver.execute_script(
                "return {interactive: window.refscoreInteractiveMs, ready: window.refscoreReadyMs}"))
        return {key: min(run[key] for run in runs) for key in ("interactive", "ready")}
    finally:
        driver.quit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--systems", type=int, default=3)
    parser.add_argument("--metrics", default="bleu,chrf,ter,gleu")
    parser.add_argument("--browser", action="store_true", help="also time the page in headless Chromium")
    args = parser.parse_args()
    if not (args.data / "ref.txt").exists():
        raise SystemExit(f"no data at {args.data} (see ../shared/data/README.md)")

    import refscore
    from refscore.reporting import resolve_metrics
    from refscore.reporting.data import gather
    from refscore.reporting.render import render

    paths = sorted((args.data / "sys").glob("*.txt"))[:args.systems]
    systems = {path.stem: lines(path) for path in paths}
    references = lines(args.data / "ref.txt")
    metrics = args.metrics.split(",")
    print(f"{len(systems)} systems x {len(references)} segments x {len(metrics)} metrics ({', '.join(metrics)}), "
          f"{os.cpu_count()} cores")

    refscore.report({"a": ["warm up"], "b": ["warm"]}, ["warm up"], metrics, n=10)  # imports, first-call setup
    start, cpu = time.perf_counter(), time.process_time()
    data = gather(systems, references, resolve_metrics(metrics))
    gathered, gathered_cpu = time.perf_counter() - start, time.process_time() - cpu
    page = render(data)
    total, total_cpu = time.perf_counter() - start, time.process_time() - cpu
    size = len(page.encode("utf-8"))
    print(f"in process: {total:.2f} s wall ({total_cpu:.2f} s CPU): gathering {gathered:.2f} s "
          f"({gathered_cpu:.2f} s CPU), rendering {total - gathered:.2f} s; page {size / 1e6:.2f} MB")

    with tempfile.TemporaryDirectory() as folder:
        output = Path(folder) / "report.html"
        command = [sys.executable, "-m", "refscore.cli", "report", "-r", str(args.data / "ref.txt"),
                   "-i", *map(str, paths), "-m", args.metrics, "-o", str(output)]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        print(f"command line: {wall:.2f} s wall ({cpu:.2f} s CPU); page {output.stat().st_size / 1e6:.2f} MB")
        if args.browser:
            timings = browser_timings(output)
            print(f"headless Chromium (best of 3): interactive after {timings['interactive']:.0f} ms, all charts "
                  f"drawn after {timings['ready']:.0f} ms")


if __name__ == "__main__":
    main()
