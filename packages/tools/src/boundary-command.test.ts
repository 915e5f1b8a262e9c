import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isBoundaryCommand } from "./boundary-command.ts";
import { useTempDirs } from "./tools.test-helper.ts";

const refused = (command: string) => isBoundaryCommand(command).refused;

describe("isBoundaryCommand: the boundary patterns", () => {
  const patterns = [
    "gh issue close 12",
    "gh issue reopen 12",
    "gh issue delete 12 --yes",
    "gh issue transfer 12 other/repo",
    "gh issue edit 12 --title new",
    "gh issue edit 12 --add-label done --body x",
    "gh pr merge 3 --squash",
    "gh pr close 3",
    "gh pr ready 3",
    "gh release create v1.0.0",
    "gh release delete v1.0.0",
    "gh release edit v1.0.0 --draft=false",
    "gh release upload v1.0.0 dist.tgz",
    "gh api repos/o/r/issues/1 -X PATCH -f state=closed",
    "gh api /user",
    "gh repo delete o/r --yes",
    "gh repo archive o/r",
    "git push --force",
    "git push -f origin main",
    "git push origin main --force-with-lease",
    "git push --force-with-lease=main:abc origin main",
    "git push origin +main",
    "git push origin +HEAD:refs/heads/main",
    "git push --delete origin old-branch",
    "git push -d origin old-branch",
    "git push origin :old-branch",
    "git push --mirror backup",
    "git push --prune origin",
    "git push -uf origin main",
  ];
  it.each(patterns)("refuses %s", (command) => {
    const verdict = isBoundaryCommand(command);
    expect(verdict.refused).toBe(true);
    expect(verdict.reason).toMatch(/\S/);
  });

  it("names the action in the reason", () => {
    expect(isBoundaryCommand("gh issue close 1").reason).toContain("gh issue close");
    expect(isBoundaryCommand("gh pr merge 1").reason).toContain("gh pr merge");
    expect(isBoundaryCommand("gh api /x").reason).toContain("gh api");
    expect(isBoundaryCommand("git push -f").reason).toContain("force");
    expect(isBoundaryCommand("git push origin :x").reason).toContain("delete");
  });
});

describe("isBoundaryCommand: evasions", () => {
  const evasions: Array<[string, string]> = [
    ["sh -c", `sh -c 'gh issue close 1'`],
    ["bash -c", `bash -c "gh pr merge 2"`],
    ["bash -lc", `bash -lc 'gh api /x'`],
    ["nested sh -c", `sh -c "bash -c 'gh issue close 1'"`],
    ["$( )", `echo $(gh issue close 1)`],
    ["$( ) in double quotes", `echo "done: $(gh issue close 1)"`],
    ["backticks", "echo `gh issue close 1`"],
    ["env", "env gh issue close 1"],
    ["env with options and assignments", "env -i FOO=1 GH_TOKEN=x gh issue close 1"],
    ["command", "command gh pr merge 1"],
    ["exec", "exec gh release create v1"],
    ["xargs", "echo 1 | xargs gh issue close"],
    ["xargs -I", "echo 1 | xargs -I{} gh issue close {}"],
    ["xargs taking the subcommand from stdin", `echo "issue close 1" | xargs gh`],
    ["xargs taking the action from stdin", "echo close 1 | xargs gh issue"],
    ["xargs git push", "echo --force | xargs git push origin"],
    ["absolute path", "/usr/bin/gh issue close 1"],
    ["relative path", "./bin/gh issue close 1"],
    ["double-quoted letters", `g"h" issue close 1`],
    ["single-quoted letters", `'g'h i'ss'ue "clo"se 1`],
    ["backslash", `\\gh issue cl\\ose 1`],
    ["ANSI-C quoting", `$'\\x67h' issue close 1`],
    ["semicolon", "echo hi; gh issue close 1"],
    ["&&", "true && gh pr merge 1"],
    ["||", "false || gh release delete v1"],
    ["pipe", "echo y | gh repo delete o/r"],
    ["newline", "echo start\ngh issue close 1"],
    ["background &", "gh issue close 1 & wait"],
    ["subshell", "(cd sub && gh issue close 1)"],
    ["brace group", "{ gh issue close 1; }"],
    ["if", "if true; then gh issue close 1; fi"],
    ["for loop", "for n in 1 2; do gh issue close $n; done"],
    ["nohup / timeout / sudo", "nohup timeout 10 sudo gh issue close 1"],
    ["find -exec", "find . -name x -exec gh issue close 1 \\;"],
    ["repo flag between group and action", "gh issue -R o/r close 1"],
    ["variable assigned in the command", "G=gh; $G issue close 1"],
    ["variable with the subcommand", `A="issue close"; gh $A 1`],
    ["unknown variable as subcommand", "gh $SUB 1"],
    ["program hidden in a substitution", "$(which gh) issue close 1"],
    ["program hidden in an env variable", "$GH issue close 1"],
    ["brace expansion with an empty alternative", "{gh,} issue close 1"],
    ["brace sequence", "g{h..h} issue close 1"],
    ["brace expansion of the whole command", "{gh,issue,close} 1"],
    ["glob as program name", "/usr/bin/g? issue close 1"],
    ["glob as action", "gh issue clos? 1"],
    ["eval", `eval "gh issue close 1"`],
    ["eval of a variable", `eval "$CMD"`],
    ["sh -c with hidden code", `sh -c "$CMD"`],
    ["pipe into sh", `echo 'gh issue close 1' | sh`],
    ["printf into bash", `printf '%s\\n' "gh pr merge 1" | bash`],
    ["here-string to sh", `sh <<< "gh issue close 1"`],
    ["here-doc to bash", "bash <<'EOF'\necho hi\ngh issue close 1\nEOF"],
    ["here-doc substitution", "cat <<EOF\n$(gh issue close 1)\nEOF"],
    ["python -c", `python3 -c "import subprocess; subprocess.run(['gh', 'issue', 'close', '1'])"`],
    ["node -e", `node -e "require('child_process').execSync('gh pr merge 1')"`],
    ["python here-doc", `python3 - <<'EOF'\nimport os\nos.system("git push --force")\nEOF`],
    ["git -C", "git -C ../other push --force"],
    ["git -c alias", `git -c alias.p='push --force' p`],
    ["git config alias", `git config alias.pf 'push --force'`],
    ["git alias to a shell command", `git config alias.c '!gh issue close 1'`],
    ["gh alias", `gh alias set c 'issue close'`],
    ["git push with a hidden refspec", "git push origin $REF"],
    ["git push with a refspec that splits", "git push origin HEAD:refs/heads/$BRANCH"],
    ["git push with a quoted substitution", `git push origin "$(git branch --show-current)"`],
    ["process substitution", "cat <(gh api /x)"],
    ["a default value", `echo \${X:-$(gh issue close 1)}`],
    ["ssh", `ssh host "gh issue close 1"`],
    ["watch", "watch -n 5 gh issue close 1"],
    ["a script written and run in one command", "printf 'gh issue close 1' > x.sh && bash x.sh"],
  ];
  it.each(evasions)("refuses through %s", (_name, command) => {
    expect(isBoundaryCommand(command).refused).toBe(true);
  });
});

describe("isBoundaryCommand: harmless commands", () => {
  const harmless = [
    "gh issue view 1",
    "gh issue view 1 --comments",
    "gh issue list --label bug",
    "gh issue comment 1 --body 'working on it'",
    "gh pr view 3 --json state",
    "gh pr list",
    "gh pr create --fill",
    "gh pr checks 3",
    "gh release list",
    "gh release view v1",
    "gh repo view",
    "gh --version",
    "gh auth status",
    "which gh",
    "command -v gh",
    "git status --porcelain",
    "git push",
    "git push origin main",
    "git push -u origin feature/x",
    "git push --set-upstream origin HEAD",
    "git push --tags",
    "git push -o ci.skip origin main",
    `git push origin "HEAD:refs/heads/$BRANCH"`,
    "git log --oneline -5",
    "git commit -m 'fix: stop calling gh issue close from work steps'",
    'git commit -m "git push --force is refused"',
    `echo "gh issue close"`,
    `echo 'gh pr merge 1' > notes.txt`,
    `grep -rn "gh api" src/`,
    `rg "git push --force" docs`,
    "cat <<'EOF' > release-notes.md\nRun gh release create v1 after merge.\nEOF",
    "printf '%s\\n' 'gh issue close 1' > docs/howto.md",
    "pnpm test && pnpm lint",
    "ls -la | sort | head -5",
    "cp $SRC $DST",
    `for f in *.ts; do wc -l "$f"; done`,
    "npm run build 2>&1 | tail -20",
    "echo $HOME",
    "bash -c 'echo hi && ls'",
    `python3 -c "print('hello')"`,
    "node -e 'console.log(1+1)'",
    "find . -name '*.ts' -exec wc -l {} +",
    "git config user.name 'Bot'",
    "echo 'x' | xargs echo",
    `git add -A && git commit -m "feat: x" && git push -u origin HEAD`,
    `gh pr create --title "x" --body "$(cat body.md)"`,
    "gh pr view --json number -q .number | xargs -I{} gh pr checks {}",
    `cat package.json | python3 -c "import json,sys; print(json.load(sys.stdin)['name'])"`,
    "git stash push -m wip",
    "git push origin --tags 2>&1 | tail -5",
    `export PATH="$PWD/node_modules/.bin:$PATH" && vitest run`,
  ];
  it.each(harmless)("allows %s", (command) => {
    expect(isBoundaryCommand(command)).toEqual({ refused: false });
  });
});

describe("isBoundaryCommand: scripts", () => {
  const tempDir = useTempDirs();

  function reader(dir: string) {
    return (file: string) => {
      try {
        return readFileSync(path.resolve(dir, file), "utf8");
      } catch {
        return undefined;
      }
    };
  }

  it("inspects a shell script the command runs", () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, "scripts"));
    writeFileSync(path.join(dir, "scripts/finish.sh"), "#!/bin/sh\necho done\ngh issue close 1\n");
    writeFileSync(
      path.join(dir, "ok.sh"),
      "#!/bin/sh\necho fine\n# gh issue close is not for us\n",
    );
    const readScript = reader(dir);
    for (const command of [
      "./scripts/finish.sh",
      "bash scripts/finish.sh",
      "sh < scripts/finish.sh",
      "source scripts/finish.sh",
      ". scripts/finish.sh",
    ]) {
      expect(isBoundaryCommand(command, { readScript }).refused, command).toBe(true);
    }
    expect(isBoundaryCommand("./ok.sh", { readScript }).refused).toBe(false);
    expect(isBoundaryCommand("bash ok.sh", { readScript }).refused).toBe(false);
  });

  it("searches interpreter scripts as text", () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, "release.py"),
      "import subprocess\nsubprocess.run(['gh', 'release', 'create', 'v1'])\n",
    );
    writeFileSync(path.join(dir, "report.py"), "print('all good')\n");
    writeFileSync(
      path.join(dir, "tool.js"),
      "#!/usr/bin/env node\nrequire('child_process').execSync('git push -f');\n",
    );
    const readScript = reader(dir);
    expect(isBoundaryCommand("python3 release.py", { readScript }).refused).toBe(true);
    expect(isBoundaryCommand("python3 report.py", { readScript }).refused).toBe(false);
    expect(isBoundaryCommand("./tool.js", { readScript }).refused).toBe(true);
  });
});

describe("isBoundaryCommand: properties", () => {
  const word = fc.stringMatching(/^[a-z0-9._-]{1,8}$/);

  it("never throws, whatever the input", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (command) => {
        const verdict = isBoundaryCommand(command);
        expect(typeof verdict.refused).toBe("boolean");
      }),
      { numRuns: 500 },
    );
  });

  it("refuses a boundary gh command behind any harmless prefix and separator", () => {
    const action = fc.constantFrom(
      "issue close",
      "pr merge",
      "release create",
      "api",
      "repo delete",
    );
    const separator = fc.constantFrom("; ", " && ", " || ", " | ", "\n", " & ");
    fc.assert(
      fc.property(
        fc.array(word, { maxLength: 3 }),
        separator,
        action,
        word,
        (prefix, sep, act, arg) => {
          const head = prefix.length > 0 ? `echo ${prefix.join(" ")}${sep}` : "";
          expect(refused(`${head}gh ${act} ${arg}`)).toBe(true);
        },
      ),
    );
  });

  it("does not refuse data that only mentions a boundary command in quotes", () => {
    const action = fc.constantFrom("issue close 1", "pr merge 2", "api /x", "release create v1");
    fc.assert(
      fc.property(action, fc.constantFrom("echo", "printf '%s'", "grep -rn"), (act, printer) => {
        expect(refused(`${printer} "gh ${act}"`)).toBe(false);
      }),
    );
  });
});

describe("isBoundaryCommand: abbreviated and indirect pushes", () => {
  it.each([
    "git push --force-w origin HEAD:main",
    "git push --mirr origin",
    "git push --del origin main",
    "git push --fo origin main",
    "git -c remote.origin.mirror=true push origin",
    "git send-pack --force ../remote.git HEAD:refs/heads/main",
  ])("refuses %s", (command) => {
    expect(isBoundaryCommand(command).refused).toBe(true);
  });
});

describe("isBoundaryCommand: bounded time", () => {
  // Each shape made the previous filter super-linear (a 39 KiB command held the event loop for
  // seconds); now every one ends with a verdict. The benchmark prints how long they take.
  const size = 39 * 1024;
  const fill = (unit: string): string => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
  const shapes: Array<[string, string]> = [
    ["many words", fill("aa ")],
    ["many script paths after bash", `bash ${fill("a/b ")}`],
    ["many scripts after python", `python3 ${fill("x/y.py ")}`],
    ["many git words", fill("git x ")],
    ["many gh words", fill("gh x ")],
    ["many git push", fill("git push a ")],
    ["many dynamic words", fill("$a ")],
    ["many eval", fill("eval ")],
    ["many sh", fill("sh ")],
    ["nested substitutions", `echo ${"$(".repeat(3000)}x${")".repeat(3000)}`],
    ["globs against program names", fill("*a*a*a*a*a*a*a*a*a*a ")],
  ];
  it.each(shapes)("gives a verdict on %s", (_name, command) => {
    const verdict = isBoundaryCommand(command);
    expect(typeof verdict.refused).toBe("boolean");
  });

  it("refuses a command over the size cap with advice, without reading it", () => {
    const verdict = isBoundaryCommand(`echo ${"x".repeat(70 * 1024)}`);
    expect(verdict).toEqual({
      refused: true,
      reason: expect.stringContaining("write the commands to a script file"),
    });
  });
});

describe("isBoundaryCommand: label edits from a closure step", () => {
  const inClosure = (command: string) =>
    isBoundaryCommand(command, { allowLabelEdits: true }).refused;

  it("lets a closure step add and remove labels, as the original's triager does", () => {
    for (const command of [
      "gh issue edit 12 --add-label kind:impl --add-label order:3",
      "gh issue edit 12 --remove-label need-triage --add-label=done",
      'gh issue edit 12 --repo o/r --add-label "$KIND"',
      "gh issue list --json number | cat; gh issue edit 4 --add-label triaged",
      "gh issue comment 12 --body 'triaged as kind:impl'",
    ]) {
      expect(inClosure(command), command).toBe(false);
    }
  });

  it("still refuses closing, merging, releasing and every other issue edit", () => {
    for (const command of [
      "gh issue close 12",
      "gh issue edit 12 --add-label done && gh issue close 12",
      "gh issue edit 12 --add-label done --title 'Closed'",
      "gh issue edit 12 --add-label done --milestone v2",
      "gh issue edit 12 13 --add-label done",
      "gh issue edit $N --add-label done",
      "gh issue edit 12 --body-file notes.md",
      "gh pr merge 3 --squash",
      "gh release create v1.0.0",
      "gh api repos/o/r/issues/12/labels -f labels[]=done",
    ]) {
      expect(inClosure(command), command).toBe(true);
    }
    // Work and verification steps keep refusing label edits.
    expect(refused("gh issue edit 12 --add-label done")).toBe(true);
  });
});
