/**
 * The soak's fault injection: a reply kind for every model call, drawn from a seeded PRNG keyed
 * by (seed, run, call number within the run), so a seed gives every run the same faults however
 * the concurrent runs interleave.
 */
export const FAULT_KINDS = [
  "ok",
  "tool-call",
  "429",
  "529",
  "500",
  "hang",
  "cut-stream",
  "stalled-stream",
  "malformed-body",
  "malformed-output",
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

/** Cumulative weights; "tool-call" is only drawn for a call that does not answer a tool result. */
const WEIGHTS: readonly (readonly [FaultKind, number])[] = [
  ["ok", 0.55],
  ["tool-call", 0.12],
  ["429", 0.05],
  ["529", 0.05],
  ["500", 0.05],
  ["hang", 0.03],
  ["cut-stream", 0.04],
  ["stalled-stream", 0.02],
  ["malformed-body", 0.03],
  ["malformed-output", 0.06],
];

/** mulberry32 over a 32-bit hash of the key. */
export function unitRandom(...key: readonly number[]): number {
  let state = 0x9e3779b9;
  for (const part of key) {
    state = Math.imul(state ^ (part >>> 0), 0x85ebca6b) >>> 0;
    state = (state ^ (state >>> 13)) >>> 0;
  }
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

export function faultFor(
  seed: number,
  run: number,
  call: number,
  answersToolResult: boolean,
): FaultKind {
  const total = WEIGHTS.reduce((sum, [, weight]) => sum + weight, 0);
  let pick = unitRandom(seed, run, call) * total;
  for (const [kind, weight] of WEIGHTS) {
    if (pick < weight) return kind === "tool-call" && answersToolResult ? "ok" : kind;
    pick -= weight;
  }
  return "ok";
}
