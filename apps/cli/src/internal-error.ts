import { collectSecrets, createScrubber } from "@climpt/model";
import { EXIT } from "./exit-codes.ts";

/** The code an internal error carries on stderr (and in `--json` output). */
export const INTERNAL_ERROR_CODE = "CLI-INTERNAL-001";

/**
 * Reports an error that escaped every command — a bug, not a failed run or a bad definition —
 * and returns its exit code, 3. The stack goes to stderr for the report; under `--json` stdout
 * still gets exactly one object, so a script reading it sees the failure. Both pass through the
 * secret scrubber first: an error's message or stack can quote a value read from the environment
 * (an API key in a URL, a token in a command line), and a bug report is often pasted in public.
 */
export function reportInternalError(
  error: unknown,
  streams: {
    readonly stdout: { write(text: string): unknown };
    readonly stderr: { write(text: string): unknown };
  },
  options: {
    readonly json: boolean;
    /** Where the secrets to scrub come from; the process's environment by default. */
    readonly env?: Readonly<Record<string, string | undefined>>;
  },
): number {
  const scrubber = createScrubber(collectSecrets({ env: options.env ?? process.env }));
  const message = scrubber.scrub(error instanceof Error ? error.message : String(error));
  const stack =
    error instanceof Error && error.stack !== undefined ? scrubber.scrub(error.stack) : message;
  streams.stderr.write(
    `${INTERNAL_ERROR_CODE}: climpt hit an internal error (a bug; please report it with the command you ran):\n${stack}\n`,
  );
  if (options.json) {
    const problem = {
      code: INTERNAL_ERROR_CODE,
      severity: "error",
      message: `Internal error: ${message}`,
      hint: "This is a bug in climpt; report it with the command you ran and the stack printed on stderr.",
    };
    const { severity: _severity, ...summary } = problem;
    streams.stdout.write(
      `${JSON.stringify({ ok: false, error: summary, problems: [problem] }, null, 2)}\n`,
    );
  }
  return EXIT.internal;
}
