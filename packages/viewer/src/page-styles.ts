/** The page's stylesheet, inlined into every page (no external font, image or sheet). */
export const PAGE_CSS = `
:root {
  --bg: #f7f7f9; --fg: #1d1f24; --muted: #6b7280; --line: #d9dce3; --card: #ffffff;
  --accent: #2563eb; --accent-soft: #dbe7ff; --ok: #15803d; --ok-soft: #dcfce7;
  --err: #c62828; --err-soft: #fde2e2; --warn: #b45309; --warn-soft: #fef3c7;
  --model: #7c3aed; --tool: #64748b; --hook: #ea580c;
  font: 13px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); }
#app { padding: 12px 16px 32px; max-width: 1680px; margin: 0 auto; }
h1 { font-size: 18px; margin: 0; }
h2 { font-size: 15px; margin: 0; }
h3 { font-size: 13px; margin: 0 0 6px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.top { display: flex; gap: 12px; align-items: baseline; margin-bottom: 12px; }
.muted { color: var(--muted); }
.small { font-size: 12px; }
.mono, pre, code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
section { background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; margin-bottom: 12px; }
.section-head { display: flex; gap: 10px; align-items: center; margin-bottom: 8px; }
select { font: inherit; padding: 2px 4px; }
.vlist { position: relative; overflow: auto; contain: strict; }
.vlist-spacer { position: relative; }
.run-row { display: grid; grid-template-columns: minmax(170px, 200px) minmax(80px, 110px) minmax(100px, 1fr) minmax(150px, 220px) 44px minmax(100px, 130px) minmax(100px, 140px) 64px minmax(120px, 150px) 72px; gap: 8px; align-items: center; padding: 0 6px; white-space: nowrap; }
.runs-rows { overflow-x: hidden; }
.run-row > span { overflow: hidden; text-overflow: ellipsis; }
.run-row.header { font-weight: 600; color: var(--muted); border-bottom: 1px solid var(--line); height: 26px; }
.runs-rows .run-row { cursor: pointer; border-bottom: 1px solid #eef0f4; }
.runs-rows .run-row:hover { background: #f1f5ff; }
.run-row.selected { background: var(--accent-soft) !important; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; }
.badge.status-completed { background: var(--ok-soft); color: var(--ok); }
.badge.status-failed { background: var(--err-soft); color: var(--err); }
.badge.status-unfinished { background: var(--warn-soft); color: var(--warn); }
.badge.status-interrupted { background: var(--warn-soft); color: var(--warn); }
.chip { display: inline-block; padding: 0 6px; margin-left: 6px; border-radius: 8px; font-size: 11px; background: #eef0f4; color: var(--muted); }
.chip-retry { background: var(--warn-soft); color: var(--warn); }
.chip-repair { background: #ede9fe; color: var(--model); }
.chip-replayed, .chip-resumed { background: #e0f2fe; color: #0369a1; }
.run-link { font: inherit; color: #1d4ed8; background: none; border: none; padding: 0; cursor: pointer; text-decoration: underline; }
table.compare { border-collapse: collapse; margin: 6px 0 10px; font-size: 12px; }
table.compare th, table.compare td { border: 1px solid #e5e7eb; padding: 2px 6px; text-align: left; }
table.compare tr.diverged td { background: #fff7ed; }
.chip-error, .chip-interrupted { background: var(--err-soft); color: var(--err); }
.chip-running { background: var(--warn-soft); color: var(--warn); }
.run-title { display: flex; gap: 10px; align-items: center; }
#run-head p { margin: 6px 0 0; }
#current-step { font-weight: 600; }
.error-text { color: var(--err); }
.columns { display: grid; grid-template-columns: minmax(360px, 5fr) minmax(420px, 6fr); gap: 12px; align-items: start; }
.columns > section { margin-bottom: 12px; }
.flow-canvas { overflow: auto; max-height: 760px; }
.flow-svg { display: block; margin: 0 auto; }
.node .shape { fill: #fff; stroke: #b8bdc9; stroke-width: 1.2; stroke-dasharray: 4 3; }
.node text { font-size: 12px; fill: var(--muted); }
.node .node-visits { font-size: 10.5px; }
.node.visited .shape { fill: var(--accent-soft); stroke: var(--accent); stroke-width: 2; stroke-dasharray: none; }
.node.visited text { fill: var(--fg); }
.node.kind-start.visited .shape, .node.kind-end.visited .shape { fill: #e5e7eb; stroke: #6b7280; }
.node.kind-gate.visited .shape { fill: var(--ok-soft); stroke: var(--ok); }
.node.kind-gate.has-failures .shape { fill: var(--warn-soft); stroke: var(--warn); }
.node.kind-missing .shape { stroke: var(--err); }
.node.current .shape { stroke: var(--warn); stroke-width: 3; fill: var(--warn-soft); animation: pulse 1.4s ease-in-out infinite; }
.node.failed .shape { stroke: var(--err); stroke-width: 3; fill: var(--err-soft); }
.node[data-node^="s:"] { cursor: pointer; }
@keyframes pulse { 50% { stroke-opacity: .35; } }
.edge path { fill: none; stroke: #c4c8d2; stroke-width: 1.2; stroke-dasharray: 4 3; }
.edge.taken path { stroke: var(--accent); stroke-width: 2.2; stroke-dasharray: none; }
.edge.retry path { stroke: var(--warn); stroke-width: 2.2; stroke-dasharray: none; }
.edge.undeclared path { stroke-dasharray: 2 2; }
.edge-label { font-size: 11px; fill: var(--muted); paint-order: stroke; stroke: #fff; stroke-width: 3px; }
.edge.taken .edge-label { fill: var(--accent); font-weight: 600; }
.edge.retry .edge-label { fill: var(--warn); font-weight: 600; }
.arrowhead { fill: #c4c8d2; } .arrowhead.taken { fill: var(--accent); } .arrowhead.retry { fill: var(--warn); }
.timeline-rows { height: min(70vh, 720px); }
.span-row { display: grid; grid-template-columns: minmax(280px, 34%) 1fr 80px; gap: 8px; align-items: center; padding: 0 6px; border-bottom: 1px solid #f1f2f5; white-space: nowrap; cursor: default; }
.span-row[data-step-index]:not([data-step-index="-1"]) { cursor: pointer; }
.span-row:hover { background: #f6f8fc; }
.span-row.selected-step { background: #eef4ff; }
.span-label { overflow: hidden; text-overflow: ellipsis; }
.span-row.depth-1 .span-label { padding-left: 18px; color: #374151; }
.span-row.kind-step .span-name { font-weight: 600; }
.span-track { position: relative; height: 12px; background: #f3f4f6; border-radius: 3px; }
.span-bar { position: absolute; top: 0; bottom: 0; border-radius: 3px; background: var(--accent); min-width: 2px; }
.kind-model .span-bar { background: var(--model); }
.kind-tool .span-bar { background: var(--tool); }
.kind-validator .span-bar { background: var(--ok); }
.kind-hook .span-bar { background: var(--hook); }
.kind-resume .span-bar { background: #0369a1; }
.status-error .span-bar { background: var(--err); }
.status-error .span-name { color: var(--err); }
.status-running .span-bar { background: repeating-linear-gradient(45deg, var(--warn), var(--warn) 4px, #f59e0b 4px, #f59e0b 8px); }
.tag-retry.kind-step .span-bar { background: var(--warn); }
#step-panel { max-height: 900px; overflow: auto; }
.panel-head { margin-bottom: 10px; }
.panel-head h2 { display: inline; }
.panel-block { border-top: 1px solid var(--line); padding: 8px 0; }
pre { white-space: pre-wrap; word-break: break-word; background: #f6f7f9; border: 1px solid #eceef2; border-radius: 4px; padding: 6px 8px; margin: 4px 0; max-height: 420px; overflow: auto; }
.prompt-text { background: #fbfbf5; }
.intent strong { color: var(--accent); }
table.diff { width: 100%; border-collapse: collapse; table-layout: fixed; }
table.diff td, table.diff th { border-bottom: 1px solid #eef0f4; vertical-align: top; text-align: left; padding: 3px 4px; }
table.diff th:nth-child(1) { width: 28%; } table.diff th:nth-child(2) { width: 64px; }
.diff-added td:nth-child(2) { color: var(--ok); } .diff-changed td:nth-child(2) { color: var(--warn); } .diff-removed td:nth-child(2) { color: var(--err); }
.diff-old { background: var(--err-soft); } .diff-new { background: var(--ok-soft); }
.diff-same .diff-old, .diff-same .diff-new { background: #f6f7f9; }
.tool-call, .validator { border-left: 3px solid var(--tool); padding-left: 8px; margin: 6px 0; }
.tool-call.is-error { border-color: var(--err); }
.validator.passed { border-color: var(--ok); } .validator.failed { border-color: var(--err); }
.validator.failed strong { color: var(--err); }
.live-badge { margin-left: auto; color: var(--muted); }
.live-badge.connected { color: var(--ok); font-weight: 600; }
#notices:empty { display: none; }
#ledger:empty { display: none; }
.ledger-attempt { border-left: 3px solid var(--ok); padding-left: 8px; margin: 6px 0; }
.ledger-attempt.failed { border-color: var(--err); }
.ledger-table td, .ledger-table th, .diff-stat td { padding: 2px 8px; text-align: left; }
.ledger-table tr.failed td:nth-child(2) { color: var(--err); }
.diff-stat .added { color: var(--ok); } .diff-stat .removed { color: var(--err); }
#notices ul { margin: 0; padding-left: 18px; }
`;
