import { createInterface } from "node:readline/promises";
import type { CliIo, StopSignal } from "./cli-io.ts";
import { exitAtOnce } from "./exit-at-once.ts";

/** The process as a CliIo. */
export function nodeIo(): CliIo {
  return {
    stdout: { write: (text) => void process.stdout.write(text) },
    stderr: {
      write: (text) => void process.stderr.write(text),
      get isTTY() {
        return process.stderr.isTTY === true;
      },
      get columns() {
        return process.stderr.columns;
      },
    },
    env: process.env,
    cwd: process.cwd(),
    onStopSignal(handler) {
      const onSigint = () => handler("SIGINT" satisfies StopSignal);
      const onSigterm = () => handler("SIGTERM" satisfies StopSignal);
      process.on("SIGINT", onSigint);
      process.on("SIGTERM", onSigterm);
      return () => {
        process.off("SIGINT", onSigint);
        process.off("SIGTERM", onSigterm);
      };
    },
    exitNow: exitAtOnce,
    ...(process.stdin.isTTY === true ? { ask } : {}),
  };
}

/** One question on the terminal (stdin is one): the answer, trimmed. */
async function ask(question: string): Promise<string> {
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await terminal.question(question)).trim();
  } finally {
    terminal.close();
  }
}
