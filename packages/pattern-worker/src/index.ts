export {
  type FilterJob,
  type GrepFileResult,
  type GrepJob,
  type JobOptions,
  type PatternJob,
  type PatternOutcome,
  runPatternJob,
} from "./pattern-worker.ts";
