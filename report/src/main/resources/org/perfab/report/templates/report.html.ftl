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
  .badge.inconclusive { background: #9a6700; }
  .badge.inconclusive::before { content: "? "; }
  .badge.small { background: #bc4c00; }
  .badge.noisy { background: #8c959f; }
  .badge.noisy::before { content: "~ "; }
  .badge.improvement { background: #1a7f37; }
  .badge.unchanged { background: #d1d9e0; color: #1f2328; }
  tr.regression td { background: #ffebe9; }
  tr.inconclusive td { background: #f6f8fa; }
  tr.small td { background: #fff1e5; }
  tr.noisy td { background: #f6f8fa; }
  tr.improvement td { background: #dafbe1; }
  section.cell { border-top: 1px solid #d1d9e0; padding: 12px 0; }
  section.cell h2 { font-size: 15px; margin: 0 0 6px; word-break: break-all; }
  .facts { color: #59636e; margin-bottom: 6px; }
  svg.plot { display: block; max-width: 100%; height: auto; }
  svg.plot .frame { fill: none; stroke: #d1d9e0; }
  svg.plot .axis { font: 11px system-ui, sans-serif; fill: #59636e; text-anchor: end; }
  svg.plot .axis.unit { text-anchor: start; }
  svg.plot .axis.order { text-anchor: middle; }
  svg.plot .grid { stroke: #eff2f5; }
  svg.plot .outlier { fill: none; stroke: #cf222e; stroke-width: 1.5; }
  figure.forest { margin: 0 0 20px; }
  figure.forest .scroll { max-height: 85vh; overflow-y: auto; }
  figure.forest figcaption { color: #59636e; font-size: 12px; margin-top: 4px; }
  svg.forest { display: block; width: 100%; height: auto; font: 12px system-ui, -apple-system, "Segoe UI", sans-serif; }
  svg.forest .bar { fill: #eef1f4; }
  svg.forest .grid { stroke: #eaeef2; }
  svg.forest .tick { font-size: 11px; fill: #59636e; text-anchor: middle; }
  svg.forest .axis-title { font-size: 12px; fill: #59636e; text-anchor: middle; }
  svg.forest .side { font-size: 11px; fill: #59636e; }
  svg.forest .side.high { text-anchor: end; }
  svg.forest .zero { stroke: #59636e; }
  svg.forest .threshold { stroke-width: 1.2; }
  svg.forest .threshold.min-effect { stroke: #8c959f; stroke-dasharray: 5 3; }
  svg.forest .threshold.inconclusive { stroke: #9a6700; stroke-dasharray: 1.5 3; }
  svg.forest .mark { color: #59636e; }
  svg.forest .mark.regression { color: #cf222e; }
  svg.forest .mark.inconclusive { color: #9a6700; }
  svg.forest .mark.improvement { color: #1a7f37; }
  svg.forest .mark.small { color: #bc4c00; }
  svg.forest .mark.noisy { color: #8c959f; }
  svg.forest .mark.profile { color: #8250df; }
  svg.forest .mark.no-data { color: #8c959f; }
  svg.forest .stripe { fill: transparent; }
  svg.forest .mark.regression .stripe { fill: #cf222e; fill-opacity: 0.07; }
  svg.forest .mark.inconclusive .stripe { fill: #9a6700; fill-opacity: 0.06; }
  svg.forest .mark.improvement .stripe { fill: #1a7f37; fill-opacity: 0.06; }
  svg.forest a:hover .stripe { fill: #0969da; fill-opacity: 0.08; }
  svg.forest .name { text-anchor: end; fill: #1f2328; }
  svg.forest a .name { fill: #0969da; }
  svg.forest .ci { stroke: currentColor; stroke-width: 2; }
  svg.forest .ci-arrow { fill: none; stroke: currentColor; stroke-width: 2; }
  svg.forest .pt { fill: currentColor; stroke: #fff; stroke-width: 1; }
  svg.forest .pt.none { fill: #fff; stroke: currentColor; stroke-width: 1.5; }
  svg.forest .figure { fill: currentColor; font-size: 11px; font-variant-numeric: tabular-nums; }
  svg.forest .change { fill: currentColor; font-size: 11px; font-variant-numeric: tabular-nums; paint-order: stroke; stroke: #fff; stroke-width: 3px; stroke-linejoin: round; }
  svg.forest .note { font-size: 11px; fill: #59636e; font-style: italic; }
  svg.forest .note.low, svg.forest .change.low { text-anchor: end; }
  .key span { display: inline-block; margin-right: 16px; }
  .key i { display: inline-block; width: 10px; height: 10px; border-radius: 5px; margin-right: 4px; vertical-align: middle; }
  .legend { color: #59636e; font-size: 12px; margin-top: 24px; }
</style>
</head>
<body>
<h1>${view.title}</h1>
<div class="context">${view.context}</div>
<div class="headline">${view.headline}</div>
<#if view.forest?has_content>
<figure class="forest">
<div class="scroll">${view.forest}</div>
<figcaption>${view.forestKey}</figcaption>
</figure>
</#if>
<#if view.warnings?has_content>
<ul class="warnings">
<#list view.warnings as w>
  <li>${w}</li>
</#list>
</ul>
</#if>
<table>
<thead><tr><th>cell</th><th>metric</th><th>baseline ±cv</th><th>head ±cv</th><th>change [95% CI]</th><th>p</th><th title="the smallest slowdown found with 80% power">detects</th><th>verdict</th><#if view.sharded><th>shard</th></#if></tr></thead>
<tbody>
<#list view.rows as r>
<tr class="${r.verdictClass}"><td class="cell"><#if view.plots><a href="#${r.id}">${r.cell}</a><#else>${r.cell}</#if></td><td>${r.metric}</td><td>${r.base}</td><td>${r.head}</td><td>${r.change}</td><td>${r.p}</td><td>${r.detects}</td><td><span class="badge ${r.verdictClass}">${r.verdict}</span></td><#if view.sharded><td>${r.shard}</td></#if></tr>
</#list>
</tbody>
</table>
<#if view.zeros?has_content>
<p class="facts">And ${view.zeros}.</p>
</#if>
<#if view.plots>
<div class="key"><span><i style="background:#4a72b0"></i>baseline</span><span><i style="background:#d9822b"></i>head</span><span>${view.plotKey}</span></div>
<#list view.rows as r>
<section class="cell ${r.verdictClass}" id="${r.id}">
  <h2>${r.cell} · ${r.metric}</h2>
  <div class="facts"><span class="badge ${r.verdictClass}">${r.verdict}</span> · change ${r.change} · p ${r.p} · baseline ${r.base} · head ${r.head}</div>
<#list r.notes as n>
  <p class="facts">${n}</p>
</#list>
  ${r.plot}
</section>
</#list>
<#else>
<p class="facts">No trial order to plot: a comparison of files has no run.</p>
</#if>
<p class="legend">${view.legend}</p>
<script>
  // A self-check a browser test reads back: how many plots, points, outliers and forest marks were drawn, and any error.
  window.addEventListener("error", function (e) { document.body.setAttribute("data-error", String(e.message)); });
  window.addEventListener("load", function () {
    document.body.setAttribute("data-plots", String(document.querySelectorAll("svg.plot").length));
    document.body.setAttribute("data-points", String(document.querySelectorAll("svg.plot .pt").length));
    document.body.setAttribute("data-outliers", String(document.querySelectorAll("svg.plot .outlier").length));
    document.body.setAttribute("data-marks", String(document.querySelectorAll("svg.forest g.mark").length));
  });
</script>
</body>
</html>
