import { closeSync, constants, fstatSync, openSync, readSync, statSync } from "node:fs";
import { parseJournalLines } from "./journal-lines.ts";

/**
 * Follows one journal as the runner appends to it: each `poll` reads only the bytes added since
 * the last one and returns the events of the lines completed since. A line the runner is still
 * writing waits for its newline. A journal that shrank (replaced) is read again from the start.
 */
export class JournalTail {
  private offset = 0;
  private partial: Buffer = Buffer.alloc(0);
  private lineNumber = 1;
  readonly skippedLines: number[] = [];
  readonly refusedLines: number[] = [];

  constructor(readonly path: string) {}

  /** New events, `reset: true` when the file was replaced and everything before must be dropped. */
  poll(): { readonly events: unknown[]; readonly reset: boolean } {
    let size: number;
    try {
      size = statSync(this.path).size;
    } catch {
      return { events: [], reset: false };
    }
    let reset = false;
    if (size < this.offset) {
      this.offset = 0;
      this.partial = Buffer.alloc(0);
      this.lineNumber = 1;
      this.skippedLines.length = 0;
      this.refusedLines.length = 0;
      reset = true;
    }
    if (size === this.offset) return { events: [], reset };
    const chunk = Buffer.alloc(size - this.offset);
    let fd: number;
    try {
      // Without blocking: a FIFO swapped in since the stat opens at once and is refused.
      fd = openSync(this.path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
      if (!fstatSync(fd).isFile()) {
        closeSync(fd);
        return { events: [], reset };
      }
    } catch {
      return { events: [], reset };
    }
    let read = 0;
    try {
      while (read < chunk.length) {
        const got = readSync(fd, chunk, read, chunk.length - read, this.offset + read);
        if (got === 0) break;
        read += got;
      }
    } finally {
      closeSync(fd);
    }
    this.offset += read;
    const data = Buffer.concat([this.partial, chunk.subarray(0, read)]);
    // Newline bytes never occur inside a multi-byte UTF-8 character: cutting there is safe.
    const lastNewline = data.lastIndexOf(0x0a);
    if (lastNewline === -1) {
      this.partial = data;
      return { events: [], reset };
    }
    this.partial = data.subarray(lastNewline + 1);
    const text = data.subarray(0, lastNewline).toString("utf8");
    const parsed = parseJournalLines(text, this.lineNumber);
    this.lineNumber += text.split("\n").length;
    this.skippedLines.push(...parsed.skippedLines);
    this.refusedLines.push(...parsed.refusedLines);
    return { events: parsed.events, reset };
  }
}
