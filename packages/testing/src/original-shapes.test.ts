import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  installOriginalShape,
  ORIGINAL_SHAPE_AGENTS,
  originalShapeDir,
} from "./original-shapes.ts";

const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("original-shape fixtures", () => {
  it.each(ORIGINAL_SHAPE_AGENTS)("%s has an agent.json naming itself and a registry", (agent) => {
    const dir = originalShapeDir(agent);
    const definition = JSON.parse(readFileSync(path.join(dir, "agent.json"), "utf8"));
    expect(definition.name).toBe(agent);
    const registry = JSON.parse(readFileSync(path.join(dir, "steps_registry.json"), "utf8"));
    expect(registry.agentId).toBe(agent);
  });

  it("installs a copy under <repo>/.agent/<name>", () => {
    const repo = mkdtempSync(path.join(tmpdir(), "climpt-shapes-"));
    scratch.push(repo);
    const dir = installOriginalShape("merger", repo);
    expect(dir).toBe(path.join(repo, ".agent", "merger"));
    expect(existsSync(path.join(dir, "scripts", "merge-pr.mjs"))).toBe(true);
  });

  it("refuses a name that has no fixture", () => {
    expect(() => originalShapeDir("nobody" as "merger")).toThrow(/No original-shape fixture/);
  });
});
