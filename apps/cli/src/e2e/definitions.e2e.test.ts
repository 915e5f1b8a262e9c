import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { git } from "./project.test-helper.ts";
import { EXAMPLES, onlyJson, spawnCli, tempDir } from "./spawn-cli.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 9 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const FIX_BUG = path.join(EXAMPLES, "fix-bug");
const CODE_IMPROVER = path.join(EXAMPLES, "code-improver");
const temps: string[] = [];

afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** Sets the value at `keys` in a JSON file (`change` gets the old value). */
function editJson(file: string, keys: readonly string[], change: (old: unknown) => unknown): void {
  const root: unknown = JSON.parse(readFileSync(file, "utf8"));
  let parent = root as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  const last = keys.at(-1) as string;
  parent[last] = change(parent[last]);
  writeFileSync(file, JSON.stringify(root, null, 2));
}

/** A copy of fix-bug under `<tmp>/.agent/<name>`, edited by `edit`. */
function brokenCopy(name: string, edit: (dir: string) => void): { root: string; dir: string } {
  const root = tempDir("broken");
  temps.push(root);
  // Agents run in a repository, committed; otherwise validate warns that git-clean cannot pass.
  git(root, "init", "-q");
  const dir = path.join(root, ".agent", name);
  cpSync(FIX_BUG, dir, { recursive: true });
  editJson(path.join(dir, "agent.json"), ["name"], () => name);
  editJson(path.join(dir, "steps_registry.json"), ["agentId"], () => name);
  edit(dir);
  git(root, "add", "-A");
  git(root, "commit", "-qm", "agent");
  return { root, dir };
}

describe("climpt validate on the bundled examples", () => {
  it("passes fix-bug (gate dialect) with no problem and no finding", async () => {
    const { code, stdout, stderr } = await spawnCli(["validate", "examples/agents/fix-bug"]);
    expect(code).toBe(0);
    expect(stdout).toBe("");
    expect(stderr).toContain("fix-bug: valid (0 errors, 0 warnings)");
  });

  it("lists warnings under the registry file, and a declared run cap answers SR-FLOW-005", async () => {
    // Without "limits.maxIterations", fix-bug's repeat loops are bounded only by the default cap.
    const uncapped = brokenCopy("uncapped", (dir) => {
      editJson(path.join(dir, "agent.json"), ["limits"], () => undefined);
    });
    const { code, stderr } = await spawnCli(["validate", "uncapped"], { cwd: uncapped.root });
    expect(code).toBe(0);
    expect(stderr).toContain(
      'steps_registry.json\n  warning SR-FLOW-005 at $.steps["initial.analyze"]:',
    );
    expect(stderr).toContain("0 errors, 2 warnings");
    expect(stderr).toContain("uncapped: valid, with warnings");
  });

  it("prints exactly one JSON object with --json for code-improver (check dialect)", async () => {
    const { code, stdout } = await spawnCli(["validate", CODE_IMPROVER, "--json"]);
    expect(code).toBe(0);
    const report = onlyJson(stdout);
    expect(report.ok).toBe(true);
    expect(report.agent).toEqual({ name: "code-improver", dir: CODE_IMPROVER });
    expect(report.problems).toEqual([]);
    expect(report.findings).toEqual([]);
  });

  it("finds an agent by name under --agent-dir", async () => {
    const { code, stderr } = await spawnCli([
      "validate",
      "code-improver",
      "--agent-dir",
      "examples/agents",
    ]);
    expect(code).toBe(0);
    expect(stderr).toContain("code-improver: valid (0 errors, 0 warnings)");
  });
});

describe("an invalid agent definition", () => {
  const broken = brokenCopy("broken", (dir) => {
    const registry = path.join(dir, "steps_registry.json");
    editJson(path.join(dir, "agent.json"), ["parameters", "issue", "type"], () => "integer");
    editJson(
      registry,
      ["steps", "initial.analyze", "transitions", "next", "target"],
      () => "continuation.missing",
    );
    editJson(
      registry,
      ["validators", "tests", "extractParams", "testResults"],
      () => "parseTestOutputs",
    );
    editJson(registry, ["steps", "closure.fix", "structuredGate", "allowedIntents"], (old) => [
      ...(old as string[]),
      "next",
    ]);
  });

  it("exits 2 from validate listing every problem and flow finding at once, grouped by file", async () => {
    const { code, stderr } = await spawnCli(["validate", "broken"], { cwd: broken.root });
    expect(code).toBe(2);
    const agentAt = stderr.indexOf(".agent/broken/agent.json\n");
    const registryAt = stderr.indexOf(".agent/broken/steps_registry.json\n");
    expect(agentAt).toBeGreaterThanOrEqual(0);
    expect(registryAt).toBeGreaterThan(agentAt);
    for (const code of [
      "AC-PARAM-001",
      "SR-VALID-005",
      "SR-TRANS-001",
      "SR-INTENT-001",
      "SR-INTENT-005",
      // Flow analysis of the same registry: closure.fix's extra intent has no transition. (What
      // the broken target cuts off, SR-FLOW-003/004, waits until the target names a step.)
      "SR-INTENT-101",
    ]) {
      expect(stderr).toContain(`  error ${code} at $.`);
    }
    // Each says how to fix it; the flow's own SR-TRANS-101 is left out, the loader said it.
    const problemLines = stderr.split("\n").filter((line) => line.startsWith("  error "));
    expect(problemLines).toHaveLength(6);
    for (const line of problemLines) expect(line).toContain(" Fix: ");
    expect(stderr).not.toContain("SR-TRANS-101");
    expect(stderr).toMatch(/6 errors, 0 warnings/);
  });

  it("reports them as JSON with --json", async () => {
    const { code, stdout } = await spawnCli(["validate", "broken", "--json"], { cwd: broken.root });
    expect(code).toBe(2);
    const report = onlyJson(stdout);
    expect(report.ok).toBe(false);
    expect((report.problems as { code: string }[]).map((problem) => problem.code).sort()).toEqual([
      "AC-PARAM-001",
      "SR-INTENT-001",
      "SR-INTENT-005",
      "SR-TRANS-001",
      "SR-VALID-005",
    ]);
  });

  it("exits 2 from graph, audit and run too", async () => {
    for (const args of [
      ["graph", "broken"],
      ["audit", "broken"],
      ["run", "broken", "--issue", "1"],
    ]) {
      const { code, stderr, stdout } = await spawnCli(args, {
        cwd: broken.root,
        env: { ANTHROPIC_API_KEY: "test-key" },
      });
      expect(code, args.join(" ")).toBe(2);
      expect(stdout).toBe("");
      expect(stderr).toContain("SR-TRANS-001");
    }
  });

  it("names a missing prompt file with every path tried, once the definition loads", async () => {
    const missing = brokenCopy("no-prompt", (dir) => {
      rmSync(path.join(dir, "prompts/steps/verification/verify/f_default.md"));
    });
    const { code, stderr } = await spawnCli(["validate", "no-prompt"], { cwd: missing.root });
    expect(code).toBe(2);
    expect(stderr).toContain("PR-C3L-004");
    expect(stderr).toContain("prompts/steps/verification/verify/f_default.md");
  });

  it("is not found when no folder holds it, naming where climpt looked", async () => {
    const { code, stderr } = await spawnCli(["validate", "nope"], { cwd: broken.root });
    expect(code).toBe(2);
    expect(stderr).toContain("SR-LOAD-001");
    expect(stderr).toContain(path.join(broken.root, ".agent", "nope"));
  });
});

describe("climpt graph", () => {
  it("draws fix-bug as Mermaid by default, with its validators", async () => {
    const { code, stdout } = await spawnCli(["graph", "examples/agents/fix-bug"]);
    expect(code).toBe(0);
    expect(stdout.startsWith("flowchart TD\n")).toBe(true);
    expect(stdout).toContain('"closure.fix"');
    expect(stdout).toContain("git-clean, tests");
  });

  it("draws code-improver as Graphviz DOT", async () => {
    const { code, stdout } = await spawnCli([
      "graph",
      CODE_IMPROVER,
      "--format",
      "dot",
      "--direction",
      "LR",
    ]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^digraph /);
    expect(stdout).toContain("rankdir=LR");
    expect(stdout).toContain("s_a8f3");
  });

  it("refuses an unknown format with the choices", async () => {
    const { code, stderr } = await spawnCli(["graph", FIX_BUG, "--format", "svg"]);
    expect(code).toBe(2);
    expect(stderr).toContain('AC-CLI-004: --format expects one of mermaid, dot, got "svg".');
  });
});

describe("climpt list, audit, schema", () => {
  it("lists agents with description and validity", async () => {
    const { code, stdout } = await spawnCli(["list", "--agent-dir", "examples/agents"]);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^NAME\s+STATUS\s+DESCRIPTION$/);
    expect(lines[1]).toMatch(/^code-improver\s+valid\s+Agent that analyzes/);
    expect(lines[2]).toMatch(/^fix-bug\s+valid\s+Finds why the test suite fails/);
  });

  it("lists an invalid agent as invalid, as JSON too", async () => {
    const broken = brokenCopy("broken-list", (dir) => {
      editJson(
        path.join(dir, "steps_registry.json"),
        ["steps", "initial.analyze", "transitions", "next", "target"],
        () => "nowhere",
      );
    });
    const { code, stdout } = await spawnCli(["list", "--json"], { cwd: broken.root });
    expect(code).toBe(0);
    const listing = onlyJson(stdout);
    // The loader's SR-TRANS-001 alone: what the cut graph leaves unreachable waits for the fix.
    expect(listing.agents).toEqual([
      expect.objectContaining({ name: "broken-list", valid: false, errors: 1 }),
    ]);
  });

  it("says how to start when there are no agents", async () => {
    const empty = tempDir("empty");
    temps.push(empty);
    const { code, stdout, stderr } = await spawnCli(["list"], { cwd: empty });
    expect(code).toBe(0);
    expect(stdout).toBe("");
    expect(stderr).toContain("Create one with `climpt init <name>`");
  });

  it("audits the tool policy per step", async () => {
    const { code, stdout } = await spawnCli(["audit", FIX_BUG]);
    expect(code).toBe(0);
    for (const step of [
      "initial.analyze",
      "continuation.implement",
      "verification.verify",
      "closure.fix",
    ]) {
      expect(stdout).toContain(step);
    }
    const json = await spawnCli(["audit", FIX_BUG, "--json"]);
    expect(onlyJson(json.stdout)).toMatchObject({ agent: "fix-bug", githubEnabled: false });
  });

  it("prints the registry and agent JSON Schemas", async () => {
    const registry = await spawnCli(["schema"]);
    expect(registry.code).toBe(0);
    expect(onlyJson(registry.stdout).title).toBe("climpt steps_registry.json");
    const agent = await spawnCli(["schema", "agent"]);
    expect(onlyJson(agent.stdout).title).toBe("climpt agent.json");
    const unknown = await spawnCli(["schema", "agnet"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown schema "agnet"');
  });

  it("prints the JSON Schema of a TypeScript type", async () => {
    const dir = tempDir("from-ts");
    temps.push(dir);
    writeFileSync(
      path.join(dir, "outputs.ts"),
      'export type Intent = "next" | "repeat";\nexport interface InitialOutput {\n  summary: string;\n  files?: string[];\n  next_action: { action: Intent; reason: string };\n}\n',
    );
    const { code, stdout, stderr } = await spawnCli(
      ["schema", "from-ts", "outputs.ts", "InitialOutput"],
      { cwd: dir },
    );
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(onlyJson(stdout)).toMatchObject({
      required: ["next_action", "summary"],
      additionalProperties: false,
      properties: {
        next_action: { properties: { action: { type: "string", enum: ["next", "repeat"] } } },
      },
    });
    const missing = await spawnCli(["schema", "from-ts", "outputs.ts", "Nope"], { cwd: dir });
    expect(missing.code).toBe(2);
  });
});

describe("usage errors", () => {
  it("suggests the closest command", async () => {
    const { code, stderr } = await spawnCli(["valdate", "x"]);
    expect(code).toBe(2);
    expect(stderr).toContain(
      'AC-CLI-001: Unknown command "valdate". Fix: Did you mean climpt validate?',
    );
  });

  it("suggests the closest flag of the command", async () => {
    const { code, stderr } = await spawnCli(["validate", FIX_BUG, "--jsno"]);
    expect(code).toBe(2);
    expect(stderr).toContain("AC-CLI-002: Unknown flag --jsno. Fix: Did you mean --json?");
  });

  it("names the missing argument", async () => {
    const { code, stderr } = await spawnCli(["graph"]);
    expect(code).toBe(2);
    expect(stderr).toContain("climpt graph needs <agent>.");
  });

  it("prints help and the version", async () => {
    const help = await spawnCli(["--help"]);
    expect(help.code).toBe(0);
    for (const name of ["run", "validate", "graph", "list", "init", "schema", "audit"]) {
      expect(help.stdout).toMatch(new RegExp(`^  ${name} `, "m"));
    }
    const graphHelp = await spawnCli(["graph", "--help"]);
    expect(graphHelp.stdout).toContain("--format mermaid|dot");
    const version = await spawnCli(["--version"]);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const nothing = await spawnCli([]);
    expect(nothing.code).toBe(2);
    expect(nothing.stdout).toBe("");
    expect(nothing.stderr).toContain("Usage: climpt <command>");
  });
});
