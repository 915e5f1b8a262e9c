import { canonicalIntent, type GateIntent } from "@climpt/model";

/**
 * Maps a value a model wrote to one of the seven intents: trimmed, case-insensitive, either an
 * intent itself or an entry of `INTENT_ALIASES` (`done` → `closing`, `continue` → `next`, …).
 * Anything else (other words, numbers, objects) is not an intent: custom intents do not exist.
 */
export function normalizeIntent(raw: unknown): GateIntent | undefined {
  return canonicalIntent(raw);
}
