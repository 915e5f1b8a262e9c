import { mkdir, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { checkTemplate } from "./check-template.ts";
import { gateTemplate } from "./gate-template.ts";
import type { ScaffoldFile } from "./scaffold-file.ts";

export type ScaffoldDialect = "gate" | "check";

/** Agent names become folder names and `name` in agent.json: lower-case words and dashes. */
export const AGENT_NAME_PATTERN: RegExp = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** `fix-bug` → `Fix Bug`. */
export function titleOf(name: string): string {
  return name
    .split("-")
    .filter((word) => word !== "")
    .map((word) => word[0]?.toUpperCase() + word.slice(1))
    .join(" ");
}

export function scaffoldFiles(name: string, dialect: ScaffoldDialect): ScaffoldFile[] {
  const title = titleOf(name);
  return dialect === "check" ? checkTemplate(name, title) : gateTemplate(name, title);
}

/** Writes the files under `dir` (which must not exist yet: `wx` never overwrites). */
export async function writeScaffold(dir: string, files: readonly ScaffoldFile[]): Promise<void> {
  await mkdir(path.dirname(dir), { recursive: true });
  await mkdir(dir);
  for (const file of files) {
    const target = path.join(dir, file.path);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.content, { flag: "wx" });
  }
}
