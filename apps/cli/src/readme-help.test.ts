/**
 * The READMEs say what `--help` says: every command has a row in the CLI README's command table,
 * every flag a command's `--help` lists is in that command's flag table (and no other), the exit
 * codes agree, and the root README's package table names every package of the repository.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { CliIo } from "./cli-io.ts";
import { EXIT } from "./exit-codes.ts";
import { COMMANDS, main } from "./main.ts";

const README = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const ROOT_README = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");

/** What `climpt …args` prints (stdout and stderr together): help is all this test needs. */
async function output(args: readonly string[]): Promise<string> {
  const text: string[] = [];
  const io: CliIo = {
    stdout: { write: (chunk) => void text.push(chunk) },
    stderr: { write: (chunk) => void text.push(chunk), isTTY: false },
    env: {},
    cwd: process.cwd(),
  };
  await main(args, io);
  return text.join("");
}

/** The lines of the section under `heading` (up to the next heading of any level). */
function section(markdown: string, heading: string): string[] {
  const lines = markdown.split("\n");
  const start = lines.indexOf(heading);
  if (start === -1) throw new Error(`no section ${heading}`);
  const end = lines.findIndex((line, index) => index > start && line.startsWith("#"));
  return lines.slice(start + 1, end === -1 ? undefined : end);
}

/** The first cell of each row of the markdown tables in `lines` (header and rule left out). */
function firstCells(lines: readonly string[]): string[] {
  return lines
    .filter((line) => line.startsWith("| ") && !line.startsWith("| ---"))
    .map((line) => (line.slice(2).split(" | ")[0] ?? "").trim())
    .slice(1);
}

/** `--name` flags written in `text`; `--no-x` and `--[no-]x` count as `--x`. */
function flagsIn(text: string, known: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  for (const match of text.matchAll(/--(\[no-\])?([a-z][a-z0-9-]*)/g)) {
    const name = match[2] as string;
    found.add(name.startsWith("no-") && known.has(name.slice(3)) ? name.slice(3) : name);
  }
  return found;
}

/** The flags a command's `--help` lists (its "Flags:" block), `--help` itself left out. */
async function helpFlags(command: string): Promise<Set<string>> {
  const help = await output([command, "--help"]);
  const block = help.split("\n\n").find((part) => part.startsWith("Flags:")) ?? "";
  const flags = new Set<string>();
  for (const line of block.split("\n").slice(1)) {
    const label = line.trim().split(/\s{2,}/)[0] ?? "";
    for (const name of flagsIn(label, new Set())) flags.add(name.replace(/^\[no-\]/, ""));
  }
  flags.delete("help");
  return flags;
}

describe("the CLI README and --help", () => {
  it("has a row in the command table for every command `climpt --help` lists", async () => {
    const listed = (await output(["--help"]))
      .split("Commands:\n")[1]
      ?.split("\n\n")[0]
      ?.split("\n")
      .map((line) => line.trim().split(/\s+/)[0]);
    expect(listed).toEqual(COMMANDS.map((command) => command.name));
    const rows = firstCells(section(README, "## Commands"));
    for (const name of listed ?? []) {
      expect(
        rows.some((row) => row.startsWith(`\`climpt ${name} `) || row === `\`climpt ${name}\``),
        `a row for climpt ${name}`,
      ).toBe(true);
    }
  });

  it("lists in `climpt run`'s flag table exactly the flags of `climpt run --help`", async () => {
    const help = await helpFlags("run");
    const documented = flagsIn(
      firstCells(section(README, "### `climpt run` flags")).join(" "),
      help,
    );
    expect([...documented].sort()).toEqual([...help].sort());
  });

  it("lists in the flag table of every other command exactly the flags of its --help", async () => {
    const rows = section(README, "### Flags of the other commands")
      .filter((line) => line.startsWith("| `climpt "))
      .map((line) => line.slice(2).split(" | "));
    const documented = new Map(
      rows.map(([command, flags]) => [command?.replaceAll("`", "").trim(), flags ?? ""]),
    );
    for (const command of COMMANDS) {
      if (command.name === "run") continue;
      const help = await helpFlags(command.name);
      const row = documented.get(`climpt ${command.name}`);
      expect(row, `a row for climpt ${command.name}`).toBeDefined();
      expect([...flagsIn(row ?? "", help)].sort(), `climpt ${command.name}`).toEqual(
        [...help].sort(),
      );
    }
    expect(documented.size).toBe(COMMANDS.length - 1);
  });

  it("documents the exit codes climpt uses, the same in the README, `climpt --help` and the root README", async () => {
    const codes = Object.values(EXIT).sort((a, b) => a - b);
    const table = firstCells(section(README, "## Exit codes")).map(Number);
    expect(table).toEqual(codes);
    const helpLine = (await output(["--help"]))
      .split("\n")
      .find((l) => l.startsWith("Exit codes:"));
    for (const code of codes.filter((c) => c !== EXIT.interrupted)) {
      expect(helpLine, `climpt --help names exit code ${code}`).toContain(`${code} `);
    }
    const climptRow = ROOT_README.split("\n").find((line) => line.startsWith("| [`climpt`]"));
    expect(climptRow).toContain(`exit codes ${codes.join("/")}`);
  });
});

describe("the root README's package table", () => {
  it("names every package of the repository", () => {
    const names = ["packages", "apps"].flatMap((folder) =>
      readdirSync(new URL(`../../../${folder}/`, import.meta.url)).map(
        (dir) =>
          (
            JSON.parse(
              readFileSync(
                new URL(`../../../${folder}/${dir}/package.json`, import.meta.url),
                "utf8",
              ),
            ) as { name: string }
          ).name,
      ),
    );
    const table = firstCells(section(ROOT_README, "## Packages")).join(" ");
    const missing = names.filter((name) => !table.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });
});
