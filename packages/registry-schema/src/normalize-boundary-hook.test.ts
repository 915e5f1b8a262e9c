import type { Problem } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { normalizeAgent } from "./normalize-agent.ts";

const TOKEN = "ghp_PastedBoundaryHookToken0123456789abcdef";

function nested(boundaryHook: unknown): unknown {
  return {
    name: "deployer",
    runner: { verdict: { type: "count:iteration" }, boundaries: { boundaryHook } },
  };
}

function flat(boundaryHook: unknown): unknown {
  return { name: "deployer", behavior: { completionType: "count:iteration", boundaryHook } };
}

function read(raw: unknown) {
  const result = normalizeAgent(raw, { file: "agent.json", folderName: "deployer" });
  return result.ok
    ? { hook: result.value.boundaryHook, problems: [] as readonly Problem[] }
    : { hook: undefined, problems: result.issues };
}

describe("boundaryHook", () => {
  it("reads a command string, and {command, timeout, env} in both shapes (env: each name once)", () => {
    expect(read(nested("./notify.sh")).hook).toEqual({ command: "./notify.sh" });
    const hook = {
      command: "npm run deploy",
      timeout: "30s",
      env: ["DEPLOY_TOKEN", "DEPLOY_TOKEN"],
    };
    for (const raw of [nested(hook), flat(hook)]) {
      expect(read(raw).hook).toEqual({
        command: "npm run deploy",
        timeoutMs: 30_000,
        env: ["DEPLOY_TOKEN"],
      });
    }
  });

  it("refuses a bad env with AC-HOOK-005 at its JSON path, never quoting the value", () => {
    const { problems } = read(
      nested({
        command: "./release.sh",
        env: ["OK_NAME", TOKEN.replace("_", "-"), 7, "ANTHROPIC_API_KEY"],
      }),
    );
    expect(problems.map((p) => [p.code, p.path])).toEqual([
      ["AC-HOOK-005", "$.runner.boundaries.boundaryHook.env[1]"],
      ["AC-HOOK-005", "$.runner.boundaries.boundaryHook.env[2]"],
      ["AC-HOOK-005", "$.runner.boundaries.boundaryHook.env[3]"],
    ]);
    expect(problems[2]?.message).toContain("the model's own credential");
    expect(problems.every((p) => p.file === "agent.json")).toBe(true);
    expect(problems[0]?.hint).toContain("never write a secret value into agent.json");
    const whole = read(flat({ command: "./release.sh", env: TOKEN })).problems;
    expect(whole.map((p) => [p.code, p.path])).toEqual([
      ["AC-HOOK-005", "$.behavior.boundaryHook.env"],
    ]);
    for (const problem of [...problems, ...whole]) {
      expect(JSON.stringify(problem)).not.toContain(TOKEN.slice(4));
    }
  });

  it("reports a hook that is neither a string nor an object with a command at its path", () => {
    expect(read(nested(12)).problems.map((p) => p.path)).toEqual([
      "$.runner.boundaries.boundaryHook",
    ]);
    expect(read(nested({ timeout: "5s" })).problems.map((p) => p.path)).toEqual([
      "$.runner.boundaries.boundaryHook.command",
    ]);
  });
});
