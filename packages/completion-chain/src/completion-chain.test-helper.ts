// Test helpers (not exported from the package): hand-built normalized models, real git
// repositories in temp folders, and a fake `gh` on PATH.

import { execFileSync } from "node:child_process";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type AgentDefinition,
  type FailurePattern,
  type LoadedAgent,
  parseSuccessCondition,
  type Registry,
  type Step,
  type StepKind,
  type ValidationStep,
  type ValidatorDefinition,
  type VerdictSpec,
} from "@climpt/model";
import { agentOf, registryOf, stepOf } from "@climpt/model/testing";
import { useTempDirs } from "@climpt/testing";
import { afterAll } from "vitest";

export const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));
export const FIX_AGENT_DIR = join(FIXTURES, "fix-agent");
export const FALLBACK_AGENT_DIR = join(FIXTURES, "fallback-agent");
export const BARE_AGENT_DIR = join(FIXTURES, "bare-agent");

export function step(id: string, kind: StepKind, c2: string, c3: string): Step {
  return stepOf(id, {
    kind,
    prompt: { kind: "c3l", c1: "steps", c2, c3, edition: "default" },
    uvVariables: ["issue"],
    transitions:
      kind === "closure"
        ? { closing: { kind: "target", target: null }, repeat: { kind: "target", target: id } }
        : { next: { kind: "target", target: "closure.fix" } },
  });
}

export function validator(
  id: string,
  command: string,
  successWhen: string,
  failurePattern: string,
  extractParams: Record<string, string> = {},
  timeoutMs?: number,
): ValidatorDefinition {
  const success = parseSuccessCondition(successWhen);
  if (!success.ok) throw new Error(`bad successWhen ${successWhen}`);
  return {
    id,
    type: "command",
    command,
    successWhen,
    success: success.value,
    failurePattern,
    extractParams,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  };
}

export const GIT_CLEAN = validator("git-clean", "git status --porcelain", "empty", "git-dirty", {
  changedFiles: "parseChangedFiles",
  untrackedFiles: "parseUntrackedFiles",
});

export const PATTERNS: Record<string, FailurePattern> = {
  "git-dirty": {
    id: "git-dirty",
    description: "Uncommitted changes are present",
    edition: "failed",
    adaptation: "git-dirty",
    params: ["changedFiles", "untrackedFiles"],
  },
  "test-failed": {
    id: "test-failed",
    description: "The test command fails",
    edition: "failed",
    adaptation: "test-failed",
    params: ["testResults", "output"],
  },
};

export function validationStep(
  id: string,
  validators: readonly string[],
  onFailure: ValidationStep["onFailure"] = { action: "retry", maxAttempts: 3 },
  extra: Partial<ValidationStep> = {},
): ValidationStep {
  return {
    id,
    stepId: id,
    c2: "retry",
    c3: "fix",
    conditions: validators.map((name) => ({ validator: name })),
    onFailure,
    ...extra,
  };
}

export interface FixtureOptions {
  readonly dir?: string;
  readonly validators?: readonly ValidatorDefinition[];
  readonly validationSteps?: readonly ValidationStep[];
  readonly patterns?: Record<string, FailurePattern>;
  readonly verdict?: VerdictSpec;
  readonly agent?: Partial<AgentDefinition>;
  readonly closureStep?: Step;
}

export const STEP_MACHINE: VerdictSpec = {
  type: "detect:graph",
  declaredType: "stepMachine",
  config: {},
};

/** The fix-bug shape of the examples: work step → closure step, validated by git-clean etc. */
export function loadedAgent(options: FixtureOptions = {}): LoadedAgent {
  const steps: Step[] = [
    step("continuation.implement", "work", "continuation", "implement"),
    options.closureStep ?? step("closure.fix", "closure", "closure", "fix"),
  ];
  const registry: Registry = registryOf(steps, {
    agentId: "fix-bug",
    entryStep: "continuation.implement",
    failurePatterns: options.patterns ?? PATTERNS,
    validators: Object.fromEntries((options.validators ?? [GIT_CLEAN]).map((v) => [v.id, v])),
    validationSteps: Object.fromEntries(
      (options.validationSteps ?? [validationStep("closure.fix", ["git-clean"])]).map((v) => [
        v.id,
        v,
      ]),
    ),
  });
  const dir = options.dir ?? FIX_AGENT_DIR;
  return {
    dir,
    agent: agentDefinition({ verdict: options.verdict ?? STEP_MACHINE, ...options.agent }),
    registry,
    files: { agent: join(dir, "agent.json"), registry: join(dir, "steps_registry.json") },
  };
}

export function agentDefinition(overrides: Partial<AgentDefinition> = {}): AgentDefinition {
  return agentOf({ name: "fix-bug", verdict: STEP_MACHINE, allowedTools: [], ...overrides });
}

// Registered when a test file first imports this module, so its folders go after that file's
// last test (vitest evaluates a file's imports afresh for each file).
const temps = useTempDirs(afterAll, "climpt-chain-");

/** A fresh temporary folder, removed after the test file's last test. */
export function tempDir(prefix?: string): string {
  return temps(prefix);
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "climpt test",
      GIT_AUTHOR_EMAIL: "test@example.invalid",
      GIT_COMMITTER_NAME: "climpt test",
      GIT_COMMITTER_EMAIL: "test@example.invalid",
      GIT_CONFIG_NOSYSTEM: "1",
      HOME: cwd,
    },
  });
}

/** A real repository with one commit (README.md, src/app.js). */
export function gitRepo(): string {
  const dir = tempDir("climpt-repo-");
  git(dir, "init", "-q", "-b", "main");
  writeFileSync(join(dir, "README.md"), "# demo\n");
  writeFileSync(join(dir, "app.js"), "export const answer = 41;\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "initial");
  return dir;
}

export interface FakeGh {
  /** A folder to put first on PATH. */
  readonly bin: string;
  /** Every call's argv (without `gh`), in order. */
  calls(): string[][];
}

/**
 * A fake `gh`: a shell script that appends its argv (one JSON array per line) to a log, then
 * runs `behaviour` (shell code; `$1`… are the args).
 */
export function fakeGh(behaviour = "exit 0"): FakeGh {
  const bin = tempDir("climpt-gh-");
  const log = join(bin, "calls.log");
  const script = `#!/bin/sh
node -e 'require("fs").appendFileSync(process.argv[1], JSON.stringify(process.argv.slice(2)) + "\\n")' "${log}" "$@"
${behaviour}
`;
  writeFileSync(join(bin, "gh"), script);
  chmodSync(join(bin, "gh"), 0o755);
  return {
    bin,
    calls: () => {
      let text = "";
      try {
        text = readFileSync(log, "utf8");
      } catch {
        return [];
      }
      return text
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as string[]);
    },
  };
}

export function pathWith(bin: string): string {
  return `${bin}:${process.env.PATH ?? ""}`;
}
