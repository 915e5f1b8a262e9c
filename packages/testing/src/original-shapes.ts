import { cpSync, existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The agents of the original Deno climpt whose folder shapes the fixtures under
 * `fixtures/original-shapes/` reproduce (in this project's own words): each folder is a minimal
 * agent that exercises what that original agent relies on.
 */
export const ORIGINAL_SHAPE_AGENTS = [
  "iterator",
  "reviewer",
  "considerer",
  "detailer",
  "facilitator",
  "triager",
  "merger",
] as const;

export type OriginalShapeAgent = (typeof ORIGINAL_SHAPE_AGENTS)[number];

// src/ and dist/ are both one level below the package folder, so the same relative URL finds
// the fixtures from the sources (vitest) and from the build.
const FIXTURES = fileURLToPath(new URL("../fixtures/original-shapes/", import.meta.url));

/** The fixture folder of one original-shaped agent (read it, never write to it). */
export function originalShapeDir(agent: OriginalShapeAgent): string {
  const dir = path.join(FIXTURES, agent);
  if (!existsSync(path.join(dir, "agent.json"))) {
    throw new Error(`No original-shape fixture for "${agent}" at ${dir}.`);
  }
  return dir;
}

/**
 * Copies an original-shaped agent into `<repoDir>/.agent/<agent>/`, where `climpt run <agent>`
 * finds it, and returns that folder. An existing copy is overwritten file by file.
 */
export function installOriginalShape(agent: OriginalShapeAgent, repoDir: string): string {
  const target = path.join(repoDir, ".agent", agent);
  mkdirSync(path.dirname(target), { recursive: true });
  cpSync(originalShapeDir(agent), target, { recursive: true });
  return target;
}
