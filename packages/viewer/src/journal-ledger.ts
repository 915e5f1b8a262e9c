import { count, type Fields, flag, isRecord, record, text } from "./journal-fields.ts";
import type { FileChangeView, LedgerAttemptView, LedgerEntryView, StepView } from "./view-model.ts";

/**
 * Reads the completion ledger's `ledger` events and the steps' `step_changes` events for the
 * page. Like the other readers, every field is read defensively: a field of the wrong type is
 * shown as missing, never fatal.
 */

function itemText(item: unknown): string {
  if (typeof item === "string") return item;
  const fields = record(item);
  // A failing test or a type error: its name or file is what a reader scans for.
  return (
    text(fields.name) ??
    text(fields.file) ??
    text(fields.path) ??
    text(fields.message) ??
    JSON.stringify(item)
  );
}

/** `changedFiles: src/a.js, src/b.js; testResults: 2 failed` — the findings worth a glance. */
function findingsOf(extracted: unknown): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(record(extracted))) {
    if (Array.isArray(value) && value.length > 0) {
      parts.push(
        `${name}: ${value.slice(0, 8).map(itemText).join(", ")}${value.length > 8 ? ", …" : ""}`,
      );
    } else if (isRecord(value) && Array.isArray(value.failures) && value.failures.length > 0) {
      parts.push(`${name}: ${value.failures.slice(0, 8).map(itemText).join(", ")}`);
    }
  }
  return parts.join("; ");
}

function entryView(raw: unknown): LedgerEntryView {
  const entry = record(raw);
  return {
    validator: text(entry.validator) ?? "?",
    command: text(entry.command) ?? "",
    passed: flag(entry.passed),
    exitCode: count(entry.exitCode),
    timedOut: flag(entry.timedOut),
    durationMs: count(entry.durationMs) ?? 0,
    findings: findingsOf(entry.extracted),
    digest: text(record(entry.output).sha256) ?? "",
  };
}

export function ledgerAttemptView(event: Fields): LedgerAttemptView {
  const commit = record(event.commit);
  const sha = text(commit.sha);
  return {
    stepId: text(event.stepId) ?? "?",
    attempt: count(event.attempt) ?? 0,
    iteration: count(event.iteration) ?? 0,
    passed: flag(event.passed),
    time: text(event.time),
    commit:
      sha === null
        ? null
        : {
            sha,
            tree: text(commit.tree) ?? "",
            clean: flag(commit.clean),
            branch: text(commit.branch),
          },
    commitError: text(event.commitError),
    entries: Array.isArray(event.entries) ? event.entries.map(entryView) : [],
  };
}

export function stepChangesView(event: Fields): StepView["changes"] {
  const files: FileChangeView[] = [];
  for (const raw of Array.isArray(event.files) ? event.files : []) {
    const file = record(raw);
    const path = text(file.path);
    if (path !== null) files.push({ path, added: count(file.added), removed: count(file.removed) });
  }
  return { files, truncated: flag(event.truncated) };
}
