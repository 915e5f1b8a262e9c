// What counts as a code in climpt's source, shared by scripts/codes-catalogue.mjs (which writes
// docs/codes.md) and the test that every code the source writes is catalogued
// (packages/testing/src/code-catalogue.test.ts).

import { readdirSync } from "node:fs";
import { join } from "node:path";

/**
 * A family code (`SR-LOAD-001`, `RUN-STEP-HOOK-001`, `CLI-INTERNAL-001`) anywhere in the text, or a
 * run-level name (`AGENT_ABORTED`, `FAILED_STEP_ROUTING`, `GATE_INTERPRETATION_ERROR`) in quotes:
 * bare, those are also spelled as constants' names.
 */
const CODE =
  /\b((?:SR|PR|AC|RUN|TOOL|WF|ORC|GIT|VIEW|CLI)(?:-[A-Z0-9]+)+-\d{3})\b|["'`]((?:AGENT|FAILED)_[A-Z]+(?:_[A-Z]+)*|GATE_INTERPRETATION_ERROR)["'`]/g;

/** The distinct codes a source text writes, in order of first appearance. */
export function codeLiterals(text) {
  const codes = new Set();
  for (const match of text.matchAll(CODE)) codes.add(match[1] ?? match[2]);
  return [...codes];
}

/** Whether a file name is package source that can emit a code (not a test or a test helper). */
export function isSourceFile(name) {
  return (
    /\.(?:ts|mts|mjs|js)$/.test(name) && !/\.(?:test|test-d|test-helper)\.|\.d\.m?ts$/.test(name)
  );
}

/** Every package's name (its folder: `runner`, `cli`) and the folders its source lives in. */
export function packageSourceRoots(root) {
  const roots = [];
  for (const parent of ["packages", "apps"]) {
    for (const name of readdirSync(join(root, parent))) {
      for (const sub of ["src", "bin"]) {
        const dir = join(root, parent, name, sub);
        try {
          readdirSync(dir);
        } catch {
          continue;
        }
        roots.push({ name, dir });
      }
    }
  }
  return roots;
}
