import { modelId } from "./models.ts";
import type { Usage } from "./types.ts";

/** USD per million tokens. `cacheWrite` is the 5-minute write, the TTL climpt's breakpoints use. */
export interface TokenPrices {
  readonly input: number;
  readonly output: number;
  readonly cacheWrite: number;
  readonly cacheRead: number;
}

export interface ModelPrice extends TokenPrices {
  /**
   * A higher tier for long prompts: when one call's prompt (input + cache reads + cache writes)
   * is over `thresholdTokens`, every token of that call is priced at these rates.
   */
  readonly longPrompt?: TokenPrices & { readonly thresholdTokens: number };
}

/** Model id → price. Config overrides merge over the defaults, model by model. */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * List prices of the Claude API, per MTok, from the model overview pages on platform.claude.com
 * (models/opus-5-5, sonnet-5-5, haiku-5-5, opus-5, sonnet-5), read 2026-11-22. Sonnet 5.5's cache
 * read is $0.10: its overview page still said $0.20, but the price list was cut on 2026-10-07.
 */
export const DEFAULT_PRICES: PriceTable = Object.freeze({
  "claude-opus-5-5": { input: 4, output: 20, cacheWrite: 5, cacheRead: 0.2 },
  "claude-sonnet-5-5": { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.1 },
  "claude-haiku-5-5": {
    input: 0.1,
    output: 0.5,
    cacheWrite: 0.125,
    cacheRead: 0.01,
    longPrompt: {
      thresholdTokens: 100_000,
      input: 0.5,
      output: 2.5,
      cacheWrite: 0.625,
      cacheRead: 0.05,
    },
  },
  "claude-opus-5": { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 },
  "claude-sonnet-5": { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.2 },
  "claude-haiku-4-5": { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 },
});

/** The defaults with `overrides` on top (an override replaces a model's whole entry). */
export function mergePrices(overrides: PriceTable = {}): PriceTable {
  return { ...DEFAULT_PRICES, ...overrides };
}

/** A dated snapshot id (`claude-haiku-4-5-20251001`) is priced as its family id. */
export function priceFor(
  model: string,
  prices: PriceTable = DEFAULT_PRICES,
): ModelPrice | undefined {
  const id = modelId(model);
  return prices[id] ?? prices[id.replace(/-\d{8}$/, "")];
}

/** The cost of one call's usage in USD, or undefined when the model has no price. */
export function costOf(
  usage: Usage,
  model: string,
  prices: PriceTable = DEFAULT_PRICES,
): number | undefined {
  const price = priceFor(model, prices);
  if (price === undefined) return undefined;
  const prompt = usage.inputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens;
  const rates: TokenPrices =
    price.longPrompt !== undefined && prompt > price.longPrompt.thresholdTokens
      ? price.longPrompt
      : price;
  return (
    (usage.inputTokens * rates.input +
      usage.outputTokens * rates.output +
      usage.cacheCreationInputTokens * rates.cacheWrite +
      usage.cacheReadInputTokens * rates.cacheRead) /
    1_000_000
  );
}
