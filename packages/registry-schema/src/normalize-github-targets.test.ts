import type { Problem } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { normalizeAgent } from "./normalize-agent.ts";

function nested(github: unknown): unknown {
  return {
    name: "triager",
    runner: { verdict: { type: "count:iteration" }, integrations: { github } },
  };
}

function flat(github: unknown): unknown {
  return { name: "triager", behavior: { completionType: "count:iteration" }, github };
}

function read(raw: unknown) {
  const result = normalizeAgent(raw, { file: "agent.json", folderName: "triager" });
  return result.ok
    ? { github: result.value.github, problems: [] as readonly Problem[] }
    : { github: undefined, problems: result.issues };
}

describe("integrations.github.targets", () => {
  it("reads the declaration in both shapes, repositories in lower case and once", () => {
    const targets = { issues: "any", repositories: ["Octo/Other", "octo/other", "o/r.js"] };
    for (const raw of [nested({ targets }), flat({ targets })]) {
      expect(read(raw).github?.targets).toEqual({
        issues: "any",
        pullRequests: "own",
        repositories: ["octo/other", "o/r.js"],
      });
    }
  });

  it("leaves the default (the run's own issue and pull request) when nothing is declared", () => {
    expect(read(nested({ enabled: true })).github).not.toHaveProperty("targets");
  });

  it("refuses a wrong declaration with AC-GITHUB-001, at its JSON path", () => {
    const { problems } = read(
      nested({
        targets: {
          issues: "all",
          pullRequests: true,
          repositories: ["https://github.com/o/r", "o/..", "just-a-name", 3],
        },
      }),
    );
    expect(problems.map((p) => [p.code, p.path])).toEqual([
      ["AC-GITHUB-001", "$.runner.integrations.github.targets.issues"],
      ["AC-GITHUB-001", "$.runner.integrations.github.targets.pullRequests"],
      ["AC-GITHUB-001", "$.runner.integrations.github.targets.repositories[0]"],
      ["AC-GITHUB-001", "$.runner.integrations.github.targets.repositories[1]"],
      ["AC-GITHUB-001", "$.runner.integrations.github.targets.repositories[2]"],
      ["AC-GITHUB-001", "$.runner.integrations.github.targets.repositories[3]"],
    ]);
    expect(problems[0]?.message).toContain('must be one of "own", "any", but is "all"');
    expect(problems[2]?.message).toContain("an OWNER/REPO name");
    expect(problems.every((p) => p.file === "agent.json")).toBe(true);
    const flatProblems = read(flat({ targets: "any" })).problems;
    expect(flatProblems.map((p) => [p.code, p.path])).toEqual([
      ["AC-GITHUB-001", "$.github.targets"],
    ]);
  });
});
