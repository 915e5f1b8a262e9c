/**
 * Whether each package entry's exports are documented: every name an entry exports (the public
 * surface, read by `publicEntries`) must appear in the API section of its package's README, so
 * a user reading the README finds every name the package offers and a new export comes with its
 * line.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { publicEntries } from "./public-surface.ts";

/**
 * A README's API section: from its `## API` heading (any text may follow `API` on the line) up
 * to the next second-level heading, subsections included; "" when there is none.
 */
export function apiSection(readme: string): string {
  const heading = /^## API\b.*$/m.exec(readme);
  if (heading === null) return "";
  const rest = readme.slice(heading.index + heading[0].length);
  const next = /^## /m.exec(rest);
  return heading[0] + (next === null ? rest : rest.slice(0, next.index));
}

/** Whether `name` occurs in `text` as a whole identifier (not as part of a longer one). */
export function mentions(text: string, name: string): boolean {
  const escaped = name.replace(/[$]/g, "\\$");
  return new RegExp(`(?<![A-Za-z0-9_$])${escaped}(?![A-Za-z0-9_$])`).test(text);
}

/** One entry's exports its README's API section does not name, as `<entry> <name>` lines. */
export async function undocumentedExports(): Promise<string[]> {
  const lines: string[] = [];
  for (const entry of await publicEntries()) {
    const readme = await readFile(path.join(entry.packageDir, "README.md"), "utf8").catch(() => "");
    const section = apiSection(readme);
    for (const name of entry.names) {
      if (!mentions(section, name)) lines.push(`${entry.entry} ${name}`);
    }
  }
  return lines;
}
