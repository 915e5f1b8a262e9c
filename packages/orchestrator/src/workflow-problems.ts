import { editDistance, type Problem } from "@climpt/model";

/** Builds the problems of one workflow file: every one carries the file and a JSON path. */
export class ProblemList {
  readonly items: Problem[] = [];
  constructor(readonly file: string) {}

  error(code: string, path: string, message: string, hint: string): void {
    this.items.push({ code, severity: "error", file: this.file, path, message, hint });
  }

  warning(code: string, path: string, message: string, hint: string): void {
    this.items.push({ code, severity: "warning", file: this.file, path, message, hint });
  }

  get hasErrors(): boolean {
    return this.items.some((problem) => problem.severity === "error");
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)}`;
}

/** The name of `candidates` closest to `name`, when it is close enough to be a typo. */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(name.length / 3))
    ? best
    : undefined;
}

export function didYouMean(name: string, candidates: Iterable<string>): string {
  const close = closestName(name, candidates);
  return close === undefined ? "" : ` Did you mean "${close}"?`;
}
