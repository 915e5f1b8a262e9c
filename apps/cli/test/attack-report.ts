import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { TestProject } from "vitest/node";

interface Row {
  readonly family: string;
  readonly attempts: number;
  readonly effects: number;
  readonly lines: readonly string[];
}

function table(rows: readonly Row[]): string {
  const header = ["family", "attempts", "effects"];
  const body = rows.map((row) => [row.family, String(row.attempts), String(row.effects)]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...body.map((cells) => (cells[column] ?? "").length)),
  );
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(" | ")} |`;
  const attempts = rows.reduce((sum, row) => sum + row.attempts, 0);
  const effects = rows.reduce((sum, row) => sum + row.effects, 0);
  return [
    line(header),
    `|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`,
    ...body.map(line),
    line(["total", String(attempts), String(effects)]),
  ].join("\n");
}

/**
 * The attack suite's report (src/e2e/attacks): each family writes its row (attempts, and how many
 * of them had an effect) into a folder this setup provides; with `CLIMPT_ATTACK_REPORT=1` the
 * teardown prints them as one table, and every effect found under it.
 */
export function setup(project: TestProject): () => void {
  const dir = mkdtempSync(path.join(tmpdir(), "climpt-attack-report-"));
  project.provide("attackReportDir", dir);
  return () => {
    try {
      if (process.env.CLIMPT_ATTACK_REPORT === "1") {
        const rows = readdirSync(dir)
          .filter((name) => name.endsWith(".json"))
          .map((name) => JSON.parse(readFileSync(path.join(dir, name), "utf8")) as Row)
          .sort((a, b) => a.family.localeCompare(b.family));
        if (rows.length > 0) {
          const details = rows.flatMap((row) =>
            row.lines.length === 0 ? [] : [`\n${row.family}:`, ...row.lines.map((l) => `  ${l}`)],
          );
          process.stdout.write(
            `\nclimpt attack suite: attempts and effects per family (0 effects = the boundary held)\n\n${table(rows)}\n${details.join("\n")}\n`,
          );
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}
