import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  emptyRepo,
  type FakeGhCall,
  type FakeGhCheckPlan,
  type FakeGhCheckScript,
  type FakeGhFailure,
  type FakeGhIssue,
  type FakeGhLabel,
  type FakeGhRepo,
  type FakeGhState,
  readFakeGhState,
  withStateLock,
  writeFakeGhState,
} from "./state.ts";

export interface FakeGhIssueSeed {
  /** Default: the repository's next number. */
  readonly number?: number;
  readonly title: string;
  readonly body?: string;
  readonly labels?: readonly string[];
  readonly state?: "OPEN" | "CLOSED";
  /** Comment bodies, oldest first. */
  readonly comments?: readonly string[];
}

export interface FakeGhRepoSeed {
  /** A name alone gets colour `ededed` and no description. */
  readonly labels?: readonly (string | (Partial<FakeGhLabel> & { readonly name: string }))[];
  /** Labels an issue carries are created in the repository when it does not have them. */
  readonly issues?: readonly FakeGhIssueSeed[];
  /** The git repository standing for GitHub's copy, where pull requests' head commits are read. */
  readonly git?: string;
  /** Scripted check runs, per pull request branch (see `FakeGhCheckScript`). */
  readonly checks?: readonly FakeGhCheckScript[];
}

export interface FakeGhSeed extends FakeGhRepoSeed {
  /** The default repository, `owner/name`. Default `climpt-test/sample`. */
  readonly repo?: string;
  /** The login the fake acts as. Default `climpt-bot`. */
  readonly user?: string;
  /** More repositories (`--repo` / `GH_REPO` select them). */
  readonly repos?: Readonly<Record<string, FakeGhRepoSeed>>;
  readonly failures?: readonly FakeGhFailure[];
}

export interface InstallFakeGhOptions {
  /** Where to put the `gh` shim and the state file. Default: a new temporary folder. */
  readonly dir?: string;
  /** The PATH to put the shim in front of. Default `process.env.PATH`. */
  readonly path?: string;
}

/** A fake `gh` on disk: a shim named `gh`, and the JSON file that holds its state. */
export interface FakeGh {
  readonly dir: string;
  /** The folder holding the `gh` shim: first on `env.PATH`. */
  readonly binDir: string;
  /** The `gh` shim's absolute path (for a `ghCommand` option). */
  readonly ghPath: string;
  readonly statePath: string;
  /** `PATH` with the shim first, and `CLIMPT_FAKE_GH_STATE`: give it to the processes under test. */
  readonly env: Readonly<Record<string, string>>;
  state(): FakeGhState;
  /** An issue of the default repository (or of `repo`). */
  issue(number: number, repo?: string): FakeGhIssue | undefined;
  /** Every invocation so far, oldest first. */
  calls(): FakeGhCall[];
  /** Makes the next matching invocation(s) fail (exit 1, an HTTP 502 message by default). */
  failNext(failure: FakeGhFailure): void;
  /**
   * Scripts the checks of `branch`'s pull request: `heads[0]` for its first head commit,
   * `heads[1]` for the second, the last entry for any later one. Replaces an earlier script.
   */
  scriptChecks(branch: string, heads: readonly (readonly FakeGhCheckPlan[])[], repo?: string): void;
  /** Changes the state under the file lock (the shim may be running). */
  update(change: (state: FakeGhState) => void): void;
  /** Deletes the folder. */
  remove(): void;
}

/** The package folder, found from this module whether it runs from `src/` or `dist/`. */
function packageBin(): string {
  let dir = import.meta.dirname;
  for (let depth = 0; depth < 4; depth++) {
    const candidate = path.join(dir, "bin", "climpt-fake-gh.mjs");
    if (existsSync(candidate)) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error("fake gh: bin/climpt-fake-gh.mjs not found next to @climpt/testing.");
}

function seedRepo(seed: FakeGhRepoSeed, user: string, now: string): FakeGhRepo {
  const repo = emptyRepo();
  const addLabel = (label: string | (Partial<FakeGhLabel> & { readonly name: string })): void => {
    const spec = typeof label === "string" ? { name: label } : label;
    if (repo.labels.some((have) => have.name.toLowerCase() === spec.name.toLowerCase())) return;
    repo.labels.push({
      name: spec.name,
      color: spec.color ?? "ededed",
      description: spec.description ?? "",
    });
  };
  for (const label of seed.labels ?? []) addLabel(label);
  if (seed.git !== undefined) repo.git = seed.git;
  if (seed.checks !== undefined) repo.checkScripts = structuredClone([...seed.checks]);
  for (const issue of seed.issues ?? []) {
    for (const label of issue.labels ?? []) addLabel(label);
    const number = issue.number ?? repo.nextNumber;
    if (repo.issues.some((have) => have.number === number)) {
      throw new Error(`fake gh seed: issue #${number} is given twice.`);
    }
    repo.nextNumber = Math.max(repo.nextNumber, number + 1);
    repo.issues.push({
      number,
      title: issue.title,
      body: issue.body ?? "",
      state: issue.state ?? "OPEN",
      stateReason: issue.state === "CLOSED" ? "COMPLETED" : null,
      labels: [...(issue.labels ?? [])],
      comments: (issue.comments ?? []).map((body) => ({
        id: repo.nextCommentId++,
        author: user,
        body,
        createdAt: now,
      })),
      author: user,
      createdAt: now,
      updatedAt: now,
      closedAt: issue.state === "CLOSED" ? now : null,
    });
  }
  return repo;
}

/**
 * Writes a fake `gh` and its state: a shell shim named `gh` that runs the fake with this Node,
 * in a folder to put first on PATH (`fake.env`). The fake keeps issues, labels, comments, pull
 * requests and every call in one JSON file, so a test drives real processes that run `gh` and
 * asserts on that file.
 */
export function installFakeGh(seed: FakeGhSeed = {}, options: InstallFakeGhOptions = {}): FakeGh {
  const dir = options.dir ?? mkdtempSync(path.join(tmpdir(), "climpt-fake-gh-"));
  const binDir = path.join(dir, "bin");
  const ghPath = path.join(binDir, "gh");
  const statePath = path.join(dir, "gh-state.json");
  const now = new Date().toISOString();
  const user = seed.user ?? "climpt-bot";
  const defaultRepo = seed.repo ?? "climpt-test/sample";
  const repos: Record<string, FakeGhRepo> = { [defaultRepo]: seedRepo(seed, user, now) };
  for (const [name, repoSeed] of Object.entries(seed.repos ?? {})) {
    repos[name] = seedRepo(repoSeed, user, now);
  }
  const state: FakeGhState = {
    version: 1,
    defaultRepo,
    user,
    repos,
    failures: [...(seed.failures ?? [])],
    calls: [],
  };
  const quote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;
  mkdirSync(binDir, { recursive: true });
  writeFakeGhState(statePath, state);
  writeFileSync(ghPath, `#!/bin/sh\nexec ${quote(process.execPath)} ${quote(packageBin())} "$@"\n`);
  chmodSync(ghPath, 0o755);
  const basePath = options.path ?? process.env.PATH ?? "";
  const env = {
    PATH: basePath === "" ? binDir : `${binDir}${path.delimiter}${basePath}`,
    CLIMPT_FAKE_GH_STATE: statePath,
  };
  const read = (): FakeGhState => readFakeGhState(statePath);
  return {
    dir,
    binDir,
    ghPath,
    statePath,
    env,
    state: read,
    issue: (number, repo) =>
      read().repos[repo ?? defaultRepo]?.issues.find((issue) => issue.number === number),
    calls: () => read().calls,
    failNext: (failure) => {
      withStateLock(statePath, () => {
        const current = read();
        current.failures.push(failure);
        writeFakeGhState(statePath, current);
      });
    },
    scriptChecks: (branch, heads, repo) => {
      withStateLock(statePath, () => {
        const current = read();
        const target = current.repos[repo ?? defaultRepo];
        if (target === undefined) throw new Error(`fake gh: no repository ${repo}.`);
        const scripts = (target.checkScripts ?? []).filter((script) => script.branch !== branch);
        scripts.push({ branch, heads: heads.map((plans) => plans.map((plan) => ({ ...plan }))) });
        target.checkScripts = scripts;
        writeFakeGhState(statePath, current);
      });
    },
    update: (change) => {
      withStateLock(statePath, () => {
        const current = read();
        change(current);
        writeFakeGhState(statePath, current);
      });
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
