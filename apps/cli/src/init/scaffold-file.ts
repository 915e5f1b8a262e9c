/** One file `climpt init` writes, relative to the new agent folder. */
export interface ScaffoldFile {
  readonly path: string;
  readonly content: string;
}
