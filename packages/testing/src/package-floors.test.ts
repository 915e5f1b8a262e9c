/**
 * scripts/check-package-floors.mjs (run by `pnpm lint`) keeps the bottom packages on their floors:
 * @climpt/protocol depends on @climpt/model alone, model on nothing, gate-interpreter and router on
 * model alone. These tests hold the check itself to that, on the real workspace and on a small
 * workspace written to a temporary folder where protocol takes a dependency back.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  PINNED_DEPENDENCIES,
  pinnedDependencyViolations,
} from "../../../scripts/check-package-floors.mjs";
import { useTempDirs } from "./temp-dirs.ts";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const tempDir = useTempDirs(afterEach, "climpt-floors-");

function writeWorkspace(manifests: Readonly<Record<string, Record<string, unknown>>>): string {
  const dir = tempDir();
  writeFileSync(join(dir, "pnpm-workspace.yaml"), "packages:\n  - packages/*\n");
  for (const [folder, manifest] of Object.entries(manifests)) {
    mkdirSync(join(dir, "packages", folder, "src"), { recursive: true });
    writeFileSync(join(dir, "packages", folder, "package.json"), JSON.stringify(manifest));
  }
  return dir;
}

describe("check-package-floors", () => {
  it("pins @climpt/protocol to @climpt/model alone", () => {
    expect(PINNED_DEPENDENCIES.get("@climpt/protocol")?.dependencies).toEqual(["@climpt/model"]);
  });

  it("finds every pinned package of this workspace as pinned", () => {
    expect(pinnedDependencyViolations(root)).toEqual([]);
  });

  it("fails when protocol takes back a dependency, naming it and the way out", () => {
    const dir = writeWorkspace({
      model: { name: "@climpt/model" },
      router: { name: "@climpt/router", dependencies: { "@climpt/model": "workspace:^" } },
      protocol: {
        name: "@climpt/protocol",
        dependencies: { "@climpt/model": "workspace:^", "@climpt/router": "workspace:^" },
      },
    });
    const pinned = new Map([
      ["@climpt/protocol", { dependencies: ["@climpt/model"], why: "the contracts" }],
    ]);
    const [violation, ...rest] = pinnedDependencyViolations(dir, pinned);
    expect(rest).toEqual([]);
    expect(violation).toMatch(
      /^PACKAGE-FLOOR-003 packages\/protocol\/package\.json: @climpt\/protocol/,
    );
    expect(violation).toContain("it also lists @climpt/router");
    expect(violation).toContain("Move what it needs into @climpt/model");
  });

  it("counts a dependency from outside the workspace and a missing one too", () => {
    const dir = writeWorkspace({
      model: { name: "@climpt/model", dependencies: { valibot: "^1.0.0" } },
      router: { name: "@climpt/router" },
    });
    const violations = pinnedDependencyViolations(
      dir,
      new Map([
        ["@climpt/model", { dependencies: [], why: "test" }],
        ["@climpt/router", { dependencies: ["@climpt/model"], why: "test" }],
        ["@climpt/gone", { dependencies: [], why: "test" }],
      ]),
    );
    expect(violations).toHaveLength(3);
    expect(violations[0]).toContain("it also lists valibot");
    expect(violations[1]).toContain("it lacks @climpt/model");
    expect(violations[2]).toMatch(/^PACKAGE-FLOOR-004 @climpt\/gone/);
  });
});
