#!/usr/bin/env bash
# Captures the output of real tools into src/fixtures/<name>/ so the extractors are tested on what
# the tools really print, not on what we believe they print.
#
#   bash scripts/capture-fixtures.sh            (from packages/validators, or via pnpm capture-fixtures)
#
# Each fixture is a folder with stdout.txt, stderr.txt and meta.json ({tool, version, command,
# exitCode, synthetic}). Temporary project paths are rewritten to /tmp/climpt-fixture so a capture
# is stable across machines. Tools come from this repository's node_modules (tsc, vitest, biome),
# from the machine (git, node, python3 -m pytest, go), or from the npm registry into a throwaway
# folder (jest, eslint, prettier, deno). A tool that cannot run is reported and skipped; its
# fixtures, if any, stay as they are (the synthetic ones are written by hand, see the README).
set -euo pipefail

PKG_DIR=$(cd "$(dirname "$0")/.." && pwd)
REPO_ROOT=$(cd "$PKG_DIR/../.." && pwd)
OUT="$PKG_DIR/src/fixtures"
WORK=$(mktemp -d /tmp/climpt-capture.XXXXXX)
STABLE=/tmp/climpt-fixture
trap 'rm -rf "$WORK"' EXIT

# Plain output (NO_COLOR) except where a fixture asks for colour on purpose; FORCE_COLOR must be
# unset rather than 0, because some tools (deno, biome ci) treat its mere presence as "force".
unset FORCE_COLOR
export NO_COLOR=1 CI=1 TZ=UTC LC_ALL=C.UTF-8 RUST_BACKTRACE=0
export GIT_AUTHOR_NAME=fixture GIT_AUTHOR_EMAIL=fixture@example.invalid
export GIT_COMMITTER_NAME=fixture GIT_COMMITTER_EMAIL=fixture@example.invalid
export GIT_AUTHOR_DATE="2025-01-01T00:00:00Z" GIT_COMMITTER_DATE="2025-01-01T00:00:00Z"
export GIT_CONFIG_NOSYSTEM=1 HOME="$WORK/home"
mkdir -p "$HOME"
git config --global init.defaultBranch main
git config --global advice.detachedHead false

BIN="$REPO_ROOT/node_modules/.bin"
TOOLS="$WORK/npm-tools"
skipped=()

# capture NAME TOOL VERSION DIR COMMAND: runs COMMAND with sh -c in DIR and stores the result.
capture() {
  local name=$1 tool=$2 version=$3 dir=$4 command=$5
  local target="$OUT/$name" code=0
  mkdir -p "$target"
  (cd "$dir" && sh -c "$command") >"$target/stdout.txt" 2>"$target/stderr.txt" || code=$?
  for stream in stdout stderr; do
    sed -i -e "s#$WORK#$STABLE#g" -e "s#$REPO_ROOT#/repo#g" -e "s#$TOOLS#$STABLE/npm-tools#g" \
      "$target/$stream.txt"
  done
  local shown=${command//$TOOLS\/node_modules\/.bin/node_modules\/.bin}
  shown=${shown//$TOOLS\/node_modules/node_modules}
  shown=${shown//$BIN/node_modules\/.bin}
  shown=${shown//$WORK/$STABLE}
  node -e 'const [tool, version, command, exitCode] = process.argv.slice(1);
    process.stdout.write(JSON.stringify({ tool, version, command, exitCode: Number(exitCode), synthetic: false }, null, 2) + "\n");' \
    "$tool" "$version" "$shown" "$code" >"$target/meta.json"
  echo "captured $name (exit $code)"
}

# --- git ---------------------------------------------------------------------------------------
GITV=$(git --version | awk '{print $3}')
G="$WORK/git"
mkdir -p "$G/remote.git" && git -C "$G/remote.git" init -q --bare
git clone -q "$G/remote.git" "$G/repo" 2>/dev/null
cd "$G/repo"
printf 'one\n' >kept.txt
printf 'two\n' >modified.txt
printf 'three\n' >staged.txt
printf 'four\n' >both.txt
printf 'five\n' >deleted.txt
printf 'six\n' >old-name.txt
printf 'seven\n' >"with space.txt"
mkdir -p src && printf 'export const a = 1;\n' >src/index.ts
git add -A && git commit -q -m initial && git push -q origin main 2>/dev/null
capture git-status-porcelain-clean git "$GITV" "$G/repo" "git status --porcelain"
capture git-status-porcelain-v2-clean git "$GITV" "$G/repo" "git status --porcelain=v2 --branch"
capture git-branch-show-current git "$GITV" "$G/repo" "git branch --show-current"
printf 'two changed\n' >>modified.txt
printf 'three changed\n' >>staged.txt && git add staged.txt
printf 'four staged\n' >>both.txt && git add both.txt && printf 'four unstaged\n' >>both.txt
git rm -q deleted.txt
git mv old-name.txt "new name.txt"
printf 'seven changed\n' >>"with space.txt"
printf 'new\n' >added.txt && git add added.txt
printf 'untracked\n' >untracked.txt
printf 'unicode\n' >"résumé ünïcode.md"
printf 'quote\n' >'say "hi".txt'
printf 'tab\n' >"$(printf 'tab\tname.txt')"
mkdir -p newdir && printf 'x\n' >newdir/inner.txt
printf 'export const b = 2;\n' >>src/index.ts
capture git-status-porcelain-dirty git "$GITV" "$G/repo" "git status --porcelain"
capture git-status-porcelain-v2-dirty git "$GITV" "$G/repo" "git status --porcelain=v2"
capture git-status-porcelain-untracked-all git "$GITV" "$G/repo" "git status --porcelain --untracked-files=all"
capture git-status-short-branch-dirty git "$GITV" "$G/repo" "git status -sb"
capture git-diff git "$GITV" "$G/repo" "git diff"
capture git-diff-head git "$GITV" "$G/repo" "git diff HEAD"
git stash -q -u
# Ahead 1, behind 2: two commits pushed from a second clone, one local commit.
git clone -q "$G/remote.git" "$G/other" 2>/dev/null
(cd "$G/other" && printf 'a\n' >r1.txt && git add r1.txt && git commit -q -m r1 &&
  printf 'b\n' >r2.txt && git add r2.txt && git commit -q -m r2 && git push -q origin main 2>/dev/null)
git fetch -q origin
printf 'local\n' >local.txt && git add local.txt && git commit -q -m local
capture git-status-branch-ahead-behind git "$GITV" "$G/repo" "git status --porcelain --branch"
capture git-status-v2-branch-ahead-behind git "$GITV" "$G/repo" "git status --porcelain=v2 --branch"
capture git-status-sb-ahead-behind git "$GITV" "$G/repo" "git status -sb"
# Merge with a conflict, then the status during the conflict.
(cd "$G/other" && printf 'theirs\n' >kept.txt && printf 'theirs\n' >modified.txt &&
  git commit -q -am "their change" && git push -q origin main 2>/dev/null)
git fetch -q origin
printf 'ours\n' >kept.txt && printf 'ours\n' >modified.txt && git commit -q -am "our change"
capture git-merge-conflict git "$GITV" "$G/repo" "git merge origin/main"
capture git-status-porcelain-conflict git "$GITV" "$G/repo" "git status --porcelain"
capture git-status-v2-conflict git "$GITV" "$G/repo" "git status --porcelain=v2 --branch"
capture git-diff-name-only-conflict git "$GITV" "$G/repo" "git diff --name-only --diff-filter=U"
git merge --abort
git reset -q --hard HEAD~1
capture git-merge-clean git "$GITV" "$G/repo" "git merge --no-edit origin/main"
capture git-merge-up-to-date git "$GITV" "$G/repo" "git merge origin/main"
git checkout -q --detach HEAD
capture git-status-branch-detached git "$GITV" "$G/repo" "git status --porcelain --branch"
capture git-branch-show-current-detached git "$GITV" "$G/repo" "git branch --show-current"
mkdir -p "$G/fresh" && git -C "$G/fresh" init -q && printf 'x\n' >"$G/fresh/a.txt"
capture git-status-branch-no-commits git "$GITV" "$G/fresh" "git status --porcelain --branch"
git -C "$G/repo" checkout -q -b feature/no-upstream
capture git-status-branch-no-upstream git "$GITV" "$G/repo" "git status --porcelain --branch"
cd "$WORK"

# --- tsc ---------------------------------------------------------------------------------------
TSV=$("$BIN/tsc" --version | awk '{print $2}')
T="$WORK/tsc"
mkdir -p "$T/src"
cat >"$T/tsconfig.json" <<'EOF'
{ "compilerOptions": { "strict": true, "noEmit": true, "target": "ES2022", "module": "nodenext", "types": [] }, "include": ["src"] }
EOF
cat >"$T/src/math.ts" <<'EOF'
export function add(a: number, b: number): number {
  return a + b;
}
const total: string = add(1, 2);
export const message = total.toUpperCase();
EOF
cat >"$T/src/user name.ts" <<'EOF'
interface User {
  name: string;
}
export const user: User = { name: "a", age: 3 };
export function greet(u: User) {
  return u.nickname;
}
EOF
capture tsc-errors tsc "$TSV" "$T" "$BIN/tsc -p tsconfig.json"
capture tsc-errors-pretty tsc "$TSV" "$T" "$BIN/tsc -p tsconfig.json --pretty"
mkdir -p "$T/clean/src" && cp "$T/tsconfig.json" "$T/clean/" && printf 'export const ok: number = 1;\n' >"$T/clean/src/ok.ts"
capture tsc-clean tsc "$TSV" "$T/clean" "$BIN/tsc -p tsconfig.json"

# --- vitest ------------------------------------------------------------------------------------
VTV=$("$BIN/vitest" --version | sed 's#.*/##; s# .*##')
V="$WORK/vitest"
mkdir -p "$V/test"
ln -s "$REPO_ROOT/node_modules" "$V/node_modules"
printf '{ "type": "module" }\n' >"$V/package.json"
cat >"$V/test/math.test.ts" <<'EOF'
import { describe, expect, it } from "vitest";

describe("math", () => {
  it("adds", () => {
    expect(1 + 1).toBe(2);
  });
  it("subtracts wrongly", () => {
    expect(5 - 3).toBe(1);
  });
  it.skip("multiplies later", () => {});
});
EOF
cat >"$V/test/strings.test.ts" <<'EOF'
import { expect, test } from "vitest";

test("upper", () => {
  expect("a".toUpperCase()).toBe("A");
});
test("throws", () => {
  throw new Error("boom in strings");
});
EOF
cat >"$V/test/ok.test.ts" <<'EOF'
import { expect, test } from "vitest";

test("fine", () => {
  expect(true).toBe(true);
});
EOF
capture vitest-failures vitest "$VTV" "$V" "$BIN/vitest run"
capture vitest-failures-color vitest "$VTV" "$V" "env -u NO_COLOR -u CI FORCE_COLOR=1 $BIN/vitest run"
capture vitest-failures-verbose vitest "$VTV" "$V" "$BIN/vitest run --reporter=verbose"
capture vitest-pass vitest "$VTV" "$V" "$BIN/vitest run test/ok.test.ts"

# --- biome -------------------------------------------------------------------------------------
BMV=$("$BIN/biome" --version | awk '{print $2}')
B="$WORK/biome"
mkdir -p "$B/src"
printf '{ "$schema": "https://biomejs.dev/schemas/%s/schema.json" }\n' "$BMV" >"$B/biome.json"
printf 'const  a = {x:1,\n  y:2}\nexport default a\n' >"$B/src/ugly.js"
printf 'export function f(x) {\n  if (x == null) { debugger; }\n  return x;\n}\n' >"$B/src/lint.js"
printf 'export const fine = 1;\n' >"$B/src/fine.js"
capture biome-format biome "$BMV" "$B" "$BIN/biome format ."
capture biome-check biome "$BMV" "$B" "$BIN/biome check ."
capture biome-lint biome "$BMV" "$B" "$BIN/biome lint ."
capture biome-ci biome "$BMV" "$B" "$BIN/biome ci ."

# --- node:test ---------------------------------------------------------------------------------
NV=$(node --version)
N="$WORK/node-test"
mkdir -p "$N/test"
cat >"$N/test/math.test.mjs" <<'EOF'
import assert from "node:assert/strict";
import { describe, it, test } from "node:test";

describe("math", () => {
  it("adds", () => {
    assert.equal(1 + 1, 2);
  });
  it("subtracts wrongly", () => {
    assert.equal(5 - 3, 1);
  });
  it("multiplies later", { skip: "not yet" }, () => {});
});

test("top-level failure", () => {
  throw new Error("boom at top level");
});
test("todo item", { todo: true }, () => {});
EOF
capture node-test-tap node "$NV" "$N" "node --test --test-reporter=tap test/"
capture node-test-spec node "$NV" "$N" "node --test --test-reporter=spec test/"

# --- pytest (the machine's python, if it has pytest) --------------------------------------------
if python3 -m pytest --version >/dev/null 2>&1; then
  PYV=$(python3 -m pytest --version 2>&1 | awk '{print $2}')
  P="$WORK/pytest"
  mkdir -p "$P/tests"
  cat >"$P/tests/test_math.py" <<'EOF'
import pytest


def test_adds():
    assert 1 + 1 == 2


def test_subtracts_wrongly():
    assert 5 - 3 == 1


@pytest.mark.skip(reason="later")
def test_multiplies():
    pass


class TestStrings:
    def test_upper(self):
        assert "a".upper() == "A"

    def test_raises(self):
        raise ValueError("boom in strings")
EOF
  capture pytest-failures pytest "$PYV" "$P" "python3 -m pytest -p no:cacheprovider tests"
  capture pytest-failures-verbose pytest "$PYV" "$P" "python3 -m pytest -p no:cacheprovider -v tests"
else
  skipped+=(pytest)
fi

# --- go test -----------------------------------------------------------------------------------
if command -v go >/dev/null 2>&1; then
  GOV=$(go version | awk '{print $3}')
  GO="$WORK/go"
  mkdir -p "$GO/calc"
  export GOCACHE="$WORK/gocache" GOPATH="$WORK/gopath" GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local
  printf 'module example.com/calc\n\ngo 1.19\n' >"$GO/go.mod"
  cat >"$GO/calc/calc.go" <<'EOF'
package calc

func Add(a, b int) int { return a + b }
EOF
  cat >"$GO/calc/calc_test.go" <<'EOF'
package calc

import "testing"

func TestAdd(t *testing.T) {
	if Add(1, 1) != 2 {
		t.Fatal("bad")
	}
}

func TestSubtractWrongly(t *testing.T) {
	if got := 5 - 3; got != 1 {
		t.Errorf("5 - 3 = %d, want 1", got)
	}
}

func TestLater(t *testing.T) {
	t.Skip("later")
}

func TestTable(t *testing.T) {
	t.Run("ok", func(t *testing.T) {})
	t.Run("bad case", func(t *testing.T) { t.Error("sub failed") })
}
EOF
  mkdir -p "$GO/fine" && printf 'package fine\n\nimport "testing"\n\nfunc TestFine(t *testing.T) {}\n' >"$GO/fine/fine_test.go"
  capture go-test-failures go "$GOV" "$GO" "go test -count=1 ./..."
  capture go-test-failures-verbose go "$GOV" "$GO" "go test -count=1 -v ./..."
  capture go-test-pass go "$GOV" "$GO" "go test -count=1 ./fine/"
  capture go-test-json go "$GOV" "$GO" "go test -count=1 -json ./..."
else
  skipped+=(go)
fi

# --- tools from the npm registry ----------------------------------------------------------------
mkdir -p "$TOOLS"
if (cd "$TOOLS" && npm init -y >/dev/null 2>&1 &&
  npm install --no-audit --no-fund --loglevel=error jest@30 eslint@10 eslint-formatter-unix prettier@3 deno >/dev/null 2>&1); then
  TB="$TOOLS/node_modules/.bin"

  JV=$("$TB/jest" --version)
  J="$WORK/jest"
  mkdir -p "$J/__tests__"
  printf '{ "name": "jest-fixture", "private": true }\n' >"$J/package.json"
  cat >"$J/__tests__/math.test.js" <<'EOF'
describe("math", () => {
  test("adds", () => {
    expect(1 + 1).toBe(2);
  });
  test("subtracts wrongly", () => {
    expect(5 - 3).toBe(1);
  });
  test.skip("multiplies later", () => {});
});
EOF
  cat >"$J/__tests__/strings.test.js" <<'EOF'
test("upper", () => {
  expect("a".toUpperCase()).toBe("A");
});
EOF
  capture jest-failures jest "$JV" "$J" "$TB/jest --ci"
  capture jest-failures-verbose jest "$JV" "$J" "$TB/jest --ci --verbose"

  EV=$("$TB/eslint" --version | tr -d v)
  E="$WORK/eslint"
  mkdir -p "$E/src"
  printf '{ "type": "module" }\n' >"$E/package.json"
  cat >"$E/eslint.config.js" <<'EOF'
export default [
  {
    rules: {
      "no-unused-vars": "error",
      "no-debugger": "warn",
      eqeqeq: "error",
    },
  },
];
EOF
  printf 'const unused = 1;\nexport function f(x) {\n  if (x == null) {\n    debugger;\n  }\n  return x;\n}\n' >"$E/src/app.js"
  printf 'export const fine = 1;\n' >"$E/src/fine.js"
  capture eslint-stylish eslint "$EV" "$E" "$TB/eslint src"
  capture eslint-unix eslint "$EV" "$E" "$TB/eslint -f $TOOLS/node_modules/eslint-formatter-unix/index.js src"

  PV=$("$TB/prettier" --version)
  PR="$WORK/prettier"
  mkdir -p "$PR/src"
  printf 'const  a = {x:1,\n  y:2}\n' >"$PR/src/ugly.js"
  printf 'const b = { y: 2 };\n' >"$PR/src/fine.js"
  printf '#  Title\n*  item\n' >"$PR/README.md"
  capture prettier-check prettier "$PV" "$PR" "$TB/prettier --check ."
  capture prettier-list-different prettier "$PV" "$PR" "$TB/prettier --list-different ."

  if "$TB/deno" --version >/dev/null 2>&1; then
    DV=$("$TB/deno" --version | head -1 | awk '{print $2}')
    export DENO_DIR="$WORK/deno-dir" DENO_NO_UPDATE_CHECK=1 DENO_NO_PROMPT=1
    D="$WORK/deno"
    mkdir -p "$D"
    printf '{}\n' >"$D/deno.json"
    cat >"$D/math_test.ts" <<'EOF'
function assertEquals(actual: unknown, expected: unknown) {
  if (actual !== expected) throw new Error(`expected ${expected}, got ${actual}`);
}

Deno.test("adds", () => {
  assertEquals(1 + 1, 2);
});
Deno.test("subtracts wrongly", () => {
  assertEquals(5 - 3, 1);
});
Deno.test({ name: "later", ignore: true, fn() {} });
Deno.test("steps", async (t) => {
  await t.step("inner ok", () => {});
});
EOF
    cat >"$D/types.ts" <<'EOF'
const count: number = "three";
export function shout(s: string): string {
  return s.toUpperCase(1);
}
export { count };
EOF
    printf 'export function f(x: number) {\n  debugger;\n  var y = x;\n  return y;\n}\n' >"$D/lint.ts"
    printf 'const  a = {x:1,\n  y:2}\nexport { a }\n' >"$D/ugly.ts"
    capture deno-test deno "$DV" "$D" "$TB/deno test --no-check math_test.ts"
    capture deno-check deno "$DV" "$D" "$TB/deno check types.ts"
    capture deno-lint deno "$DV" "$D" "$TB/deno lint lint.ts"
    capture deno-fmt-check deno "$DV" "$D" "$TB/deno fmt --check"
  else
    skipped+=(deno)
  fi
else
  skipped+=(jest eslint prettier deno)
fi

if ((${#skipped[@]})); then
  echo "not captured (tool unavailable): ${skipped[*]}" >&2
fi
