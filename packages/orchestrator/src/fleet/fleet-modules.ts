/**
 * BullMQ and ioredis, loaded when a fleet function is first called. They are optional peer
 * dependencies: a project that runs agents and the embedded orchestrator (no `--queue`) never
 * installs them, so this package must load without them and name them when the fleet is asked
 * for. Types come from `import type`, which the build erases.
 */

import { resetStatBuffer } from "@climpt/host-git";
import { ClimptError } from "@climpt/model";
import { ORCHESTRATOR_CODES as C } from "../codes.ts";

/** The packages the fleet needs, in the order an install command names them. */
export const FLEET_PACKAGES = ["bullmq", "ioredis"] as const;

export interface FleetModules {
  readonly bullmq: typeof import("bullmq");
  /** ioredis's client class (a CommonJS package: its named export, as a static import gets it). */
  readonly Redis: typeof import("ioredis").Redis;
}

function isModuleMissing(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return false;
  // Only the package itself: a broken install of one of its own dependencies is another error.
  return String((error as Error).message).includes(`'${name}'`);
}

async function importFleetPackage<T>(name: string, load: () => Promise<T>): Promise<T | string> {
  try {
    return await load();
  } catch (error) {
    if (!isModuleMissing(error, name)) throw error;
    return String((error as Error).message).split("\n")[0] ?? name;
  }
}

/** The fleet's packages, or which of them cannot be loaded and why. */
export type FleetModulesProbe =
  | { readonly ok: true; readonly modules: FleetModules }
  | { readonly ok: false; readonly missing: readonly string[]; readonly detail: string };

/** Tries to load the fleet's packages from this package's folder (where its imports resolve). */
export async function probeFleetModules(): Promise<FleetModulesProbe> {
  // In the same tick as the imports' resolution (@climpt/host-git's stat-buffer.ts says why).
  resetStatBuffer();
  const [bullmq, ioredis] = await Promise.all([
    importFleetPackage("bullmq", () => import("bullmq")),
    importFleetPackage("ioredis", async () => (await import("ioredis")).Redis),
  ]);
  if (typeof bullmq !== "string" && typeof ioredis !== "string") {
    return { ok: true, modules: { bullmq, Redis: ioredis } };
  }
  const failures = [bullmq, ioredis];
  return {
    ok: false,
    missing: FLEET_PACKAGES.filter((_, index) => typeof failures[index] === "string"),
    detail: String(failures.find((loaded) => typeof loaded === "string")),
  };
}

/**
 * The fleet's packages. One that is not installed is an ORC-QUEUE-004 error naming every
 * missing one and the install command.
 */
export async function loadFleetModules(): Promise<FleetModules> {
  const probe = await probeFleetModules();
  if (probe.ok) return probe.modules;
  const { missing } = probe;
  throw new ClimptError({
    code: C.queuePackagesMissing,
    message: `The fleet needs the package${missing.length > 1 ? "s" : ""} ${missing.join(" and ")}, which ${missing.length > 1 ? "are" : "is"} not installed (${probe.detail}).`,
    hint: `Install them next to climpt: npm i -D ${FLEET_PACKAGES.join(" ")} (pnpm add -D ${FLEET_PACKAGES.join(" ")}).`,
  });
}
