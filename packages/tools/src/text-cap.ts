/** Output caps measured in UTF-8 bytes, cut on character boundaries. */

export function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** The first `maxBytes` bytes of a UTF-8 buffer, never splitting a character. */
export function headBytes(buffer: Buffer, maxBytes: number): Buffer {
  if (buffer.length <= maxBytes) return buffer;
  let end = maxBytes;
  while (end > 0 && ((buffer[end] ?? 0) & 0xc0) === 0x80) end--;
  return buffer.subarray(0, end);
}

/** The last `maxBytes` bytes of a UTF-8 buffer, never splitting a character. */
export function tailBytes(buffer: Buffer, maxBytes: number): Buffer {
  if (buffer.length <= maxBytes) return buffer;
  let start = buffer.length - maxBytes;
  while (start < buffer.length && ((buffer[start] ?? 0) & 0xc0) === 0x80) start++;
  return buffer.subarray(start);
}

/**
 * Keeps the start and the end of a long text (the end of a command's output is usually where the
 * error is) and says how much was left out in between.
 */
export function capHeadTail(
  text: string,
  capBytes: number,
): { text: string; omittedBytes: number } {
  const buffer = Buffer.from(text, "utf8");
  if (buffer.length <= capBytes) return { text, omittedBytes: 0 };
  const head = headBytes(buffer, Math.floor(capBytes * 0.4));
  const tail = tailBytes(buffer, capBytes - head.length);
  const omittedBytes = buffer.length - head.length - tail.length;
  return {
    text: `${head.toString("utf8")}\n[… ${omittedBytes} bytes of output omitted …]\n${tail.toString("utf8")}`,
    omittedBytes,
  };
}

/** Cuts a single line that is too long to be useful to the model. */
export function capLine(line: string, maxChars: number): string {
  return line.length <= maxChars
    ? line
    : `${line.slice(0, maxChars)}… [line cut at ${maxChars} characters]`;
}

/** A NUL byte in the first 8 KiB: the same heuristic git and grep use for "binary". */
export function looksBinary(buffer: Buffer): boolean {
  return buffer.subarray(0, 8192).includes(0);
}

/** Drops a UTF-8 sequence cut off at the end of a buffer (a chunk boundary mid-character). */
export function trimIncompleteEnd(buffer: Buffer): Buffer {
  for (let back = 1; back <= Math.min(4, buffer.length); back++) {
    const byte = buffer[buffer.length - back] ?? 0;
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? buffer.subarray(0, buffer.length - back) : buffer;
  }
  return buffer;
}
