// Test helper (not exported from the package): reads the captured tool outputs in ./fixtures.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export interface Fixture {
  readonly name: string;
  readonly tool: string;
  readonly version: string;
  readonly command: string;
  readonly exitCode: number;
  readonly synthetic: boolean;
  readonly stdout: string;
  readonly stderr: string;
}

const FIXTURES_DIR = fileURLToPath(new URL("./fixtures/", import.meta.url));

/** Where the capture script's temporary projects appear in the fixtures. */
export const FIXTURE_ROOT = "/tmp/climpt-fixture";

export function fixtureNames(): string[] {
  return readdirSync(FIXTURES_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

export function loadFixture(name: string): Fixture {
  const dir = `${FIXTURES_DIR}${name}/`;
  const meta = JSON.parse(readFileSync(`${dir}meta.json`, "utf8")) as Omit<
    Fixture,
    "name" | "stdout" | "stderr"
  >;
  return {
    name,
    ...meta,
    stdout: readFileSync(`${dir}stdout.txt`, "utf8"),
    stderr: readFileSync(`${dir}stderr.txt`, "utf8"),
  };
}
