import { ClimptError, type Problem } from "@climpt/model";
import { checkRelativePath } from "./relative-path.ts";

/**
 * Where prompt files come from. Paths are relative to the source's root, `/`-separated.
 *
 * `read` resolves to `undefined` for a file that does not exist (an expected case: the resolver
 * then tries the next candidate or a fallback template) and throws a `ClimptError` with a
 * `PR-C3L-*` code for a path that would leave the root or a file that exists but cannot be read.
 */
export interface PromptSource {
  read(relativePath: string): Promise<string | undefined>;
  /** How to name the file in messages: the absolute path for a folder on disk. */
  describe(relativePath: string): string;
  /**
   * The names of the files in a folder (`""` is the root), sorted; empty when the folder does
   * not exist. Only for messages ("did you mean f_default.md?"), so a source may leave it out.
   */
  list?(relativeDir: string): Promise<readonly string[]>;
}

/** The `ClimptError` a source throws for a problem, so resolvers can turn it back into data. */
export function problemError(issue: Problem, cause?: unknown): ClimptError {
  return new ClimptError({
    code: issue.code,
    message: issue.message,
    ...(issue.file === undefined ? {} : { file: issue.file }),
    ...(issue.path === undefined ? {} : { path: issue.path }),
    ...(issue.hint === undefined ? {} : { hint: issue.hint }),
    ...(cause === undefined ? {} : { cause }),
  });
}

/** The normalized relative path, or a thrown PR-C3L error for an unsafe one. */
export function safeRelativePath(relativePath: string): string {
  const checked = checkRelativePath(relativePath, { what: "prompt path" });
  if (!checked.ok) throw problemError(checked.issues[0] as Problem);
  return checked.value;
}

export interface MemoryPromptSourceOptions {
  /** Shown by `describe`, e.g. `/virtual/prompts`; default `memory:`. */
  readonly label?: string;
}

/**
 * An in-memory source, for tests and for agents assembled in code. Applies the same lexical
 * path rules as the file system source, so a registry that passes here cannot escape on disk.
 */
export function createMemoryPromptSource(
  files: Readonly<Record<string, string>>,
  options: MemoryPromptSourceOptions = {},
): PromptSource {
  const label = options.label ?? "memory:";
  const byPath = new Map<string, string>();
  for (const [path, text] of Object.entries(files)) byPath.set(safeRelativePath(path), text);
  return {
    async read(relativePath) {
      return byPath.get(safeRelativePath(relativePath));
    },
    async list(relativeDir) {
      const prefix = relativeDir === "" ? "" : `${safeRelativePath(relativeDir)}/`;
      const names = new Set<string>();
      for (const path of byPath.keys()) {
        if (!path.startsWith(prefix)) continue;
        const rest = path.slice(prefix.length);
        if (!rest.includes("/")) names.add(rest);
      }
      return [...names].sort();
    },
    describe(relativePath) {
      return label.endsWith("/") || label.endsWith(":")
        ? `${label}${relativePath}`
        : `${label}/${relativePath}`;
    },
  };
}
