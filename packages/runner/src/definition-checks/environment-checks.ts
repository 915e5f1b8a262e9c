/**
 * What a run needs from the folder it works in, checked before any model call. Today one thing:
 * a validator that runs git needs a git repository. Outside one, `git status --porcelain` exits
 * 128 with "fatal: not a git repository", which a validator reads as "not clean": the model
 * would be told to commit, in a folder where it cannot, until the retries run out.
 */
import { existsSync, realpathSync } from "node:fs";
import * as path from "node:path";
import { findGitLayout, hostGitSync } from "@climpt/host-git";
import { dependencyOrBuildFolderOf, type LoadedAgent, type Problem, problem } from "@climpt/model";
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
    return [
      ...uncommittedAgentProblems(loaded, repository, gitValidators),
      ...untrackedRepositoryProblems(loaded, repository, gitValidators),
    ];
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

/** A validator that runs `git status` and so sees untracked files (unless told not to, `-uno`). */
const SEES_UNTRACKED =
  /(?:^|[\s;&|(`$])git\s+(?:-\S+\s+)*status\b(?![^;&|]*(?:-uno\b|--untracked-files=no\b))/;

/** How many untracked paths a warning names before it says "and N more". */
const NAMED_PATHS = 10;

/**
 * RUN-CWD-004 (warning): untracked paths in the repository, outside the agent folder (RUN-CWD-003
 * covers that), that a `git status` validator would see. In a fresh repository without a
 * .gitignore this is node_modules/: the run would end with the model asked to commit it, which a
 * retry prompt no longer asks (@climpt/validators), so nothing in the run could make it pass. The
 * fix is the repository's, named before the first model call.
 */
function untrackedRepositoryProblems(
  loaded: LoadedAgent,
  repository: string,
  gitValidators: readonly string[],
): Problem[] {
  const validator = gitValidators.find((id) =>
    SEES_UNTRACKED.test(loaded.registry.validators[id]?.command ?? ""),
  );
  if (validator === undefined) return [];
  let status: string;
  try {
    const layout = findGitLayout(repository);
    if (layout === null) return [];
    // -z: paths as they are (no quoting), each record ended by NUL; untracked folders as `dir/`.
    status = hostGitSync(layout, ["status", "--porcelain", "-z", "--untracked-files=normal"], {
      timeoutMs: 30_000,
    });
  } catch {
    return [];
  }
  const agentFolder = path.relative(repository, loaded.dir).split(path.sep).join("/");
  const untracked = status
    .split("\0")
    .filter((record) => record.startsWith("?? "))
    .map((record) => record.slice(3))
    .filter((file) => !isAgentPath(file, agentFolder));
  if (untracked.length === 0) return [];
  const generated = [
    ...new Set(untracked.map(dependencyOrBuildFolderOf).filter((f) => f !== undefined)),
  ];
  const named = untracked
    .slice(0, NAMED_PATHS)
    .map((file) =>
      dependencyOrBuildFolderOf(file) === undefined
        ? file
        : `${file} (a dependency or build folder)`,
    );
  const more = untracked.length > NAMED_PATHS ? `, and ${untracked.length - NAMED_PATHS} more` : "";
  const command = loaded.registry.validators[validator]?.command;
  const rest = untracked.filter((file) => dependencyOrBuildFolderOf(file) === undefined);
  const fixes = [
    ...(generated.length === 0
      ? []
      : [
          `add ${generated.join(", ")} to .gitignore (printf '%s\\n' ${generated.map((f) => `'${f}'`).join(" ")} >> .gitignore) and commit the .gitignore`,
        ]),
    ...(rest.length === 0 ? [] : ["commit the other files, or add them to .gitignore too"]),
  ];
  return [
    problem(
      RUNNER_CODES.untrackedRepositoryFiles,
      `Validator "${validator}" (\`${command}\`) would see ${untracked.length} untracked path${untracked.length === 1 ? "" : "s"} in ${repository} that ${untracked.length === 1 ? "is" : "are"} not the model's work: ${named.join(", ")}${more}. The run would be refused at its close-out until they are gone, and the retry prompt never asks the model to commit dependency or build folders.`,
      {
        severity: "warning",
        file: loaded.files.registry,
        path: `$.validators["${validator}"].command`,
        hint: `Before the run, ${fixes.join("; ")}.`,
      },
    ),
  ];
}

/** Whether a repository-relative path (`dir/` for a folder) is the agent folder or inside it. */
function isAgentPath(file: string, agentFolder: string): boolean {
  const bare = file.endsWith("/") ? file.slice(0, -1) : file;
  return (
    bare === agentFolder ||
    bare.startsWith(`${agentFolder}/`) ||
    // An untracked parent of the agent folder (`.agent/`) holds it: RUN-CWD-003 names it.
    agentFolder.startsWith(`${bare}/`)
  );
}
