import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { exportedNames, publicEntries } from "./public-surface.ts";

/**
 * The checked-in public surface: one line per exported name, `<entry> <name>`. A change to what a
 * package exports shows up here as a diff, so it is made on purpose. After such a change:
 * `CLIMPT_UPDATE_PUBLIC_SURFACE=1 pnpm --filter @climpt/testing exec vitest run src/public-surface.test.ts`.
 */
const SURFACE_FILE = fileURLToPath(new URL("./public-surface.txt", import.meta.url));

describe("the public surface of every package entry", () => {
  it("is the checked-in list, name for name", async () => {
    const current = (await publicEntries())
      .flatMap(({ entry, names }) => names.map((name) => `${entry} ${name}`))
      .join("\n")
      .concat("\n");
    if (process.env.CLIMPT_UPDATE_PUBLIC_SURFACE === "1") {
      await writeFile(SURFACE_FILE, current);
    }
    const checkedIn = existsSync(SURFACE_FILE) ? await readFile(SURFACE_FILE, "utf8") : "";
    // Line lists, so a failure prints which names came or went.
    expect(current.split("\n"), "rerun with CLIMPT_UPDATE_PUBLIC_SURFACE=1 to accept").toEqual(
      checkedIn.split("\n"),
    );
  });

  it("reads named, declared and aliased exports, and refuses export * and default exports", () => {
    const text = [
      'export { a, type B, c as d } from "./x.ts";',
      'export type { E } from "./y.ts";',
      "export const f = 1, g = 2;",
      "export function h() {}",
      "export interface I {}",
      "const hidden = 1;",
    ].join("\n");
    expect(exportedNames("index.ts", text)).toEqual(["B", "E", "I", "a", "d", "f", "g", "h"]);
    expect(() => exportedNames("index.ts", 'export * from "./x.ts";')).toThrow(/export \*/);
    expect(() => exportedNames("index.ts", "export default 1;")).toThrow(/default export/);
  });
});
