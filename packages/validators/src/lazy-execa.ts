/**
 * execa (about a hundred modules), imported on first use: loading this package must not load it,
 * so a run reaches its first model request without it and a run that never reaches its
 * completion chain never pays for it.
 */
import { resetStatBuffer } from "@climpt/host-git";

let execaModule: Promise<typeof import("execa")> | undefined;

export function loadExeca(): Promise<typeof import("execa")> {
  if (execaModule === undefined) {
    // In the same tick as the import's resolution (@climpt/host-git's stat-buffer.ts says why).
    resetStatBuffer();
    execaModule = import("execa");
  }
  return execaModule;
}
