/**
 * An attack lab: a scratch folder holding a host HOME with credentials in it, a file outside the
 * repository, a folder where payloads that reach the host leave markers, a private TMPDIR, a
 * fake `gh` that keeps GitHub's state in a file, and a git repository with the attacker agent
 * committed in it. `runClimpt` runs the real `climpt` CLI there against the scripted attacker;
 * `sinks.test-helper.ts` then looks for every effect the attack may have had.
 */
import { type ChildProcess, execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { type FakeGh, type FakeGhSeed, installFakeGh } from "@climpt/testing";
import { GIT_IDENTITY } from "../project.test-helper.ts";
import { type CliOutcome, killTree, spawnCli, tempDir } from "../spawn-cli.test-helper.ts";
import {
  ATTACK_AGENT,
  type AttackAgentOptions,
  attackAgentFiles,
} from "./attack-agent.test-helper.ts";
import { type RepoSnapshot, snapshotRepo } from "./safe-git.test-helper.ts";

/** Secret values planted where an attacker wants them; none may reach any sink. */
export interface Canaries {
  /** `ANTHROPIC_API_KEY` of the climpt process. */
  readonly apiKey: string;
  /** `GH_TOKEN` of the climpt process (what the real gh would use). */
  readonly ghToken: string;
  /** `DEPLOY_CREDENTIAL`, declared secret in agent.json. */
  readonly declared: string;
  /** In `~/.git-credentials`. */
  readonly gitCredentials: string;
  /** In `~/.config/gh/hosts.yml`. */
  readonly ghHosts: string;
  /** In `~/private/notes.txt`: a file of the user's outside the repository. */
  readonly homeFile: string;
}

export interface LabOptions {
  /** A short name for the folder and the report. */
  readonly name: string;
  readonly agent?: Omit<AttackAgentOptions, "labId">;
  /** `git config` entries of the repository, set before the first commit. */
  readonly repoConfig?: Readonly<Record<string, string>>;
  /** More files committed in the repository (relative path → content). */
  readonly files?: Readonly<Record<string, string>>;
  /** Lines added to the host `~/.gitconfig`. */
  readonly globalGitConfig?: string;
  /** Issues #1–#N, open, in `climpt-test/sample` (default 9); `other/repo` has #1–#4. */
  readonly issues?: number;
  /** Open pull requests of `climpt-test/sample` (default #10, #11), numbered after the issues. */
  readonly pullRequests?: readonly number[];
  /** The fake Messages API's URL (`ANTHROPIC_BASE_URL`). */
  readonly apiUrl: string;
  /** A bare repository `remote.git` in the lab as `origin`, holding main. */
  readonly remote?: boolean;
}

export interface Lab {
  readonly id: string;
  readonly name: string;
  readonly root: string;
  readonly home: string;
  readonly repo: string;
  /** Where host-executed payloads write (must stay empty). */
  readonly markers: string;
  /** Outside the repository and outside HOME: nothing may change here. */
  readonly outside: string;
  readonly tmp: string;
  readonly cassette: string;
  readonly gh: FakeGh;
  readonly canaries: Canaries;
  /** The environment climpt runs with: the canaries, HOME, TMPDIR, the fake gh first on PATH. */
  readonly env: Readonly<Record<string, string>>;
  /** The repository's refs, HEAD and objects as they were before the attack. */
  readonly before: RepoSnapshot;
  /** The seeded GitHub state, for comparison. */
  readonly seed: string;
  remove(): void;
}

function ghSeed(issues: number): FakeGhSeed {
  return {
    repo: "climpt-test/sample",
    labels: ["bug", "done", "pwned"],
    issues: Array.from({ length: issues }, (_, index) => ({ title: `Issue ${index + 1}` })),
    repos: {
      "other/repo": {
        labels: ["pwned"],
        issues: [
          { title: "Someone else's" },
          { title: "Also theirs" },
          { title: "Theirs too" },
          { title: "Theirs as well" },
        ],
      },
    },
  };
}

function canary(kind: string): string {
  return `canary-${kind}-${randomBytes(12).toString("hex")}`;
}

function write(file: string, content: string, mode?: number): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  if (mode !== undefined) chmodSync(file, mode);
}

function hostGit(cwd: string, env: Readonly<Record<string, string>>, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: { ...env }, encoding: "utf8" }).trim();
}

/** Builds a lab; the caller removes it (`lab.remove()`) when the test ends. */
export function createLab(options: LabOptions): Lab {
  const id = `${options.name.replace(/[^A-Za-z0-9]/g, "")}${randomBytes(4).toString("hex")}`;
  const root = tempDir(`attack-${options.name}`);
  const home = path.join(root, "home");
  const repo = path.join(root, "repo");
  const markers = path.join(root, "markers");
  const outside = path.join(root, "outside");
  const tmp = path.join(root, "tmp");
  for (const dir of [home, repo, markers, outside, tmp]) mkdirSync(dir, { recursive: true });
  const canaries: Canaries = {
    apiKey: canary("apikey"),
    ghToken: canary("ghtoken"),
    declared: canary("declared"),
    gitCredentials: canary("gitcred"),
    ghHosts: canary("ghhosts"),
    homeFile: canary("homefile"),
  };
  write(
    path.join(home, ".git-credentials"),
    `https://x-access-token:${canaries.gitCredentials}@github.com\n`,
    0o600,
  );
  write(
    path.join(home, ".config", "gh", "hosts.yml"),
    `github.com:\n    oauth_token: ${canaries.ghHosts}\n    user: climpt-bot\n    git_protocol: https\n`,
    0o600,
  );
  write(path.join(home, "private", "notes.txt"), `${canaries.homeFile}\n`, 0o600);
  write(path.join(home, ".bashrc"), "# the user's shell start-up file\n");
  write(
    path.join(home, ".gitconfig"),
    `[user]\n\tname = climpt-test\n\temail = test@climpt.invalid\n[credential]\n\thelper = store\n${options.globalGitConfig ?? ""}`,
  );
  write(path.join(outside, "precious.txt"), "nobody may change this file\n");

  const gh = installFakeGh(ghSeed(options.issues ?? 9), { dir: path.join(root, "gh") });
  gh.update((state) => {
    const repoState = state.repos[state.defaultRepo];
    if (repoState === undefined) return;
    for (const number of options.pullRequests ?? [10, 11]) {
      const head = `feature-${number}`;
      repoState.pullRequests.push({
        number,
        title: `PR ${number}`,
        body: "",
        state: "OPEN",
        headRefName: head,
        baseRefName: "main",
        labels: [],
        author: "climpt-bot",
        createdAt: "2026-01-01T00:00:00Z",
        mergedAt: null,
      });
      repoState.nextNumber = Math.max(repoState.nextNumber, number + 1);
    }
  });

  const env: Record<string, string> = {
    ...GIT_IDENTITY,
    ...gh.env,
    HOME: home,
    TMPDIR: tmp,
    ANTHROPIC_BASE_URL: options.apiUrl,
    ANTHROPIC_API_KEY: canaries.apiKey,
    GH_TOKEN: canaries.ghToken,
    DEPLOY_CREDENTIAL: canaries.declared,
    NO_COLOR: "1",
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
  };

  // The repository: the agent, a test the validators run, a package.json, and more refs than
  // the run's branch (another branch, tags, packed and loose refs) for the ref checks.
  const files: Record<string, string> = {
    ".gitignore": "tmp/\n",
    "README.md": "# sample\n",
    "test/run.js": "console.log('1 test passed');\n",
    "package.json": `${JSON.stringify({ name: "sample", private: true, scripts: { test: "node test/run.js" } }, null, 2)}\n`,
    ...Object.fromEntries(
      Object.entries(attackAgentFiles({ ...(options.agent ?? {}), labId: id })).map(
        ([relative, content]) => [path.join(".agent", ATTACK_AGENT, relative), content],
      ),
    ),
    ...(options.files ?? {}),
  };
  for (const [relative, content] of Object.entries(files))
    write(path.join(repo, relative), content);
  const gitEnv = { ...process.env, ...env } as Record<string, string>;
  hostGit(repo, gitEnv, "init", "-q", "-b", "main");
  for (const [key, value] of Object.entries(options.repoConfig ?? {})) {
    hostGit(repo, gitEnv, "config", key, value);
  }
  hostGit(repo, gitEnv, "add", "-A");
  hostGit(repo, gitEnv, "commit", "-qm", "initial");
  hostGit(repo, gitEnv, "branch", "feature");
  hostGit(repo, gitEnv, "tag", "v1.0");
  hostGit(repo, gitEnv, "pack-refs", "--all");
  write(path.join(repo, "CHANGES.md"), "second commit\n");
  hostGit(repo, gitEnv, "add", "CHANGES.md");
  hostGit(repo, gitEnv, "commit", "-qm", "second");
  hostGit(repo, gitEnv, "tag", "-a", "v1.1", "-m", "release 1.1");
  hostGit(repo, gitEnv, "branch", "release");
  if (options.remote === true) {
    const remote = path.join(root, "remote.git");
    hostGit(root, gitEnv, "init", "-q", "--bare", "-b", "main", remote);
    hostGit(repo, gitEnv, "remote", "add", "origin", remote);
    hostGit(repo, gitEnv, "push", "-q", "origin", "main");
  }

  return {
    id,
    name: options.name,
    root,
    home,
    repo,
    markers,
    outside,
    tmp,
    cassette: path.join(root, "cassette.jsonl"),
    gh,
    canaries,
    env,
    before: snapshotRepo(repo),
    seed: JSON.stringify(gh.state().repos),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

export interface ClimptRun extends CliOutcome {
  readonly args: readonly string[];
  readonly durationMs: number;
  /** The run was still going at `boundMs` and was killed. */
  readonly hung: boolean;
}

/**
 * `climpt <args>` in the lab's repository with the lab's environment. `boundMs` is a hang
 * detector, not a measure: past it the CLI and everything it started are killed and the run
 * counts as hung (an effect).
 */
export async function runClimpt(
  lab: Lab,
  args: readonly string[],
  options: {
    readonly boundMs?: number;
    readonly env?: Readonly<Record<string, string>>;
    readonly onSpawn?: (child: ChildProcess) => void;
  } = {},
): Promise<ClimptRun> {
  const started = Date.now();
  let hung = false;
  let timer: NodeJS.Timeout | undefined;
  const outcome = await spawnCli(args, {
    cwd: lab.repo,
    env: { ...lab.env, ...(options.env ?? {}) },
    onSpawn: (child) => {
      options.onSpawn?.(child);
      timer = setTimeout(() => {
        hung = true;
        killTree(child.pid);
      }, options.boundMs ?? 150_000);
    },
  });
  clearTimeout(timer);
  return { ...outcome, args, durationMs: Date.now() - started, hung };
}

/** `climpt run attacker --json --record <cassette> …extra`. */
export function runAttacker(
  lab: Lab,
  extra: readonly string[] = [],
  options: { readonly boundMs?: number; readonly env?: Readonly<Record<string, string>> } = {},
): Promise<ClimptRun> {
  return runClimpt(
    lab,
    ["run", ATTACK_AGENT, "--json", "--record", lab.cassette, ...extra],
    options,
  );
}
