import type { Readable } from "node:stream";

/** Per stream, by default: enough for any test report a person would read, small for memory. */
export const DEFAULT_OUTPUT_CAP_BYTES: number = 1024 * 1024;

/**
 * Collects one output stream up to a byte cap and keeps draining past it (a stream that is not
 * read would block the command). Past the cap it keeps the first half and the last half and
 * drops the middle: failures tend to be printed first and summaries last, and the extractors
 * need both.
 */
export class CappedOutput {
  readonly #headCap: number;
  readonly #tailCap: number;
  readonly #head: Buffer[] = [];
  #headBytes = 0;
  #tail: Buffer[] = [];
  #tailBytes = 0;
  #totalBytes = 0;

  constructor(capBytes: number) {
    const cap = Math.max(0, Math.floor(capBytes));
    this.#headCap = Math.ceil(cap / 2);
    this.#tailCap = cap - this.#headCap;
  }

  /** Starts reading `stream`; resolves when it ends or fails. */
  attach(stream: Readable | null | undefined): Promise<void> {
    if (!stream) return Promise.resolve();
    return new Promise((resolve) => {
      stream.on("data", (chunk: Buffer | string) => {
        this.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
      });
      stream.once("end", resolve);
      stream.once("close", resolve);
      stream.once("error", () => resolve());
    });
  }

  push(chunk: Buffer): void {
    this.#totalBytes += chunk.length;
    let rest = chunk;
    if (this.#headBytes < this.#headCap) {
      const take = Math.min(this.#headCap - this.#headBytes, rest.length);
      this.#head.push(rest.subarray(0, take));
      this.#headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0 || this.#tailCap === 0) return;
    this.#tail.push(rest);
    this.#tailBytes += rest.length;
    while (this.#tailBytes > this.#tailCap) {
      const first = this.#tail[0] as Buffer;
      const excess = this.#tailBytes - this.#tailCap;
      if (first.length <= excess) {
        this.#tail.shift();
        this.#tailBytes -= first.length;
      } else {
        this.#tail[0] = first.subarray(excess);
        this.#tailBytes -= excess;
      }
    }
  }

  get truncated(): boolean {
    return this.#totalBytes > this.#headBytes + this.#tailBytes;
  }

  get totalBytes(): number {
    return this.#totalBytes;
  }

  /** The kept text; when bytes were dropped, a marker line says how many. */
  text(): string {
    const head = Buffer.concat(this.#head).toString("utf8");
    const tail = Buffer.concat(this.#tail).toString("utf8");
    if (!this.truncated) return head + tail;
    const dropped = this.#totalBytes - this.#headBytes - this.#tailBytes;
    return `${head}\n[… ${dropped} bytes of output omitted …]\n${tail}`;
  }
}
