import packageJson from "../package.json" with { type: "json" };

/** The CLI's version, from its package.json (inlined at build time). */
export const CLI_VERSION: string = packageJson.version;
