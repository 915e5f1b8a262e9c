import { EXIT } from "./exit-codes.ts";

/** The code an internal error carries on stderr (and in `--json` output). */
export const INTERNAL_ERROR_CODE = "CLI-INTERNAL-001";

/**
 * Reports an error that escaped every command — a bug, not a failed run or a bad definition —
 * and returns its exit code, 3. The stack goes to stderr for the report; under `--json` stdout
 * still gets exactly one object, so a script reading it sees the failure.
 */
export function reportInternalError(
  error: unknown,
  streams: {
    readonly stdout: { write(text: string): unknown };
    readonly stderr: { write(text: string): unknown };
  },
  options: { readonly json: boolean },
): number {
  const message = error instanceof Error ? error.message : String(error);
  streams.stderr.write(
    `${INTERNAL_ERROR_CODE}: climpt hit an internal error (a bug; please report it with the command you ran):\n${error instanceof Error ? (error.stack ?? message) : message}\n`,
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
