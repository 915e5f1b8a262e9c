import type { Problem } from "./problem.ts";

/**
 * Recognising an error class across copies of a package. Two copies of one package in a process
 * (two versions, or one bundled and one installed) have different classes, so `instanceof` fails
 * across them. Each error class therefore stamps its instances with its own `Symbol.for` key,
 * which is the same symbol in every copy, and its static `isInstance` checks that key alone.
 * A subclass instance carries its own key and those of its ancestors, so
 * `ClimptError.isInstance(new StepError(…))` holds and `StepError.isInstance(new RunnerError(…))`
 * does not: a subclass check is never a sibling check.
 */
export function errorMarker(className: string): symbol {
  return Symbol.for(`climpt.${className}`);
}

/** Stamps `error` with `marker`. Called once in the constructor of the class that owns the marker. */
export function markError(error: Error, marker: symbol): void {
  Object.defineProperty(error, marker, { value: true, enumerable: false });
}

/** Whether `value` was stamped with `marker` (by this or any other copy of the class). */
export function hasErrorMarker(value: unknown, marker: symbol): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { readonly [key: symbol]: unknown })[marker] === true
  );
}

/** What a thrown error carries: a `Problem` without severity (a thrown error is always one). */
export interface ClimptErrorOptions extends Omit<Problem, "severity"> {
  readonly cause?: unknown;
}

/** The plain form of a `ClimptError`, for logs and the run result. */
export interface ClimptErrorJson {
  code: string;
  message: string;
  family?: string;
  file?: string;
  path?: string;
  hint?: string;
}

const climptErrorMarker = errorMarker("ClimptError");

/**
 * The base of every error climpt throws at a user. Thrown errors are for contract violations and
 * I/O; expected failures are `Problem` data. Like a `Problem`, `code` is the specific code and
 * `family` the run-level family when there is one.
 */
export class ClimptError extends Error {
  readonly code: string;
  readonly family: string | undefined;
  readonly file: string | undefined;
  readonly path: string | undefined;
  readonly hint: string | undefined;

  constructor(options: ClimptErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    markError(this, climptErrorMarker);
    this.name = "ClimptError";
    this.code = options.code;
    this.family = options.family;
    this.file = options.file;
    this.path = options.path;
    this.hint = options.hint;
  }

  /** Whether `error` is a ClimptError (of any subclass), from any copy of this package. */
  static isInstance(error: unknown): error is ClimptError {
    return hasErrorMarker(error, climptErrorMarker);
  }

  /** A plain object for logs and the run result: code and message, plus where and how to fix. */
  toJSON(): ClimptErrorJson {
    return {
      code: this.code,
      message: this.message,
      ...(this.family === undefined ? {} : { family: this.family }),
      ...(this.file === undefined ? {} : { file: this.file }),
      ...(this.path === undefined ? {} : { path: this.path }),
      ...(this.hint === undefined ? {} : { hint: this.hint }),
    };
  }

  /** The error as a `Problem`, for code that reports thrown and returned failures alike. */
  toProblem(): Problem {
    return { ...this.toJSON(), severity: "error" };
  }
}
