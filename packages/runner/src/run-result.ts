// The run result is part of the protocol between runners and their callers (@climpt/protocol);
// the runner's files keep importing it from here.
export type {
  BoundaryReport,
  BudgetReached,
  HistoryEntry,
  RunError,
  RunResult,
  RunUsage,
  WorktreeReport,
} from "@climpt/protocol";
