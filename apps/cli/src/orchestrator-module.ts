/**
 * The orchestrator, loaded on first use: it brings the runner, the SDK, BullMQ and ioredis, which
 * `climpt validate`, `init` and `--help` never need.
 */
export function orchestratorModule(): Promise<typeof import("@climpt/orchestrator")> {
  return import("@climpt/orchestrator");
}
