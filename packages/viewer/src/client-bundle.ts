import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The built browser client, relative to the module that reads it: `dist/` when published, `src/` in tests. */
const CANDIDATES = ["./client/viewer-client.iife.js", "../dist/client/viewer-client.iife.js"];

let cached: string | undefined;

/**
 * The page's script: `src/client/` bundled by the package build (tsdown, one IIFE with dagre
 * inside) into a file the package ships and every page inlines. Throws when the package was not
 * built, which only a development checkout can be.
 */
export function clientScript(): string {
  if (cached !== undefined) return cached;
  for (const candidate of CANDIDATES) {
    try {
      cached = readFileSync(fileURLToPath(new URL(candidate, import.meta.url)), "utf8");
      return cached;
    } catch {
      // Try the next place.
    }
  }
  throw new Error(
    "The viewer's browser client is not built (dist/client/viewer-client.iife.js). Run `pnpm --filter @climpt/viewer build`.",
  );
}
