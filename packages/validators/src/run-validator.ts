import { stat } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import {
  collectSecrets,
  createScrubber,
  DEFAULT_VALIDATOR_TIMEOUT_MS,
  isExtractorName,
  type JsonValue,
  type Problem,
  problem,
  type ValidatorDefinition,
} from "@climpt/model";
import { VALIDATOR_CODES } from "./codes.ts";
import { type ExtractionProblem, extractParams } from "./extract-params.ts";
import { loadExeca } from "./lazy-execa.ts";
import { CappedOutput, DEFAULT_OUTPUT_CAP_BYTES } from "./output-capture.ts";
import { renderCommand } from "./render-command.ts";
import { evaluateSuccessBounded } from "./success.ts";

export interface RunValidatorOptions {
  /** The run's working directory; the command runs here. */
  readonly cwd: string;
  /** Values for `${param}` placeholders. */
  readonly params?: Readonly<Record<string, JsonValue | undefined>>;
  /** For validators that declare no `timeoutMs` of their own; else the 5-minute default. */
  readonly timeoutMs?: number;
  /** Added to the inherited environment (see README: model credentials are not inherited). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Stops the command (its whole process group) when aborted. */
  readonly signal?: AbortSignal;
  /** Bytes kept per stream (stdout, stderr); default 1 MiB. */
  readonly outputCapBytes?: number;
  /** Time between SIGTERM and SIGKILL when stopping a process group; default 2 s. */
  readonly killGraceMs?: number;
  /** How long a `matches:` pattern may run on the output; default 10 s (`SR-VALID-110`). */
  readonly patternTimeoutMs?: number;
  /**
   * Replaces secret values in the output before anything sees it (the verdict, the extractors,
   * the result). Default: a scrubber of the secrets in the process environment and `env`.
   */
  readonly scrubber?: { scrub(text: string): string };
}

export interface ValidatorResult {
  readonly id: string;
  /** The command as run, placeholders filled (as written when rendering failed). */
  readonly command: string;
  readonly passed: boolean;
  /** `null` when the command did not run or was killed by a signal. */
  readonly exitCode: number | null;
  readonly signal?: string;
  readonly stdout: string;
  readonly stderr: string;
  /** Some output was dropped because a stream passed `outputCapBytes`. */
  readonly truncated: boolean;
  readonly durationMs: number;
  readonly timedOut: boolean;
  /**
   * Whether a retry of the agent can fix this. `false` when the command cannot run at all
   * (exit 126/127, a permission error, a missing param, an unknown extractor, an abort): the
   * completion chain aborts instead of spending attempts on it.
   */
  readonly recoverable: boolean;
  /** The validator's `failurePattern`; the chain uses it when `passed` is false. */
  readonly failurePattern: string;
  /** Param name → extracted value, from the validator's `extractParams`. */
  readonly extracted: Record<string, JsonValue>;
  readonly error?: Problem;
  /** Extractors that failed; their params are `null` in `extracted`. */
  readonly extractionProblems?: readonly ExtractionProblem[];
}

const DEFAULT_KILL_GRACE_MS = 2000;

// Credentials of the model client have no business in a validator's environment, and a command
// that prints its environment would put them into a retry prompt. A caller can still pass them.
const WITHHELD_ENV = ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"];

// Process groups still running, killed if this process exits first: a validator's children are
// in their own group (detached), so nothing else would stop them.
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

function trackGroup(pid: number): void {
  liveGroups.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => {
      for (const group of liveGroups) killGroup(group, "SIGKILL");
    });
  }
}

function environment(extra: RunValidatorOptions["env"]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !WITHHELD_ENV.includes(key)) env[key] = value;
  }
  for (const [key, value] of Object.entries(extra ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

async function directoryProblem(cwd: string): Promise<string | undefined> {
  try {
    const info = await stat(cwd);
    return info.isDirectory() ? undefined : `${cwd} is not a directory`;
  } catch (error) {
    return `${cwd} cannot be used (${(error as NodeJS.ErrnoException).code ?? "unknown error"})`;
  }
}

/**
 * Runs one command validator: renders `${param}` placeholders, runs `sh -c` in `cwd` in its own
 * process group with a timeout, captures capped output, applies `successWhen`, and extracts the
 * declared params. Never throws for anything the command does; every outcome is a result.
 */
export async function runValidator(
  def: ValidatorDefinition,
  options: RunValidatorOptions,
): Promise<ValidatorResult> {
  const started = performance.now();
  const base = { id: def.id, failurePattern: def.failurePattern };
  const notRun = (command: string, error: Problem): ValidatorResult => ({
    ...base,
    command,
    passed: false,
    exitCode: null,
    stdout: "",
    stderr: "",
    truncated: false,
    durationMs: Math.round(performance.now() - started),
    timedOut: false,
    recoverable: false,
    extracted: {},
    error,
  });

  const unknown = Object.entries(def.extractParams).filter(([, name]) => !isExtractorName(name));
  if (unknown.length > 0) {
    const list = unknown.map(([param, name]) => `${param}: "${name}"`).join(", ");
    return notRun(
      def.command,
      problem(
        VALIDATOR_CODES.unknownExtractor,
        `Validator "${def.id}" names unknown extractors in extractParams (${list}).`,
        { hint: "Use one of the extractor names listed in the @climpt/validators README." },
      ),
    );
  }

  const rendered = renderCommand(def.command, options.params, def.id);
  if (!rendered.ok) {
    const [first] = rendered.errors;
    return notRun(
      def.command,
      problem((first as Problem).code, rendered.errors.map((error) => error.message).join(" "), {
        hint: first?.hint,
      }),
    );
  }
  const command = rendered.command;

  const badCwd = await directoryProblem(options.cwd);
  if (badCwd !== undefined) {
    return notRun(
      command,
      problem(
        VALIDATOR_CODES.spawnFailed,
        `Validator "${def.id}" cannot run: the working directory ${badCwd}.`,
        { hint: "Run validators in the run's existing working directory." },
      ),
    );
  }
  const { execa } = await loadExeca();
  if (options.signal?.aborted) {
    return notRun(
      command,
      problem(VALIDATOR_CODES.aborted, `Validator "${def.id}" was not run: the run was aborted.`),
    );
  }

  // The validator's own timeout is the most specific; the caller's is a run-wide default.
  const timeoutMs = def.timeoutMs ?? options.timeoutMs ?? DEFAULT_VALIDATOR_TIMEOUT_MS;
  const graceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const cap = options.outputCapBytes ?? DEFAULT_OUTPUT_CAP_BYTES;
  const stdout = new CappedOutput(cap);
  const stderr = new CappedOutput(cap);

  const subprocess = execa("sh", ["-c", command], {
    cwd: options.cwd,
    env: environment(options.env),
    extendEnv: false,
    stdin: "ignore",
    buffer: false,
    reject: false,
    // Its own process group, so a timeout can stop the shell and everything it started.
    detached: true,
    cleanup: false,
  });
  const pid = subprocess.pid;
  let timedOut = false;
  let aborted = false;
  const timers: NodeJS.Timeout[] = [];
  // A process that left the group (setsid) can keep the pipes open after everything else is
  // gone; past the grace period the output is taken as complete and the pipes are closed.
  const stopWaitingForOutput = (): void => {
    const deadline = setTimeout(() => {
      subprocess.stdout?.destroy();
      subprocess.stderr?.destroy();
    }, graceMs);
    deadline.unref();
    timers.push(deadline);
  };
  const stopGroup = (): void => {
    if (pid === undefined) return;
    killGroup(pid, "SIGTERM");
    const force = setTimeout(() => {
      killGroup(pid, "SIGKILL");
      stopWaitingForOutput();
    }, graceMs);
    force.unref();
    timers.push(force);
  };
  if (pid !== undefined) {
    trackGroup(pid);
    // Once the shell is gone, whatever it left running in its group (`cmd &`) is stopped too:
    // a validator checks, it does not launch daemons, and a leftover would hold the pipes open.
    subprocess.once("exit", () => {
      killGroup(pid, "SIGKILL");
      stopWaitingForOutput();
    });
  }
  const timer = setTimeout(() => {
    timedOut = true;
    stopGroup();
  }, timeoutMs);
  timers.push(timer);
  const onAbort = (): void => {
    aborted = true;
    stopGroup();
  };
  options.signal?.addEventListener("abort", onAbort, { once: true });

  const [result] = await Promise.all([
    subprocess,
    stdout.attach(subprocess.stdout),
    stderr.attach(subprocess.stderr),
  ]);
  for (const pending of timers) clearTimeout(pending);
  options.signal?.removeEventListener("abort", onAbort);
  if (pid !== undefined) {
    killGroup(pid, "SIGKILL");
    liveGroups.delete(pid);
  }

  const exitCode = typeof result.exitCode === "number" ? result.exitCode : null;
  const signal = typeof result.signal === "string" ? result.signal : undefined;
  // A check's output goes into retry prompts, journals and recordings: no secret may be in it.
  const scrubber =
    options.scrubber ??
    createScrubber(collectSecrets({ env: { ...process.env, ...(options.env ?? {}) } }));
  const stdoutText = scrubber.scrub(stdout.text());
  const stderrText = scrubber.scrub(stderr.text());
  const outputs = {
    stdout: stdoutText,
    stderr: stderrText,
    truncated: stdout.truncated || stderr.truncated,
  };

  if (exitCode === null && signal === undefined) {
    const cause = (result as { cause?: unknown }).cause as NodeJS.ErrnoException | undefined;
    const denied = cause?.code === "EACCES" || cause?.code === "EPERM";
    return {
      ...notRun(
        command,
        problem(
          denied ? VALIDATOR_CODES.notExecutable : VALIDATOR_CODES.spawnFailed,
          `Validator "${def.id}" could not start sh: ${result.shortMessage ?? "unknown error"}.`,
          { hint: "Check that sh is on PATH and the working directory is readable." },
        ),
      ),
      ...outputs,
    };
  }

  const verdict = await evaluateSuccessBounded(
    def.success,
    { stdout: stdoutText, stderr: stderrText, exitCode, timedOut },
    {
      ...(options.patternTimeoutMs === undefined ? {} : { timeoutMs: options.patternTimeoutMs }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    },
  );
  const passed = verdict.ok && verdict.passed && !aborted;
  let error: Problem | undefined;
  let recoverable = true;
  if (!verdict.ok) {
    error = verdict.error;
    recoverable = false;
  } else if (aborted) {
    error = problem(
      VALIDATOR_CODES.aborted,
      `Validator "${def.id}" was stopped: the run was aborted.`,
    );
    recoverable = false;
  } else if (timedOut) {
    error = problem(
      VALIDATOR_CODES.timedOut,
      `Validator "${def.id}" ran longer than ${timeoutMs} ms; its process group was stopped.`,
      { hint: "Make the command faster, or raise the validator's timeoutMs." },
    );
  } else if (!passed && exitCode === 127) {
    error = problem(
      VALIDATOR_CODES.commandNotFound,
      `Validator "${def.id}": command not found (exit 127) running \`${command}\`.`,
      { hint: "Install the tool or fix the command; retrying the agent cannot fix this." },
    );
    recoverable = false;
  } else if (!passed && exitCode === 126) {
    error = problem(
      VALIDATOR_CODES.notExecutable,
      `Validator "${def.id}": the command could not be executed (exit 126, e.g. permission denied) running \`${command}\`.`,
      { hint: "Check the file's execute permission and the command path." },
    );
    recoverable = false;
  }

  const extraction = await extractParams(def.extractParams, {
    stdout: stdoutText,
    stderr: stderrText,
    exitCode,
    cwd: options.cwd,
    command,
    env: environment(options.env),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });

  return {
    ...base,
    command,
    passed,
    exitCode,
    ...(signal === undefined ? {} : { signal }),
    ...outputs,
    durationMs: Math.round(performance.now() - started),
    timedOut,
    recoverable,
    extracted: extraction.values,
    ...(error === undefined ? {} : { error }),
    ...(extraction.problems.length === 0 ? {} : { extractionProblems: extraction.problems }),
  };
}
