/**
 * The optional packages some commands need and a light install leaves out: BullMQ and ioredis
 * for the fleet (`climpt worker`, `climpt fleet status`, `climpt orchestrate --queue`),
 * typescript-json-schema (with its own TypeScript) for `climpt schema from-ts`, and
 * @climpt/claude-code (the Agent SDK) for `--executor claude-code`. climpt declares them as
 * optional peer dependencies, so npm and pnpm install them only when the project asks; a command
 * that needs one that is missing says so with the exact command that installs it, in the
 * project's own package manager.
 */
import type { Problem } from "@climpt/model";
import { CLI_CODES } from "./cli-codes.ts";
import { installCommand } from "./install-command.ts";
import { orchestratorModule } from "./orchestrator-module.ts";

/** CLI-DEP-001 for `feature`, which needs `missing`. */
export function missingPackagesProblem(
  feature: string,
  missing: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Problem {
  const plural = missing.length > 1;
  return {
    code: CLI_CODES.packagesMissing,
    severity: "error",
    message: `${feature} needs the package${plural ? "s" : ""} ${missing.join(" and ")}, which ${plural ? "are" : "is"} not installed (climpt leaves ${plural ? "them" : "it"} out of a light install).`,
    hint: `run: ${installCommand(missing, cwd, env)}`,
  };
}

/**
 * Null when the fleet's packages load (from the orchestrator's folder, where its imports
 * resolve), else CLI-DEP-001 naming the missing ones.
 */
export async function fleetPackagesProblem(
  feature: string,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Problem | null> {
  const probe = await (await orchestratorModule()).probeFleetModules();
  return probe.ok ? null : missingPackagesProblem(feature, probe.missing, cwd, env);
}

function isModuleMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
}

/**
 * Null when typescript-json-schema (the optional peer `climpt schema from-ts` converts types
 * with) loads, else CLI-DEP-001. climpt and @climpt/registry-schema both declare it as an
 * optional peer, so it resolves from either when the project installed it.
 */
export async function typescriptJsonSchemaProblem(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Problem | null> {
  try {
    await import("typescript-json-schema");
    return null;
  } catch (error) {
    if (!isModuleMissing(error)) throw error;
    return missingPackagesProblem("climpt schema from-ts", ["typescript-json-schema"], cwd, env);
  }
}
