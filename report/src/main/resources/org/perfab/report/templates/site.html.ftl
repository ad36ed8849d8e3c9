<#-- The series site's one page: the index and a key's chart. One file, no network; its data arrive as escaped JSON. -->
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>
  body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 24px auto; max-width: 1200px; color: #1f2328; padding: 0 16px; }
  h1 { font-size: 20px; margin: 0 0 4px; }
  h1 a { color: inherit; text-decoration: none; }
  h2 { font-size: 16px; margin: 20px 0 6px; }
  a { color: #0969da; }
  .context { color: #59636e; margin-bottom: 12px; }
  .headline { font-size: 16px; font-weight: 600; margin: 8px 0 12px; }
  nav.tabs { border-bottom: 1px solid #d1d9e0; margin: 12px 0 12px; }
  nav.tabs a { display: inline-block; padding: 6px 12px; margin-bottom: -1px; color: #59636e; text-decoration: none; border: 1px solid transparent; border-radius: 6px 6px 0 0; }
  nav.tabs a.on { color: #1f2328; border-color: #d1d9e0; border-bottom-color: #fff; background: #fff; font-weight: 600; }
  .tools { display: flex; gap: 12px; align-items: center; margin-bottom: 8px; flex-wrap: wrap; }
  .tools input[type=search] { font: inherit; padding: 4px 8px; width: 360px; border: 1px solid #d1d9e0; border-radius: 6px; }
  .tools label, .tools .count { color: #59636e; }
  table { border-collapse: collapse; width: 100%; margin-bottom: 16px; }
  th, td { padding: 4px 8px; border-bottom: 1px solid #d1d9e0; text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
  th { position: sticky; top: 0; background: #f6f8fa; cursor: pointer; user-select: none; }
  th.left, td.left { text-align: left; }
  th[aria-sort=ascending]::after { content: " \25B2"; font-size: 10px; }
  th[aria-sort=descending]::after { content: " \25BC"; font-size: 10px; }
  td.what { white-space: normal; min-width: 280px; }
  table.readings td.wrap { white-space: normal; overflow-wrap: anywhere; }
  td.key { white-space: pre-wrap; word-break: break-all; text-align: left; }
  tr.new td { background: #ffebe9; }
  tr.persisting td { background: #fff8c5; }
  .badge { display: inline-block; padding: 0 8px; border-radius: 10px; font-size: 12px; font-weight: 600; color: #fff; background: #59636e; }
  .badge.step { background: #cf222e; }
  .badge.drift { background: #bc4c00; }
  .badge.persisting { background: #fff; border: 1px solid currentColor; }
  .badge.step.persisting { color: #cf222e; }
  .badge.drift.persisting { color: #bc4c00; }
  .badge.cpu { background: #8250df; }
  .muted { color: #59636e; }
  .more { color: #59636e; padding: 8px; text-align: center; }
  .facts { color: #59636e; margin: 4px 0 8px; }
  .facts b { color: #1f2328; font-weight: 600; }
  .key-name { white-space: pre-wrap; word-break: break-all; }
  .floor { background: #f6f8fa; border: 1px solid #d1d9e0; border-radius: 6px; padding: 6px 12px; margin: 8px 0; }
  figure.chart { margin: 8px 0 4px; }
  svg.chart { display: block; width: 100%; height: auto; font: 11px system-ui, -apple-system, "Segoe UI", sans-serif; }
  svg.chart .frame { fill: none; stroke: #d1d9e0; }
  svg.chart .grid { stroke: #eff2f5; }
  svg.chart .tick { fill: #59636e; }
  svg.chart .tick.y { text-anchor: end; }
  svg.chart .tick.x { text-anchor: middle; }
  svg.chart .line { fill: none; stroke: #4a72b0; stroke-width: 1.2; stroke-linejoin: round; }
  svg.chart .pt { fill: #4a72b0; stroke: #fff; stroke-width: 0.8; cursor: pointer; }
  svg.chart .pt:hover, svg.chart .pt.on { stroke: #1f2328; stroke-width: 1.5; }
  svg.chart .pt.moved { fill: #cf222e; }
  svg.chart .pt.moved.drift { fill: #bc4c00; }
  svg.chart .mark line { stroke-width: 1.5; }
  svg.chart .mark.step line { stroke: #cf222e; }
  svg.chart .mark.drift line { stroke: #bc4c00; }
  svg.chart .mark.persisting line { stroke-opacity: 0.35; stroke-dasharray: 2 3; stroke-width: 1; }
  svg.chart .mark path { stroke: none; }
  svg.chart .mark.step path { fill: #cf222e; }
  svg.chart .mark.drift path { fill: #bc4c00; }
  svg.chart .mark .ref { stroke-dasharray: 4 3; stroke-width: 1.2; }
  svg.chart .mark text { font-weight: 600; paint-order: stroke; stroke: #fff; stroke-width: 3px; stroke-linejoin: round; }
  svg.chart .mark.step text { fill: #cf222e; }
  svg.chart .mark.drift text { fill: #bc4c00; }
  svg.chart .cpu line { stroke: #8250df; stroke-dasharray: 1 3; stroke-width: 1.2; }
  svg.chart .cpu path { fill: #8250df; }
  svg.chart .rebase line { stroke: #59636e; stroke-dasharray: 6 2 1 2; stroke-width: 1.5; }
  svg.chart .rebase text { fill: #59636e; font-weight: 600; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
  svg.chart .floor-line { stroke: #1a7f37; stroke-dasharray: 6 3; stroke-width: 1.2; }
  svg.chart .floor-label { fill: #1a7f37; text-anchor: end; }
  .key-legend { color: #59636e; font-size: 12px; }
  .key-legend span { display: inline-block; margin-right: 14px; }
  .key-legend i { display: inline-block; width: 12px; height: 3px; margin-right: 4px; vertical-align: middle; }
  .reading { min-height: 1.5em; margin: 4px 0 12px; }
  details summary { cursor: pointer; color: #0969da; margin: 8px 0; }
  .legend { color: #59636e; font-size: 12px; margin-top: 24px; }
</style>
</head>
<body>
<h1><a href="#">${title}</a></h1>
<div id="app"><p class="muted">Loading…</p></div>
<p class="legend" id="legend"></p>
<script type="application/json" id="site-data">${data}</script>
<script>
<#include "site.js" parse=false>
</script>
</body>
</html>
