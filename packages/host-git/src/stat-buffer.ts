/**
 * A workaround for a Node 20 and 22 bug that breaks lazy imports in a pnpm layout.
 *
 * Node keeps one buffer per thread that every synchronous stat (`statSync`, `lstatSync`,
 * `fstatSync`) and every callback stat writes its result into. The ESM resolver finds a module's
 * real path with the JavaScript `fs.realpathSync`, which, for a path component it has already
 * seen to be a plain folder, reads that shared buffer instead of the component's own stat: when
 * the last stat in the thread was of a FIFO or a socket, it stops there and returns the path with
 * its symbolic links unresolved, and keeps that answer for the rest of the process. A package
 * imported at that moment is loaded through its `node_modules` symlink instead of its real
 * folder, and a dependency of it that pnpm placed beside the real folder cannot be found:
 * `Cannot find package 'is-plain-obj' imported from …/node_modules/execa/lib/methods/create.js`.
 * A run stats FIFOs often (the git and gh brokers answer sandboxed commands through them), and
 * loads execa, the sandbox runtime and the MCP client on first use. Node 24 resolves modules
 * without that path. It lives here because every package that runs commands on the host depends
 * on this one; @climpt/model must stay pure.
 *
 * Stat'ing the root folder leaves the buffer describing a folder. Call it right before a lazy
 * `import()` (its resolution runs in the same tick) and right after a stat of a file that may be
 * a FIFO or a socket. Promise-based stats (`fs.promises`) do not use the buffer.
 */
import { statSync } from "node:fs";

export function resetStatBuffer(): void {
  statSync("/");
}
