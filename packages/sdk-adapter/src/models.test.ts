import { describe, expect, it } from "vitest";
import { MODEL_ALIASES, modelId, resolveModel } from "./models.ts";
import { costOf, DEFAULT_PRICES, mergePrices, priceFor } from "./prices.ts";

describe("model aliases", () => {
  it("resolves step > agent default > opus, as full ids", () => {
    expect(resolveModel("haiku", "sonnet")).toBe(MODEL_ALIASES.haiku);
    expect(resolveModel(undefined, "sonnet")).toBe(MODEL_ALIASES.sonnet);
    expect(resolveModel("", undefined)).toBe(MODEL_ALIASES.opus);
    expect(resolveModel()).toBe("claude-opus-5-5");
  });

  it("passes full ids through and ignores alias case", () => {
    expect(modelId("claude-opus-4-8")).toBe("claude-opus-4-8");
    expect(modelId(" Sonnet ")).toBe("claude-sonnet-5-5");
  });

  it("has a price for every alias target", () => {
    for (const id of Object.values(MODEL_ALIASES)) expect(DEFAULT_PRICES[id]).toBeDefined();
  });
});

describe("costOf", () => {
  const usage = {
    inputTokens: 1_000_000,
    outputTokens: 100_000,
    cacheCreationInputTokens: 200_000,
    cacheReadInputTokens: 2_000_000,
  };

  it("prices input, output, cache writes and cache reads per MTok", () => {
    // Opus 5.5: $4 in, $20 out, $5 cache write, $0.20 cache read.
    expect(costOf(usage, "opus")).toBeCloseTo(4 + 2 + 1 + 0.4, 10);
  });

  it("uses Haiku 5.5's long-prompt tier above 100k prompt tokens", () => {
    const short = {
      inputTokens: 50_000,
      outputTokens: 1000,
      cacheCreationInputTokens: 0,
      cacheReadInputTokens: 0,
    };
    const long = { ...short, inputTokens: 150_000 };
    expect(costOf(short, "haiku")).toBeCloseTo((50_000 * 0.1 + 1000 * 0.5) / 1e6, 12);
    expect(costOf(long, "haiku")).toBeCloseTo((150_000 * 0.5 + 1000 * 2.5) / 1e6, 12);
  });

  it("prices dated snapshots as their family, lets config override, and knows no unknown model", () => {
    expect(priceFor("claude-haiku-4-5-20251001")).toEqual(DEFAULT_PRICES["claude-haiku-4-5"]);
    const prices = mergePrices({
      "claude-opus-5-5": { input: 1, output: 1, cacheWrite: 1, cacheRead: 1 },
    });
    expect(costOf(usage, "opus", prices)).toBeCloseTo(3.3, 10);
    expect(costOf(usage, "claude-unknown-1")).toBeUndefined();
  });
});
