/**
 * The sandbox probe under load. The sandbox runtime looks ripgrep, bubblewrap, socat and the
 * shell up by running `which` with a one-second bound; on a loaded machine that start can take
 * longer, and the probe then said "ripgrep (rg) not found; bubblewrap (bwrap) not installed"
 * of programs in /usr/bin, refusing the run. Here the load is a real `which` first on PATH that
 * takes five seconds the first time it runs (a load spike), then is the real one: the probe
 * must see the programs and start the sandbox. And a program that really is missing is named
 * as missing, by a look at PATH, without waiting on `which` at all.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { probeSandbox, resetSandboxProbe } from "./sandbox-host.ts";
import { findOnPath } from "./sandbox-programs.ts";

describe("the sandbox probe when `which` is slow", () => {
  const saved = { PATH: process.env.PATH ?? "", XDG_CACHE_HOME: process.env.XDG_CACHE_HOME };
  let dir: string;
  let spike: string;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "climpt-probe-load-"));
    spike = path.join(dir, "spike");
    const realWhich = findOnPath("which", saved.PATH);
    if (realWhich === undefined) throw new Error("test setup: no which on PATH");
    const slow = path.join(dir, "slow-bin");
    mkdirSync(slow);
    // Slow once: the first lookup while the spike lasts takes five seconds (the runtime's bound
    // is one), every later one is the real `which`.
    writeFileSync(
      path.join(slow, "which"),
      `#!/bin/sh\nif [ -e '${spike}' ]; then rm -f '${spike}'; exec sleep 5; fi\nexec '${realWhich}' "$@"\n`,
    );
    chmodSync(path.join(slow, "which"), 0o755);
    writeFileSync(spike, "");
    // No success remembered from another run: the probe must really run.
    process.env.XDG_CACHE_HOME = path.join(dir, "cache");
    process.env.PATH = `${slow}:${saved.PATH}`;
    resetSandboxProbe();
  });

  afterEach(() => {
    process.env.PATH = saved.PATH;
    if (saved.XDG_CACHE_HOME === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = saved.XDG_CACHE_HOME;
    resetSandboxProbe();
    rmSync(dir, { recursive: true, force: true });
  });

  it("finds the programs and starts the sandbox through a lookup that misses its bound", async () => {
    const probe = await probeSandbox();
    expect(probe).toEqual({ ok: true });
    // The slow lookup did happen (the spike was spent), so the probe came through it.
    expect(existsSync(spike)).toBe(false);
  });

  it("names a program that is really missing, without asking `which`", async () => {
    // Everything but bubblewrap, in a folder of its own.
    const some = path.join(dir, "some-bin");
    mkdirSync(some);
    for (const name of ["sh", "socat", "rg"]) {
      const found = findOnPath(name, saved.PATH);
      if (found === undefined) throw new Error(`test setup: no ${name} on PATH`);
      symlinkSync(found, path.join(some, name));
    }
    process.env.PATH = `${path.join(dir, "slow-bin")}:${some}`;
    const probe = await probeSandbox();
    expect(probe).toEqual({ ok: false, reason: "bubblewrap (bwrap) not installed." });
    // `which` never ran: the spike is still there.
    expect(existsSync(spike)).toBe(true);
  });
});
