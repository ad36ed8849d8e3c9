// The series site: the index of every key, and a key's chart drawn when it is opened from the
// readings of its data file (data/keys-NNNNN.js, loaded with a script element: a file:// page may
// not fetch). Untrusted text reaches the document only through textContent and setAttribute.
"use strict";
var perfabSite = (function () {
  var site = JSON.parse(document.getElementById("site-data").textContent);
  var app = document.getElementById("app");
  var SVG = "http://www.w3.org/2000/svg";
  var BATCH = 200;
  var chunks = {};
  var byName = new Map();
  site.keys.forEach(function (k, i) { byName.set(k[0], i); });
  var latest = site.runs.length - 1;
  var state = { sort: "movement", dir: 1, filter: "", moved: false, shown: 0, rows: null };

  window.addEventListener("error", function (e) { document.body.setAttribute("data-error", String(e.message)); });

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) { Object.keys(attrs).forEach(function (a) { if (attrs[a] != null) { e.setAttribute(a, attrs[a]); } }); }
    if (text != null) { e.textContent = text; }
    return e;
  }
  function svg(tag, attrs, text) {
    var e = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (a) { e.setAttribute(a, attrs[a]); });
    if (text != null) { e.textContent = text; }
    return e;
  }
  function link(text, href) { return href ? el("a", { href: href, rel: "noopener" }, text) : el("span", null, text); }
  function shown(k) { return k[9] != null ? k[9] : k[0]; }
  function fixed(v, d) { return v == null ? "-" : v.toFixed(d); }
  function ratio(v) { return v == null ? "-" : (v >= 100 ? v.toFixed(1) : v >= 10 ? v.toFixed(2) : v.toFixed(3)); }
  function pct(v) { return v == null ? "-" : (v > 0 ? "+" : v < 0 ? "\u2212" : "") + Math.abs(v).toFixed(1) + "%"; }
  function figure(v) { return Math.abs(v) >= 1000 ? Math.round(v).toLocaleString("en") : v.toPrecision(4); }
  function short(sha) { return /^[0-9a-fA-F]{7,64}$/.test(sha) ? sha.slice(0, 10) : sha; }
  function run(i) { return site.runs[i]; }
  function movementWord(rule, isNew) { return (isNew ? "new " : "persisting ") + rule; }

  // ---- the index -------------------------------------------------------------------------------
  var columns = [
    { id: "key", title: "key", left: true, value: function (k) { return k[0]; } },
    { id: "latest", title: "latest ratio", value: function (k) { return k[1]; } },
    { id: "noise", title: "noise", tip: "the median deviation of a reading from the median of the key's previous readings: 4\u00d7 it, at least the step floor, is a step", value: function (k) { return k[2]; } },
    { id: "movement", title: "movement in the latest run", left: true, value: function (k) { return k[3] == null ? 9 : (k[4] ? 0 : 2) + (k[3] === "step" ? 0 : 1); } },
    { id: "change", title: "change", tip: "the movement's change from its reference median", value: function (k) { return k[5] == null ? null : Math.abs(k[5]); } },
    { id: "readings", title: "readings", value: function (k) { return k[6]; } },
    { id: "last", title: "last run", value: function (k) { return k[7]; } }
  ];

  function compare(col, dir) {
    return function (a, b) {
      var x = col.value(site.keys[a]), y = col.value(site.keys[b]);
      if (x == null && y != null) { return 1; }
      if (y == null && x != null) { return -1; }
      var c = x < y ? -1 : x > y ? 1 : 0;
      if (c === 0 && col.id === "movement") {
        var ca = site.keys[a][5] == null ? 0 : Math.abs(site.keys[a][5]), cb = site.keys[b][5] == null ? 0 : Math.abs(site.keys[b][5]);
        return cb - ca || a - b;
      }
      return c * dir || a - b;
    };
  }

  function rows() {
    var f = state.filter.toLowerCase(), out = [];
    for (var i = 0; i < site.keys.length; i++) {
      var k = site.keys[i];
      if (state.moved && k[3] == null && !k[8]) { continue; }
      if (f && k[0].toLowerCase().indexOf(f) < 0 && shown(k).toLowerCase().indexOf(f) < 0) { continue; }
      out.push(i);
    }
    var col = columns.filter(function (c) { return c.id === state.sort; })[0];
    out.sort(compare(col, state.dir));
    return out;
  }

  function row(i) {
    var k = site.keys[i];
    var tr = el("tr", { "class": k[3] == null ? null : (k[4] ? "new" : "persisting") });
    var name = el("td", { "class": "key" });
    name.appendChild(el("a", { href: "#key=" + encodeURIComponent(k[0]) }, shown(k)));
    tr.appendChild(name);
    tr.appendChild(el("td", null, ratio(k[1])));
    tr.appendChild(el("td", null, fixed(k[2], 1) + "%"));
    var m = el("td", { "class": "left" });
    if (k[3] != null) { m.appendChild(el("span", { "class": "badge " + k[3] + (k[4] ? " new" : " persisting") }, movementWord(k[3], k[4]))); }
    if (k[8]) { m.appendChild(document.createTextNode(" ")); m.appendChild(el("span", { "class": "badge cpu", title: "a processor model the key had not run on before" }, "new CPU")); }
    tr.appendChild(m);
    tr.appendChild(el("td", null, k[5] == null ? "" : pct(k[5])));
    tr.appendChild(el("td", null, String(k[6])));
    tr.appendChild(el("td", { title: run(k[7])[1] }, run(k[7])[0]));
    return tr;
  }

  function more(tbody, count) {
    var end = Math.min(state.rows.length, state.shown + BATCH);
    var frag = document.createDocumentFragment();
    for (var j = state.shown; j < end; j++) { frag.appendChild(row(state.rows[j])); }
    tbody.appendChild(frag);
    state.shown = end;
    count.textContent = state.rows.length.toLocaleString("en") + " of " + site.keys.length.toLocaleString("en")
      + " keys" + (state.shown < state.rows.length ? ", " + state.shown.toLocaleString("en") + " shown (scroll for more)" : "");
  }

  function index() {
    app.textContent = "";
    document.title = document.querySelector("h1").textContent;
    app.appendChild(headline());
    app.appendChild(tabs("keys"));
    var tools = el("div", { "class": "tools" });
    var search = el("input", { type: "search", placeholder: "Filter keys by text", "aria-label": "filter keys" });
    search.value = state.filter;
    var movedBox = el("input", { type: "checkbox", id: "moved" });
    movedBox.checked = state.moved;
    var movedLabel = el("label", { "for": "moved" });
    movedLabel.appendChild(movedBox);
    movedLabel.appendChild(document.createTextNode(" only keys that moved in the latest run"));
    var count = el("span", { "class": "count" });
    tools.appendChild(search); tools.appendChild(movedLabel); tools.appendChild(count);
    app.appendChild(tools);
    var table = el("table", { "class": "index" });
    var head = el("tr");
    columns.forEach(function (c) {
      var th = el("th", { "class": c.left ? "left" : null, title: c.tip || null, "data-sort": c.id }, c.title);
      if (c.id === state.sort) { th.setAttribute("aria-sort", state.dir > 0 ? "ascending" : "descending"); }
      th.addEventListener("click", function () {
        state.dir = state.sort === c.id ? -state.dir : (c.id === "key" || c.id === "movement" ? 1 : -1);
        state.sort = c.id;
        remember();
        index();
      });
      head.appendChild(th);
    });
    var thead = el("thead"); thead.appendChild(head); table.appendChild(thead);
    var tbody = el("tbody"); table.appendChild(tbody);
    app.appendChild(table);
    var sentinel = el("div", { "class": "more" });
    app.appendChild(sentinel);
    state.rows = rows(); state.shown = 0;
    more(tbody, count);
    var timer = null;
    search.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () { state.filter = search.value; redraw(); }, 120);
    });
    movedBox.addEventListener("change", function () { state.moved = movedBox.checked; redraw(); });
    function redraw() {
      remember();
      tbody.textContent = ""; state.rows = rows(); state.shown = 0; more(tbody, count);
      document.body.setAttribute("data-rows", String(state.rows.length));
    }
    new IntersectionObserver(function (entries) {
      if (entries[0].isIntersecting && state.shown < state.rows.length) { more(tbody, count); }
    }, { rootMargin: "600px" }).observe(sentinel);
    document.body.setAttribute("data-keys", String(site.keys.length));
    document.body.setAttribute("data-rows", String(state.rows.length));
    document.body.setAttribute("data-view", "index");
    if (!document.body.hasAttribute("data-ready-ms")) {
      // How long the index took to show, from the start of the page's navigation: a benchmark reads it back.
      document.body.setAttribute("data-ready-ms", String(Math.round(performance.now())));
    }
  }

  /** Keeps the index's sort and filter in the address, so that a view can be shared; no navigation. */
  function remember() {
    var p = new URLSearchParams();
    if (state.filter) { p.set("filter", state.filter); }
    if (state.moved) { p.set("moved", "1"); }
    if (state.sort !== "movement" || state.dir !== 1) { p.set("sort", (state.dir < 0 ? "-" : "") + state.sort); }
    var h = p.toString();
    history.replaceState(null, "", location.href.split("#")[0] + (h ? "#" + h : ""));
  }

  function headline() {
    var box = el("div");
    var moved = 0, fresh = 0, cpu = 0;
    site.keys.forEach(function (k) { if (k[3] != null) { moved++; if (k[4]) { fresh++; } } if (k[8]) { cpu++; } });
    var r = run(latest);
    var ctx = el("div", { "class": "context" });
    ctx.appendChild(document.createTextNode(site.keys.length.toLocaleString("en") + " keys \u00b7 " + site.runs.length.toLocaleString("en")
      + " runs from " + run(0)[0] + " to " + r[0] + " \u00b7 latest run "));
    ctx.appendChild(link(r[1], r[4]));
    ctx.appendChild(document.createTextNode(" at "));
    ctx.appendChild(link(short(r[2]), r[5]));
    ctx.appendChild(document.createTextNode(" on " + site.cpus[r[3]]));
    box.appendChild(ctx);
    box.appendChild(el("div", { "class": "headline" }, fresh + " new movement" + (fresh === 1 ? "" : "s") + ", "
      + (moved - fresh) + " persisting, in the latest run" + (cpu ? "; " + cpu + " key" + (cpu === 1 ? "" : "s") + " on a processor model new to them" : "")));
    document.getElementById("legend").textContent = "Movements are what perfab series check reports: " + site.rules
      + ". A movement is new unless the key's previous reading was one. Ratios are to a baseline measured in the same run.";
    return box;
  }

  function tabs(on) {
    var nav = el("nav", { "class": "tabs" });
    nav.appendChild(el("a", { href: "#", "class": on === "keys" ? "on" : null }, "Keys"));
    if (site.floors) { nav.appendChild(el("a", { href: "#floors", "class": on === "floors" ? "on" : null }, "Baseline floors")); }
    return nav;
  }

  // ---- the baseline's floors -------------------------------------------------------------------
  function floorsOf(name) {
    var out = [];
    if (!site.floors) { return out; }
    site.floors.tiers.forEach(function (t) {
      t.entries.forEach(function (e) { if (e[0] === name) { out.push({ tier: t, entry: e }); } });
    });
    return out;
  }

  function floors() {
    app.textContent = "";
    app.appendChild(headline());
    app.appendChild(tabs("floors"));
    var b = site.floors;
    app.appendChild(el("p", { "class": "facts" }, "The ratchet baseline's floors, each a ratio to the anchor " + b.anchor
      + " of the same run, per tier (machine and architecture). A key of the series named as a benchmark shows its floors on its page."));
    b.tiers.forEach(function (t) {
      app.appendChild(el("h2", { "class": "key-name" }, t.machine + " (" + t.arch + ")"));
      app.appendChild(el("div", { "class": "facts" }, t.entries.length + " floors \u00b7 anchor " + figure(t.anchorValue) + " " + t.unit
        + " \u00b7 seeded to " + t.date + (t.cpus.length ? " \u00b7 " + t.cpus.join(", ") : "")
        + (t.spread ? " \u00b7 measured noise floor " + fixed(t.spread[0], 1) + "% median, " + fixed(t.spread[1], 1) + "% 95th percentile" : "")));
      var table = el("table", { "class": "floors" });
      var head = el("tr");
      ["benchmark", "floor ratio", "floor value", "seen", "set by"].forEach(function (h, i) { head.appendChild(el("th", { "class": i === 0 || i === 4 ? "left" : null }, h)); });
      var thead = el("thead"); thead.appendChild(head); table.appendChild(thead);
      var tbody = el("tbody");
      t.entries.forEach(function (e) {
        var tr = el("tr");
        var name = el("td", { "class": "key" });
        name.appendChild(byName.has(e[0]) ? el("a", { href: "#key=" + encodeURIComponent(e[0]) }, e[0]) : el("span", null, e[0]));
        tr.appendChild(name);
        tr.appendChild(el("td", null, figure(e[1])));
        tr.appendChild(el("td", null, figure(e[2]) + " " + e[3]));
        tr.appendChild(el("td", null, String(e[4])));
        tr.appendChild(el("td", { "class": "left" }, e[5]));
        tbody.appendChild(tr);
      });
      table.appendChild(tbody);
      app.appendChild(table);
    });
    document.body.setAttribute("data-view", "floors");
  }

  // ---- a key's page ----------------------------------------------------------------------------
  function load(c, keys) { chunks[c] = keys; route(); }

  function keyPage(i) {
    var k = site.keys[i], c = Math.floor(i / site.chunk);
    app.textContent = "";
    app.appendChild(tabs(null));
    app.appendChild(el("h2", { "class": "key-name" }, shown(k)));
    if (!chunks[c]) {
      app.appendChild(el("p", { "class": "muted" }, "Loading the readings\u2026"));
      if (!document.querySelector("script[data-chunk='" + c + "']")) {
        var s = el("script", { src: "data/keys-" + String(c + 100000).slice(1) + ".js", "data-chunk": String(c) });
        s.addEventListener("error", function () {
          app.appendChild(el("p", { "class": "muted" }, "The readings' file is missing: data/keys-" + String(c + 100000).slice(1) + ".js"));
        });
        document.body.appendChild(s);
      }
      return;
    }
    var d = chunks[c][i % site.chunk];
    var points = d[0].map(function (r, j) {
      return { at: j, run: r, ratio: d[1][j], cpu: site.cpus[run(r)[3]], sha: run(r)[2], shaLink: run(r)[5] };
    });
    d[4].forEach(function (o) { points[o[0]].cpu = o[1]; });
    d[5].forEach(function (o) { points[o[0]].sha = o[1]; points[o[0]].shaLink = o[2]; });
    var moves = d[2].map(function (m) {
      return { at: m[0], rule: m[1], isNew: !!m[2], ratio: m[3], reference: m[4], change: m[5], limit: m[6], from: m[7], to: m[8] };
    });
    moves.forEach(function (m) { points[m.at].move = m; });
    d[3].forEach(function (j) { points[j].newCpu = true; });
    d[6].forEach(function (r) { points[r[0]].rebased = { from: r[1], to: r[2] }; });

    var last = points[points.length - 1];
    var facts = el("div", { "class": "facts" });
    function fact(label, value) {
      facts.appendChild(document.createTextNode(label + " "));
      facts.appendChild(el("b", null, value));
      facts.appendChild(document.createTextNode(" \u00b7 "));
    }
    fact("latest ratio", ratio(last.ratio));
    fact("on", run(last.run)[0]);
    fact("noise", fixed(k[2], 1) + "%");
    fact("a step is past", fixed(Math.max(site.stepFloor, site.noiseTimes * k[2]), 1) + "%");
    fact("readings", String(points.length));
    var fresh = moves.filter(function (m) { return m.isNew; }).length;
    facts.appendChild(document.createTextNode(fresh + " new movement" + (fresh === 1 ? "" : "s") + ", " + d[3].length
      + " processor change" + (d[3].length === 1 ? "" : "s") + (d[6].length ? ", " + d[6].length + " re-basing"
      + (d[6].length === 1 ? "" : "s") : "")));
    app.appendChild(facts);
    var fl = floorsOf(k[0]);
    if (fl.length) {
      var box = el("div", { "class": "floor" });
      box.appendChild(el("b", null, "Baseline floor" + (fl.length === 1 ? "" : "s") + ": "));
      box.appendChild(document.createTextNode(fl.map(function (f) {
        return f.tier.machine + " (" + f.tier.arch + ") " + figure(f.entry[1]) + "\u00d7 the anchor " + site.floors.anchor
          + " (" + figure(f.entry[2]) + " " + f.entry[3] + ")";
      }).join("; ")));
      app.appendChild(box);
    }
    var fig = el("figure", { "class": "chart" });
    fig.appendChild(chart(k, points, moves));
    app.appendChild(fig);
    var legend = el("div", { "class": "key-legend" });
    [["#cf222e", "step"], ["#bc4c00", "drift"], ["#8250df", "processor model new to the key"], ["#59636e", "re-basing"]].forEach(function (l) {
      var s = el("span"); s.appendChild(el("i", { style: "background:" + l[0] })); s.appendChild(document.createTextNode(l[1])); legend.appendChild(s);
    });
    legend.appendChild(el("span", null, "solid and labelled: new \u00b7 faint and dashed: persisting \u00b7 dashed level: the reference median a movement was judged against \u00b7 click a point for its commit and run"));
    app.appendChild(legend);
    var detail = el("div", { "class": "reading", id: "reading" });
    app.appendChild(detail);
    show(points[points.length - 1], detail);

    var marked = points.filter(function (p) { return p.move || p.newCpu || p.rebased; }).reverse();
    app.appendChild(el("h2", null, "Marked nights"));
    app.appendChild(marked.length ? readings(marked, true) : el("p", { "class": "muted" }, "None: no reading of this key was a movement, a re-basing or on a new processor model."));
    var all = el("details");
    all.appendChild(el("summary", null, "Every reading (" + points.length + "), newest first"));
    all.appendChild(readings(points.slice().reverse(), false));
    app.appendChild(all);
    document.title = shown(k) + " \u00b7 perfab series";
    document.body.setAttribute("data-view", "key");
    document.body.setAttribute("data-chart", "drawn");
  }

  function describe(p) {
    var out = [];
    if (p.move) {
      out.push(movementWord(p.move.rule, p.move.isNew) + " " + pct(p.move.change) + " from " + ratio(p.move.reference)
        + (p.move.rule === "drift" ? " (recent median " + ratio(p.move.ratio) + ")" : "") + ", past " + fixed(p.move.limit, 1) + "%");
    }
    if (p.newCpu) { out.push("first reading on " + p.cpu); }
    if (p.rebased) { out.push("re-based from " + short(p.rebased.from) + " to " + short(p.rebased.to) + ": compared only with readings of its new base"); }
    return out.join("; ");
  }

  function readings(points, marks) {
    var table = el("table", { "class": "readings" });
    var head = el("tr");
    ["date", "run", "commit", "processor", "ratio", marks ? "what" : "mark"].forEach(function (h, i) {
      head.appendChild(el("th", { "class": i === 4 ? null : "left" }, h));
    });
    var thead = el("thead"); thead.appendChild(head); table.appendChild(thead);
    var tbody = el("tbody");
    points.forEach(function (p) {
      var r = run(p.run), tr = el("tr", { "class": p.move ? (p.move.isNew ? "new" : "persisting") : null, "data-date": r[0] });
      tr.appendChild(el("td", { "class": "left" }, r[0]));
      var a = el("td", { "class": "left wrap" }); a.appendChild(link(r[1], r[4])); tr.appendChild(a);
      var b = el("td", { "class": "left" }); b.appendChild(link(short(p.sha), p.shaLink)); tr.appendChild(b);
      tr.appendChild(el("td", { "class": "left wrap" }, p.cpu));
      tr.appendChild(el("td", null, ratio(p.ratio)));
      tr.appendChild(el("td", { "class": "left what" }, describe(p)));
      tbody.appendChild(tr);
    });
    table.appendChild(tbody);
    return table;
  }

  function show(p, detail) {
    detail.textContent = "";
    var r = run(p.run);
    detail.appendChild(el("b", null, r[0] + " \u00b7 ratio " + ratio(p.ratio)));
    detail.appendChild(document.createTextNode(" \u00b7 run "));
    detail.appendChild(link(r[1], r[4]));
    detail.appendChild(document.createTextNode(" \u00b7 commit "));
    detail.appendChild(link(short(p.sha), p.shaLink));
    detail.appendChild(document.createTextNode(" \u00b7 " + p.cpu + (describe(p) ? " \u00b7 " + describe(p) : "")));
  }

  /** Returns tick values for the range lo..hi: about n round steps. */
  function ticks(lo, hi, n) {
    var span = hi - lo, step = Math.pow(10, Math.floor(Math.log10(span / n))), err = span / n / step;
    step *= err >= 7.5 ? 10 : err >= 3.5 ? 5 : err >= 1.5 ? 2 : 1;
    var out = [];
    for (var v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) { out.push(Math.round(v / step) * step); }
    return { values: out, digits: Math.max(0, -Math.floor(Math.log10(step) + 1e-9)) };
  }

  function chart(k, points, moves) {
    var W = 1100, H = 360, L = 56, R = 16, T = 28, B = 34;
    var first = points[0].run, lastRun = points[points.length - 1].run;
    var span = Math.max(1, lastRun - first);
    var lo = Infinity, hi = -Infinity;
    points.forEach(function (p) { lo = Math.min(lo, p.ratio); hi = Math.max(hi, p.ratio); });
    moves.forEach(function (m) { lo = Math.min(lo, m.reference); hi = Math.max(hi, m.reference); });
    var fl = floorsOf(k[0]);
    if (lo === hi) { lo *= 0.95; hi *= 1.05; }
    var pad = (hi - lo) * 0.08; lo = Math.max(0, lo - pad); hi += pad;
    function x(r) { return L + (points.length === 1 ? (W - L - R) / 2 : (r - first) / span * (W - L - R)); }
    function y(v) { return T + (hi - v) / (hi - lo) * (H - T - B); }
    var s = svg("svg", { "class": "chart", viewBox: "0 0 " + W + " " + H, role: "img", "data-key": k[0] });
    s.appendChild(svg("title", {}, shown(k) + ": its ratio over time"));
    s.appendChild(svg("text", { "class": "tick", x: 4, y: T - 12 }, "ratio"));
    var t = ticks(lo, hi, 6);
    t.values.forEach(function (v) {
      s.appendChild(svg("line", { "class": "grid", x1: L, x2: W - R, y1: y(v), y2: y(v) }));
      s.appendChild(svg("text", { "class": "tick y", x: L - 6, y: y(v) + 4 }, v.toFixed(t.digits)));
    });
    // The x axis: the first run's date, then each month's first run, or every few runs when the span is short.
    var days = (Date.parse(run(lastRun)[0]) - Date.parse(run(first)[0])) / 864e5;
    var every = Math.max(1, Math.ceil((lastRun - first + 1) / 10)), month = null, lastX = -Infinity;
    for (var r = first; r <= lastRun; r++) {
      var date = run(r)[0], m = date.slice(0, 7), tick = r === first;
      if (days >= 75) { tick = tick || m !== month; } else { tick = tick || (r - first) % every === 0; }
      month = m;
      if (tick && x(r) - lastX >= 70) {
        s.appendChild(svg("line", { "class": "grid", x1: x(r), x2: x(r), y1: T, y2: H - B }));
        s.appendChild(svg("text", { "class": "tick x", x: x(r), y: H - B + 16 }, r === first ? date : days >= 75 ? m : date.slice(5)));
        lastX = x(r);
      }
    }
    s.appendChild(svg("rect", { "class": "frame", x: L, y: T, width: W - L - R, height: H - T - B }));
    fl.forEach(function (f) {
      var v = f.entry[1];
      if (v >= lo && v <= hi) {
        s.appendChild(svg("line", { "class": "floor-line", x1: L, x2: W - R, y1: y(v), y2: y(v) }));
        s.appendChild(svg("text", { "class": "floor-label", x: W - R - 4, y: y(v) - 4 }, "baseline floor " + f.tier.machine + " (" + f.tier.arch + ")"));
      }
    });
    points.forEach(function (p) {
      if (!p.newCpu) { return; }
      var g = svg("g", { "class": "cpu", "data-date": run(p.run)[0] });
      g.appendChild(svg("title", {}, run(p.run)[0] + ": first reading on " + p.cpu));
      g.appendChild(svg("line", { x1: x(p.run), x2: x(p.run), y1: T, y2: H - B }));
      g.appendChild(svg("path", { d: "M" + x(p.run) + " " + (H - B - 1) + "l-5 8h10z" }));
      s.appendChild(g);
    });
    points.forEach(function (p) {
      if (!p.rebased) { return; }
      var g = svg("g", { "class": "rebase", "data-date": run(p.run)[0] });
      g.appendChild(svg("title", {}, run(p.run)[0] + ": " + describe(p)));
      g.appendChild(svg("line", { x1: x(p.run), x2: x(p.run), y1: T, y2: H - B }));
      g.appendChild(svg("text", { x: x(p.run) + 4, y: H - B - 6 }, "re-based"));
      s.appendChild(g);
    });
    var label = [];
    moves.forEach(function (m) {
      var p = points[m.at], px = x(p.run);
      var g = svg("g", { "class": "mark " + m.rule + (m.isNew ? " new" : " persisting"), "data-date": run(p.run)[0],
        "data-rule": m.rule, "data-new": String(m.isNew) });
      g.appendChild(svg("title", {}, run(p.run)[0] + ": " + describe(p)));
      g.appendChild(svg("line", { x1: px, x2: px, y1: T, y2: H - B }));
      if (m.isNew) {
        g.appendChild(svg("line", { "class": "ref", x1: x(points[m.from].run), x2: px, y1: y(m.reference), y2: y(m.reference) }));
        g.appendChild(svg("path", { d: "M" + px + " " + (T + 1) + "l-6 -9h12z" }));
        var lx = Math.min(Math.max(px, L + 40), W - R - 40), row = 0;
        while (label.some(function (o) { return o.row === row && Math.abs(o.x - lx) < 90; })) { row++; }
        if (row < 3) { // past three rows of labels the chart would be hidden: the mark keeps its tooltip
          label.push({ x: lx, row: row });
          g.appendChild(svg("text", { x: lx, y: T + 14 + row * 13, "text-anchor": "middle" }, m.rule + " " + pct(m.change)));
        }
      }
      s.appendChild(g);
    });
    var path = points.map(function (p, j) { return (j ? "L" : "M") + x(p.run).toFixed(1) + " " + y(p.ratio).toFixed(1); }).join("");
    s.appendChild(svg("path", { "class": "line", d: path }));
    var radius = points.length > 200 ? 2 : 3;
    points.forEach(function (p) {
      var c = svg("circle", { "class": "pt" + (p.move ? " moved " + p.move.rule : ""), cx: x(p.run).toFixed(1), cy: y(p.ratio).toFixed(1),
        r: p.move && p.move.isNew ? radius + 1.5 : radius, "data-date": run(p.run)[0] });
      c.appendChild(svg("title", {}, run(p.run)[0] + " \u00b7 ratio " + ratio(p.ratio) + " \u00b7 run " + run(p.run)[1] + " \u00b7 "
        + short(p.sha) + " \u00b7 " + p.cpu + (describe(p) ? " \u00b7 " + describe(p) : "")));
      c.addEventListener("click", function () {
        s.querySelectorAll(".pt.on").forEach(function (o) { o.classList.remove("on"); });
        c.classList.add("on");
        show(p, document.getElementById("reading"));
      });
      s.appendChild(c);
    });
    return s;
  }

  // ---- routing ---------------------------------------------------------------------------------
  function route() {
    var h = location.hash;
    if (h.indexOf("#key=") === 0) {
      var name;
      try { name = decodeURIComponent(h.slice(5)); } catch (e) { name = null; }
      if (name != null && byName.has(name)) { keyPage(byName.get(name)); window.scrollTo(0, 0); return; }
      app.textContent = "";
      app.appendChild(tabs(null));
      app.appendChild(el("p", { "class": "muted" }, "No key of that name in this series."));
      document.body.setAttribute("data-view", "missing");
      return;
    }
    if (h === "#floors" && site.floors) { floors(); return; }
    // The index's own state may be given: #filter=TEXT&sort=COLUMN (or -COLUMN, descending)&moved=1.
    var params = new URLSearchParams(h.slice(1));
    if (params.has("filter")) { state.filter = params.get("filter"); }
    if (params.has("moved")) { state.moved = params.get("moved") === "1"; }
    var sort = params.get("sort");
    if (sort && columns.some(function (c) { return c.id === sort.replace(/^-/, ""); })) {
      state.sort = sort.replace(/^-/, ""); state.dir = sort.charAt(0) === "-" ? -1 : 1;
    }
    index();
  }
  window.addEventListener("hashchange", route);
  route();
  return { load: load };
})();
