/**
 * The variables a validator or a program step declares by name (`"env": ["NPM_TOKEN"]` in
 * steps_registry.json) are the only secrets that enter its sandbox
 * (docs/design.md#tools-and-their-boundary). Everything else about the sandbox's environment is
 * `sandboxEnvironment`'s; this only adds the declared names back.
 */

/**
 * Never passed, even when declared: the model's credentials (the toolbox's `WITHHELD_ENV_VARS`).
 * A command the model can edit must not hold the key that pays for the model, and
 * @climpt/registry-schema refuses the declaration at load (SR-VALID-011).
 */
export const NEVER_PASSED_ENV: readonly string[] = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "CLAUDE_CODE_OAUTH_TOKEN",
];

/**
 * `sandboxEnv` with each declared name that has a value in `hostEnv` added. A name the sandbox
 * sets itself (`HOME`, `PATH`, `GH_CONFIG_DIR`, `CLIMPT_GH_BROKER`, …) keeps the sandbox's value:
 * a declaration passes a secret in, it does not undo the sandbox's private HOME or its gh shim.
 */
export function passDeclaredEnv(
  sandboxEnv: Readonly<Record<string, string>>,
  hostEnv: Readonly<Record<string, string>>,
  names: readonly string[],
): Record<string, string> {
  const env = { ...sandboxEnv };
  for (const name of names) {
    const value = hostEnv[name];
    if (value === undefined || NEVER_PASSED_ENV.includes(name)) continue;
    if (Object.hasOwn(sandboxEnv, name) && sandboxEnv[name] !== value) continue;
    env[name] = value;
  }
  return env;
}
