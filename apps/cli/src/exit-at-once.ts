import { EXIT } from "./exit-codes.ts";

/**
 * Ends the process now, whatever it is waiting for (a second Ctrl-C). Not `process.exit`: its
 * cleanup joins libuv's thread pool, and a pool thread stuck in a blocking system call — an
 * `open()` of a FIFO nobody reads, a read from a device — holds the process forever after
 * printing that it exits. A signal with its default action ends the process in the kernel:
 * SIGINT for the interrupted code (a shell then reports 130, as for any Ctrl-C), SIGKILL for
 * any other code.
 */
export function exitAtOnce(code: number): void {
  const signal = code === EXIT.interrupted ? "SIGINT" : "SIGKILL";
  // With no listener left, Node restores the default action (terminate) for the signal.
  process.removeAllListeners("SIGINT");
  process.removeAllListeners("SIGTERM");
  process.kill(process.pid, signal);
  // Should the default action have been replaced elsewhere (a parent's SIG_IGN is inherited).
  process.kill(process.pid, "SIGKILL");
}
