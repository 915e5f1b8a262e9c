import { existsSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import type { Problem } from "@climpt/model";
import { CLI_CODES } from "../cli-codes.ts";
import type { CliIo } from "../cli-io.ts";
import { EXIT } from "../exit-codes.ts";
import { displayPath } from "../report-problems.ts";
import type { Command } from "./command.ts";
import {
  booleanValue,
  numberValue,
  parseCommandLine,
  reportUsageProblems,
  resolveLocation,
  stringValue,
  writeJson,
} from "./command-line.ts";
import { AGENT_DIR_FLAG, CWD_FLAG, HELP_FLAG, JSON_FLAG } from "./common-flags.ts";
import { VIEW_CODES } from "./view-codes.ts";

/** The viewer, loaded on first use: `climpt --help` and the other commands never need it. */
function viewerModule(): Promise<typeof import("@climpt/viewer")> {
  return import("@climpt/viewer");
}

function problem(code: string, message: string, hint: string): Problem {
  return { code, severity: "error", message, hint };
}

/** Whether the argument names a file rather than a run id. */
function looksLikeFile(ref: string): boolean {
  return ref.endsWith(".jsonl") || ref.includes("/") || ref.includes(path.sep);
}

export const viewCommand: Command = {
  name: "view",
  summary: "See runs: write one self-contained HTML page, or serve the project's runs live.",
  usage: [
    "climpt view [RUN_ID | JOURNAL_FILE] [--out FILE] [--cwd DIR] [--agent-dir DIR]",
    "climpt view --serve [--port N] [--cwd DIR] [--agent-dir DIR]",
  ],
  flags: [
    {
      name: "out",
      kind: "string",
      key: "out",
      valueName: "FILE",
      description:
        "Where to write the page (default: <run id>.html, or climpt-runs.html for every run).",
    },
    {
      name: "serve",
      kind: "boolean",
      key: "serve",
      description:
        "Serve the project's runs on 127.0.0.1, updating live while a run is in progress.",
    },
    {
      name: "port",
      kind: "integer",
      key: "port",
      valueName: "N",
      min: 0,
      description: "Port for --serve (default: 0, a free port; the URL is printed).",
    },
    JSON_FLAG,
    AGENT_DIR_FLAG,
    CWD_FLAG,
    HELP_FLAG,
  ],
  details: [
    "With a run id, climpt looks for its journal under the project's agents' logging folders (and tmp/climpt/logs, tmp/logs/agents); a journal file can be given directly. Without either, the page holds every run of the project, newest first.",
    "The page is one file with everything inlined (no network, no CDN): attach it to an issue or a CI artifact. It shows the runs, the agent's flow with the path taken, a waterfall of steps, model calls, tool calls and validators, and each step's prompt, output, handoff diff, tools and validator output. Secrets are scrubbed; the journals are only read.",
    "--serve prints the URL on stdout and serves until Ctrl-C.",
  ],
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const outcome = parseCommandLine(this, argv, io, { names: ["run"], required: 0 });
    if (!outcome.ok) return outcome.exitCode;
    const { values, positionals } = outcome.parsed;
    const json = booleanValue(values, "json") === true;
    const location = resolveLocation(values, io);
    const serve = booleanValue(values, "serve") === true;
    const out = stringValue(values, "out");
    const port = numberValue(values, "port");
    const ref = positionals[0];
    if (serve && (ref !== undefined || out !== undefined)) {
      return reportUsageProblems(
        io,
        this,
        [
          problem(
            CLI_CODES.conflict,
            "--serve shows every run of the project live; it takes no run and writes no file.",
            "Drop the run id and --out, or drop --serve to write a page.",
          ),
        ],
        json,
      );
    }
    if (!serve && port !== undefined) {
      return reportUsageProblems(
        io,
        this,
        [problem(CLI_CODES.conflict, "--port is for --serve.", "Add --serve, or drop --port.")],
        json,
      );
    }
    if (port !== undefined && port > 65_535) {
      return reportUsageProblems(
        io,
        this,
        [
          problem(
            CLI_CODES.badValue,
            `--port: ${port} is not a port.`,
            "Give 1–65535, or 0 for a free port.",
          ),
        ],
        json,
      );
    }
    const viewer = await viewerModule();
    if (serve) return serveRuns(viewer, io, location, port ?? 0, json);

    let journals: string[];
    if (ref !== undefined && (looksLikeFile(ref) || existsSync(path.resolve(io.cwd, ref)))) {
      const file = path.resolve(io.cwd, ref);
      if (!existsSync(file) || !statSync(file).isFile() || !viewer.looksLikeJournal(file)) {
        return reportUsageProblems(
          io,
          this,
          [
            {
              ...problem(
                VIEW_CODES.notAJournal,
                existsSync(file)
                  ? `${displayPath(file, io.cwd)} is not a run journal (its first line is not a run_start event).`
                  : `There is no file ${displayPath(file, io.cwd)}.`,
                "Pass a journal (<logging.directory>/<run id>.jsonl, printed at the end of `climpt run`) or a run id.",
              ),
              file,
            },
          ],
          json,
        );
      }
      journals = [file];
    } else {
      const found = await viewer.discoverJournals(location);
      if (ref !== undefined) {
        const match = found.find((journal) => journal.runId === ref);
        if (match === undefined) {
          const folders = await viewer.journalFolders(location);
          return reportUsageProblems(
            io,
            this,
            [
              problem(
                VIEW_CODES.runNotFound,
                `No journal of run ${ref} in ${displayPath(location.cwd, io.cwd) || "."}${folders.length === 0 ? " (no journal folders found)" : ` (looked in ${folders.map((folder) => displayPath(folder, io.cwd)).join(", ")})`}.`,
                "Check the run id (`climpt view` with no argument writes a page of every run), pass --cwd for the repository the agent worked in, or pass the journal file itself.",
              ),
            ],
            json,
          );
        }
        journals = [match.path];
      } else {
        if (found.length === 0) {
          return reportUsageProblems(
            io,
            this,
            [
              problem(
                VIEW_CODES.noRuns,
                `No run journals in ${displayPath(location.cwd, io.cwd) || "."}.`,
                "Run an agent first (`climpt run <agent>`), or pass --cwd for the repository the agent worked in.",
              ),
            ],
            json,
          );
        }
        journals = found.map((journal) => journal.path);
      }
    }

    const html = await viewer.renderRunsPage({ journals, env: io.env });
    const single = journals.length === 1 ? path.basename(journals[0] as string, ".jsonl") : null;
    const target = path.resolve(
      io.cwd,
      out ?? (single === null ? "climpt-runs.html" : `${single}.html`),
    );
    try {
      writeFileSync(target, html);
    } catch (error) {
      return reportUsageProblems(
        io,
        this,
        [
          {
            ...problem(
              VIEW_CODES.cannotWrite,
              `Cannot write ${displayPath(target, io.cwd)}: ${(error as Error).message}.`,
              "Choose another --out path in a folder that exists and is writable.",
            ),
            file: target,
          },
        ],
        json,
      );
    }
    if (json) writeJson(io, { ok: true, file: target, runs: journals.length });
    else {
      io.stdout.write(`${target}\n`);
      io.stderr.write(
        `Wrote ${journals.length === 1 ? "the run" : `${journals.length} runs`} to ${displayPath(target, io.cwd)}. Open it in a browser: ${pathToFileURL(target).href}\n`,
      );
    }
    return EXIT.ok;
  },
};

async function serveRuns(
  viewer: Awaited<ReturnType<typeof viewerModule>>,
  io: CliIo,
  location: { readonly cwd: string; readonly agentDir?: string },
  port: number,
  json: boolean,
): Promise<number> {
  let server: Awaited<ReturnType<typeof viewer.startViewServer>>;
  try {
    server = await viewer.startViewServer({ ...location, port, env: io.env });
  } catch (error) {
    return reportUsageProblems(
      io,
      viewCommand,
      [
        problem(
          VIEW_CODES.cannotListen,
          `Cannot serve on 127.0.0.1:${port}: ${(error as Error).message}.`,
          "Choose another --port, or --port 0 for a free one.",
        ),
      ],
      json,
    );
  }
  if (json) writeJson(io, { ok: true, url: server.url });
  else io.stdout.write(`${server.url}\n`);
  io.stderr.write(
    `Serving the runs of ${location.cwd} at ${server.url} (live; the journals are only read). Ctrl-C stops.\n`,
  );
  await new Promise<void>((resolve) => {
    const unhook = io.onStopSignal?.(() => {
      unhook?.();
      resolve();
    });
  });
  await server.close();
  return EXIT.ok;
}
