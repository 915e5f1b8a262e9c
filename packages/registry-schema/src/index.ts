export {
  agentFileSchema,
  flatAgentSchema,
  nestedAgentSchema,
  parameterSchema,
  type RawAgent,
  type RawAgentLimits,
  type RawAgentParameter,
  type RawBoundaryHook,
  type RawFlatAgent,
  type RawNestedAgent,
} from "./agent-file-schema.ts";
export {
  type AgentRegistryFiles,
  checkAgentRegistry,
  handoffVariableName,
  RUNTIME_UV_VARIABLES,
} from "./agent-registry-checks.ts";
export { cliFlagFor } from "./cli-flag.ts";
export { ClimptError, type ClimptErrorOptions } from "./climpt-error.ts";
export { resolveEntryStep } from "./entry-step.ts";
export { EXTRACTOR_NAMES, type ExtractorName, isExtractorName } from "./extractor-names.ts";
export {
  type AgentListing,
  type AgentLocationOptions,
  findAgentDir,
  listAgents,
} from "./find-agent-dir.ts";
export {
  type GenerateOutputSchemaOptions,
  generateOutputSchema,
} from "./generate-output-schema.ts";
export {
  FLOW_STEP_KINDS,
  type FlowStepKind,
  GATE_INTENTS,
  type GateIntent,
  INTENT_ALIASES,
  inferStepKind,
  isGateIntent,
  isIntentAllowedForKind,
  STEP_KIND_INTENTS,
  type StepKind,
} from "./intents.ts";
export { agentJsonSchema, registryJsonSchema } from "./json-schema-files.ts";
export { loadAgent } from "./load-agent.ts";
export {
  type AgentDefinition,
  type AgentLimits,
  type AgentParameter,
  type C3lPromptRef,
  type CheckDefinition,
  type CheckOnFail,
  type CheckOnPass,
  type ClosureAction,
  type CommandBoundaryHook,
  type ConditionalTransition,
  DEFAULT_PATH_TEMPLATE,
  DEFAULT_PATH_TEMPLATE_NO_ADAPTATION,
  DEFAULT_RUN_ITERATION_CAP,
  DEFAULT_VALIDATOR_TIMEOUT_MS,
  type FailurePattern,
  type GithubIntegration,
  type HandoffField,
  type IterationBounds,
  type JsonObject,
  type JsonPrimitive,
  type JsonSchema,
  type JsonValue,
  type LoadedAgent,
  type OutputSchemaRef,
  type ParameterType,
  type PathPromptRef,
  type PermissionMode,
  type PromptRef,
  type Registry,
  type RegistryDialect,
  type Step,
  type StepPermissions,
  type StructuredGate,
  type SuccessCondition,
  type TargetTransition,
  type Transition,
  type Transitions,
  type ValidationCondition,
  type ValidationOnFailure,
  type ValidationStep,
  type ValidatorDefinition,
  type VerdictSpec,
} from "./model.ts";
export {
  DEFAULT_ALLOWED_TOOLS,
  DEFAULT_REGISTRY_PATH,
  DEFAULT_SYSTEM_PROMPT_PATH,
  type NormalizeAgentOptions,
  normalizeAgent,
} from "./normalize-agent.ts";
export {
  DEFAULT_CHECK_MAX_RETRIES,
  type NormalizeRegistryOptions,
  normalizeRegistry,
} from "./normalize-registry.ts";
export { fail, formatProblem, jsonPath, ok, type Problem, type Result } from "./problem.ts";
export {
  CHECK_DIALECT_STEP_KEYS,
  type DialectDetection,
  detectRegistryDialect,
  GATE_DIALECT_STEP_KEYS,
} from "./registry-dialect.ts";
export {
  checkRegistrySchema,
  checkStepSchema,
  gateRegistrySchema,
  gateStepSchema,
  type RawCheck,
  type RawCheckRegistry,
  type RawCheckStep,
  type RawFailurePattern,
  type RawGateRegistry,
  type RawGateStep,
  type RawOutputSchemaRef,
  type RawPromptRef,
  type RawRegistry,
  type RawStructuredGate,
  type RawTransition,
  type RawValidationStep,
  type RawValidator,
  registryFileSchema,
  structuredGateSchema,
  validatorSchema,
} from "./registry-file-schema.ts";
export { parseSuccessCondition } from "./success-condition.ts";
export {
  canonicalVerdictType,
  VERDICT_TYPE_ALIASES,
  VERDICT_TYPE_CAMEL_NAMES,
  VERDICT_TYPES,
  type VerdictType,
  verdictTypeSpellings,
} from "./verdict-types.ts";

// ---------------------------------------------------------------------------------------------
// Static flow analysis and flow diagrams (see ANALYSIS.md for the finding codes)

export { type AnalyzeFlowOptions, analyzeFlow } from "./analyze-flow.ts";
export { FLOW_FINDING_CODES, type FlowFinding, type FlowFindingCode } from "./flow-codes.ts";
export {
  buildFlowGraph,
  type FlowEdge,
  type FlowEdgeKind,
  type FlowEntry,
  type FlowGraph,
  type FlowNode,
  type FlowValidationGate,
} from "./flow-graph.ts";
export { type ToDotOptions, toDot } from "./to-dot.ts";
export { type ToMermaidOptions, toMermaid } from "./to-mermaid.ts";
