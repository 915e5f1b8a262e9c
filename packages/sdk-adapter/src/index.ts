// The tool contract is @climpt/model's; re-exported because a model client is where callers
// meet it.
export type { ToolCall, ToolDefinition, ToolExecutor, ToolResult } from "@climpt/model";
export {
  type AnthropicClientOptions,
  createAnthropicClient,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_STREAM_IDLE_TIMEOUT_MS,
  type SdkLogger,
} from "./anthropic-client.ts";
export {
  CASSETTE_VERSION,
  type CassetteEntry,
  createRecordingClient,
  createReplayClient,
  jsonDifferences,
  type RecordingOptions,
  type ReplayOptions,
  readCassette,
} from "./cassette.ts";
export {
  CassetteError,
  ModelAbortedError,
  ModelAuthError,
  ModelBadRequestError,
  ModelConnectionError,
  ModelError,
  type ModelErrorKind,
  type ModelErrorOptions,
  ModelOverloadedError,
  ModelRateLimitError,
  ModelResponseError,
  ModelServerError,
  ModelTimeoutError,
  SDK_ADAPTER_CODES,
  StepError,
  type StepErrorOptions,
  type StepFailureReason,
  type StepProgress,
} from "./errors.ts";
export { fingerprint, requestIdentity, stableStringify } from "./fingerprint.ts";
export {
  DEFAULT_MODEL_ALIAS,
  isModelAlias,
  MODEL_ALIASES,
  type ModelAlias,
  modelId,
  resolveModel,
} from "./models.ts";
export {
  costOf,
  DEFAULT_PRICES,
  type ModelPrice,
  mergePrices,
  type PriceTable,
  priceFor,
  type TokenPrices,
} from "./prices.ts";
export {
  type RunStepOptions,
  runStep,
  type StepEvent,
  type StepResult,
  type ToolCallRecord,
} from "./run-step.ts";
export { type OutputCandidate, outputCandidates, type SalvageKind } from "./salvage.ts";
export { type CompiledSchema, compileSchema } from "./schema-validator.ts";
export {
  credentialScrubber,
  stderrLogger,
  type TextScrubber,
} from "./scrub-credentials.ts";
export {
  addUsage,
  type ConversationMessage,
  type ModelClient,
  type ModelContentBlock,
  type ModelRequest,
  type ModelResponse,
  type StopReason,
  type Usage,
  type UserContentBlock,
  ZERO_USAGE,
} from "./types.ts";
