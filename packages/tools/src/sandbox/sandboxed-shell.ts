import { randomUUID } from "node:crypto";
import { accessSync, constants, promises as fs, realpathSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { SecretScrubber } from "@climpt/model";
import type { BoundaryRequestLog } from "../boundary-request.ts";
import type { WorkingRoot } from "../confine-path.ts";
import type { GithubAccess } from "../github-access.ts";
import { loadExeca } from "../lazy-modules.ts";
import { runShell, type ShellRun } from "../run-shell.ts";
import { type GhBrokerRecord, startGhBroker } from "./gh-broker.ts";
import type { GhStepKind } from "./gh-policy.ts";
import { ghShimSource } from "./gh-shim.ts";
import { type GitPushRecord, startGitPushBroker } from "./git-push-broker.ts";
import { type GitPushSetting, NO_PUSH_TARGET } from "./git-push-target.ts";
import { gitPushForwarderSource, gitShimSource } from "./git-shim.ts";
import { type SandboxLayout, sandboxEnvironment, sandboxPolicy } from "./sandbox-env.ts";
import { wrapForSandbox } from "./sandbox-host.ts";
import type { SandboxSettings } from "./settings.ts";

export interface SandboxedRunOptions {
  readonly root: WorkingRoot;
  readonly settings: SandboxSettings;
  /** The caller's environment (with overrides): the source of the sandbox's, and of gh's. */
  readonly hostEnv: Readonly<Record<string, string>>;
  /** The real gh's environment (credentials included). */
  readonly ghEnv: Readonly<Record<string, string>>;
  readonly ghCommand: string;
  readonly scrubber: SecretScrubber;
  readonly declaredSecretNames: readonly string[];
  readonly stepKind: GhStepKind;
  readonly boundary: BoundaryRequestLog;
  /**
   * What `git push` in the command may push (the push broker's target), or why nothing.
   * Default: every push refused.
   */
  readonly gitPush?: GitPushSetting;
  /**
   * What the command's gh writes may touch, and the run's repository; default: none, so every gh
   * call that needs a repository is refused.
   */
  readonly github?: GithubAccess;
  readonly timeoutMs: number;
  readonly outputCapBytes: number;
  readonly signal?: AbortSignal;
}

export interface SandboxedRun extends ShellRun {
  readonly gh: readonly GhBrokerRecord[];
  readonly pushes: readonly GitPushRecord[];
}

const identityCache = new Map<string, Promise<string>>();

/** The user's git identity (and default branch), for the private HOME's `.gitconfig`. */
function gitIdentity(root: string, env: Readonly<Record<string, string>>): Promise<string> {
  let cached = identityCache.get(root);
  if (cached === undefined) {
    cached = (async () => {
      const { execa } = await loadExeca();
      const lines: string[] = [];
      for (const [section, key] of [
        ["user", "name"],
        ["user", "email"],
        ["init", "defaultBranch"],
      ] as const) {
        const result = await execa("git", ["config", "--get", `${section}.${key}`], {
          cwd: root,
          env,
          extendEnv: false,
          reject: false,
          timeout: 5000,
        });
        const value = result.exitCode === 0 ? String(result.stdout).trim() : "";
        if (value !== "" && !/[\n"\\]/.test(value))
          lines.push(`[${section}]\n\t${key} = "${value}"`);
      }
      return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
    })();
    identityCache.set(root, cached);
  }
  return cached;
}

const programCache = new Map<string, string | undefined>();

/** Where `name` is on `PATH` (the first executable file), as `command -v` would find it. */
function findProgram(name: string, searchPath: string | undefined): string | undefined {
  const key = `${name}\0${searchPath ?? ""}`;
  if (!programCache.has(key)) {
    let found: string | undefined;
    for (const dir of (searchPath ?? "").split(":")) {
      if (dir === "" || !path.isAbsolute(dir)) continue;
      const candidate = path.join(dir, name);
      try {
        accessSync(candidate, constants.X_OK);
        if (statSync(candidate).isFile()) {
          found = candidate;
          break;
        }
      } catch {
        // not here
      }
    }
    programCache.set(key, found);
  }
  return programCache.get(key);
}

async function makeLayout(
  root: string,
  env: Readonly<Record<string, string>>,
  searchPath: string | undefined,
): Promise<SandboxLayout> {
  const dir = realpathSync(await fs.mkdtemp(path.join(tmpdir(), "climpt-sandbox-")));
  const layout: SandboxLayout = {
    dir,
    home: path.join(dir, "home"),
    bin: path.join(dir, "bin"),
    broker: path.join(dir, "broker"),
    gitBroker: path.join(dir, "git-broker"),
    tmp: path.join(dir, "tmp"),
  };
  await Promise.all([
    fs.mkdir(path.join(layout.home, ".config", "gh"), { recursive: true }),
    fs.mkdir(layout.bin),
    fs.mkdir(layout.broker, { mode: 0o700 }),
    fs.mkdir(layout.gitBroker, { mode: 0o700 }),
    fs.mkdir(layout.tmp, { mode: 0o700 }),
  ]);
  await fs.writeFile(path.join(layout.home, ".gitconfig"), await gitIdentity(root, env));
  await fs.writeFile(path.join(layout.bin, "gh"), ghShimSource(process.execPath), { mode: 0o755 });
  const realGit = findProgram("git", searchPath);
  if (realGit !== undefined) {
    const forwarder = path.join(layout.bin, "climpt-git-push");
    await fs.writeFile(forwarder, gitPushForwarderSource(process.execPath), { mode: 0o755 });
    await fs.writeFile(
      path.join(layout.bin, "git"),
      gitShimSource(realGit, process.execPath, forwarder),
      { mode: 0o755 },
    );
  }
  return layout;
}

/**
 * The command with the temporary-folder variables set to its private folder first. The runtime
 * passes bubblewrap `--setenv TMPDIR /tmp/claude` (a folder shared by every sandbox it starts,
 * often absent), which overrides the environment the command is started with; the shell that
 * runs the command is the first place after that. One line, so the shell's messages keep the
 * command's own line numbers.
 */
function withPrivateTmp(command: string, tmp: string): string {
  const quoted = `'${tmp.replaceAll("'", "'\\''")}'`;
  return `export TMPDIR=${quoted} TMP=${quoted} TEMP=${quoted}; ${command}`;
}

/**
 * Runs one Bash command in the OS sandbox: a fresh private HOME, TMPDIR and broker directories,
 * the gh and git push brokers listening, the command wrapped by the sandbox runtime and run in
 * its own process group. On timeout or abort the group is killed; bubblewrap going takes the
 * sandbox's whole PID namespace with it, `setsid` children included, so its pipes close.
 * Everything made for the command is removed afterwards.
 */
export async function runSandboxed(
  command: string,
  options: SandboxedRunOptions,
): Promise<SandboxedRun> {
  const layout = await makeLayout(options.root.real, options.ghEnv, options.hostEnv.PATH);
  try {
    const pushBroker = await startGitPushBroker({
      dir: layout.gitBroker,
      root: options.root,
      setting: options.gitPush ?? NO_PUSH_TARGET,
      env: options.ghEnv,
      scrubber: options.scrubber,
    });
    try {
      const broker = await startGhBroker({
        dir: layout.broker,
        root: options.root,
        stepKind: options.stepKind,
        ghCommand: options.ghCommand,
        env: options.ghEnv,
        boundary: options.boundary,
        // `cat > "$TMPDIR/body.md" && gh issue comment N --body-file "$TMPDIR/body.md"`.
        readableDirs: [layout.tmp],
        ...(options.github === undefined ? {} : { github: options.github }),
      });
      try {
        const run = await runWrapped(command, layout, options);
        return { ...run, gh: broker.records, pushes: pushBroker.records };
      } finally {
        await broker.close();
      }
    } finally {
      await pushBroker.close();
    }
  } finally {
    await fs.rm(layout.dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The command wrapped by the sandbox runtime, run in its own process group. */
async function runWrapped(
  command: string,
  layout: SandboxLayout,
  options: SandboxedRunOptions,
): Promise<ShellRun> {
  const wrapped = await wrapForSandbox(
    withPrivateTmp(command, layout.tmp),
    sandboxPolicy(options.root, layout, options.settings, options.hostEnv),
    {
      commandId: randomUUID(),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    },
  );
  try {
    return await runShell(wrapped.command, {
      cwd: options.root.real,
      env: sandboxEnvironment(
        options.hostEnv,
        layout,
        options.scrubber,
        options.declaredSecretNames,
      ),
      timeoutMs: options.timeoutMs,
      outputCapBytes: options.outputCapBytes,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } finally {
    wrapped.release();
  }
}
