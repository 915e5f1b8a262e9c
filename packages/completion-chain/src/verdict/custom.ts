import { realpath, stat } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { ClimptError, type VerdictSpec } from "@climpt/model";
import { COMPLETION_CODES } from "../codes.ts";
import type { VerdictDeps, VerdictStrategy } from "./types.ts";

/** What a `meta:custom` module exports. */
export type CreateVerdict = (
  spec: VerdictSpec,
  deps: VerdictDeps,
) => VerdictStrategy | Promise<VerdictStrategy>;

const REQUIRED_METHODS = ["observe", "afterIteration", "decide", "uvVariables"] as const;

/**
 * `meta:custom` (`custom`): loads `config.handlerPath`, a module inside the agent folder, and
 * calls its exported `createVerdict(spec, deps)`, which returns a `VerdictStrategy`. The path
 * must be relative and stay inside the agent folder after symlinks are resolved; the module is
 * loaded with a dynamic `import()` of its file URL, so it must be JavaScript Node can import
 * (`.mjs`, or `.js` in a `type: module` package).
 */
export async function loadCustomVerdict(
  spec: VerdictSpec,
  deps: VerdictDeps,
): Promise<VerdictStrategy> {
  const handlerPath = spec.config.handlerPath;
  const fail = (message: string, hint: string, cause?: unknown): ClimptError =>
    new ClimptError({
      code: COMPLETION_CODES.verdictCustomHandler,
      message,
      path: "$.runner.verdict.config.handlerPath",
      hint,
      ...(cause === undefined ? {} : { cause }),
    });
  if (typeof handlerPath !== "string" || handlerPath.trim() === "") {
    // A missing setting, not a broken module: the loader reports the same mistake with this code.
    throw new ClimptError({
      code: COMPLETION_CODES.verdictConfig,
      message: `Verdict "${spec.declaredType}" needs config.handlerPath, the module that exports createVerdict.`,
      path: "$.runner.verdict.config.handlerPath",
      hint: 'Set "config": { "handlerPath": "verdicts/my-verdict.mjs" } (relative to the agent folder).',
    });
  }
  if (isAbsolute(handlerPath) || handlerPath.includes("\0") || handlerPath.includes("\\")) {
    throw fail(
      `config.handlerPath "${handlerPath}" must be a relative path inside the agent folder.`,
      "Move the module into the agent folder and give its path relative to it.",
    );
  }

  const agentRoot = await realpath(deps.agentDir);
  const candidate = resolve(agentRoot, handlerPath);
  if (!inside(agentRoot, candidate)) {
    throw fail(
      `config.handlerPath "${handlerPath}" leaves the agent folder ${deps.agentDir}.`,
      "Custom verdict modules must live inside the agent folder.",
    );
  }
  let real: string;
  try {
    real = await realpath(candidate);
    if (!(await stat(real)).isFile()) throw new Error("not a file");
  } catch (error) {
    throw fail(
      `config.handlerPath "${handlerPath}" does not name a file in ${deps.agentDir}.`,
      "Check the path; it is relative to the agent folder.",
      error,
    );
  }
  if (!inside(agentRoot, real)) {
    throw fail(
      `config.handlerPath "${handlerPath}" is a link that leads outside the agent folder (${real}).`,
      "Copy the module into the agent folder instead of linking it.",
    );
  }

  let loaded: { createVerdict?: unknown };
  try {
    loaded = (await import(pathToFileURL(real).href)) as { createVerdict?: unknown };
  } catch (error) {
    throw fail(
      `The custom verdict module ${real} could not be loaded: ${error instanceof Error ? error.message : String(error)}.`,
      "Fix the module so Node can import it (an ES module exporting createVerdict).",
      error,
    );
  }
  if (typeof loaded.createVerdict !== "function") {
    throw fail(
      `The custom verdict module ${real} does not export a function createVerdict.`,
      "Add `export function createVerdict(spec, deps) { return { observe, afterIteration, decide, uvVariables } }`.",
    );
  }
  const strategy = (await (loaded.createVerdict as CreateVerdict)(spec, deps)) as unknown;
  const missing =
    typeof strategy === "object" && strategy !== null
      ? REQUIRED_METHODS.filter(
          (name) => typeof (strategy as Record<string, unknown>)[name] !== "function",
        )
      : [...REQUIRED_METHODS];
  if (missing.length > 0) {
    throw fail(
      `createVerdict in ${real} returned an object without ${missing.join(", ")}.`,
      "Return an object implementing the VerdictStrategy interface (see the @climpt/completion-chain README).",
    );
  }
  const custom = strategy as VerdictStrategy;
  // `type` is optional for custom modules; the chain and journal still want a name.
  if (typeof custom.type === "string") return custom;
  const confirm = custom.confirmAfterBoundary?.bind(custom);
  return {
    type: "meta:custom",
    observe: (record) => custom.observe(record),
    afterIteration: (ctx) => custom.afterIteration(ctx),
    decide: (ctx) => custom.decide(ctx),
    uvVariables: (ctx) => custom.uvVariables(ctx),
    ...(confirm === undefined ? {} : { confirmAfterBoundary: confirm }),
  };
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
}
