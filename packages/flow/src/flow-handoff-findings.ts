import { closestMatch, type Registry, recordValues, type Step } from "@climpt/model";
import type { FlowFinding } from "./flow-codes.ts";
import { computeDominators } from "./flow-dominators.ts";
import {
  type CollectReadsOptions,
  collectHandoffReads,
  type HandoffRead,
} from "./flow-handoff-reads.ts";
import type { IndexedFlow } from "./flow-index.ts";
import {
  type AnyWriterRead,
  missingAnyWriterReads,
  missingSingleWriterReads,
  type SingleWriterRead,
} from "./flow-must-write.ts";

function describeRead(read: HandoffRead): string {
  switch (read.source) {
    case "uvVariables":
      return `uvVariables entry "${read.written}"`;
    case "prompt":
      return `prompt placeholder ${read.written}`;
    case "condition":
      return `transition condition "${read.written}"`;
  }
}

/** A condition read that misses only falls back to `default` when there is one. */
function severityOf(read: HandoffRead): "error" | "warning" {
  return read.source === "condition" && read.hasDefault === true ? "warning" : "error";
}

function undeclaredFinding(read: HandoffRead, registry: Registry): FlowFinding {
  const writerKeys =
    read.writer === undefined
      ? recordValues(registry.steps).flatMap((step) => step.handoff.map((field) => field.key))
      : (registry.steps[read.writer]?.handoff.map((field) => field.key) ?? []);
  const closest = closestMatch(read.key, [...new Set(writerKeys)]);
  const didYouMean = closest === undefined ? "" : `Did you mean "${closest}"? `;
  const consequence =
    read.source === "condition"
      ? read.hasDefault === true
        ? ' so the "default" target is always taken'
        : " so no target can ever be selected"
      : " so the prompt variable never gets a value";
  return {
    code: "SR-FLOW-006",
    severity: severityOf(read),
    stepId: read.reader,
    path: read.path,
    message:
      read.writer === undefined
        ? `Step "${read.reader}" reads handoff key "${read.key}" through its ${describeRead(read)}, but no step hands off "${read.key}",${consequence}.`
        : `Step "${read.reader}" reads "${read.key}" of step "${read.writer}" through its ${describeRead(read)}, but "${read.writer}" hands off no key "${read.key}",${consequence}.`,
    hint:
      read.writer === undefined
        ? `${didYouMean}Add "${read.key}" to the handoff (handoffFields / handoff) of the step that produces it.`
        : `${didYouMean}Add "${read.key}" to the handoff of "${read.writer}", or fix the name (channel 4 names are uv-<step id with . as _>_<key>).`,
  };
}

function unwrittenFinding(read: HandoffRead): FlowFinding {
  const byWhom = read.writer === undefined ? "any step that hands it off" : `step "${read.writer}"`;
  const own = read.writer === read.reader;
  return {
    code: "SR-FLOW-007",
    severity: severityOf(read),
    stepId: read.reader,
    path: read.path,
    message: own
      ? `Step "${read.reader}" reads its own handoff key "${read.key}" through its ${describeRead(read)}, but the key is written only after the step has run, so the first execution has no value.`
      : `Step "${read.reader}" reads "${read.key}" through its ${describeRead(read)}, but not every path from the entry into "${read.reader}" passes through ${byWhom}, so on some runs the value is missing.`,
    hint: own
      ? "Read the value from the step that produces it before this one, or drop it from the first execution's prompt."
      : `Route every path into "${read.reader}" through the step that writes "${read.key}", or read a key that is always written before it.`,
  };
}

/** SR-FLOW-006/007: handoff keys read without being written on every path into the reader. */
export function handoffFindings(
  registry: Registry,
  flow: IndexedFlow,
  options: CollectReadsOptions,
): FlowFinding[] {
  const reads = collectHandoffReads(registry, flow.graph, options);
  if (reads.length === 0) return [];
  const findings: FlowFinding[] = [];
  const single: (SingleWriterRead & { read: HandoffRead })[] = [];
  const any: (AnyWriterRead & { read: HandoffRead })[] = [];
  for (const read of reads) {
    if (!read.declared) {
      findings.push(undeclaredFinding(read, registry));
      continue;
    }
    const node = flow.indexOf.get(read.reader) as number;
    if (read.writer === undefined) any.push({ node, key: read.key, afterOwnWrites: true, read });
    else single.push({ node, writer: flow.indexOf.get(read.writer) as number, read });
  }
  const missing = new Set<HandoffRead>();
  if (single.length > 0) {
    const dominators = computeDominators(
      flow.size,
      flow.entries,
      flow.successors,
      flow.predecessors,
    );
    const flags = missingSingleWriterReads(flow.size, dominators, single);
    single.forEach((entry, position) => {
      if (flags[position] === 1) missing.add(entry.read);
    });
  }
  if (any.length > 0) {
    const writersOf = new Map<string, number[]>();
    flow.graph.nodes.forEach((node, index) => {
      for (const field of (registry.steps[node.id] as Step).handoff) {
        const list = writersOf.get(field.key);
        if (list === undefined) writersOf.set(field.key, [index]);
        else if (list[list.length - 1] !== index) list.push(index);
      }
    });
    const flags = missingAnyWriterReads(flow.size, flow.entries, flow.successors, writersOf, any);
    any.forEach((entry, position) => {
      if (flags[position] === 1) missing.add(entry.read);
    });
  }
  // In read order (declaration order of the readers), after the undeclared ones.
  for (const read of reads) if (missing.has(read)) findings.push(unwrittenFinding(read));
  return findings;
}
