/**
 * Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of two
 * neighbouring characters each cost 1, so `--isuse` is one edit from `--issue`.
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  // Three rows are enough: the swap looks back two rows.
  let twoBack: number[] = new Array(b.length + 1).fill(0);
  let previous: number[] = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current: number[] = new Array(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (twoBack[j - 2] as number) + 1);
      }
      current[j] = best;
    }
    [twoBack, previous, current] = [previous, current, twoBack];
  }
  return previous[b.length] as number;
}

/**
 * The candidate closest to `input`, when it is close enough to be a plausible typo: at most a
 * third of the longer word (and at least 1, at most 3 edits), or a unique candidate `input` is
 * a prefix of, or the shortest candidate `input` ends after a `_`, `.` or `-` (when no other is as
 * short): `plan_approach` names `initial_plan_approach`, a handoff name with its step left out.
 * Ties go to the earlier candidate, so list the common ones first.
 */
export function closestMatch(input: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(input, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best !== undefined) {
    const limit = Math.min(3, Math.max(1, Math.floor(Math.max(input.length, best.length) / 3)));
    if (bestDistance <= limit) return best;
  }
  const prefixed = candidates.filter(
    (candidate) => input.length >= 2 && candidate.startsWith(input),
  );
  if (prefixed.length === 1) return prefixed[0];
  return shortestWithSuffix(input, candidates);
}

/** The one shortest candidate that is `input` behind a `_`, `.` or `-`, if only one is that short. */
function shortestWithSuffix(input: string, candidates: readonly string[]): string | undefined {
  if (input.length < 3) return undefined;
  let best: string | undefined;
  let tied = false;
  for (const candidate of candidates) {
    if (candidate.length <= input.length || !candidate.endsWith(input)) continue;
    if (!"_.-".includes(candidate[candidate.length - input.length - 1] as string)) continue;
    if (best === undefined || candidate.length < best.length) {
      best = candidate;
      tied = false;
    } else if (candidate.length === best.length && candidate !== best) {
      tied = true;
    }
  }
  return tied ? undefined : best;
}
