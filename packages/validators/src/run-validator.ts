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
import type { ValidatorBaseline } from "./baseline/validator-baseline.ts";
import { VALIDATOR_CODES } from "./codes.ts";
import {
  type CommandLaunch,
  type CommandLauncher,
  hostEnvironment,
  hostLauncher,
} from "./command-launcher.ts";
import { type ExtractionProblem, extractParams } from "./extract-params.ts";
import { loadExeca } from "./lazy-execa.ts";
import { CappedOutput, DEFAULT_OUTPUT_CAP_BYTES } from "./output-capture.ts";
import { renderCommand } from "./render-command.ts";
import { runInGroup } from "./run-in-group.ts";
import { evaluateSuccessBounded } from "./success.ts";

export interface RunValidatorOptions {
  /** The run's working directory; the command runs here. */
  readonly cwd: string;
  /** Values for `${param}` placeholders. */
  readonly params?: Readonly<Record<string, JsonValue | undefined>>;
  /** For validators that declare no `timeoutMs` of their own; else the 5-minute default. */
  readonly timeoutMs?: number;
  /**
   * Added to the inherited environment of the default host launcher and of the extractors (see
   * README: model credentials are not inherited). A `launch` builds its own environment.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Where the command runs (see `CommandLauncher`). Default: `sh -c` on the host with the
   * inherited environment. The runner passes the OS sandbox.
   */
  readonly launch?: CommandLauncher;
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
  /**
   * A failure compared with the merge base (`compareWithBaseline`): set on failed results the
   * completion chain checked. `passed: true` with a failing exit code means every failure was
   * already there on the base (`baseline.preExisting`).
   */
  readonly baseline?: ValidatorBaseline;
}

const DEFAULT_KILL_GRACE_MS = 2000;

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
  if (!rendered.ok) return notRun(def.command, rendered.error);
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

  let launch: CommandLaunch;
  try {
    launch = await (options.launch ?? hostLauncher(options.env))(command, {
      cwd: options.cwd,
      declaredEnv: def.env ?? [],
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } catch (error) {
    return notRun(
      command,
      problem(
        VALIDATOR_CODES.launchFailed,
        `Validator "${def.id}" cannot run: ${(error as Error).message}`,
        {
          hint:
            (error as { hint?: unknown }).hint === undefined
              ? "Check what the message names; retrying the agent cannot fix it."
              : String((error as { hint?: unknown }).hint),
        },
      ),
    );
  }

  const { result, timedOut, aborted } = await runInGroup(execa, launch, {
    cwd: options.cwd,
    timeoutMs,
    graceMs,
    stdout,
    stderr,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });

  const exitCode = typeof result.exitCode === "number" ? result.exitCode : null;
  const signal = typeof result.signal === "string" ? result.signal : undefined;
  // A check's output goes into retry prompts, journals and recordings: no secret may be in it.
  const scrubber =
    options.scrubber ??
    createScrubber(
      collectSecrets({
        env: { ...process.env, ...(options.env ?? {}) },
        // What the validator declares it needs is a secret whatever its name.
        secretEnvNames: def.env ?? [],
      }),
    );
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
    env: hostEnvironment(options.env),
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
