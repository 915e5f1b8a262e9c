/**
 * The root README states what a runner of one's own installs (section "Packages": "… 474 kB
 * installed as published: JavaScript 110 kB, source maps 225 kB, declarations 83 kB, manifests
 * and READMEs 56 kB"). The release test measures the same install; these helpers read the
 * README's figures and say which ones the measurement no longer supports, so the sentence cannot
 * go stale while the test passes.
 */
import { lstat, readdir } from "node:fs/promises";
import path from "node:path";

/** Bytes of an install by kind of file. */
export interface SizeByKind {
  readonly total: number;
  readonly javascript: number;
  readonly maps: number;
  readonly declarations: number;
  readonly other: number;
}

/** Bytes of the files under `dir` by kind: what the README's size figures say. */
export async function sizeByKind(dir: string): Promise<SizeByKind> {
  const size = { javascript: 0, maps: 0, declarations: 0, other: 0, total: 0 };
  const visit = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        await visit(file);
        continue;
      }
      const { size: bytes } = await lstat(file);
      size.total += bytes;
      if (/\.d\.m?ts$/.test(entry.name)) size.declarations += bytes;
      else if (entry.name.endsWith(".map")) size.maps += bytes;
      else if (/\.m?js$/.test(entry.name)) size.javascript += bytes;
      else size.other += bytes;
    }
  };
  await visit(dir);
  return size;
}

/** `1234` bytes → `"1 kB"`, as the README writes a figure (1 kB = 1024 bytes). */
export const kB = (bytes: number): string => `${(bytes / 1024).toFixed(0)} kB`;

const FIGURES =
  /(\d+) kB installed as published: JavaScript (\d+) kB, source maps (\d+) kB, declarations\s+(\d+) kB, manifests and READMEs (\d+) kB/;

/** The README's figures in kB, or undefined when its sentence is not there in this form. */
export function readmeSizeFigures(readme: string): SizeByKind | undefined {
  const match = FIGURES.exec(readme.replace(/\s+/g, " "));
  if (match === null) return undefined;
  const [total, javascript, maps, declarations, other] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  return { total, javascript, maps, declarations, other };
}

/**
 * The README figures (kB) the measurement (bytes) does not support, one line each: a figure
 * more than 10% or 8 kB (whichever is more) away from what was measured. The slack absorbs a
 * small change of a dependency's build; a change that moves a figure further must move the
 * README with it.
 */
export function staleSizeFigures(readme: SizeByKind, measured: SizeByKind): string[] {
  const stale: string[] = [];
  for (const kind of ["total", "javascript", "maps", "declarations", "other"] as const) {
    const measuredKb = measured[kind] / 1024;
    const slack = Math.max(8, measuredKb * 0.1);
    if (Math.abs(readme[kind] - measuredKb) > slack) {
      stale.push(
        `${kind}: the README says ${readme[kind]} kB, the install has ${kB(measured[kind])}`,
      );
    }
  }
  return stale;
}
