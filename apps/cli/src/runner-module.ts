/**
 * The runner, loaded on first use: it brings the Anthropic SDK and every flow package, which
 * `climpt init`, `schema` and `--help` never need. Keeps those instant.
 */
export function runnerModule(): Promise<typeof import("@climpt/runner")> {
  return import("@climpt/runner");
}
