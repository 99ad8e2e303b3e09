#!/usr/bin/env bash
# The sanitizer build: the renderer's CPU tests (loader, output, command line, geometry,
# sampling, stages, CPU executor renders) and raystream itself, host code built with
# AddressSanitizer and UndefinedBehaviorSanitizer into build-asan/, then run through ctest (with
# the command-line cases on the sanitized binary). Any sanitizer report fails its test.
#   bash scripts/asan.sh
# docs/robustness.md describes it.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
start=$SECONDS

sanitize=('-fsanitize=address,undefined' -fno-sanitize-recover=all -fno-omit-frame-pointer)
cuda_host=()
for flag in "${sanitize[@]}"; do
  # nvcc passes host flags through -Xcompiler; the commas of -fsanitize=a,b would split it.
  if [[ $flag == -fsanitize=* ]]; then
    for s in $(echo "${flag#-fsanitize=}" | tr ',' ' '); do cuda_host+=("-Xcompiler=-fsanitize=$s"); done
  else
    cuda_host+=("-Xcompiler=$flag")
  fi
done
# -O1 -g1: the level ASan's documentation suggests for speed, and line tables for the reports;
# far quicker to build under the sanitizers than -O2 -g. The tests' own C++ at -Og, which builds quicker
# still (their renders run in the libraries). The kernels only ever run on a GPU, which this
# build does not test: they are compiled to PTX alone and unoptimized (-G), which skips the
# device back end (ptxas) and most of cicc's work.
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS="${sanitize[*]}" -DCMAKE_CUDA_FLAGS="${cuda_host[*]}" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DRAYSTREAM_TEST_OPT=-Og \
  -DCMAKE_CUDA_FLAGS_RELWITHDEBINFO="-Xcompiler=-O1 -Xcompiler=-g1 -DNDEBUG -G" \
  -DCMAKE_CUDA_ARCHITECTURES=90-virtual \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null

tests=(scene_loader_test scene_memory_test input_file_test image_output_io_test report_io_test
       cli_io_test render_geometry_test render_sampling_test render_stages_test render_cpu_test
       render_light_sampling_test render_environment_test texture_test
       mesh_obj_loader_test mesh_geometry_test mesh_render_cpu_test
       film_cpu_test exr_io_test checkpoint_io_test gltf_loader_test scene_fingerprint_test
       render_settings_test film_test denoise_cpu_test scene_export_test hdr_encoder_io_test)
cmake --build build-asan -j "${JOBS:-2}" --target raystream "${tests[@]}" >build-asan/build.log 2>&1 ||
  { tail -n 50 build-asan/build.log; exit 1; }
echo "asan: built raystream and ${#tests[@]} test binaries in $((SECONDS - start)) s"

# halt_on_error: the first report ends the process with a failure; leaks are reported at exit.
# The suppressions name leaks outside this project (tests/sanitizers/lsan.supp says which).
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export LSAN_OPTIONS="suppressions=$PWD/tests/sanitizers/lsan.supp:print_suppressions=0"
# The statistical renders run with fewer samples here, where every sample costs many times more:
# the shipped scenes' means (the same scenes and schedules, a tolerance from the same standard
# errors) and the resume test (as long a render as in the Release build).
export RAYSTREAM_TEST_SHIPPED_HALF_SPP=${RAYSTREAM_TEST_SHIPPED_HALF_SPP:-4}
export RAYSTREAM_TEST_RESUME_SPP=${RAYSTREAM_TEST_RESUME_SPP:-300}
regex="^($(IFS='|'; echo "${tests[*]}"))\$|^raystream_cli_"
cd build-asan
# The Thrust binary is not built here; its command-line cases are left out.
ctest --output-on-failure -j "${JOBS:-2}" -R "$regex" -E thrust
echo "asan: done in $((SECONDS - start)) s"
