export { type AnalyzeFlowOptions, analyzeFlow } from "./analyze-flow.ts";
export { FLOW_FINDING_CODES, type FlowFinding, type FlowFindingCode } from "./flow-codes.ts";
export {
  buildFlowGraph,
  type FlowEdge,
  type FlowEdgeKind,
  type FlowEntry,
  type FlowGraph,
  type FlowGraphOptions,
  type FlowNode,
  type FlowValidationGate,
} from "./flow-graph.ts";
export { reachableSteps } from "./reachable-steps.ts";
export { type ToDotOptions, toDot } from "./to-dot.ts";
export { type ToMermaidOptions, toMermaid } from "./to-mermaid.ts";
