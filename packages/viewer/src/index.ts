export {
  discoverJournals,
  type JournalFile,
  journalFolders,
  looksLikeJournal,
  type ProjectLocation,
} from "./discover-runs.ts";
export { adaptJournal, summarizeJournal } from "./journal-adapter.ts";
export { type ParsedLines, parseJournalLines } from "./journal-lines.ts";
export { declaredFlowOf, loadDeclaredFlow } from "./registry-flow.ts";
export { embedJson, renderPage } from "./render-page.ts";
export { type RunsPageOptions, renderRunsPage } from "./runs-page.ts";
export { pageScrubber } from "./scrub-secrets.ts";
export type {
  DeclaredFlow,
  FlowEdgeView,
  FlowNodeKind,
  FlowNodeView,
  FlowView,
  ModelCallView,
  PageData,
  RunDetail,
  RunSource,
  RunStatus,
  RunSummary,
  SpanKind,
  SpanView,
  StepView,
  TokenCounts,
  ToolCallView,
  ValidatorView,
  VerdictView,
  ViewJson,
} from "./view-model.ts";
export { startViewServer, type ViewServer, type ViewServerOptions } from "./view-server.ts";
