export { closestMatch, editDistance } from "@climpt/model";
export {
  type CollectArgsOptions,
  collectAgentArgs,
  parameterFlagSpecs,
} from "./args/agent-flags.ts";
export type { FlagKind, FlagSpec, FlagValue } from "./args/flag-spec.ts";
export { parseDuration } from "./args/flag-values.ts";
export { type ParsedFlags, type ParseFlagsOptions, parseFlags } from "./args/parse-flags.ts";
export { CLI_CODES, type CliCode } from "./cli-codes.ts";
export type { CliIo, StopSignal, TerminalSink, TextSink } from "./cli-io.ts";
export { EXIT } from "./exit-codes.ts";
export { COMMANDS, main } from "./main.ts";
export { nodeIo } from "./node-io.ts";
export { ProgressDisplay, type ProgressDisplayOptions } from "./progress/progress-display.ts";
export { CLI_VERSION } from "./version.ts";
