import {
  type ExtractorName,
  FAILURE_EXTRACTOR_NAMES,
  isExtractorName,
  type JsonValue,
  ownEntry,
  setEntry,
} from "@climpt/model";

/**
 * One failure a validator's output names (a failing test, a type error, a lint error, a file the
 * formatter would change), in the two forms the baseline comparison needs.
 */
export interface FailureFinding {
  /**
   * What identifies the failure on another commit: the test's file and name; a type or lint
   * error's file, code or rule and message, without its line and column, which move whenever
   * the change adds or removes lines above it.
   */
  readonly key: string;
  /** How it is shown (the ledger, the retry prompt): the test's name, `file:line:col TS2322 …`. */
  readonly label: string;
}

/** The extractors whose values name failures one by one (`FAILURE_EXTRACTOR_NAMES` of @climpt/model). */
export const FAILURE_EXTRACTORS: readonly ExtractorName[] = FAILURE_EXTRACTOR_NAMES;

export type FailureFindings =
  | { readonly ok: true; readonly findings: readonly FailureFinding[] }
  | { readonly ok: false; readonly reason: string };

/** Whether a validator's `extractParams` names any extractor that names failures. */
export function namesFailures(extractParams: Readonly<Record<string, string>>): boolean {
  return Object.values(extractParams).some(isFailureExtractor);
}

function isFailureExtractor(name: string): boolean {
  return isExtractorName(name) && FAILURE_EXTRACTORS.includes(name);
}

/**
 * The failures a validator's extracted values name, from every param whose extractor is one of
 * `FAILURE_EXTRACTORS`. Not ok when they cannot be trusted to name every failure: no such
 * extractor, an extractor that failed (its value is null), or a test report that counts more
 * failed tests than it names.
 */
export function failureFindings(
  extractParams: Readonly<Record<string, string>>,
  extracted: Readonly<Record<string, JsonValue>>,
): FailureFindings {
  const params = Object.entries(extractParams).filter(([, name]) => isFailureExtractor(name));
  if (params.length === 0) {
    return {
      ok: false,
      reason: `its extractParams names no extractor that names failures (${FAILURE_EXTRACTORS.join(", ")})`,
    };
  }
  const findings: FailureFinding[] = [];
  for (const [param, name] of params) {
    const value = ownEntry(extracted, param);
    const read = findingsOf(name as ExtractorName, value);
    if (!read.ok) return { ok: false, reason: `${name} (param "${param}") ${read.reason}` };
    findings.push(...read.findings);
  }
  return { ok: true, findings };
}

/** The findings of one extracted value; the parsers' shapes are checked, never assumed. */
function findingsOf(name: ExtractorName, value: JsonValue | undefined): FailureFindings {
  switch (name) {
    case "parseTestOutput": {
      if (!isRecord(value) || !Array.isArray(value.failures)) {
        return { ok: false, reason: "found no test report (the extractor failed)" };
      }
      const failures = value.failures.filter(isRecord);
      const failed = typeof value.failed === "number" ? value.failed : failures.length;
      // A count read from a summary line that the named tests do not reach (output cut short, a
      // runner read only in part): which tests failed is not known, so nothing is compared.
      if (failed > failures.length) {
        return { ok: false, reason: `counts ${failed} failed tests but names ${failures.length}` };
      }
      return { ok: true, findings: items(name, failures) };
    }
    case "parseTypeErrors":
    case "parseLintErrors":
    case "parseFormatOutput": {
      if (!Array.isArray(value)) {
        return { ok: false, reason: "found no list of failures (the extractor failed)" };
      }
      return { ok: true, findings: items(name, countedItems(name, value)) };
    }
    default:
      return { ok: false, reason: "names no failures" };
  }
}

/**
 * The items of a list that count as failures. Warnings do not fail a linter unless it is told so
 * (`--max-warnings 0`): when errors are reported they are the failure, otherwise all of it is.
 */
function countedItems(name: ExtractorName, list: readonly JsonValue[]): JsonValue[] {
  if (name !== "parseLintErrors") return [...list];
  const errors = list.filter((item) => isRecord(item) && item.severity === "error");
  return errors.length > 0 ? errors : [...list];
}

function items(name: ExtractorName, list: readonly JsonValue[]): FailureFinding[] {
  return list.flatMap((item) => {
    const finding = itemFinding(name, item);
    return finding === undefined ? [] : [finding];
  });
}

/** The finding of one item of an extractor's list (a test failure, an error, a file). */
function itemFinding(name: ExtractorName, item: JsonValue): FailureFinding | undefined {
  if (name === "parseFormatOutput") {
    return typeof item === "string"
      ? { key: `format\0${item}`, label: `${item}: not formatted` }
      : undefined;
  }
  if (!isRecord(item)) return undefined;
  const file = text(item.file);
  const message = firstLine(text(item.message));
  switch (name) {
    case "parseTestOutput": {
      const test = text(item.name);
      return {
        key: `test\0${file}\0${test}`,
        label: file === "" || file === test ? test : `${test} (${file})`,
      };
    }
    case "parseTypeErrors": {
      const code = text(item.code);
      return {
        key: `type\0${file}\0${code}\0${message}`,
        label: `${location(file, item.line, item.column)}${code} ${message}`,
      };
    }
    case "parseLintErrors": {
      const rule = text(item.rule);
      return {
        key: `lint\0${file}\0${rule}\0${message}`,
        label: `${location(file, item.line, item.column)}${rule === "" ? "" : `${rule} `}${message}`,
      };
    }
    default:
      return undefined;
  }
}

/**
 * The extracted values as a retry prompt shows them when failures were compared: in each param
 * whose extractor names failures, only the items `introduced` lists (a test report's `failed`
 * becomes their number); every other param as it is.
 */
export function introducedValues(
  extractParams: Readonly<Record<string, string>>,
  extracted: Readonly<Record<string, JsonValue>>,
  introduced: readonly string[],
): Record<string, JsonValue> {
  const left = new Map<string, number>();
  for (const label of introduced) left.set(label, (left.get(label) ?? 0) + 1);
  const keep = (name: ExtractorName, item: JsonValue): boolean => {
    const label = itemFinding(name, item)?.label;
    const count = label === undefined ? 0 : (left.get(label) ?? 0);
    if (label === undefined || count === 0) return false;
    left.set(label, count - 1);
    return true;
  };
  const out: Record<string, JsonValue> = {};
  for (const [param, value] of Object.entries(extracted)) {
    const name = ownEntry(extractParams, param);
    if (name === undefined || !isFailureExtractor(name)) {
      setEntry(out, param, value);
    } else if (name === "parseTestOutput" && isRecord(value) && Array.isArray(value.failures)) {
      const failures = value.failures.filter((item) => keep(name, item));
      setEntry(out, param, { ...value, failed: failures.length, failures });
    } else if (Array.isArray(value)) {
      setEntry(
        out,
        param,
        value.filter((item) => keep(name as ExtractorName, item)),
      );
    } else {
      setEntry(out, param, value);
    }
  }
  return out;
}

function isRecord(value: JsonValue | undefined): value is Record<string, JsonValue> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: JsonValue | undefined): string {
  return typeof value === "string" ? value : "";
}

function firstLine(value: string): string {
  return value.split("\n", 1)[0]?.trim() ?? "";
}

function location(
  file: string,
  line: JsonValue | undefined,
  column: JsonValue | undefined,
): string {
  if (file === "") return "";
  if (typeof line !== "number" || line === 0) return `${file}: `;
  return `${file}:${line}${typeof column === "number" && column > 0 ? `:${column}` : ""} `;
}

/**
 * Which of `head`'s findings the base has too. Counted, not just matched: a type error the base
 * has once and the change's commit twice is introduced once. The labels are the head's (its
 * line numbers), in the head's order.
 */
export function compareFindings(
  head: readonly FailureFinding[],
  base: readonly FailureFinding[],
): { readonly preExisting: string[]; readonly introduced: string[] } {
  const available = new Map<string, number>();
  for (const finding of base) available.set(finding.key, (available.get(finding.key) ?? 0) + 1);
  const preExisting: string[] = [];
  const introduced: string[] = [];
  for (const finding of head) {
    const left = available.get(finding.key) ?? 0;
    if (left > 0) {
      available.set(finding.key, left - 1);
      preExisting.push(finding.label);
    } else {
      introduced.push(finding.label);
    }
  }
  return { preExisting, introduced };
}
