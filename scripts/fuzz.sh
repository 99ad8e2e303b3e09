#!/usr/bin/env bash
# The fuzz targets (tests/fuzz): builds them with clang and libFuzzer (ASan and UBSan) into
# build-fuzz/, puts together their seed corpora and runs each for a bounded time.
#   bash scripts/fuzz.sh [SECONDS]
# SECONDS per target: the argument, else $FUZZ_SECONDS, else 60. FUZZ_TARGETS picks targets
# (default: fuzz_scene fuzz_obj fuzz_gltf fuzz_cli); $JOBS of them (default 2) run side by side,
# each a single-threaded process. Exit status 1 when a target crashed, leaked, ran out of memory
# or time on one input; the input is kept in build-fuzz/artifacts/<target>/ and printed (base64)
# in the log. docs/robustness.md describes the targets and how to reproduce a crash.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-${FUZZ_SECONDS:-60}}
read -r -a targets <<<"${FUZZ_TARGETS:-fuzz_scene fuzz_obj fuzz_gltf fuzz_cli}"
out=build-fuzz

start=$SECONDS
mkdir -p "$out"
# -O1 and line tables, as libFuzzer's documentation builds its targets (docs/testing.md gives
# the build times).
cmake -S tests/fuzz -B "$out" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
  >"$out/configure.log" 2>&1 || { cat "$out/configure.log"; exit 1; }
cmake --build "$out" -j "${JOBS:-2}" --target "${targets[@]}" >"$out/build.log" 2>&1 ||
  { tail -n 50 "$out/build.log"; exit 1; }
echo "fuzz: built ${targets[*]} in $((SECONDS - start)) s"

# Seed corpora, rebuilt each run: the checked-in cases (tests/fuzz/seeds), the shipped scenes
# and the loader tests' scenes, the small meshes (each OBJ followed by its MTL), and inputs too
# large to check in, written here.
seeds=$out/seeds
rm -rf "$seeds"
mkdir -p "$seeds"/{scene,obj,gltf,cli}
cp tests/fuzz/seeds/scene/* scenes/*.json tests/data/*.json tests/data/meshes/*.json \
  "$seeds/scene/"
python3 - "$seeds" <<'PY'
import glob, os, re, sys
seeds = sys.argv[1]
# Finding 1: deep nesting, alone and under an extra key of a valid scene, and long nested keys.
open(f"{seeds}/scene/deep_arrays.json", "w").write("[" * 40000)
scene = open("tests/data/tiny.json").read()
open(f"{seeds}/scene/deep_extra_key.json", "w").write(
    '{"Extra": ' + "[" * 20000 + "]" * 20000 + ", " + scene.lstrip()[1:])
open(f"{seeds}/scene/long_keys.json", "w").write(
    "".join('{"%s%d": ' % ("k" * 500, i) for i in range(60)) + "1" + "}" * 60)
# Finding 5: an unterminated string.
open(f"{seeds}/scene/unterminated_long.json", "w").write('{"Materials": "' + "a" * 60000)
# Meshes below 64 KB with the MTL each names appended after the marker line.
for obj in sorted(glob.glob("scenes/meshes/**/*.obj", recursive=True) +
                  glob.glob("tests/data/meshes/*.obj")):
    if os.path.getsize(obj) > 65536:
        continue
    text = open(obj, errors="replace").read()
    m = re.search(r"^\s*mtllib\s+(\S+)", text, re.M)
    if m:
        mtl = os.path.join(os.path.dirname(obj), os.path.basename(m.group(1)))
        if os.path.exists(mtl):
            text += "\n#--mtl--\n" + open(mtl, errors="replace").read()
    open(os.path.join(seeds, "obj", os.path.basename(obj)), "w").write(text)
PY
cp tests/fuzz/seeds/obj/* "$seeds/obj/"
# The glTF test assets of assimp-testmodels below 100 KB (good and broken, .gltf and .glb), each
# under a name of its own, and the checked-in cases.
find /usr/share/assimp/models/glTF2 \( -name '*.gltf' -o -name '*.glb' \) -size -100k 2>/dev/null |
  while read -r f; do cp "$f" "$seeds/gltf/$(echo "${f#/usr/share/assimp/models/glTF2/}" | tr / _)"; done
cp tests/fuzz/seeds/gltf/* "$seeds/gltf/"
cp tests/fuzz/seeds/cli/* "$seeds/cli/"

# One target: runs it, then prints its line (and on failure its log's end and its inputs).
fuzz_target() {
  local target=$1 kind=${1#fuzz_}
  local corpus=$out/corpus/$target      # what the fuzzer finds, kept between local runs
  local artifacts=$out/artifacts/$target
  local log=$out/$target.log
  mkdir -p "$corpus" "$artifacts"
  # -rss_limit_mb / -malloc_limit_mb: a scene must cost a small multiple of its size, so an input
  # of at most 100 KB that needs 1 GB is a failure too. -timeout: one input, 10 s at most.
  # -seed: the same mutations every run (FUZZ_SEED, default 1), so that a fresh clone's CI run
  # repeats the last one's inputs as far as its time allows; FUZZ_SEED=0 draws a new seed.
  if "./$out/$target" "$corpus" "$seeds/$kind" -max_total_time="$seconds" -timeout=10 \
    -seed="${FUZZ_SEED:-1}" \
    -rss_limit_mb=2048 -malloc_limit_mb=1024 -max_len=100000 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" >"$log" 2>&1; then
    runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || true)
    echo "fuzz: $target: ok, ${runs:-?} inputs in ${seconds} s, corpus $(find "$corpus" -type f | wc -l) files"
    return 0
  fi
  echo "fuzz: $target: FAILED; log $log, inputs kept in $artifacts/:"
  tail -n 60 "$log"
  for f in "$artifacts"/*; do
    [ -f "$f" ] || continue
    echo "fuzz: $f ($(stat -c %s "$f") bytes), base64 (first 8 KiB):"
    head -c 8192 "$f" | base64
  done
  return 1
}

# The targets in groups of $JOBS; each one's report is printed whole once its group has ended.
failed=()
jobs=${JOBS:-2}
for ((first = 0; first < ${#targets[@]}; first += jobs)); do
  group=("${targets[@]:first:jobs}")
  pids=()
  for target in "${group[@]}"; do
    fuzz_target "$target" >"$out/$target.report" 2>&1 &
    pids+=($!)
  done
  for k in "${!group[@]}"; do
    wait "${pids[$k]}" || failed+=("${group[$k]}")
    cat "$out/${group[$k]}.report"
  done
done
if ((${#failed[@]})); then
  echo "fuzz: failed: ${failed[*]} (reproduce: ./$out/<target> <input>)" >&2
  exit 1
fi
echo "fuzz: all targets ok in $((SECONDS - start)) s"
