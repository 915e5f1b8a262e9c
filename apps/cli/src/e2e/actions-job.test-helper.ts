/**
 * Runs the `run:` steps of a GitHub Actions job the way a runner would, for the tests of the
 * workflow `climpt init --workflow` writes: the YAML read with a real parser, each `run:` written
 * to a file and run with `bash --noprofile --norc -eo pipefail` (GitHub's `bash` shell) in the
 * workspace, with the workflow's, job's and step's `env` (their `${{ }}` expressions evaluated
 * against a context the test gives), `GITHUB_OUTPUT` read back into `steps.<id>.outputs`, and
 * `if:` honoured. Only the expression forms the workflow uses are understood; any other is an
 * error, so a new one must be taught here on purpose.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "yaml";

export interface JobStep {
  readonly name?: string;
  readonly id?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly if?: string;
  readonly env?: Record<string, string>;
  readonly with?: Record<string, unknown>;
}

export interface WorkflowFile {
  readonly on: Record<string, unknown>;
  readonly permissions: unknown;
  readonly concurrency: { group: string; "cancel-in-progress": boolean };
  readonly env?: Record<string, string>;
  readonly jobs: Record<
    string,
    {
      readonly if?: string;
      readonly permissions: Record<string, string>;
      readonly env?: Record<string, string>;
      readonly steps: JobStep[];
    }
  >;
}

export function parseWorkflowYaml(text: string): WorkflowFile {
  return parse(text) as WorkflowFile;
}

/** What `${{ }}` expressions may read: `github.*`, `inputs.*`, `secrets.*`, `env.*`, `steps.*`. */
export type ExpressionContext = Record<string, unknown>;

function lookup(context: ExpressionContext, dotted: string): unknown {
  let value: unknown = context;
  for (const key of dotted.split(".")) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function operand(context: ExpressionContext, text: string): unknown {
  const term = text.trim();
  const quoted = /^'([^']*)'$/.exec(term);
  if (quoted !== null) return quoted[1];
  if (/^[a-z_]+(\.[A-Za-z0-9_-]+)+$/.test(term)) return lookup(context, term);
  throw new Error(`expression form not understood by the test runner: ${term}`);
}

/** One expression: `a || b || 'c'`, `a != ''`, `startsWith(a, 'b')`, `always()`. */
export function evaluate(context: ExpressionContext, expression: string): unknown {
  const text = expression.trim();
  if (text === "always()") return true;
  const ors = text.split("||");
  if (ors.length > 1) {
    for (const part of ors) {
      const value = evaluateSimple(context, part);
      if (value !== undefined && value !== null && value !== "" && value !== false) return value;
    }
    return evaluateSimple(context, ors.at(-1) as string) ?? "";
  }
  return evaluateSimple(context, text);
}

function evaluateSimple(context: ExpressionContext, text: string): unknown {
  const comparison = /^(.+?)\s*(!=|==)\s*(.+)$/.exec(text.trim());
  if (comparison !== null) {
    const left = String(operand(context, comparison[1] as string) ?? "");
    const right = String(operand(context, comparison[3] as string) ?? "");
    return comparison[2] === "==" ? left === right : left !== right;
  }
  const starts = /^startsWith\((.+),\s*(.+)\)$/.exec(text.trim());
  if (starts !== null) {
    return String(operand(context, starts[1] as string) ?? "").startsWith(
      String(operand(context, starts[2] as string)),
    );
  }
  return operand(context, text);
}

/** A string with its `${{ }}` expressions replaced by their values. */
export function interpolate(context: ExpressionContext, text: string): string {
  return text.replace(/\$\{\{(.+?)\}\}/g, (_whole, expression: string) => {
    const value = evaluate(context, expression);
    return value === undefined || value === null ? "" : String(value);
  });
}

/** A job-level or step-level `if:` (GitHub allows it without `${{ }}`). */
export function condition(context: ExpressionContext, text: string | undefined): boolean {
  if (text === undefined) return true;
  const bare = text.trim().replace(/^\$\{\{(.+)\}\}$/, "$1");
  // `a != 'x' || startsWith(…)`: the forms joined by || are evaluated one by one.
  return bare.split("||").some((part) => evaluate(context, part) === true);
}

export interface StepResult {
  readonly name: string;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs one `run:` step in `cwd` with `baseEnv` plus the evaluated `env` maps; its GITHUB_OUTPUT
 * lines become `context.steps[id].outputs`. `onSpawn` gets the shell (a test may kill it).
 */
export function runStep(
  step: JobStep,
  envs: readonly (Record<string, string> | undefined)[],
  options: {
    readonly cwd: string;
    readonly baseEnv: NodeJS.ProcessEnv;
    readonly context: ExpressionContext;
    readonly onSpawn?: (pid: number) => void;
  },
): Promise<StepResult> {
  const scratch = mkdtempSync(path.join(tmpdir(), "climpt-actions-step-"));
  const script = path.join(scratch, "step.sh");
  const output = path.join(scratch, "output");
  writeFileSync(script, step.run ?? "");
  writeFileSync(output, "");
  const env: NodeJS.ProcessEnv = { ...options.baseEnv, GITHUB_OUTPUT: output };
  for (const map of envs) {
    for (const [key, value] of Object.entries(map ?? {}))
      env[key] = interpolate(options.context, String(value));
  }
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
      cwd: options.cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    child.on("close", (code, signal) => {
      const outputs: Record<string, string> = {};
      for (const line of readFileSync(output, "utf8").split("\n")) {
        const at = line.indexOf("=");
        if (at > 0) outputs[line.slice(0, at)] = line.slice(at + 1);
      }
      if (step.id !== undefined) {
        const steps = (options.context.steps ?? {}) as Record<string, unknown>;
        steps[step.id] = { outputs };
        options.context.steps = steps;
      }
      rmSync(scratch, { recursive: true, force: true });
      resolve({ name: step.name ?? step.run ?? "", code, signal, stdout, stderr });
    });
  });
}
