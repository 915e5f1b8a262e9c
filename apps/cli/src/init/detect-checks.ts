import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** The three kinds of check the starter's completion chain runs, in the order it runs them. */
export const CHECK_KINDS = ["test", "typecheck", "lint"] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];

/** One command of the repository's own, and where it was found (for the report init prints). */
export interface RepositoryCheck {
  readonly kind: CheckKind;
  readonly command: string;
  /** `package.json scripts.test`, `Makefile target lint`, `pyproject.toml (ruff)`, `--lint-command`. */
  readonly source: string;
}

/** Script names that mean each kind, most usual first. */
const SCRIPT_NAMES: Readonly<Record<CheckKind, readonly string[]>> = {
  test: ["test"],
  typecheck: ["typecheck", "type-check", "check-types", "types", "tsc"],
  lint: ["lint"],
};

/** `npm init`'s placeholder test script fails by design; it is not a test command. */
const NPM_PLACEHOLDER_TEST = /no test specified/;

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** How the repository runs a package.json script: the package manager its lock file names. */
function scriptRunner(root: string, script: string): string {
  if (existsSync(path.join(root, "pnpm-lock.yaml"))) return `pnpm run ${script}`;
  if (existsSync(path.join(root, "yarn.lock"))) return `yarn run ${script}`;
  if (existsSync(path.join(root, "bun.lockb")) || existsSync(path.join(root, "bun.lock")))
    return `bun run ${script}`;
  return `npm run ${script}`;
}

function fromPackageJson(root: string): RepositoryCheck[] {
  const text = readText(path.join(root, "package.json"));
  if (text === undefined) return [];
  let scripts: Record<string, unknown> = {};
  try {
    const manifest = JSON.parse(text) as { scripts?: unknown };
    if (typeof manifest.scripts === "object" && manifest.scripts !== null)
      scripts = manifest.scripts as Record<string, unknown>;
  } catch {
    // A package.json that does not parse names no scripts; the other sources may still.
    return [];
  }
  const found: RepositoryCheck[] = [];
  for (const kind of CHECK_KINDS) {
    const name = SCRIPT_NAMES[kind].find((candidate) => {
      const body = scripts[candidate];
      return typeof body === "string" && body.trim() !== "" && !NPM_PLACEHOLDER_TEST.test(body);
    });
    if (name !== undefined)
      found.push({
        kind,
        command: scriptRunner(root, name),
        source: `package.json scripts.${name}`,
      });
  }
  return found;
}

/** Targets a Makefile defines (`name:` at the start of a line, not a variable assignment). */
function makeTargets(text: string): Set<string> {
  const targets = new Set<string>();
  for (const line of text.split("\n")) {
    const match = /^([A-Za-z0-9_.-]+)\s*:(?!=)/.exec(line);
    if (match?.[1] !== undefined) targets.add(match[1]);
  }
  return targets;
}

function fromMakefile(root: string): RepositoryCheck[] {
  const name = ["GNUmakefile", "Makefile", "makefile"].find((file) =>
    existsSync(path.join(root, file)),
  );
  if (name === undefined) return [];
  const targets = makeTargets(readText(path.join(root, name)) ?? "");
  const found: RepositoryCheck[] = [];
  for (const kind of CHECK_KINDS) {
    const target = SCRIPT_NAMES[kind].find((candidate) => targets.has(candidate));
    if (target !== undefined)
      found.push({ kind, command: `make ${target}`, source: `${name} target ${target}` });
  }
  return found;
}

/**
 * pyproject.toml: a tool counts when the file configures it (`[tool.pytest…]`, `[tool.mypy]`,
 * `[tool.ruff…]`) or lists it as a dependency. No TOML parser: a section header or a quoted
 * requirement is all we look for.
 */
function fromPyproject(root: string): RepositoryCheck[] {
  const text = readText(path.join(root, "pyproject.toml"));
  if (text === undefined) return [];
  const uses = (tool: string): boolean =>
    new RegExp(`^\\[tool\\.${tool}[\\].]`, "m").test(text) ||
    new RegExp(`["']${tool}\\b`).test(text);
  const found: RepositoryCheck[] = [];
  if (uses("pytest"))
    found.push({ kind: "test", command: "pytest", source: "pyproject.toml (pytest)" });
  if (uses("mypy"))
    found.push({ kind: "typecheck", command: "mypy .", source: "pyproject.toml (mypy)" });
  if (uses("ruff"))
    found.push({ kind: "lint", command: "ruff check .", source: "pyproject.toml (ruff)" });
  return found;
}

/**
 * The repository's own test, type-check and lint commands: package.json scripts first, then a
 * Makefile's targets, then pyproject.toml's tools; the first source that has a kind wins, and a
 * command given on the command line wins over all of them.
 */
export function detectChecks(
  root: string,
  given: Partial<Record<CheckKind, string>> = {},
): RepositoryCheck[] {
  const detected = [...fromPackageJson(root), ...fromMakefile(root), ...fromPyproject(root)];
  const checks: RepositoryCheck[] = [];
  for (const kind of CHECK_KINDS) {
    const flag = given[kind];
    if (flag !== undefined && flag.trim() !== "") {
      checks.push({ kind, command: flag.trim(), source: `--${kind}-command` });
      continue;
    }
    const found = detected.find((check) => check.kind === kind);
    if (found !== undefined) checks.push(found);
  }
  return checks;
}
