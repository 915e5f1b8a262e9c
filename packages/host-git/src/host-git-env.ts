import type { GitLayout } from "./git-layout.ts";

/**
 * Settings every host git runs with, given on its command line (`GIT_CONFIG_COUNT`), which wins
 * over every configuration file: whatever the repository's files say, git runs no fsmonitor
 * command and no hook, pages nothing, never recurses into a submodule (a submodule's own `git`
 * would read the submodule's configuration, which lies in the working tree, and git clears this
 * command line for it), runs no background gc or maintenance, and refuses `ext::` URLs.
 */
export const FIXED_GIT_CONFIG: readonly (readonly [string, string])[] = [
  ["core.fsmonitor", "false"],
  ["core.hooksPath", "/dev/null"],
  ["core.pager", "cat"],
  ["diff.ignoreSubmodules", "all"],
  ["status.submoduleSummary", "false"],
  ["submodule.recurse", "false"],
  ["fetch.recurseSubmodules", "false"],
  ["push.recurseSubmodules", "no"],
  ["gc.auto", "0"],
  ["maintenance.auto", "false"],
  ["protocol.ext.allow", "never"],
];

/**
 * The caller's `GIT_*` variables host git keeps: identity, how to reach a remote, the user's own
 * configuration files, tracing. Every other one (GIT_DIR, GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY,
 * GIT_CONFIG_PARAMETERS, GIT_EXTERNAL_DIFF, …) could send git elsewhere or run something, and is
 * dropped; the layout's directories are set explicitly instead.
 */
const KEPT_GIT_VARIABLES =
  /^GIT_(?:AUTHOR_(?:NAME|EMAIL|DATE)|COMMITTER_(?:NAME|EMAIL|DATE)|SSH|SSH_COMMAND|SSH_VARIANT|ASKPASS|CONFIG_GLOBAL|CONFIG_SYSTEM|CONFIG_NOSYSTEM|EXEC_PATH|HTTP_\w+|SSL_\w+|CURL_\w+|PROXY_\w+|TRACE\w*|ALLOW_PROTOCOL|PROTOCOL_FROM_USER|DEFAULT_HASH)$/;

/**
 * The environment of a program that runs git itself, in a repository it finds from its folder
 * (gh reads the remotes and the branch): the caller's, without `GIT_*` variables that redirect
 * git, with the fixed settings above and no pager, editor or prompt — all of `hostGitEnvironment`
 * but the layout, which the program's own discovery decides.
 */
export function hostGitSettingsEnvironment(
  base: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue;
    if (name.startsWith("GIT_") && !KEPT_GIT_VARIABLES.test(name)) continue;
    env[name] = value;
  }
  const settings: (readonly [string, string])[] = [...FIXED_GIT_CONFIG];
  // git asks GIT_ASKPASS, then core.askPass, then SSH_ASKPASS: the caller's programs come first.
  if (env.GIT_ASKPASS === undefined && env.SSH_ASKPASS !== undefined) {
    env.GIT_ASKPASS = env.SSH_ASKPASS;
  }
  if (env.GIT_ASKPASS === undefined) settings.push(["core.askPass", ""]);
  settings.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return {
    ...env,
    GIT_CONFIG_COUNT: String(settings.length),
    GIT_TERMINAL_PROMPT: "0",
    GIT_PAGER: "cat",
    PAGER: "cat",
    GIT_EDITOR: "true",
    GIT_SEQUENCE_EDITOR: "true",
    GIT_MERGE_AUTOEDIT: "no",
  };
}

/**
 * The environment of one host git in `layout`: the caller's (credential helpers and identity come
 * from the user's global configuration, which pushes need), without `GIT_*` variables that
 * redirect git, with the layout's directories explicit, the fixed settings above, and no pager,
 * editor or prompt. A repository's `core.askPass` is ignored unless the caller's environment
 * names one (`GIT_ASKPASS`, `SSH_ASKPASS`).
 */
export function hostGitEnvironment(
  layout: GitLayout,
  base: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string> {
  return {
    ...hostGitSettingsEnvironment(base),
    GIT_DIR: layout.gitDir,
    GIT_COMMON_DIR: layout.commonDir,
    GIT_WORK_TREE: layout.workTree,
    // Replacement refs would let one object stand for another in everything git shows.
    GIT_NO_REPLACE_OBJECTS: "1",
    // Reading commands (status, diff) do not rewrite the index behind the caller's back.
    GIT_OPTIONAL_LOCKS: "0",
  };
}
