// The step executor seam lives in @climpt/protocol, so another executor (@climpt/claude-code)
// implements the same interface the runner calls; the runner's files import it from here.
export type {
  PhaseReplay,
  StepAnswer,
  StepExecutionObserver,
  StepExecutionRequest,
  StepExecutionResult,
  StepExecutor,
} from "@climpt/protocol";
