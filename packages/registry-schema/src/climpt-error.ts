const marker = "climpt.error";
const brand = Symbol.for(marker);

export interface ClimptErrorOptions {
  readonly code: string;
  readonly message: string;
  readonly file?: string;
  readonly path?: string;
  readonly hint?: string;
  readonly cause?: unknown;
}

/**
 * The base of every error climpt throws at a user. Thrown errors are for contract violations and
 * I/O; expected failures are `Problem` data. The brand is a `Symbol.for` so `isInstance` works
 * across duplicated copies of this package in one process, where `instanceof` would not.
 */
export class ClimptError extends Error {
  // Read by isInstance through the symbol, so copies of this package recognise each other.
  readonly [brand] = true;
  readonly code: string;
  readonly file: string | undefined;
  readonly path: string | undefined;
  readonly hint: string | undefined;

  constructor(options: ClimptErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ClimptError";
    this.code = options.code;
    this.file = options.file;
    this.path = options.path;
    this.hint = options.hint;
  }

  static isInstance(error: unknown): error is ClimptError {
    return (
      typeof error === "object" &&
      error !== null &&
      brand in error &&
      (error as { [brand]: unknown })[brand] === true
    );
  }

  /** A plain object for logs and the run result: code and message, plus where and how to fix. */
  toJSON(): { code: string; message: string; file?: string; path?: string; hint?: string } {
    return {
      code: this.code,
      message: this.message,
      ...(this.file === undefined ? {} : { file: this.file }),
      ...(this.path === undefined ? {} : { path: this.path }),
      ...(this.hint === undefined ? {} : { hint: this.hint }),
    };
  }
}
