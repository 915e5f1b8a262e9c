import { createHash } from "node:crypto";
import { isRecord } from "@climpt/model";

/**
 * A deterministic stand-in for the tokenizer: one token per four bytes of JSON, at least one.
 * Real counts differ; what matters for tests and benchmarks is that the same input always counts
 * the same and that longer input counts more.
 */
export function pseudoTokens(bytes: number): number {
  return bytes === 0 ? 0 : Math.max(1, Math.ceil(bytes / 4));
}

export interface PromptAccounting {
  readonly inputTokens: number;
  readonly cacheCreationInputTokens: number;
  readonly cacheReadInputTokens: number;
}

interface Segment {
  readonly bytes: number;
  readonly hash: string;
  readonly breakpoint: boolean;
}

/** The segment without its cache_control marker: moving a breakpoint must not change the prefix. */
function withoutCacheControl(value: unknown): unknown {
  if (!isRecord(value)) return value;
  const { cache_control: _ignored, ...rest } = value;
  return rest;
}

function hasCacheControl(value: unknown): boolean {
  return isRecord(value) && isRecord(value.cache_control);
}

/**
 * The prompt in the order the API caches it (tools, then system, then messages), one segment per
 * tool, system block and message content block. Each segment's hash covers everything before it,
 * so equal hashes mean equal prefixes.
 */
function segmentsOf(body: Record<string, unknown>): Segment[] {
  const parts: unknown[] = [];
  if (Array.isArray(body.tools)) parts.push(...body.tools);
  if (typeof body.system === "string") parts.push({ type: "text", text: body.system });
  else if (Array.isArray(body.system)) parts.push(...body.system);
  if (Array.isArray(body.messages)) {
    for (const message of body.messages) {
      if (!isRecord(message)) continue;
      const role = String(message.role);
      if (typeof message.content === "string") {
        parts.push({ role, type: "text", text: message.content });
      } else if (Array.isArray(message.content)) {
        message.content.forEach((block, index) => {
          // The role rides on the first block only, so a message boundary changes the prefix.
          parts.push(index === 0 && isRecord(block) ? { role, ...block } : block);
        });
      }
    }
  }
  const segments: Segment[] = [];
  let running = createHash("sha256").update(String(body.model)).digest("hex");
  for (const part of parts) {
    const json = JSON.stringify(withoutCacheControl(part)) ?? "null";
    running = createHash("sha256").update(running).update(json).digest("hex");
    segments.push({
      bytes: Buffer.byteLength(json),
      hash: running,
      breakpoint: hasCacheControl(part),
    });
  }
  return segments;
}

/**
 * Prompt-cache bookkeeping shared by every request one fake server receives. A request's
 * `cache_control` breakpoints write their prefixes; a later request whose prompt starts with a
 * written prefix reads it. Like the real API, the lookup also finds a prefix that ended at a block
 * which carries no breakpoint in this request (the API looks back from each breakpoint).
 */
export class PromptCache {
  readonly #written = new Set<string>();
  readonly #minCacheableTokens: number;

  constructor(options: { readonly minCacheableTokens?: number } = {}) {
    this.#minCacheableTokens = options.minCacheableTokens ?? 0;
  }

  /** Count the request's prompt, without touching the cache (count_tokens). */
  count(body: Record<string, unknown>): number {
    return pseudoTokens(segmentsOf(body).reduce((sum, segment) => sum + segment.bytes, 0));
  }

  /** Account one request: what it read from the cache, what it wrote, what it paid in full. */
  account(body: Record<string, unknown>): PromptAccounting {
    const segments = segmentsOf(body);
    const prefixBytes: number[] = [];
    let total = 0;
    for (const segment of segments) {
      total += segment.bytes;
      prefixBytes.push(total);
    }
    const totalTokens = pseudoTokens(total);
    const lastBreakpoint = segments.findLastIndex((segment) => segment.breakpoint);
    if (lastBreakpoint < 0) {
      return { inputTokens: totalTokens, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 };
    }
    let readTokens = 0;
    for (let index = lastBreakpoint; index >= 0; index--) {
      const segment = segments[index];
      if (segment !== undefined && this.#written.has(segment.hash)) {
        readTokens = pseudoTokens(prefixBytes[index] ?? 0);
        break;
      }
    }
    const cachedTokens = pseudoTokens(prefixBytes[lastBreakpoint] ?? 0);
    if (cachedTokens < this.#minCacheableTokens) {
      return { inputTokens: totalTokens, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 };
    }
    for (const segment of segments) {
      if (segment.breakpoint) this.#written.add(segment.hash);
    }
    const creationTokens = Math.max(0, cachedTokens - readTokens);
    return {
      inputTokens: Math.max(0, totalTokens - readTokens - creationTokens),
      cacheCreationInputTokens: creationTokens,
      cacheReadInputTokens: readTokens,
    };
  }

  clear(): void {
    this.#written.clear();
  }
}
