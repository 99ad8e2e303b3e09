#!/usr/bin/env bash
# scripts/render.sh keeps the build's output out of the render's report: the build goes to a log
# and one line on stderr says how it went. A stand-in cmake prints what a build prints (and builds
# nothing) and records how it was called; the binary already built in BUILD_DIR renders a tiny
# scene. A build folder configured before is only built (`cmake --build` of the one target: a run
# with nothing to rebuild spent 12 s configuring again); a new one is configured first. Paths are
# the caller's: run from another folder, the scene and the image are found and written there (the
# default image in its renders/), and the scene may come anywhere among the options.
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
# Run from another folder: relative paths are the caller's, and nothing lands in the repository.
work="$scratch/work"
mkdir -p "$work"
cp "$source_dir/tests/data/tiny.json" "$work/s.json"
in_work() {  # in_work NAME ARGS...: render.sh run in $work; its exit code in $scratch/NAME.rc
  local name=$1
  shift
  set +e
  (cd "$work" && PATH="$scratch/bin:$PATH" RAYSTREAM_BUILD_DIR="$build_dir" RAYSTREAM_SKIP_SETUP=1 \
     bash "$source_dir/scripts/render.sh" "$@") >"$scratch/stdout" 2>"$scratch/stderr"
  echo $? >"$scratch/$name.rc"
  set -e
}
in_work relative s.json --device cpu --spp 1 -o out.png
[[ "$(cat "$scratch/relative.rc")" == 0 ]] || fail "exit code $(cat "$scratch/relative.rc") from another folder"
[[ -f "$work/out.png" ]] || fail "no image in the caller's folder"
[[ ! -e "$source_dir/out.png" ]] || fail "the image went to the repository"
head -n 1 "$scratch/stdout" | grep -q "^s.json: 24 x 16" || fail "the scene is not the caller's s.json"
# The scene after options, one of them with a value.
in_work scene_last -o late.png --device cpu --spp 1 s.json
[[ "$(cat "$scratch/scene_last.rc")" == 0 ]] || fail "exit code $(cat "$scratch/scene_last.rc") with the scene last"
[[ -f "$work/late.png" ]] || fail "no image with the scene last"
in_work scene_between --device cpu s.json --spp=1 --quiet -o between.png
[[ "$(cat "$scratch/scene_between.rc")" == 0 ]] || fail "exit code $(cat "$scratch/scene_between.rc") with the scene among the options"
[[ -f "$work/between.png" ]] || fail "no image with the scene among the options"
# The default image goes to renders/ in the caller's folder.
in_work default_output s.json --device cpu --spp 1
[[ "$(cat "$scratch/default_output.rc")" == 0 ]] || fail "exit code $(cat "$scratch/default_output.rc") (default image)"
[[ -f "$work/renders/tiny.png" ]] || fail "the default image is not in the caller's renders/"
[[ ! -e "$source_dir/renders/tiny.png" ]] || fail "the default image went to the repository's renders/"
# Without a scene: the repository's default scene, from any folder.
in_work default_scene --device cpu --spp 1 --resolution 8x8 -o default.png
[[ "$(cat "$scratch/default_scene.rc")" == 0 ]] || fail "exit code $(cat "$scratch/default_scene.rc") (default scene)"
head -n 1 "$scratch/stdout" | grep -q "^$source_dir/scenes/cornell.json: 8 x 8" ||
  fail "not the default scene"
[[ -f "$work/default.png" ]] || fail "no image of the default scene"
# A scene that is not there: raystream's one line naming it, exit 2.
in_work missing --device cpu no_such_scene.json -o missing.png
[[ "$(cat "$scratch/missing.rc")" == 2 ]] || fail "exit code $(cat "$scratch/missing.rc") for a missing scene"
grep -q "no_such_scene.json" "$scratch/stderr" || fail "the missing scene is not named"
echo "render_script_test: passed"
