#!/usr/bin/env bash
# scripts/render.sh keeps the build's output out of the render's report: the build goes to a log
# and one line on stderr says how it went. A stand-in cmake prints what a build prints (and builds
# nothing) and records how it was called; the binary already built in BUILD_DIR renders a tiny
# scene. A build folder configured before is only built (`cmake --build` of the one target: a run
# with nothing to rebuild spent 12 s configuring again); a new one is configured first.
#   render_script_test.sh SOURCE_DIR BUILD_DIR SCRATCH_DIR
set -euo pipefail
source_dir=$1 build_dir=$2 scratch=$3
rm -rf "$scratch"
mkdir -p "$scratch/bin"
cat >"$scratch/bin/cmake" <<CMAKE
#!/bin/sh
echo "\$*" >>"$scratch/cmake.calls"
for step in 25 50 75 100; do echo "[ \$step%] Building CXX object src/CMakeFiles/stand_in.dir/step\$step.o"; done
CMAKE
chmod +x "$scratch/bin/cmake"
fail() {
  echo "render_script_test: $*" >&2
  echo "--- stdout:" >&2; cat "$scratch/stdout" >&2
  echo "--- stderr:" >&2; cat "$scratch/stderr" >&2
  exit 1
}
(cd "$source_dir" && PATH="$scratch/bin:$PATH" RAYSTREAM_BUILD_DIR="$build_dir" \
   RAYSTREAM_SKIP_SETUP=1 bash scripts/render.sh tests/data/tiny.json --device cpu --spp 1 \
   --output "$scratch/out.png") >"$scratch/stdout" 2>"$scratch/stderr" || fail "exit code $?"
grep -q "Building" "$scratch/stdout" "$scratch/stderr" && fail "the build's output is not in its log"
head -n 1 "$scratch/stdout" | grep -q "^tests/data/tiny.json: 24 x 16, 1 sample per pixel" ||
  fail "stdout does not start with the report"
[[ "$(grep -c "^render: " "$scratch/stderr")" == 1 ]] || fail "not one summary line"
grep -q "^render: .*raystream built in [0-9]* s (log: .*render-build.log)$" "$scratch/stderr" ||
  fail "no summary line naming the time and the log"
[[ "$(grep -c "Building CXX object" "$build_dir/render-build.log")" == 4 ]] ||
  fail "the log does not hold the build's output"
[[ -f "$scratch/out.png" ]] || fail "no image"
# The build folder was configured: one call, the build of the one target, no configure.
[[ "$(wc -l <"$scratch/cmake.calls")" == 1 ]] || fail "cmake called more than once: $(cat "$scratch/cmake.calls")"
grep -q "^--build $build_dir .*--target raystream" "$scratch/cmake.calls" ||
  fail "not a build of raystream alone: $(cat "$scratch/cmake.calls")"
# A new build folder is configured first, then built.
fresh="$scratch/fresh"
mkdir -p "$fresh"
ln -s "$build_dir/raystream" "$fresh/raystream"
rm -f "$scratch/cmake.calls"
(cd "$source_dir" && PATH="$scratch/bin:$PATH" RAYSTREAM_BUILD_DIR="$fresh" \
   RAYSTREAM_SKIP_SETUP=1 bash scripts/render.sh tests/data/tiny.json --device cpu --spp 1 \
   --output "$scratch/fresh.png") >"$scratch/stdout" 2>"$scratch/stderr" || fail "exit code $? (new folder)"
grep -q -- "-S \. -B $fresh" "$scratch/cmake.calls" || fail "a new folder is not configured: $(cat "$scratch/cmake.calls")"
grep -q -- "^--build $fresh" "$scratch/cmake.calls" || fail "a new folder is not built: $(cat "$scratch/cmake.calls")"
echo "render_script_test: passed"
