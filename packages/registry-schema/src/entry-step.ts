import {
  fail,
  ok,
  type Registry,
  type Result,
  type VerdictType,
  verdictTypeSpellings,
} from "@climpt/model";

/**
 * The step a run starts at (docs/design.md#a-run): `entryStepMapping[verdictType]` under any
 * spelling of the type, then `entryStep`, else `SR-ENTRY-001`.
 */
export function resolveEntryStep(registry: Registry, verdictType: VerdictType): Result<string> {
  for (const spelling of verdictTypeSpellings(verdictType)) {
    const mapped = registry.entryStepMapping[spelling];
    if (mapped !== undefined) return ok(mapped);
  }
  if (registry.entryStep !== undefined) return ok(registry.entryStep);
  return fail([
    {
      code: "SR-ENTRY-001",
      severity: "error",
      message: `No entry step for verdict type "${verdictType}": the registry has no entryStepMapping for it and no entryStep.`,
      path: "$.entryStep",
      hint: `Add "entryStep": "<step id>" or "entryStepMapping": { "${verdictType}": "<step id>" } to the registry.`,
    },
  ]);
}
