/**
 * What a run needs from the folder it works in, checked before any model call. Today one thing:
 * a validator that runs git needs a git repository. Outside one, `git status --porcelain` exits
 * 128 with "fatal: not a git repository", which a validator reads as "not clean": the model
 * would be told to commit, in a folder where it cannot, until the retries run out.
 */
import { existsSync, realpathSync } from "node:fs";
import * as path from "node:path";
import { findGitLayout, hostGitSync } from "@climpt/host-git";
import { type LoadedAgent, type Problem, problem } from "@climpt/model";
import { findValidationStep } from "@climpt/router";
import { RUNNER_CODES } from "../codes.ts";

/** A command that runs git itself (not `legit`, not a path ending in git). */
const RUNS_GIT = /(?:^|[\s;&|(`$]|&&|\|\|)git(?:\s|$)/;

export function runsGit(command: string): boolean {
  return RUNS_GIT.test(command);
}

/** The repository folder holding `cwd` (a `.git` folder or file in it or above), if any. */
export function gitRepositoryOf(cwd: string): string | undefined {
  let dir = path.resolve(cwd);
  for (;;) {
    if (existsSync(path.join(dir, ".git"))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Whether `target` is `folder` or inside it, links resolved (as git resolves them). */
function isInside(folder: string, target: string): boolean {
  const real = (dir: string): string => {
    try {
      return realpathSync(dir);
    } catch {
      return path.resolve(dir);
    }
  };
  const relative = path.relative(real(folder), real(target));
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

export interface EnvironmentCheckOptions {
  /** The folder the run works in (validators run there). */
  readonly cwd: string;
  /** `error` for a run about to start; `warning` for `climpt validate`, which runs nothing. */
  readonly severity: "error" | "warning";
}

/** RUN-CWD-002 for each validator a closure step runs that calls git outside a repository. */
export function checkEnvironment(loaded: LoadedAgent, options: EnvironmentCheckOptions): Problem[] {
  const { registry, agent } = loaded;
  const used = new Set<string>();
  for (const step of Object.values(registry.steps)) {
    if (step.kind !== "closure") continue;
    const entry = findValidationStep(registry, step.id, agent.verdict.type)?.entry;
    for (const condition of entry?.conditions ?? []) used.add(condition.validator);
  }
  const gitValidators = [...used].filter((id) => {
    const validator = registry.validators[id];
    return validator !== undefined && runsGit(validator.command);
  });
  if (gitValidators.length === 0) return [];
  const repository = gitRepositoryOf(options.cwd);
  if (repository !== undefined) {
    // An agent folder outside the repository is not what its validators see: no git to run.
    if (!isInside(repository, loaded.dir)) return [];
    return uncommittedAgentProblems(loaded, repository, gitValidators);
  }
  return gitValidators.map((id) =>
    problem(
      RUNNER_CODES.notAGitRepository,
      `Validator "${id}" runs git (\`${registry.validators[id]?.command}\`), but ${options.cwd} is not inside a git repository, so it could never pass.`,
      {
        severity: options.severity,
        file: loaded.files.registry,
        path: `$.validators["${id}"].command`,
        hint: "Run the agent in a git repository (git init, then commit the agent folder), pass --cwd the repository, or remove the validator from validationSteps.",
      },
    ),
  );
}

/**
 * RUN-CWD-003 (warning): the agent folder, inside the repository the run works in, has
 * uncommitted files. A validator such as `git status --porcelain` sees them, so the run is
 * refused at its close-out for files the model did not write; a freshly scaffolded agent is the
 * usual case.
 */
function uncommittedAgentProblems(
  loaded: LoadedAgent,
  repository: string,
  gitValidators: readonly string[],
): Problem[] {
  let status: string;
  try {
    // Host git (@climpt/host-git): its directories found from the file system, no fsmonitor,
    // no hooks, whatever the repository's files say.
    const layout = findGitLayout(repository);
    if (layout === null) return [];
    status = hostGitSync(layout, ["status", "--porcelain", "--", loaded.dir], {
      timeoutMs: 30_000,
    });
  } catch {
    // git itself is missing or the folder is outside this repository: nothing to say here.
    return [];
  }
  if (status.trim() === "") return [];
  return [
    problem(
      RUNNER_CODES.uncommittedAgentFiles,
      `The agent folder ${loaded.dir} has uncommitted files, and validator "${gitValidators[0]}" (\`${loaded.registry.validators[gitValidators[0] as string]?.command}\`) would see them: the run would be refused at its close-out for files the model did not write.`,
      {
        severity: "warning",
        file: loaded.files.agent,
        hint: `Commit the agent folder first: git add ${loaded.dir} && git commit -m "Add the agent".`,
      },
    ),
  ];
}
