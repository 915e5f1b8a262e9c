// The model types and the error model live in @climpt/model. The few names a caller of
// `loadAgent` / `normalizeAgent` / `normalizeRegistry` needs for their results are re-exported
// here so that code reading a definition needs one import.
export {
  type AgentDefinition,
  formatProblem,
  type LoadedAgent,
  type Problem,
  type Registry,
  type Result,
} from "@climpt/model";
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
export { type AgentRegistryFiles, checkAgentRegistry } from "./agent-registry-checks.ts";
export { cliFlagFor } from "./cli-flag.ts";
export { resolveEntryStep } from "./entry-step.ts";
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
export { acceptedOutputSchema } from "./intent-alias-schema.ts";
export { agentJsonSchema, registryJsonSchema } from "./json-schema-files.ts";
export { type AgentInspection, inspectAgent, loadAgent } from "./load-agent.ts";
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
export { MAX_DEFINITION_FILE_BYTES, MAX_JSON_DEPTH } from "./read-json-file.ts";
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
  type RawSubprocessRunner,
  type RawTransition,
  type RawValidationStep,
  type RawValidator,
  registryFileSchema,
  structuredGateSchema,
  subprocessRunnerSchema,
  validatorSchema,
} from "./registry-file-schema.ts";
export {
  type RegularFileFailure,
  type RegularFileOptions,
  type RegularFileResult,
  readRegularFile,
  readRegularFileSync,
  type SpecialFileKind,
} from "./regular-file.ts";
