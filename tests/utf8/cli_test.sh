#!/usr/bin/env bash
# Tests of the utf8 command line: cli_test.sh UTF8_BINARY DATA_DIR cpu|gpu
#   cpu: usage and file errors, which need no device;
#   gpu: decode / encode / validate through files (exit 77, ctest's skip, without a device).
set -u
bin=$1
data=$2
mode=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
# expect_exit CODE DESCRIPTION -- COMMAND...: runs COMMAND, stdout to $tmp/out.txt, stderr to
# $tmp/err.txt, and checks its exit status.
expect_exit() {
  local code=$1 what=$2
  shift 3
  "$@" >"$tmp/out.txt" 2>"$tmp/err.txt"
  local rc=$?
  [ "$rc" -eq "$code" ] || fail "$what: exit $rc, expected $code (stderr: $(cat "$tmp/err.txt"))"
}
hex() { od -An -tx1 -v "$1" | tr -d ' \n'; }

if [ "$mode" = cpu ]; then
  expect_exit 0 "--help" -- "$bin" --help
  grep -q "usage: utf8" "$tmp/out.txt" || fail "--help prints no usage"
  expect_exit 2 "no arguments" -- "$bin"
  grep -q "missing command" "$tmp/err.txt" || fail "no arguments: no message"
  expect_exit 2 "unknown command" -- "$bin" frobnicate a b
  grep -q "unknown command 'frobnicate'" "$tmp/err.txt" || fail "unknown command: no message"
  expect_exit 2 "decode without OUT" -- "$bin" decode "$data/scripts.txt"
  grep -q "missing IN or OUT" "$tmp/err.txt" || fail "decode without OUT: no message"
  expect_exit 2 "validate with OUT" -- "$bin" validate "$data/scripts.txt" "$tmp/x"
  expect_exit 2 "bad method" -- "$bin" decode "$data/scripts.txt" "$tmp/x" --method=bogus
  grep -q "bogus" "$tmp/err.txt" || fail "bad method: message does not name it"
  expect_exit 2 "bad scan" -- "$bin" decode "$data/scripts.txt" "$tmp/x" --scan=bogus
  expect_exit 2 "bad option" -- "$bin" decode "$data/scripts.txt" "$tmp/x" --frobnicate
  expect_exit 2 "missing input" -- "$bin" decode "$tmp/missing.txt" "$tmp/out.u32"
  grep -q "missing.txt" "$tmp/err.txt" || fail "missing input: message does not name the file"
  [ ! -e "$tmp/out.u32" ] || fail "missing input: an output was written"
  expect_exit 2 "input is a folder" -- "$bin" validate "$tmp"
  [ "$(ls "$tmp" | grep -c tmp)" -eq 0 ] || fail "a temporary file was left behind"
else
  "$bin" validate "$data/scripts.txt" >"$tmp/out.txt" 2>"$tmp/err.txt"
  if grep -q "no CUDA device" "$tmp/err.txt"; then
    echo "no CUDA device: skipping"
    exit 77
  fi
  for method in tiled compact; do
    opt="--method=$method"
    expect_exit 0 "validate ($method)" -- "$bin" validate "$data/scripts.txt" "$opt"
    [ "$(cat "$tmp/out.txt")" = OK ] || fail "validate ($method) prints '$(cat "$tmp/out.txt")'"
    grep -q "GB/s" "$tmp/err.txt" || fail "validate ($method): no throughput line"
    expect_exit 0 "decode ($method)" -- "$bin" decode "$data/scripts.txt" "$tmp/s.u32" "$opt"
    grep -q "GB/s" "$tmp/err.txt" || fail "decode ($method): no throughput line"
    expect_exit 0 "encode ($method)" -- "$bin" encode "$tmp/s.u32" "$tmp/s.txt" "$opt"
    cmp -s "$data/scripts.txt" "$tmp/s.txt" || fail "decode then encode ($method) is not the identity"
    if command -v iconv >/dev/null; then
      iconv -f UTF-8 -t UTF-32LE "$data/scripts.txt" >"$tmp/iconv.u32"
      cmp -s "$tmp/iconv.u32" "$tmp/s.u32" || fail "decode ($method) differs from iconv"
    fi

    # Unicode Table 3-8.
    printf '\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64' >"$tmp/bad.txt"
    expect_exit 0 "decode invalid ($method)" -- "$bin" decode "$tmp/bad.txt" "$tmp/bad.u32" "$opt"
    want=61000000fdff0000fdff0000fdff000062000000fdff000063000000fdff0000fdff000064000000
    [ "$(hex "$tmp/bad.u32")" = "$want" ] || fail "table 3-8 ($method): $(hex "$tmp/bad.u32")"
    expect_exit 1 "validate invalid ($method)" -- "$bin" validate "$tmp/bad.txt" "$opt"
    [ "$(cat "$tmp/out.txt")" = "invalid UTF-8 at byte offset 1" ] ||
      fail "validate invalid ($method) prints '$(cat "$tmp/out.txt")'"
    rm -f "$tmp/strict.u32"
    expect_exit 1 "decode --on-invalid=report ($method)" -- \
      "$bin" decode "$tmp/bad.txt" "$tmp/strict.u32" --on-invalid=report "$opt"
    grep -q "byte offset 1" "$tmp/err.txt" || fail "report ($method): no offset in the message"
    [ ! -e "$tmp/strict.u32" ] || fail "report ($method): the output was written"

    # Code points that are not scalar values: U+0041 U+D800 U+110000.
    printf '\x41\x00\x00\x00\x00\xD8\x00\x00\x00\x00\x11\x00' >"$tmp/bad.u32"
    expect_exit 0 "encode invalid ($method)" -- "$bin" encode "$tmp/bad.u32" "$tmp/r.txt" "$opt"
    [ "$(hex "$tmp/r.txt")" = 41efbfbdefbfbd ] || fail "encode invalid ($method): $(hex "$tmp/r.txt")"
    expect_exit 1 "encode --on-invalid=report ($method)" -- \
      "$bin" encode "$tmp/bad.u32" "$tmp/strict.txt" --on-invalid=report "$opt"
    [ ! -e "$tmp/strict.txt" ] || fail "encode report ($method): the output was written"
  done
  printf 'abc' >"$tmp/odd.u32"
  expect_exit 2 "encode of a size not a multiple of 4" -- "$bin" encode "$tmp/odd.u32" "$tmp/o.txt"
  grep -q "odd.u32" "$tmp/err.txt" || fail "odd size: message does not name the file"
  expect_exit 2 "unwritable output" -- "$bin" decode "$data/scripts.txt" "$tmp/no/such/dir/o.u32"
  grep -q "no/such/dir/o.u32" "$tmp/err.txt" || fail "unwritable output: message does not name it"
  : >"$tmp/empty.txt"
  expect_exit 0 "decode of an empty file" -- "$bin" decode "$tmp/empty.txt" "$tmp/empty.u32"
  [ -e "$tmp/empty.u32" ] && [ ! -s "$tmp/empty.u32" ] || fail "empty input: no empty output"
  expect_exit 0 "validate of an empty file" -- "$bin" validate "$tmp/empty.txt"
  [ "$(ls "$tmp" | grep -c '\.tmp\.')" -eq 0 ] || fail "a temporary file was left behind"
fi

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all passed"
