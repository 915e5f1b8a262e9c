/**
 * How model-issued commands are sandboxed: the `runner.boundaries.sandbox` setting of agent.json,
 * as the toolbox takes it.
 *
 * ```jsonc
 * "sandbox": "required"                       // the default
 * "sandbox": "off"                            // explicit: commands run unsandboxed (reported)
 * "sandbox": {
 *   "mode": "required",
 *   "network": { "allow": ["registry.npmjs.org", "*.example.com:443"] },
 *   "readable": ["~/.cargo/bin"]              // host paths under HOME the commands may read
 * }
 * ```
 */

export type SandboxMode = "required" | "off";

export interface SandboxSettings {
  /** `required`: commands run only inside the sandbox; `off`: they run unsandboxed. */
  readonly mode: SandboxMode;
  /** Host names (optionally `:port`, `*.` wildcards) commands may reach. Default: none. */
  readonly networkAllow: readonly string[];
  /**
   * Host paths commands may read although they lie in the user's home directory, which is hidden
   * (toolchains installed there: `~/.cargo/bin`, `~/.nvm`). `~/` means the home directory.
   */
  readonly readable: readonly string[];
  /**
   * Real paths inside the working directory that stay read-only inside the sandbox: the run's
   * journal folder and the agent definitions. Set by the toolbox from its `protectedPaths`,
   * never by agent.json.
   */
  readonly protectedPaths: readonly string[];
}

/** The accepted input: the mode alone, or the object form with any part left out. */
export type SandboxSettingsInput =
  | SandboxMode
  | {
      readonly mode?: SandboxMode;
      readonly network?: { readonly allow?: readonly string[] };
      readonly readable?: readonly string[];
    };

export const DEFAULT_SANDBOX_SETTINGS: SandboxSettings = {
  mode: "required",
  networkAllow: [],
  readable: [],
  protectedPaths: [],
};

export function resolveSandboxSettings(input: SandboxSettingsInput | undefined): SandboxSettings {
  if (input === undefined) return DEFAULT_SANDBOX_SETTINGS;
  if (typeof input === "string") return { ...DEFAULT_SANDBOX_SETTINGS, mode: input };
  return {
    mode: input.mode ?? "required",
    networkAllow: [...(input.network?.allow ?? [])],
    readable: [...(input.readable ?? [])],
    protectedPaths: [],
  };
}
