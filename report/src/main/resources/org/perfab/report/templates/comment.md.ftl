<#-- The pull-request comment. Every value arrives formatted and escaped. -->
<!-- perfab:${view.marker} -->
### perfab · ${view.marker}: ${view.headline}

${view.context}
<#if view.harness?has_content>

${view.harness}
</#if>

<#if view.rows?has_content>
| cell | metric | baseline ±cv | head ±cv | change [95% CI] | p | verdict |<#if view.byBuilds> between builds | all trials |</#if><#if view.sharded> shard |</#if>
|:-----|:-------|--------------------:|----------------:|----------------:|--:|:--------|<#if view.byBuilds>--:|--:|</#if><#if view.sharded>--:|</#if>
<#list view.rows as r>
| ${r.cell} | ${r.metric} | ${r.base} | ${r.head} | ${r.change} | ${r.p} | ${r.verdict} |<#if view.byBuilds> ${r.builds} | ${r.trials} |</#if><#if view.sharded> ${r.shard} |</#if>
</#list>
</#if>
<#list view.folds as fold>

<details><summary>${fold.title}</summary>

| cell | metric | baseline ±cv | head ±cv | change [95% CI] | p | verdict |<#if view.byBuilds> between builds | all trials |</#if><#if view.sharded> shard |</#if>
|:-----|:-------|--------------------:|----------------:|----------------:|--:|:--------|<#if view.byBuilds>--:|--:|</#if><#if view.sharded>--:|</#if>
<#list fold.rows as r>
| ${r.cell} | ${r.metric} | ${r.base} | ${r.head} | ${r.change} | ${r.p} | ${r.verdict} |<#if view.byBuilds> ${r.builds} | ${r.trials} |</#if><#if view.sharded> ${r.shard} |</#if>
</#list>

</details>
</#list>
<#if view.zeros?has_content>

And ${view.zeros}.
</#if>
<#if view.omitted?has_content>

_${view.omitted}_
</#if>
<#if view.warnings?has_content>

**Warnings**

<#list view.warnings as w>
- :warning: ${w}
</#list>
</#if>
<#if view.notes?has_content>

**Notes**

<#list view.notes as n>
- ${n}
</#list>
</#if>

<sub>${view.legend}</sub>
