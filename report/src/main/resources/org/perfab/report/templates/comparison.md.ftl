<#-- A comparison as a Markdown table. Every value arrives formatted and escaped. -->
### perfab: ${view.head} against ${view.base}

**${view.counts}**
<#list view.warnings as w>

> :warning: ${w}
</#list>

| cell | metric | base (mean ±cv) | head (mean ±cv) | change [95% CI] | p | verdict |
|:-----|:-------|----------------:|----------------:|----------------:|--:|:--------|
<#list view.rows as r>
| ${r.cell} | ${r.metric} | ${r.base} | ${r.head} | ${r.change} | ${r.p} | ${r.verdict} |
</#list>
<#if view.notes?has_content>

Notes:
<#list view.notes as n>
- ${n}
</#list>
</#if>

<sub>${view.rules}. Advisory: this check never fails a build.</sub>
