/* refscore report: charts, the segment browser and match highlighting. Untrusted text is only ever set through
   textContent (never innerHTML), and the data arrive as JSON.parse of inert <script type="application/json">. */
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("refscore-data").textContent);
  const chartItems = JSON.parse(document.getElementById("refscore-charts").textContent);
  const seg = data.segments;
  const rowOf = new Map(seg.ids.map((id, row) => [id, row]));
  const $ = (id) => document.getElementById(id);
  const state = { score: data.scoreNames[0], system: "", sortKey: "id", sortDir: 1, text: "", min: null, max: null,
                  bucketKind: "", bucket: "", diffA: data.systems[0], diffB: data.systems[1] || data.systems[0],
                  shown: data.pageRows };

  function el(tag, text, attrs) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    return node;
  }
  // a score ×its metric's display scale (scores from outside: as given), never "-0.00"
  function scale(name) { return data.scales && name in data.scales ? data.scales[name] : 100; }
  function fmt(value, name) {
    if (value === null || value === undefined) return "–";
    const text = (scale(name) * value).toFixed(2);
    return /^-0\.0*$/.test(text) ? text.slice(1) : text;
  }
  /* The segment's own id (records' "id"), or null when the report has none. */
  function recordId(row) { return seg.recordIds ? seg.recordIds[row] : null; }
  function segmentLabel(row) { return "Segment #" + seg.ids[row] + (seg.recordIds ? " · id " + recordId(row) : ""); }
  function option(select, value, label) { select.appendChild(el("option", label, { value: value })); }

  /* -- display tokenizer (same rule as refscore.reporting.analysis.TOKEN) --------------------------------------- */
  const TOKEN = /[\p{L}\p{N}\p{M}]+|[^\s\p{L}\p{N}\p{M}_]|_/gu;
  function tokenize(text) {
    return Array.from(text.matchAll(TOKEN), (m) => ({ text: m[0], start: m.index, end: m.index + m[0].length }));
  }

  /* Level (longest matched n-gram, 0 = none) of each token of `hyp`, matching n-grams of `refs` (clipped). */
  function ngramLevels(hyp, refs, maxN) {
    const levels = new Array(hyp.length).fill(0);
    for (let n = maxN; n >= 1; n--) {
      const available = new Map();
      for (const ref of refs) {
        const counts = new Map();
        for (let i = 0; i + n <= ref.length; i++) {
          const key = ref.slice(i, i + n).join("\u0001");
          counts.set(key, (counts.get(key) || 0) + 1);
        }
        for (const [key, count] of counts) available.set(key, Math.max(available.get(key) || 0, count));
      }
      for (let i = 0; i + n <= hyp.length; i++) {
        const key = hyp.slice(i, i + n).join("\u0001");
        const left = available.get(key) || 0;
        if (left > 0) {
          available.set(key, left - 1);
          for (let j = i; j < i + n; j++) levels[j] = Math.max(levels[j], n);
        }
      }
    }
    return levels;
  }

  /* Indices of `a` and `b` on one longest common subsequence (dynamic programming, as ROUGE-L). */
  function lcs(a, b) {
    const m = a.length, n = b.length;
    if (m * n > 250000) return [new Set(), new Set()];
    const table = Array.from({ length: m + 1 }, () => new Uint16Array(n + 1));
    for (let i = 1; i <= m; i++)
      for (let j = 1; j <= n; j++)
        table[i][j] = a[i - 1] === b[j - 1] ? table[i - 1][j - 1] + 1 : Math.max(table[i - 1][j], table[i][j - 1]);
    const inA = new Set(), inB = new Set();
    for (let i = m, j = n; i > 0 && j > 0;) {
      if (a[i - 1] === b[j - 1]) { inA.add(i - 1); inB.add(j - 1); i--; j--; }
      else if (table[i - 1][j] >= table[i][j - 1]) i--; else j--;
    }
    return [inA, inB];
  }

  /* Character spans [start, end, level] of `text` to mark, against the texts `others`. */
  function spans(mode, text, others) {
    if (mode === "none") return [];
    if (mode === "char") {
      // chrF: character n-grams (n <= 6) with whitespace removed
      const chars = [], where = [];
      for (let i = 0; i < text.length; i++) if (!/\s/.test(text[i])) { chars.push(text[i]); where.push(i); }
      const refChars = others.map((o) => Array.from(o).filter((c) => !/\s/.test(c)));
      const levels = ngramLevels(chars, refChars, 6);
      return levels.map((level, k) => [where[k], where[k] + 1, level]).filter((s) => s[2] > 0);
    }
    const tokens = tokenize(text);
    if (mode === "lcs") {
      const words = tokens.map((t) => t.text.toLowerCase());
      let best = new Set();
      for (const other of others) {
        const [inA] = lcs(words, tokenize(other).map((t) => t.text.toLowerCase()));
        if (inA.size > best.size) best = inA;
      }
      return tokens.filter((_, i) => best.has(i)).map((t) => [t.start, t.end, 3]);
    }
    const levels = ngramLevels(tokens.map((t) => t.text), others.map((o) => tokenize(o).map((t) => t.text)), 4);
    return tokens.map((t, i) => [t.start, t.end, levels[i]]).filter((s) => s[2] > 0);
  }

  function highlighted(text, marks) {
    const node = el("div", null, { class: "body" });
    let at = 0;
    for (const [start, end, level] of marks) {
      if (start > at) node.appendChild(document.createTextNode(text.slice(at, start)));
      node.appendChild(el("mark", text.slice(start, end), { class: "m" + Math.min(level, 6) }));
      at = end;
    }
    node.appendChild(document.createTextNode(text.slice(at)));
    return node;
  }

  /* -- segment detail ---------------------------------------------------------------------------------------- */
  let openRow = null;
  function renderDetail() {
    if (openRow === null) return;
    const mode = $("highlight-mode").value, focus = $("highlight-system").value;
    const refs = seg.references[openRow];
    const box = $("segment-texts");
    box.replaceChildren();
    if (seg.sources) {
      const card = el("div", null, { class: "text-card source" });
      card.appendChild(el("h4", "Source"));
      card.appendChild(el("div", seg.sources[openRow], { class: "body" }));
      box.appendChild(card);
    }
    refs.forEach((ref, k) => {
      const card = el("div", null, { class: "text-card reference" });
      card.appendChild(el("h4", refs.length > 1 ? "Reference " + (k + 1) : "Reference"));
      card.appendChild(highlighted(ref, spans(mode, ref, [seg.hypotheses[focus][openRow]])));
      box.appendChild(card);
    });
    for (const system of data.systems) {
      const hyp = seg.hypotheses[system][openRow];
      const card = el("div", null, { class: "text-card hypothesis" });
      card.appendChild(el("h4", system));
      card.appendChild(el("div", data.scoreNames.map((n) => n + " " + fmt(seg.scores[n][system][openRow], n)).join(" · "),
                          { class: "scores" }));
      card.appendChild(highlighted(hyp, spans(mode, hyp, refs)));
      const map = (data.heatmaps[String(seg.ids[openRow])] || {})[system];
      if (map) card.appendChild(heatmap(map));
      box.appendChild(card);
    }
  }

  /* BERTScore token similarities as a table: hypothesis tokens as rows, reference tokens as columns. */
  function heatmap(map) {
    const details = el("details", null, { class: "heatmap" });
    details.appendChild(el("summary", "BERTScore token similarity (×100; rows: hypothesis, columns: reference)"));
    const table = el("table");
    const head = el("tr");
    head.appendChild(el("th"));
    for (const token of map.ref) head.appendChild(el("th", token, { scope: "col" }));
    table.appendChild(el("thead")).appendChild(head);
    const body = table.appendChild(el("tbody"));
    const palette = data.viridis, width = map.ref.length;
    map.hyp.forEach((token, i) => {
      const tr = el("tr");
      tr.appendChild(el("th", token, { scope: "row" }));
      for (let j = 0; j < width; j++) {
        const value = map.sim[i * width + j];
        const level = Math.max(0, Math.min(255, Math.round(value * 2.55)));
        const td = el("td", value, { title: token + " / " + map.ref[j] + ": " + value });
        td.style.background = palette[level];
        td.style.color = level > 150 ? "#000" : "#fff";
        tr.appendChild(td);
      }
      body.appendChild(tr);
    });
    details.appendChild(table);
    return details;
  }
  function openSegment(id) {
    const detail = $("segment-detail");
    detail.hidden = false;
    const row = rowOf.get(Number(id));
    if (row === undefined) {
      openRow = null;
      $("segment-title").textContent = "Segment #" + id + ": its text is not embedded in this report (sampled)";
      $("segment-texts").replaceChildren();
    } else {
      openRow = row;
      $("segment-title").textContent = segmentLabel(row);
      renderDetail();
    }
    detail.scrollIntoView({ block: "nearest" });
    detail.focus({ preventScroll: true });
  }
  window.refscoreOpenSegment = openSegment;

  /* -- segment table ----------------------------------------------------------------------------------------- */
  const lowered = seg.ids.map((_, row) =>
    ((seg.recordIds ? recordId(row) + "\n" : "") +
     seg.references[row].join("\n") + "\n" + data.systems.map((s) => seg.hypotheses[s][row]).join("\n") +
     (seg.sources ? "\n" + seg.sources[row] : "")).toLowerCase());

  function value(row, key) {
    if (key === "id") return seg.ids[row];
    if (key === "recordId") return recordId(row);
    if (key === "ref") return seg.references[row][0];
    if (key === "diff") {
      const a = seg.scores[state.score][state.diffA][row], b = seg.scores[state.score][state.diffB][row];
      return a === null || b === null ? null : b - a;
    }
    if (key === "spread") {
      const v = data.systems.map((s) => seg.scores[state.score][s][row]).filter((x) => x !== null);
      return v.length ? Math.max(...v) - Math.min(...v) : null;
    }
    return seg.scores[state.score][key][row];
  }

  function visibleRows() {
    const rows = [];
    const text = state.text.toLowerCase();
    const kind = seg.buckets[state.bucketKind];
    for (let row = 0; row < seg.ids.length; row++) {
      if (text && !lowered[row].includes(text)) continue;
      if (kind && state.bucket !== "" && String(kind.index[row]) !== state.bucket) continue;
      if (state.min !== null || state.max !== null) {
        const systems = state.system ? [state.system] : data.systems;
        const inRange = systems.some((s) => {
          const v = seg.scores[state.score][s][row];
          const shown = scale(state.score) * v;
          return v !== null && (state.min === null || shown >= state.min) && (state.max === null || shown <= state.max);
        });
        if (!inRange) continue;
      }
      rows.push(row);
    }
    const key = state.sortKey, dir = state.sortDir;
    rows.sort((a, b) => {
      const x = value(a, key), y = value(b, key);
      if (x === y) return seg.ids[a] - seg.ids[b];
      if (x === null) return 1;
      if (y === null) return -1;
      if (typeof x === "string") return collator.compare(x, y) * dir;  // ids: "doc2" before "doc10"
      return (x < y ? -1 : 1) * dir;
    });
    return rows;
  }

  const collator = new Intl.Collator(undefined, { numeric: true });
  const systemNumber = (system) => data.systems.indexOf(system) + 1;
  /* Columns [key, label]. Fixed shares of the width (segment number 5%, id 10%, reference text 15–40%, the score
     columns share the rest) keep the table within the page however long the system names are (they wrap). */
  const FIXED_SHARES = { id: 5, recordId: 10 };
  function columns() {
    const list = [["id", "#"]];
    if (seg.recordIds) list.push(["recordId", "id"]);
    list.push(["ref", "reference"], ...data.systems.map((s) => [s, systemNumber(s) + " " + s]), ["spread", "spread"]);
    if (data.systems.length > 1) list.push(["diff", systemNumber(state.diffB) + " − " + systemNumber(state.diffA)]);
    return list;
  }

  function renderHead() {
    const tr = el("tr");
    const cols = columns();
    const colgroup = el("colgroup");
    // the reference text gives up width as systems are added (40% for one system, at least 20%)
    const textShare = Math.max(20, 41.5 - 1.5 * data.systems.length) - (seg.recordIds ? 5 : 0);
    const scoreColumns = cols.filter(([key]) => key !== "ref" && !(key in FIXED_SHARES)).length;
    const fixed = cols.reduce((sum, [key]) => sum + (FIXED_SHARES[key] || 0), textShare);
    for (const [key] of cols) {
      const share = key === "ref" ? textShare : FIXED_SHARES[key] || (100 - fixed) / scoreColumns;
      colgroup.appendChild(el("col", null, { style: "width: " + share.toFixed(3) + "%" }));
    }
    const table = $("segment-table");
    if (table.querySelector("colgroup")) table.querySelector("colgroup").replaceWith(colgroup);
    else table.insertBefore(colgroup, table.tHead);
    for (const [key, label] of cols) {
      const th = el("th", null, { scope: "col", "data-key": key });
      if (state.sortKey === key) th.setAttribute("aria-sort", state.sortDir > 0 ? "ascending" : "descending");
      const button = el("button", null, { type: "button", class: "sort", title: "sort by " + label });
      button.appendChild(el("span", label, { class: "label" }));  // at most three lines; the title has it all
      button.addEventListener("click", () => {
        state.sortDir = state.sortKey === key ? -state.sortDir : (["id", "recordId", "ref"].includes(key) ? 1 : -1);
        state.sortKey = key;
        render();
        document.querySelector('#segment-table th[data-key="' + CSS.escape(key) + '"] button').focus();
      });
      th.appendChild(button);
      tr.appendChild(th);
    }
    $("segment-table").tHead.replaceChildren(tr);
  }

  function render(keepPage) {
    if (!keepPage) state.shown = data.pageRows;  // a new sort or filter starts at the first page
    renderHead();
    const body = document.createElement("tbody");
    const rows = visibleRows();
    for (const row of rows.slice(0, state.shown)) {
      const tr = el("tr", null, { tabindex: "0", "data-segment": seg.ids[row] });
      tr.appendChild(el("td", seg.ids[row]));
      if (seg.recordIds) tr.appendChild(el("td", recordId(row), { class: "record-id" }));
      tr.appendChild(el("td", seg.references[row][0], { class: "text" }));
      for (const s of data.systems) tr.appendChild(el("td", fmt(seg.scores[state.score][s][row], state.score)));
      tr.appendChild(el("td", fmt(value(row, "spread"), state.score)));
      if (data.systems.length > 1) {
        const diff = value(row, "diff");
        tr.appendChild(el("td", diff === null ? "–" : (diff > 0 ? "+" : "") + fmt(diff, state.score)));
      }
      body.appendChild(tr);
    }
    $("segment-table").replaceChild(body, $("segment-table").tBodies[0]);
    const listed = Math.min(rows.length, state.shown);
    $("row-count").textContent = rows.length + " of " + seg.ids.length + " segments" +
      (listed < rows.length ? " (the first " + listed + " listed)" : "");
    $("show-more").hidden = listed >= rows.length;
  }

  function setUpFilters() {
    for (const name of data.scoreNames) option($("filter-score"), name, name);
    option($("filter-system"), "", "any system");
    for (const s of data.systems) {
      for (const id of ["filter-system", "highlight-system", "diff-a", "diff-b"]) {
        option($(id), s, systemNumber(s) + " " + s);
      }
    }
    $("diff-a").value = state.diffA;
    $("diff-b").value = state.diffB;
    option($("filter-bucket-kind"), "", "all segments");
    for (const kind of Object.keys(seg.buckets)) option($("filter-bucket-kind"), kind, kind);
    const number = (input) => (input.value === "" ? null : Number(input.value));
    const update = () => {
      state.text = $("filter-text").value; state.score = $("filter-score").value; state.system = $("filter-system").value;
      state.min = number($("filter-min")); state.max = number($("filter-max")); state.bucket = $("filter-bucket").value;
      state.diffA = $("diff-a").value; state.diffB = $("diff-b").value;
      render();
    };
    $("filter-bucket-kind").addEventListener("change", () => {
      state.bucketKind = $("filter-bucket-kind").value;
      const select = $("filter-bucket");
      select.replaceChildren();
      option(select, "", "any");
      (seg.buckets[state.bucketKind] || { labels: [] }).labels.forEach((label, i) => option(select, String(i), label));
      update();
    });
    for (const id of ["filter-text", "filter-min", "filter-max"]) $(id).addEventListener("input", update);
    for (const id of ["filter-score", "filter-system", "filter-bucket", "diff-a", "diff-b"])
      $(id).addEventListener("change", update);
    $("filter-bucket-kind").dispatchEvent(new Event("change"));
    $("highlight-mode").addEventListener("change", renderDetail);
    $("highlight-system").addEventListener("change", renderDetail);
    const firstMetric = data.scoreNames.map((n) => data.metricOf[n]).find((m) => /bleu|chrf|rouge/.test(m)) || "";
    $("highlight-mode").value = /rouge/.test(firstMetric) ? "lcs" : /chrf/.test(firstMetric) ? "char" : "ngram";
  }

  $("show-more").addEventListener("click", () => { state.shown += data.pageRows; render(true); });

  const table = $("segment-table");
  table.addEventListener("click", (event) => {
    const tr = event.target.closest("tbody tr");
    if (tr) openSegment(tr.dataset.segment);
  });
  table.addEventListener("keydown", (event) => {
    const tr = event.target.closest("tbody tr");
    if (!tr) return;
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); openSegment(tr.dataset.segment); }
    else if (event.key === "ArrowDown" && tr.nextElementSibling) { event.preventDefault(); tr.nextElementSibling.focus(); }
    else if (event.key === "ArrowUp" && tr.previousElementSibling) { event.preventDefault(); tr.previousElementSibling.focus(); }
  });
  document.addEventListener("click", (event) => {
    const button = event.target.closest("button.open");
    if (button) openSegment(button.dataset.segment);
  });

  /* -- charts ------------------------------------------------------------------------------------------------ */
  const drawn = new Set();
  let drawing = Promise.resolve();
  /* Draws the charts now shown and not drawn yet, one after another, yielding between them so that the page stays
     responsive; bucket charts of the other scores are drawn when the reader picks their score. */
  function drawVisibleCharts() {
    for (const chart of chartItems) {
      if (drawn.has(chart.target) || $(chart.target).hidden) continue;
      drawn.add(chart.target);
      drawing = drawing.then(() => new Promise((resolve) => setTimeout(resolve, 0)))
        .then(() => window.Bokeh.embed.embed_item(chart.item, chart.target))
        .then(() => applyHiddenSystems());
    }
    return drawing;
  }
  /* The system lists above the charts: a click hides or shows that system's glyphs in every chart. */
  const hiddenSystems = new Set();
  function applyHiddenSystems() {
    for (const doc of window.Bokeh.documents)
      for (const model of doc.all_models)
        if (model.name && data.systems.includes(model.name) && "visible" in model)
          model.visible = !hiddenSystems.has(model.name);
  }
  document.addEventListener("click", (event) => {
    const item = event.target.closest("button.legend-item");
    if (!item) return;
    const system = item.dataset.system;
    if (hiddenSystems.has(system)) hiddenSystems.delete(system); else hiddenSystems.add(system);
    document.querySelectorAll("button.legend-item").forEach((button) => {
      if (button.dataset.system === system) button.setAttribute("aria-pressed", String(!hiddenSystems.has(system)));
    });
    applyHiddenSystems();
  });
  const bucketScore = $("bucket-score");
  if (bucketScore) bucketScore.addEventListener("change", () => {
    document.querySelectorAll("#buckets .chart[data-score]").forEach((chart) => {
      chart.hidden = chart.dataset.score !== bucketScore.value;
    });
    drawVisibleCharts();
  });

  setUpFilters();
  render();
  window.refscoreInteractiveMs = performance.now();  // since navigation start: the table and controls work
  drawVisibleCharts().then(() => {
    window.refscoreReadyMs = performance.now();
    document.body.dataset.ready = "true";
  });
})();
