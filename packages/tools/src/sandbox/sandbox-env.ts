import { existsSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { isSecretEnvName, type SecretScrubber } from "@climpt/model";
import { isInside, type WorkingRoot } from "../confine-path.ts";
import { type GitStaging, stagingPolicy } from "./git-staging.ts";
import type { SandboxPolicy } from "./sandbox-host.ts";
import type { SandboxSettings } from "./settings.ts";

/** The per-command directories a sandboxed command gets, all under one temporary directory. */
export interface SandboxLayout {
  readonly dir: string;
  /** The private HOME: writable, empty but for a `.gitconfig` with the user's identity. */
  readonly home: string;
  /** Put first on PATH: holds the `gh` and `git` shims. Read-only inside. */
  readonly bin: string;
  /** The GitHub broker's directory (requests and FIFOs). Writable inside. */
  readonly broker: string;
  /** The git push broker's directory (requests and FIFOs). Writable inside. */
  readonly gitBroker: string;
  /**
   * The command's own temporary folder: `TMPDIR`, `TMP` and `TEMP` inside. Writable, private to
   * this command, removed with the rest of the layout.
   */
  readonly tmp: string;
}

/**
 * Variables that point at credentials or at the user's configuration (which can name credential
 * helpers), dropped from the sandbox's environment whatever their value.
 */
const DROPPED_VARIABLES = new Set([
  "SSH_AUTH_SOCK",
  "SSH_AGENT_PID",
  "SSH_ASKPASS",
  "GIT_ASKPASS",
  "SUDO_ASKPASS",
  "GPG_AGENT_INFO",
  "GH_CONFIG_DIR",
  "GH_HOST",
  "GH_REPO",
  "XDG_CONFIG_HOME",
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
  "XDG_CACHE_HOME",
  "XDG_RUNTIME_DIR",
  "DBUS_SESSION_BUS_ADDRESS",
  "DOCKER_CONFIG",
  "DOCKER_HOST",
  "KUBECONFIG",
  "NPM_CONFIG_USERCONFIG",
  "GOOGLE_APPLICATION_CREDENTIALS",
  "AWS_SHARED_CREDENTIALS_FILE",
  "AWS_CONFIG_FILE",
  "AWS_PROFILE",
  "AWS_WEB_IDENTITY_TOKEN_FILE",
  "GIT_CONFIG_GLOBAL",
  "GIT_CONFIG_SYSTEM",
  "GIT_CONFIG_COUNT",
  "GIT_CONFIG_PARAMETERS",
  "CLIMPT_GH_BROKER",
  "CLIMPT_GIT_BROKER",
]);

function dropped(name: string, value: string, declared: ReadonlySet<string>): boolean {
  return (
    DROPPED_VARIABLES.has(name) ||
    declared.has(name) ||
    isSecretEnvName(name) ||
    /^GIT_CONFIG_(?:KEY|VALUE)_\d+$/.test(name) ||
    // A URL with a password, or any value that holds a secret value (`GIT_SSH_COMMAND=… -i key`
    // is kept; `REMOTE=https://user:token@host` is not).
    /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i.test(value)
  );
}

/**
 * The environment of a sandboxed command: the caller's, without credentials (secret-named
 * variables, declared ones, any variable whose value holds a secret value, agent sockets,
 * credential helpers and configuration locations), with a private HOME and TMPDIR, the `gh` and
 * `git` shims first on PATH, and prompts off.
 */
export function sandboxEnvironment(
  hostEnv: Readonly<Record<string, string>>,
  layout: SandboxLayout,
  scrubber: SecretScrubber,
  declaredSecretNames: readonly string[] = [],
): Record<string, string> {
  const declared = new Set(declaredSecretNames);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(hostEnv)) {
    if (dropped(name, value, declared) || scrubber.contains(value)) continue;
    env[name] = value;
  }
  return {
    ...env,
    HOME: layout.home,
    XDG_CONFIG_HOME: path.join(layout.home, ".config"),
    XDG_CACHE_HOME: path.join(layout.home, ".cache"),
    GH_CONFIG_DIR: path.join(layout.home, ".config", "gh"),
    // /etc/gitconfig may name a credential helper; the private HOME's .gitconfig has the identity.
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GH_PROMPT_DISABLED: "1",
    PATH: `${layout.bin}:${hostEnv.PATH ?? "/usr/local/bin:/usr/bin:/bin"}`,
    // The sandbox runtime sets TMPDIR to a folder all its commands share (`/tmp/claude`) and
    // that usually does not exist; the command's shell sets these again (sandboxed-shell.ts).
    TMPDIR: layout.tmp,
    TMP: layout.tmp,
    TEMP: layout.tmp,
    CLIMPT_GH_BROKER: layout.broker,
    CLIMPT_GIT_BROKER: layout.gitBroker,
    CLIMPT_SANDBOX: "1",
  };
}

/** Toolchains people install under their home directory; readable inside when they exist. */
const HOME_TOOLCHAINS = [
  ".nvm",
  ".volta",
  ".fnm",
  ".local/share/fnm",
  ".local/share/pnpm",
  ".local/bin",
  ".cargo/bin",
  ".rustup",
  ".pyenv",
  ".rbenv",
  ".asdf",
  ".bun/bin",
  ".deno/bin",
  "go/bin",
  ".sdkman/candidates",
];

function realOrSelf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

function homeDirectories(hostEnv: Readonly<Record<string, string>>): string[] {
  const homes = new Set<string>();
  for (const home of [homedir(), hostEnv.HOME]) {
    if (home !== undefined && home !== "" && home !== "/" && existsSync(home)) {
      homes.add(realOrSelf(home));
    }
  }
  return [...homes];
}

/**
 * The runtime's own temporary folder (`/tmp/claude`), which it makes writable in every sandbox it
 * starts: where it exists, it stays read-only inside, so one command cannot leave files there for
 * another. (It cannot be hidden: the runtime keeps its own write paths visible whatever is
 * denied.) An absent one is left alone, since denying a path that does not exist makes bubblewrap
 * create a placeholder for it on the host; so is one that holds or lies in the working directory.
 */
function sharedRuntimeTmp(root: string): string[] {
  const shared = new Set<string>();
  for (const dir of ["/tmp/claude", "/private/tmp/claude"]) {
    if (!existsSync(dir)) continue;
    const real = realOrSelf(dir);
    if ([dir, real].some((entry) => isInside(entry, root) || isInside(root, entry))) continue;
    shared.add(dir);
    shared.add(real);
  }
  return [...shared];
}

/**
 * The protected paths (the run's journal folder, the agent definitions) that exist in the working
 * directory now: read-only inside, and, since the runtime pins every directory between one of
 * them and the working directory, neither they nor a folder holding them can be renamed or
 * removed from inside. An absent one is left out, as for `/tmp/claude`: bubblewrap would put a
 * placeholder for it on the host. (The runner makes the journal folder before the first step.)
 */
function protectedInside(root: string, paths: readonly string[]): string[] {
  return paths.filter((entry) => isInside(root, entry) && existsSync(entry));
}

function expandHome(entry: string, home: string): string {
  return entry === "~" ? home : entry.startsWith("~/") ? path.join(home, entry.slice(2)) : entry;
}

/**
 * How a command meets git: the staging git directory made for it in a repository
 * (git-staging.ts), or, outside one, the `.git` entries that must stay as they are.
 */
export interface SandboxGit {
  readonly staging: GitStaging | null;
  readonly guard: readonly string[];
}

/**
 * What one sandboxed command may touch: write the working directory, the staging git directory
 * (never the repository's own git directories, nor the working tree's `.git`, which stay
 * read-only), its private HOME, TMPDIR and broker directories; read everything but the user's home
 * directory (and gh's configuration wherever it is), except the toolchains installed there, the
 * Node.js running climpt, and what the agent lists as readable.
 */
export function sandboxPolicy(
  root: WorkingRoot,
  layout: SandboxLayout,
  settings: SandboxSettings,
  hostEnv: Readonly<Record<string, string>>,
  sandboxGit: SandboxGit = { staging: null, guard: [] },
): SandboxPolicy {
  const homes = homeDirectories(hostEnv);
  const staged = sandboxGit.staging === null ? null : stagingPolicy(sandboxGit.staging);
  const git = {
    writable: staged?.writable ?? [],
    readOnly: staged?.readOnly ?? sandboxGit.guard,
    readable: staged?.readable ?? [],
  };
  const hidden = [...homes];
  for (const dir of [hostEnv.GH_CONFIG_DIR, hostEnv.XDG_CONFIG_HOME]) {
    if (dir !== undefined && dir !== "" && existsSync(dir)) hidden.push(realOrSelf(dir));
  }
  const readable = new Set<string>([root.real, layout.dir, ...git.writable, ...git.readable]);
  const nodeHome = path.dirname(path.dirname(realOrSelf(process.execPath)));
  for (const home of homes) {
    if (isInside(home, nodeHome)) readable.add(nodeHome);
    for (const entry of [...HOME_TOOLCHAINS, ...settings.readable]) {
      const full = expandHome(entry, home);
      if (path.isAbsolute(full) && existsSync(full)) readable.add(realOrSelf(full));
    }
    for (const entry of (hostEnv.PATH ?? "").split(":")) {
      if (entry !== "" && isInside(home, entry) && existsSync(entry))
        readable.add(realOrSelf(entry));
    }
  }
  for (const entry of settings.readable) {
    if (path.isAbsolute(entry) && existsSync(entry)) readable.add(realOrSelf(entry));
  }
  return {
    writable: [
      root.real,
      ...git.writable,
      layout.home,
      layout.broker,
      layout.gitBroker,
      layout.tmp,
    ],
    readOnly: [
      ...git.readOnly,
      ...sharedRuntimeTmp(root.real),
      ...protectedInside(root.real, settings.protectedPaths),
    ],
    hidden,
    readable: [...readable].filter((entry) => hidden.some((dir) => isInside(dir, entry))),
    networkAllow: settings.networkAllow,
  };
}
