/**
 * What a team that writes its own runner installs: `@climpt/gate-interpreter` + `@climpt/router`
 * (and `@climpt/model`, their one dependency) from their packed tarballs, into an empty project
 * outside the monorepo. They must stay small: no TypeScript, no typescript-json-schema, at most
 * valibot besides our own packages.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  installPackedPackages,
  type ScratchInstall,
  workspacePackagesNamed,
} from "./scratch-install.ts";

const OURS = ["@climpt/model", "@climpt/gate-interpreter", "@climpt/router"];
/** The only package besides ours that may come along. */
const ALLOWED_OTHERS = ["valibot"];

let install: ScratchInstall;

// Three `pnpm pack` runs and an npm install: seconds alone, minutes on a busy 2-core machine
// (CI saw the shared 180 s hang limit run out). The limit detects a hang; it does not measure speed.
const INSTALL_LIMIT_MS = 900_000;

beforeAll(async () => {
  install = await installPackedPackages({ packages: await workspacePackagesNamed(OURS) });
}, INSTALL_LIMIT_MS);

afterAll(async () => {
  await install?.remove();
});

describe("installing the pure packages from their tarballs", () => {
  it("pulls in no TypeScript and nothing beyond our packages and valibot", () => {
    const names = install.installed.map((pkg) => pkg.name);
    // The numbers a reader of the test log wants; the assertions below are what must hold.
    console.log(
      `npm install ${OURS.join(" ")}: ${names.length} packages, ${(install.sizeBytes / 1024).toFixed(1)} kB in node_modules (${names.join(", ")})`,
    );
    expect(names).not.toContain("typescript");
    expect(names).not.toContain("typescript-json-schema");
    expect(names.filter((name) => !OURS.includes(name) && !ALLOWED_OTHERS.includes(name))).toEqual(
      [],
    );
    expect([...names].sort()).toEqual(expect.arrayContaining([...OURS].sort()));
  });

  it("ships packages that work without the monorepo: a gate reading and a route", async () => {
    const stdout = await install.runModule(`
      import { interpretGate } from "@climpt/gate-interpreter";
      import { createRouter } from "@climpt/router";
      import { formatProblem } from "@climpt/model";
      const gate = {
        allowedIntents: ["next"], intentSchemaRef: "#/properties/action", intentField: "action",
        handoffFields: ["plan"], failFast: true,
      };
      const step = (id, kind, intents, transitions) => ({
        id, kind, kindSource: "declared", prompt: { kind: "path", path: id + ".md" }, uvVariables: [],
        usesStdin: false, gate: { ...gate, allowedIntents: intents }, transitions,
        iterations: { min: 1, max: 1 }, handoff: [], permissions: {},
      });
      const registry = {
        dialect: "gate", version: "1", c1: "steps", promptsBase: "prompts", schemasBase: "schemas",
        pathTemplate: "{c1}/{c2}/{c3}/f_{edition}_{adaptation}.md",
        pathTemplateNoAdaptation: "{c1}/{c2}/{c3}/f_{edition}.md", entryStepMapping: {},
        failurePatterns: {}, validators: {}, validationSteps: {},
        steps: {
          "initial.a": step("initial.a", "work", ["next"], { next: { kind: "target", target: "closure.b" } }),
          "closure.b": step("closure.b", "closure", ["closing"], { closing: { kind: "target", target: null } }),
        },
      };
      const router = createRouter(registry, { iterationCap: 10 });
      const started = router.start("initial.a");
      if (!started.ok) throw new Error(formatProblem(started.issues[0]));
      const state = started.value;
      const read = interpretGate(registry.steps["initial.a"], { action: "continue", plan: "p" }, { iteration: 1 });
      const decision = router.route(state, read.value, { handoff: read.value.handoff });
      const refused = interpretGate(registry.steps["initial.a"], { action: "done" }, { iteration: 1 });
      console.log(JSON.stringify({
        intent: read.value.intent, handoff: read.value.handoff,
        kind: decision.value.kind, next: decision.value.state.stepId,
        refused: formatProblem(refused.issues[0]).split(":")[0],
      }));
    `);
    expect(JSON.parse(stdout)).toEqual({
      intent: "next",
      handoff: { plan: "p" },
      kind: "step",
      next: "closure.b",
      refused:
        'SR-INTENT-001 (GATE_INTERPRETATION_ERROR) at $.steps["initial.a"].structuredGate.allowedIntents',
    });
  });
});
