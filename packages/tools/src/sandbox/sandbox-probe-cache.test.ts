import { chmodSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { probeSandbox, resetSandboxProbe } from "./sandbox-host.ts";
import {
  probeRemembered,
  rememberProbe,
  sandboxFingerprint,
  sandboxProbeCacheFile,
} from "./sandbox-probe-cache.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

describe("the remembered sandbox probe", () => {
  let dir: string;
  const saved = { PATH: process.env.PATH, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME };

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "climpt-probe-cache-"));
    // A bubblewrap that is found on PATH but cannot start anything.
    const bwrap = path.join(dir, "bwrap");
    writeFileSync(bwrap, "#!/bin/sh\necho 'bwrap: cannot start here' >&2\nexit 1\n");
    chmodSync(bwrap, 0o755);
  });

  afterEach(() => {
    process.env.PATH = saved.PATH;
    if (saved.XDG_CACHE_HOME === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = saved.XDG_CACHE_HOME;
    resetSandboxProbe();
    rmSync(dir, { recursive: true, force: true });
  });

  it("changes its fingerprint when a program the sandbox needs changes or leaves PATH", () => {
    const env = { PATH: `${dir}:${process.env.PATH ?? ""}` };
    const first = sandboxFingerprint(env);
    expect(first).toBeDefined();
    expect(sandboxFingerprint(env)).toBe(first);
    utimesSync(path.join(dir, "bwrap"), new Date(2001, 1, 1), new Date(2001, 1, 1));
    const touched = sandboxFingerprint(env);
    expect(touched).not.toBe(first);
    expect(sandboxFingerprint({ PATH: "/nonexistent" })).not.toBe(touched);
  });

  it("counts a success for a day, for the same fingerprint only, and ignores a damaged file", () => {
    const file = path.join(dir, "cache", "sandbox-probe.json");
    const now = Date.now();
    expect(probeRemembered("abc", file, now)).toBe(false);
    rememberProbe("abc", file, now);
    expect(probeRemembered("abc", file, now + 1000)).toBe(true);
    expect(probeRemembered("abd", file, now + 1000)).toBe(false);
    expect(probeRemembered("abc", file, now + DAY_MS + 1)).toBe(false);
    writeFileSync(file, "{not json");
    expect(probeRemembered("abc", file, now)).toBe(false);
  });

  it("keeps the successes of other installs beside this one's, and reads the one-entry format", () => {
    const file = path.join(dir, "cache", "sandbox-probe.json");
    const now = Date.now();
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ fingerprint: "old-format", checkedAt: now }));
    expect(probeRemembered("old-format", file, now + 1)).toBe(true);
    for (let install = 0; install < 20; install++)
      rememberProbe(`install-${install}`, file, now + install);
    // The newest sixteen stay, whichever install wrote last.
    expect(probeRemembered("install-19", file, now + 20)).toBe(true);
    expect(probeRemembered("install-4", file, now + 20)).toBe(true);
    expect(probeRemembered("install-3", file, now + 20)).toBe(false);
    expect(probeRemembered("old-format", file, now + 20)).toBe(false);
  });

  it("lives under XDG_CACHE_HOME when it is set", () => {
    expect(sandboxProbeCacheFile({ XDG_CACHE_HOME: "/x/cache" })).toBe(
      "/x/cache/climpt/sandbox-probe.json",
    );
  });

  it("skips the probe while the remembered machine is unchanged, and probes again once it changes", async () => {
    const bwrap = path.join(dir, "bwrap");
    process.env.PATH = `${dir}:${saved.PATH ?? ""}`;
    process.env.XDG_CACHE_HOME = path.join(dir, "cache");

    // Nothing remembered: the probe runs the failing bubblewrap and says so.
    resetSandboxProbe();
    const probed = await probeSandbox();
    expect(probed.ok).toBe(false);

    // A success remembered for exactly this machine is believed without starting anything…
    const fingerprint = sandboxFingerprint();
    if (fingerprint === undefined) throw new Error("no fingerprint on this platform");
    rememberProbe(fingerprint, sandboxProbeCacheFile());
    resetSandboxProbe();
    expect(await probeSandbox()).toEqual({ ok: true });

    // …until the machine changes (here: bubblewrap is replaced); then the probe runs again.
    utimesSync(bwrap, new Date(2001, 1, 1), new Date(2001, 1, 1));
    resetSandboxProbe();
    expect((await probeSandbox()).ok).toBe(false);
  });
});
