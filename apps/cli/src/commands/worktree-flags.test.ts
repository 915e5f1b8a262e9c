import type { AgentParameter } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { parameterFlagSpecs } from "../args/agent-flags.ts";
import { parseFlags } from "../args/parse-flags.ts";
import {
  branchesFromParameters,
  worktreeOptionsFromFlags,
  YIELDING_FLAG_KEYS,
} from "./run-flag-options.ts";
import { RUN_FLAGS } from "./run-flags.ts";

describe("climpt run's worktree flags", () => {
  it("reads --branch, --base-branch, --no-merge, --push, --push-remote, --create-pr and --pr-target", () => {
    const parsed = parseFlags(
      [
        "--worktree",
        "--branch",
        "issue-7",
        "--base-branch",
        "develop",
        "--no-merge",
        "--push",
        "--push-remote",
        "upstream",
        "--create-pr",
        "--pr-target",
        "release",
      ],
      RUN_FLAGS,
    );
    expect(parsed.problems).toEqual([]);
    expect(worktreeOptionsFromFlags(parsed.values)).toEqual({
      branch: "issue-7",
      baseBranch: "develop",
      merge: false,
      push: true,
      remote: "upstream",
      createPr: true,
      prTarget: "release",
    });
  });

  it("gives nothing when no worktree flag is given (agent.json decides)", () => {
    expect(worktreeOptionsFromFlags(parseFlags(["--worktree"], RUN_FLAGS).values)).toEqual({});
  });

  it("an agent parameter declared as --base-branch takes the flag, and its value names the base branch too", () => {
    const parameters: Record<string, AgentParameter> = {
      baseBranch: { name: "baseBranch", type: "string", required: false, cli: "--base-branch" },
    };
    const parameterFlags = parameterFlagSpecs(parameters);
    const taken = new Set(parameterFlags.map((flag) => flag.name));
    const runFlags = RUN_FLAGS.filter(
      (flag) => !(YIELDING_FLAG_KEYS.has(flag.key) && taken.has(flag.name)),
    );
    expect(runFlags.some((flag) => flag.key === "baseBranch")).toBe(false);
    const parsed = parseFlags(["--base-branch", "develop"], [...runFlags, ...parameterFlags]);
    expect(parsed.problems).toEqual([]);
    expect(branchesFromParameters(parameters, { baseBranch: "develop" }, runFlags)).toEqual({
      baseBranch: "develop",
    });
    // Without the collision the run flag is read as usual and no parameter is consulted.
    expect(branchesFromParameters({}, {}, RUN_FLAGS)).toEqual({});
  });
});
