<#-- The HTML report: one file, no network. Every value arrives escaped. -->
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${view.title}</title>
<style>
  body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 24px auto; max-width: 1100px; color: #1f2328; padding: 0 16px; }
  h1 { font-size: 20px; margin: 0 0 4px; }
  .context { color: #59636e; margin-bottom: 12px; }
  .headline { font-size: 16px; font-weight: 600; margin: 8px 0 16px; }
  .warnings { background: #fff8c5; border: 1px solid #d4a72c; border-radius: 6px; padding: 8px 16px; margin-bottom: 16px; }
  .warnings li { margin: 4px 0; }
  table { border-collapse: collapse; width: 100%; margin-bottom: 24px; }
  th, td { padding: 4px 8px; border-bottom: 1px solid #d1d9e0; text-align: right; white-space: nowrap; }
  th:nth-child(-n+2), td:nth-child(-n+2), th:last-child, td:last-child { text-align: left; }
  td.cell { white-space: normal; word-break: break-all; }
  .badge { display: inline-block; padding: 0 8px; border-radius: 10px; font-size: 12px; font-weight: 600; color: #fff; background: #59636e; }
  .badge.regression { background: #cf222e; }
  .badge.inconclusive { background: #8c959f; }
  .badge.inconclusive::before { content: "? "; }
  .badge.improvement { background: #1a7f37; }
  .badge.unchanged { background: #d1d9e0; color: #1f2328; }
  tr.regression td { background: #ffebe9; }
  tr.inconclusive td { background: #f6f8fa; }
  tr.improvement td { background: #dafbe1; }
  section.cell { border-top: 1px solid #d1d9e0; padding: 12px 0; }
  section.cell h2 { font-size: 15px; margin: 0 0 6px; word-break: break-all; }
  .facts { color: #59636e; margin-bottom: 6px; }
  svg.plot { display: block; max-width: 100%; height: auto; }
  svg.plot .frame { fill: none; stroke: #d1d9e0; }
  svg.plot .axis { font: 11px system-ui, sans-serif; fill: #59636e; text-anchor: end; }
  svg.plot .axis.unit { text-anchor: start; }
  .key span { display: inline-block; margin-right: 16px; }
  .key i { display: inline-block; width: 10px; height: 10px; border-radius: 5px; margin-right: 4px; vertical-align: middle; }
  .legend { color: #59636e; font-size: 12px; margin-top: 24px; }
</style>
</head>
<body>
<h1>${view.title}</h1>
<div class="context">${view.context}</div>
<div class="headline">${view.headline}</div>
<#if view.warnings?has_content>
<ul class="warnings">
<#list view.warnings as w>
  <li>${w}</li>
</#list>
</ul>
</#if>
<table>
<thead><tr><th>cell</th><th>metric</th><th>baseline (mean ±cv)</th><th>head (mean ±cv)</th><th>change [95% CI]</th><th>p</th><th title="the smallest slowdown found with 80% power">detects</th><th>verdict</th></tr></thead>
<tbody>
<#list view.rows as r>
<tr class="${r.verdictClass}"><td class="cell"><#if view.plots><a href="#${r.id}">${r.cell}</a><#else>${r.cell}</#if></td><td>${r.metric}</td><td>${r.base}</td><td>${r.head}</td><td>${r.change}</td><td>${r.p}</td><td>${r.detects}</td><td><span class="badge ${r.verdictClass}">${r.verdict}</span></td></tr>
</#list>
</tbody>
</table>
<#if view.plots>
<div class="key"><span><i style="background:#4a72b0"></i>baseline</span><span><i style="background:#d9822b"></i>head</span><span>dashed line: mean · band: its 95% interval · ● build 0, ■ build 1, ▲ build 2</span></div>
<#list view.rows as r>
<section class="cell ${r.verdictClass}" id="${r.id}">
  <h2>${r.cell} · ${r.metric}</h2>
  <div class="facts"><span class="badge ${r.verdictClass}">${r.verdict}</span> · change ${r.change} · p ${r.p} · baseline ${r.base} · head ${r.head}</div>
  ${r.plot}
</section>
</#list>
<#else>
<p class="facts">No trial order to plot: a comparison of files has no run.</p>
</#if>
<p class="legend">${view.legend}</p>
<script>
  // A self-check a browser test reads back: how many points the plots drew, and any error.
  window.addEventListener("error", function (e) { document.body.setAttribute("data-error", String(e.message)); });
  window.addEventListener("load", function () {
    document.body.setAttribute("data-plots", String(document.querySelectorAll("svg.plot").length));
    document.body.setAttribute("data-points", String(document.querySelectorAll("svg.plot .pt").length));
  });
</script>
</body>
</html>
