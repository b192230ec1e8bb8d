"""``refscore report`` in a real browser: headless Chromium (Debian's ``chromium`` and ``chromium-driver``) driven
by Selenium loads generated reports from ``file://``.

Checks: no console errors, no network request, every section present, sorting and filtering change the table, a
segment opens with its highlights, untrusted text runs nothing (a canary global stays undefined). Screenshots go to
``$REFSCORE_REPORT_ARTIFACTS`` when set, else to pytest's temporary directory; the time to interactive is printed.
"""
from __future__ import annotations

import base64
import os
import shutil
import time
from pathlib import Path

import pytest

pytest.importorskip("bokeh", reason="the report needs the 'report' extra: pip install 'refscore[report]'")
webdriver = pytest.importorskip("selenium.webdriver", reason="browser tests need selenium (pip install selenium)")

import refscore  # noqa: E402
from refscore.example import load_example  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
    pytest.skip("browser tests need Debian's chromium and chromium-driver packages "
                "(apt-get install chromium chromium-driver)", allow_module_level=True)

#: Untrusted text as model output and user data may contain it: each would set the canary if it ever ran.
PAYLOADS = [
    "<script>window.__pwned = 1</script>",
    '"><img src=x onerror="window.__pwned = 2">',
    "</script><script>window.__pwned = 3</script>",
    "<a href=\"javascript:window.__pwned = 4\">click</a> javascript:window.__pwned=4",
    "line\u2028separator\u2029paragraph <!-- <script>window.__pwned = 5</script>",
    "<svg onload=window.__pwned=6>",
]


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(os.environ.get("REFSCORE_REPORT_ARTIFACTS") or tmp_path_factory.mktemp("report-artifacts"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def browser():
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1000", "--disable-background-networking"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def hostile_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    example = load_example()
    references = [refs[0] for refs in example.references[:40]]
    systems = {}
    for index, (name, hypotheses) in enumerate(example.systems.items()):
        hyps = list(hypotheses[:40])
        for k, payload in enumerate(PAYLOADS):
            hyps[(k + index) % 40] = payload + " " + hyps[(k + index) % 40]
        systems[name if index else 'sys"><img src=x onerror=window.__pwned=7>'] = hyps
    references[3] = PAYLOADS[2] + references[3]
    metadata = {"domain": [PAYLOADS[1] if i % 2 else "news</script>" for i in range(40)]}
    path = tmp_path_factory.mktemp("report") / "hostile.html"
    from refscore.reporting import render

    page_rows, render.PAGE_ROWS = render.PAGE_ROWS, 16  # 40 segments: three pages of the table
    test_run = {"refscore_test_run": 1, "ok": False, "checks": [{"name": PAYLOADS[1]}], "summary": {},
                "gates": [{"check": PAYLOADS[1], "gate": "pass_rate", "passed": False, "message": PAYLOADS[2]}],
                "cases": [{"id": PAYLOADS[k], "input": PAYLOADS[k - 1], "actual_output": PAYLOADS[k],
                           "expected_output": PAYLOADS[0],
                           "results": [{"check": PAYLOADS[1], "score": 0.1, "threshold": PAYLOADS[3], "passed": False,
                                        "band": PAYLOADS[4], "reason": None, "explanation": PAYLOADS[5]}]}
                          for k in range(len(PAYLOADS))]}
    refscore.report(systems, references, ["bleu", "chrf", "rouge"], metadata=metadata, output=path, n=200,
                    title=PAYLOADS[0], test_run=test_run, sources=[PAYLOADS[i % len(PAYLOADS)] for i in range(40)])
    render.PAGE_ROWS = page_rows
    return path


@pytest.fixture(scope="module")
def example_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    example = load_example()
    path = tmp_path_factory.mktemp("report") / "example.html"
    refscore.report(example.systems, example.references, ["bleu", "chrf", "ter", "rouge"], output=path, n=300)
    return path


def load(browser, path: Path, timeout: float = 30.0) -> dict[str, float]:
    """Open a report and wait until its charts are drawn; returns the page's own timings (ms since navigation)."""
    browser.get_log("browser")  # drop earlier pages' messages
    browser.get(path.resolve().as_uri())
    deadline = time.monotonic() + timeout
    while browser.execute_script("return document.body.dataset.ready") != "true":
        assert time.monotonic() < deadline, "the report did not finish drawing its charts"
        time.sleep(0.05)
    return browser.execute_script("return {interactive: window.refscoreInteractiveMs, ready: window.refscoreReadyMs}")


def rows(browser) -> list[str]:
    return browser.execute_script(
        "return Array.from(document.querySelectorAll('#segment-table tbody tr'), r => r.dataset.segment)")


def test_hostile_text_runs_nothing(browser, hostile_report: Path, artifacts: Path) -> None:
    load(browser, hostile_report)
    assert browser.execute_script("return typeof window.__pwned") == "undefined"
    # long tables are listed a page at a time
    assert len(rows(browser)) == 16
    browser.find_element("id", "show-more").click()
    assert len(rows(browser)) == 32 and browser.find_element("id", "show-more").is_displayed()
    browser.find_element("id", "show-more").click()
    assert len(rows(browser)) == 40 and not browser.find_element("id", "show-more").is_displayed()

    browser.find_element("css selector", '#segment-table tbody tr[data-segment="3"]').click()
    browser.find_element("css selector", '#segment-table tbody tr[data-segment="0"]').click()
    assert browser.execute_script("return typeof window.__pwned") == "undefined"
    browser.execute_script("document.querySelectorAll('details').forEach(d => d.open = true)")
    assert browser.find_element("id", "test-cases").is_displayed()
    assert browser.execute_script("return document.querySelectorAll('main img, main svg[onload]').length") == 0
    text = browser.find_element("id", "segment-texts").text
    assert "<script>window.__pwned = 1</script>" in text  # shown as text, not run
    assert browser.find_element("css selector", "#segment-texts .source").text == "Source\n" + PAYLOADS[0]
    assert browser.title == PAYLOADS[0]
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == []
    browser.save_screenshot(str(artifacts / "hostile.png"))


def test_example_report_in_the_browser(browser, example_report: Path, artifacts: Path) -> None:
    timings = load(browser, example_report)
    print(f"\nreport of the bundled example: interactive after {timings['interactive']:.0f} ms, all charts drawn "
          f"after {timings['ready']:.0f} ms (headless Chromium)")
    assert timings["interactive"] < 10_000  # loose: a shared machine; the measured figure is printed above
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == []
    # no network: the only resource the page ever named is its own file
    names = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert names == []
    assert browser.execute_script("return performance.getEntriesByType('navigation')[0].name") == \
        example_report.resolve().as_uri()
    for section in ("overview", "distributions", "buckets", "differences", "browser"):
        assert browser.find_element("id", section).is_displayed()
    # header, main and footer share one centred column with a margin at the window's edges
    assert browser.execute_script("return ['header', 'main', 'footer'].map(tag => { const style = "
                                  "getComputedStyle(document.querySelector(tag)); "
                                  "return [style.maxWidth, style.paddingLeft]; })") == [["1400px", "16px"]] * 3
    drawn = browser.execute_script("return Array.from(document.querySelectorAll('.chart:not([hidden])'), "
                                   "c => !!(c.firstElementChild && c.firstElementChild.shadowRoot))")
    assert len(drawn) > 10 and all(drawn)  # every chart shown holds a Bokeh figure
    assert len(browser.find_elements("css selector", "table.pvalues td.better")) > 0
    assert len(browser.find_elements("css selector", "table.pvalues td.worse")) > 0
    browser.save_screenshot(str(artifacts / "overview.png"))

    before = rows(browser)
    assert len(before) == 300
    browser.find_element("css selector", '#segment-table th[data-key="uedin-nmt"] button').click()
    after_sort = rows(browser)
    assert sorted(after_sort, key=int) == sorted(before, key=int) and after_sort != before
    assert browser.find_element("css selector", '#segment-table th[data-key="uedin-nmt"]').get_attribute(
        "aria-sort") == "descending"

    # the difference column of two chosen systems sorts where they differ most
    browser.execute_script("const b = document.getElementById('diff-b'); b.value = 'PROMT-Rule-based';"
                           "b.dispatchEvent(new Event('change'));")
    from selenium.webdriver.common.keys import Keys

    browser.find_element("css selector", '#segment-table th[data-key="diff"] button').send_keys(Keys.ENTER)
    top = rows(browser)[0]
    scores = browser.execute_script(
        "const d = JSON.parse(document.getElementById('refscore-data').textContent).segments;"
        "const r = d.ids.indexOf(Number(arguments[0]));"
        "return d.ids.map((_, k) => d.scores.bleu['PROMT-Rule-based'][k] - d.scores.bleu['uedin-nmt'][k])"
        ".concat([r]);", top)
    *differences, top_row = scores
    assert differences[top_row] == max(differences)

    search = browser.find_element("id", "filter-text")
    search.send_keys("Trump")
    filtered = rows(browser)
    assert 0 < len(filtered) < 300
    browser.execute_script("const s = document.getElementById('filter-text'); s.value = '';"
                           "s.dispatchEvent(new Event('input'));")
    minimum = browser.find_element("id", "filter-min")
    minimum.send_keys("60")
    high = rows(browser)
    assert 0 < len(high) < 300
    minimum.clear()
    browser.execute_script("document.getElementById('filter-min').dispatchEvent(new Event('input'))")
    assert len(rows(browser)) == 300

    # keyboard: focus a row and press Enter to open it with its highlights
    row = browser.find_element("css selector", "#segment-table tbody tr")
    browser.execute_script("arguments[0].focus()", row)
    row.send_keys(Keys.ENTER)
    detail = browser.find_element("id", "segment-detail")
    assert detail.is_displayed()
    assert browser.find_element("id", "segment-title").text == f"Segment #{row.get_attribute('data-segment')}"
    counts = {}
    for mode in ("ngram", "char", "lcs"):
        browser.execute_script(f"const m = document.getElementById('highlight-mode'); m.value = '{mode}';"
                               f"m.dispatchEvent(new Event('change'));")
        counts[mode] = len(browser.find_elements("css selector", "#segment-texts mark"))
    assert all(count > 0 for count in counts.values()), counts
    browser.execute_script("document.getElementById('segment-detail').scrollIntoView()")
    browser.save_screenshot(str(artifacts / "segment.png"))

    # a button of the Differences section opens its segment
    button = browser.find_element("css selector", "#differences button.open")
    browser.execute_script("arguments[0].click()", button)
    assert browser.find_element("id", "segment-title").text == f"Segment #{button.get_attribute('data-segment')}"
    assert browser.execute_script("return typeof window.__pwned") == "undefined"

    # a scatter point is linked to its segment: selecting it (what a click does) opens that segment
    segment = browser.execute_script("""
        for (const doc of Bokeh.documents) for (const model of doc.all_models) {
          const data = model.data;
          if (data && data.segment !== undefined && data.x !== undefined) {
            model.selected.indices = [7];
            return Number(data.segment[7]);
          }
        }
        return null;""")
    assert segment is not None
    assert browser.find_element("id", "segment-title").text == f"Segment #{segment}"

    # printable: Chromium renders the page as a PDF (print CSS: no controls, the full table)
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    assert browser.execute_script("return getComputedStyle(document.getElementById('filters')).display") == "none"
    assert browser.execute_script("return getComputedStyle(document.querySelector('.table-wrap')).maxHeight") == \
        "none"
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    pdf = base64.b64decode(browser.print_page())
    assert pdf.startswith(b"%PDF") and len(pdf) > 50_000
    (artifacts / "example.pdf").write_bytes(pdf)


#: System names as real runs give them (issue 29): long, with paths and model tags.
LONG_NAMES = ["realsumm4-bart-large-cnn-finetuned-on-xsum-and-cnndm-beam5-lenpen2",
              "online-B (commercial system, snapshot of 2023-08-14, document-level mode)",
              "PROMT-Rule-based/with-terminology-dictionary-v12/automotive+medical+legal"]


@pytest.fixture(scope="module")
def long_names_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    example = load_example()
    systems = dict(zip(LONG_NAMES, example.systems.values()))
    path = tmp_path_factory.mktemp("report") / "long-names.html"
    refscore.report(systems, example.references, ["bleu", "chrf", "ter", "rouge"], output=path, n=200,
                    ids=[f"newstest2017-doc{i // 10}-s{i % 10}" for i in range(len(example.references))],
                    metadata={"document": [f"doc{i // 60}" for i in range(len(example.references))]})
    return path


def overflow(browser, selector: str) -> list[list[float]]:
    """[scrollWidth, clientWidth, right edge, right edge of <main>'s content] of every element matching."""
    return browser.execute_script("""
        const main = document.querySelector('main'), style = getComputedStyle(main);
        const limit = main.getBoundingClientRect().right - parseFloat(style.paddingRight);
        return Array.from(document.querySelectorAll(arguments[0]),
                          e => [e.scrollWidth, e.clientWidth, e.getBoundingClientRect().right, limit]);""", selector)


def test_long_system_names_fit_at_1400_px(browser, long_names_report: Path, artifacts: Path) -> None:
    load(browser, long_names_report)
    assert browser.execute_script("return window.innerWidth") <= 1400
    # nothing scrolls sideways: the page, the significance matrices, the segment table, the system lists
    assert browser.execute_script("return document.documentElement.scrollWidth <= "
                                  "document.documentElement.clientWidth")
    for selector in (".matrix", "table.pvalues", "table.scores", ".table-wrap", "#segment-table", ".system-legend",
                     ".system-legend li", "table.ngrams", "table.largest"):
        boxes = overflow(browser, selector)
        assert boxes, selector
        for scroll, client, right, limit in boxes:
            assert scroll <= client + 1 and right <= limit + 1, (selector, scroll, client, right, limit)
    # every full name is shown once per system list (wrapped, never cut), and the lists sit above the charts, so
    # they cover no data
    legends = browser.find_elements("css selector", ".system-legend")
    assert len(legends) == 2 and all([name in legend.text for name in LONG_NAMES] for legend in legends)
    assert browser.execute_script("""
        return Array.from(document.querySelectorAll('.system-legend'), legend => {
          const chart = legend.parentElement.querySelector('.chart:not([hidden])');
          return legend.getBoundingClientRect().bottom <= chart.getBoundingClientRect().top;
        }).every(Boolean);""")
    for section in ("overview", "distributions", "buckets", "browser"):
        browser.execute_script(f"document.getElementById('{section}').scrollIntoView()")
        browser.save_screenshot(str(artifacts / f"long-names-{section}.png"))


def test_system_list_hides_a_system_in_every_chart(browser, long_names_report: Path) -> None:
    load(browser, long_names_report)
    visible = ("return Array.from(Bokeh.documents).flatMap(d => Array.from(d.all_models))"
               ".filter(m => m.name === arguments[0] && 'visible' in m).map(m => m.visible)")
    assert all(browser.execute_script(visible, LONG_NAMES[1]))
    button = browser.find_element("css selector", f'#distributions button.legend-item[data-system="{LONG_NAMES[1]}"]')
    button.click()
    hidden = browser.execute_script(visible, LONG_NAMES[1])
    assert len(hidden) > 5 and not any(hidden) and all(browser.execute_script(visible, LONG_NAMES[0]))
    assert button.get_attribute("aria-pressed") == "false"
    button.click()
    assert all(browser.execute_script(visible, LONG_NAMES[1]))


def test_bucket_charts_switch_to_the_chosen_score(browser, long_names_report: Path, artifacts: Path) -> None:
    load(browser, long_names_report)
    shown = "return Array.from(document.querySelectorAll('#buckets .chart:not([hidden])'), c => c.dataset.score)"
    assert set(browser.execute_script(shown)) == {"bleu"}
    browser.execute_script("const s = document.getElementById('bucket-score'); s.value = 'rouge2';"
                           "s.dispatchEvent(new Event('change'));")
    assert set(browser.execute_script(shown)) == {"rouge2"}
    deadline = time.monotonic() + 20
    drawn = "return Array.from(document.querySelectorAll('#buckets .chart:not([hidden])'), c => !!(c.firstElementChild" \
            " && c.firstElementChild.shadowRoot && c.getBoundingClientRect().width > 300))"
    while not all(browser.execute_script(drawn)):
        assert time.monotonic() < deadline, "the rouge2 bucket charts were not drawn"
        time.sleep(0.1)
    browser.execute_script("document.getElementById('buckets').scrollIntoView()")
    browser.save_screenshot(str(artifacts / "buckets-rouge2.png"))


def test_segment_ids_are_shown_and_searched(browser, long_names_report: Path) -> None:
    load(browser, long_names_report)
    header = browser.find_element("css selector", '#segment-table th[data-key="recordId"]')
    assert header.text == "id"
    first_row = browser.find_element("css selector", "#segment-table tbody tr")
    assert first_row.find_elements("tag name", "td")[1].text == "newstest2017-doc0-s0"
    search = browser.find_element("id", "filter-text")
    search.send_keys("doc13-s4")
    assert rows(browser) == ["134"]
    search.clear()
    browser.execute_script("document.getElementById('filter-text').dispatchEvent(new Event('input'))")
    # sorting by id is natural: doc2 before doc10
    header = browser.find_element("css selector", '#segment-table th[data-key="recordId"]')  # the head is redrawn
    header.find_element("tag name", "button").click()
    header = browser.find_element("css selector", '#segment-table th[data-key="recordId"]')
    header.find_element("tag name", "button").click()  # descending
    ids = browser.execute_script("return Array.from(document.querySelectorAll('#segment-table tbody tr'), "
                                 "r => r.children[1].textContent)")
    assert ids[0] == "newstest2017-doc29-s9" and ids.index("newstest2017-doc2-s9") > ids.index("newstest2017-doc10-s0")
    row = browser.find_element("css selector", '#segment-table tbody tr[data-segment="134"]')
    browser.execute_script("arguments[0].click()", row)
    assert browser.find_element("id", "segment-title").text == "Segment #134 · id newstest2017-doc13-s4"


def test_a_dozen_long_named_systems_fit_at_1400_px(browser, tmp_path: Path) -> None:
    example = load_example()
    outputs = list(example.systems.values())
    systems = {f"{LONG_NAMES[k % 3]} #{k}": [" ".join(h.split()[: len(h.split()) - k // 3]) for h in
                                              outputs[k % 3][:80]] for k in range(12)}
    path = tmp_path / "dozen.html"
    refscore.report(systems, example.references[:80], ["bleu", "ter"], output=path, n=50)
    load(browser, path)
    for selector in (".matrix", "table.pvalues", ".table-wrap", "#segment-table"):
        for scroll, client, right, limit in overflow(browser, selector):
            assert scroll <= client + 1 and right <= limit + 1, (selector, scroll, client, right, limit)
