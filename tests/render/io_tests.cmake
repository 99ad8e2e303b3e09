# Renderer input and output tests: scene loader, film output, report, command line. Included from
# tests/render/CMakeLists.txt.
set(RAYSTREAM_IO_TEST_DIR ${CMAKE_CURRENT_LIST_DIR})
foreach(name scene_loader_test scene_memory_test image_output_io_test report_io_test cli_io_test
             input_file_test load_growth_test scene_export_test)
  raystream_add_test(NAME ${name} CPU SOURCES ${RAYSTREAM_IO_TEST_DIR}/${name}.cpp LIBS raystream_io)
endforeach()
# glTF 2.0: the assimp test assets, small assets written by the test, TYPE gltf objects.
raystream_add_test(NAME gltf_loader_test CPU
                   SOURCES ${RAYSTREAM_IO_TEST_DIR}/gltf_loader_test.cpp LIBS raystream_io)
target_compile_definitions(gltf_loader_test PRIVATE
                           RAYSTREAM_TEST_MODELS="${RAYSTREAM_TEST_MODELS}")
# The image encoders: the tone map's table, PNG bands (CRCs, the zlib stream), HDR's RLE, PFM.
raystream_add_test(NAME image_encoders_io_test CPU
                   SOURCES ${RAYSTREAM_IO_TEST_DIR}/image_encoders_io_test.cpp
                   LIBS raystream_io ZLIB::ZLIB)
# Checkpoint files: written and read back, corruption and other renders refused.
raystream_add_test(NAME checkpoint_io_test CPU
                   SOURCES ${RAYSTREAM_IO_TEST_DIR}/checkpoint_io_test.cpp LIBS raystream_io)
# EXR output and input, read back with OpenEXR's own reader.
raystream_add_test(NAME exr_io_test CPU SOURCES ${RAYSTREAM_IO_TEST_DIR}/exr_io_test.cpp
                   LIBS raystream_io OpenEXR::OpenEXR)
if(TARGET raystream)
  # ... and raystream's own EXR output with every AOV.
  target_compile_definitions(exr_io_test PRIVATE RAYSTREAM_BINARY="$<TARGET_FILE:raystream>")
  add_dependencies(exr_io_test raystream)
endif()

# End-to-end command lines through the built binaries (--device cpu, tiny sizes). Each case:
# raystream_cli_case(NAME <n> EXIT <codes> [REGEX <re>] [STDOUT_REGEX <re>] [STDERR_REGEX <re>]
#                    [BINARY <target>] [SETUP_FILE <f>] [SETUP_LINK <link> <target>]
#                    [WORKDIR <folder to run in>] [TIMEOUT <s>] [REQUIRE <files>]
#                    [FORBID <files>] ARGS <arguments>)
function(raystream_cli_case)
  set(one_value NAME EXIT REGEX STDOUT_REGEX STDERR_REGEX BINARY SETUP_FILE WORKDIR TIMEOUT)
  cmake_parse_arguments(C "GPU" "${one_value}" "SETUP_LINK;REQUIRE;FORBID;ARGS" ${ARGN})
  if(NOT C_BINARY)
    set(C_BINARY raystream)
  endif()
  string(REPLACE ";" "|" args "${C_ARGS}")
  string(REPLACE ";" "|" require "${C_REQUIRE}")
  string(REPLACE ";" "|" forbid "${C_FORBID}")
  set(defines -DEXE=$<TARGET_FILE:${C_BINARY}> "-DARGS=${args}" "-DEXPECT_EXIT=${C_EXIT}"
              -DOUT_DIR=${RAYSTREAM_CLI_OUT}/${C_NAME} "-DREQUIRE=${require}" "-DFORBID=${forbid}")
  if(DEFINED C_REGEX)
    list(APPEND defines "-DEXPECT_REGEX=${C_REGEX}")
  endif()
  if(C_SETUP_FILE)
    list(APPEND defines "-DSETUP_FILE=${C_SETUP_FILE}")
  endif()
  if(C_SETUP_LINK)
    string(REPLACE ";" "|" link "${C_SETUP_LINK}")
    list(APPEND defines "-DSETUP_LINK=${link}")
  endif()
  foreach(stream STDOUT STDERR)
    if(DEFINED C_${stream}_REGEX)
      list(APPEND defines "-D${stream}_REGEX=${C_${stream}_REGEX}")
    endif()
  endforeach()
  if(NOT C_TIMEOUT)
    set(C_TIMEOUT 300)
  endif()
  if(C_WORKDIR)
    list(APPEND defines "-DWORKDIR=${C_WORKDIR}")
  endif()
  add_test(NAME raystream_cli_${C_NAME}
           COMMAND ${CMAKE_COMMAND} ${defines} -P ${RAYSTREAM_IO_TEST_DIR}/cli_case.cmake
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(raystream_cli_${C_NAME} PROPERTIES TIMEOUT ${C_TIMEOUT})
  if(C_GPU)
    # Cases with --device gpu show as skipped where raystream finds no CUDA device.
    set_tests_properties(raystream_cli_${C_NAME} PROPERTIES
                         SKIP_REGULAR_EXPRESSION "no usable CUDA device")
  endif()
endfunction()

if(TARGET raystream)
  set(RAYSTREAM_CLI_OUT ${CMAKE_CURRENT_BINARY_DIR}/cli_out)
  set(D tests/render/data)
  set(O ${RAYSTREAM_CLI_OUT})
  raystream_cli_case(NAME help EXIT 0 REGEX "--sort-by-material.*--device.*--stats" ARGS --help)
  raystream_cli_case(NAME version EXIT 0 REGEX "raystream [0-9.]+ \\(primitives backend: own\\)"
                     ARGS --version)
  if(TARGET raystream-thrust)
    raystream_cli_case(NAME version_thrust BINARY raystream-thrust EXIT 0
                       REGEX "raystream [0-9.]+ \\(primitives backend: thrust\\)" ARGS --version)
  endif()
  raystream_cli_case(NAME missing_scene EXIT 2
                     REGEX "error: ${D}/no_such_scene.json: cannot open the scene file"
                     FORBID ${O}/missing_scene/out.png
                     ARGS ${D}/no_such_scene.json --device cpu --output ${O}/missing_scene/out.png)
  raystream_cli_case(NAME malformed_scene EXIT 2
                     REGEX "error: ${D}/malformed.json:9:16: malformed JSON"
                     FORBID ${O}/malformed_scene/out.png
                     ARGS ${D}/malformed.json --device cpu --output ${O}/malformed_scene/out.png)
  raystream_cli_case(NAME output_parent_is_a_file EXIT 1
                     SETUP_FILE ${O}/output_parent_is_a_file/plain
                     REGEX "error: ${O}/output_parent_is_a_file/plain/out.png: cannot write"
                     FORBID ${O}/output_parent_is_a_file/plain/out.png
                            ${O}/output_parent_is_a_file/stats.json
                     ARGS ${D}/tiny.json --device cpu --spp 1
                          --stats ${O}/output_parent_is_a_file/stats.json
                          --output ${O}/output_parent_is_a_file/plain/out.png)
  raystream_cli_case(NAME output_folder_missing EXIT 1
                     REGEX "error: ${O}/output_folder_missing/none/out.png: cannot write.*No such"
                     FORBID ${O}/output_folder_missing/none
                     ARGS ${D}/tiny.json --device cpu --spp 1
                          --output ${O}/output_folder_missing/none/out.png)
  raystream_cli_case(NAME stats_unwritable EXIT 1
                     REGEX "error: ${O}/stats_unwritable/none/stats.json: cannot write"
                     FORBID ${O}/stats_unwritable/out.png
                     ARGS ${D}/tiny.json --device cpu --spp 1 --output ${O}/stats_unwritable/out.png
                          --stats ${O}/stats_unwritable/none/stats.json)
  raystream_cli_case(NAME unsupported_image_type EXIT 2
                     REGEX "out.jpg: unsupported image type \\(name the output .png, .hdr, .pfm or .exr, or give --format png\\|hdr\\|pfm\\|exr\\)"
                     FORBID ${O}/unsupported_image_type/out.jpg
                     ARGS ${D}/tiny.json --device cpu --output ${O}/unsupported_image_type/out.jpg)
  raystream_cli_case(NAME stats_is_the_image EXIT 2 REGEX "the same file"
                     FORBID ${O}/stats_is_the_image/out.png
                     ARGS ${D}/tiny.json --device cpu --output ${O}/stats_is_the_image/out.png
                          --stats ${O}/stats_is_the_image/./out.png)
  # Issue 40, item 7: repeated warnings are capped with a count; an option given twice is named.
  raystream_cli_case(NAME repeated_warnings_capped EXIT 0
                     STDERR_REGEX "EXTRA_[0-9]+: unknown key, ignored\nwarning: ${D}/unknown_keys.json: 7 more warnings like the above \\(unknown key, ignored\\)\n"
                     REQUIRE ${O}/repeated_warnings_capped/out.png
                     ARGS ${D}/unknown_keys.json --device cpu --spp 1 --quiet
                          --output ${O}/repeated_warnings_capped/out.png)
  # --export-scene: the scene as loaded, no render; a folder that is a file is one error line.
  raystream_cli_case(NAME export_scene EXIT 0
                     STDOUT_REGEX "^scenes/cornell_box_original.json: exported to ${O}/export_scene/x: scene.json, [0-9]+ meshes \\(36 triangles\\), 0 textures\n$"
                     REQUIRE ${O}/export_scene/x/scene.json ${O}/export_scene/x/meshes
                     FORBID ${O}/export_scene/out.png
                     ARGS scenes/cornell_box_original.json --export-scene ${O}/export_scene/x
                          --device cpu -o ${O}/export_scene/out.png)
  raystream_cli_case(NAME export_scene_onto_a_file EXIT 1
                     SETUP_FILE ${O}/export_scene_onto_a_file/plain
                     REGEX "^raystream: error: ${O}/export_scene_onto_a_file/plain: cannot write the export there: not a folder\n$"
                     FORBID ${O}/export_scene_onto_a_file/plain/scene.json
                     ARGS ${D}/tiny.json --export-scene ${O}/export_scene_onto_a_file/plain)
  raystream_cli_case(NAME option_given_twice EXIT 2
                     REGEX "^raystream: error: --output: given twice \\(as -o and --output\\) \\(give each option once\\)\n$"
                     ARGS ${D}/tiny.json -o a.png --spp 1 --output b.png)
  # Issue 40, item 8, as docs/robustness.md and docs/scene-format.md now say: a folder named like
  # an image is a failed write (exit 1), one whose name gives no image type a bad command line
  # (exit 2); Camera.FILE's folders are dropped with a warning.
  raystream_cli_case(NAME output_is_a_folder_named_png EXIT 1
                     WORKDIR ${O}/output_is_a_folder_named_png/x.png
                     REGEX "error: ${O}/output_is_a_folder_named_png/x.png: cannot write the output: it is a folder"
                     ARGS ${PROJECT_SOURCE_DIR}/${D}/tiny.json --device cpu --spp 1
                          --output ${O}/output_is_a_folder_named_png/x.png)
  raystream_cli_case(NAME output_is_a_folder_without_type EXIT 2
                     REGEX "error: ${O}/output_is_a_folder_without_type: unsupported image type"
                     ARGS ${D}/tiny.json --device cpu --spp 1
                          --output ${O}/output_is_a_folder_without_type)
  raystream_cli_case(NAME camera_file_folders_dropped EXIT 0 WORKDIR ${O}/camera_file_folders_dropped/run
                     STDERR_REGEX "warning: [^\n]*/camera_file_folders.json: Camera.FILE: \"sub/dir/name\" is a name, not a path: the image goes to renders/name.png \\(its folders are dropped; --output names any path\\)\n"
                     REQUIRE ${O}/camera_file_folders_dropped/run/renders/name.png
                     ARGS ${PROJECT_SOURCE_DIR}/${D}/camera_file_folders.json --device cpu --spp 1
                          --quiet)
  raystream_cli_case(NAME bad_option EXIT 2 REGEX "error: --spp" ARGS ${D}/tiny.json --spp 0)
  # Finding 9: a command-line error is one line.
  raystream_cli_case(NAME error_is_one_line EXIT 2
                     REGEX "^raystream: error: --spp: 0 is out of range \\(1 to 1000000\\)\n$"
                     ARGS ${D}/tiny.json --spp 0)
  raystream_cli_case(NAME cli11_error_is_one_line EXIT 2
                     REGEX "^raystream: error: [^\n]*--frobnicate[^\n]*\\(see --help\\)\n$"
                     ARGS ${D}/tiny.json --frobnicate)
  # Finding 7: seeds out of range are refused, not wrapped or clamped.
  raystream_cli_case(NAME seed_negative EXIT 2
                     REGEX "^raystream: error: --seed: '-1' is not an integer \\(decimal digits only, such as 16\\)\n$"
                     ARGS ${D}/tiny.json --seed -1)
  # Issue 34, item 7: one integer rule for every numeric option: hex is refused everywhere.
  raystream_cli_case(NAME pool_hex EXIT 2
                     REGEX "^raystream: error: --pool: '0x10' is not an integer \\(decimal digits only, such as 16\\)\n$"
                     FORBID ${O}/pool_hex/out.png
                     ARGS ${D}/tiny.json --device cpu --spp 1 --pool 0x10
                          --output ${O}/pool_hex/out.png)
  # Finding 3: a transform that overflows is a bad scene (exit 2) naming the object, found before
  # the default output folder renders/ is made.
  raystream_cli_case(NAME overflowing_transform EXIT 2 WORKDIR ${O}/overflowing_transform/run
                     REGEX "error: [^\n]*/overflow_transform.json: Objects\\[1\\]\\.TRANS: the transformed object is not finite"
                     FORBID ${O}/overflowing_transform/run/renders
                     ARGS ${PROJECT_SOURCE_DIR}/${D}/overflow_transform.json --device cpu)
  # Finding 4: MTL values get the JSON loader's checks.
  raystream_cli_case(NAME mtl_value_overflow EXIT 2
                     REGEX "error: ${D}/meshes/ke_overflow.json: Objects\\[0\\]\\.FILE: ${D}/meshes/ke_overflow.obj: material library ${D}/meshes/ke_overflow.mtl:3: Ke: value 1e39 is too large"
                     FORBID ${O}/mtl_value_overflow/out.png
                     ARGS ${D}/meshes/ke_overflow.json --device cpu
                          --output ${O}/mtl_value_overflow/out.png)
  # Finding 2: --stats through /dev/stdout (a pipe here) is written through it, not replaced.
  raystream_cli_case(NAME stats_to_stdout EXIT 0
                     REGEX "\"frames\": 1,.*paths out"
                     REQUIRE ${O}/stats_to_stdout/out.png
                     ARGS ${D}/tiny.json --device cpu --spp 1 --quiet --stats /dev/stdout
                          --output ${O}/stats_to_stdout/out.png)
  if(EXISTS /dev/full)
    # Finding 8: the statistics cannot be written (a full disk): the image is not kept either.
    raystream_cli_case(NAME stats_disk_full EXIT 1
                       REGEX "^raystream: error: /dev/full: cannot write the output: write failed: No space left on device\n$"
                       FORBID ${O}/stats_disk_full/out.png
                       ARGS ${D}/tiny.json --device cpu --spp 1 --quiet --stats /dev/full
                            --output ${O}/stats_disk_full/out.png)
  endif()
  # Issue 34, item 2: "-o -" (or /dev/stdout) with --format puts the image on stdout, and the
  # report goes to stderr, out of its way; an output whose name gives no type needs --format.
  raystream_cli_case(NAME image_to_stdout EXIT 0
                     STDOUT_REGEX "^.PNG\r\n"
                     STDERR_REGEX "paths out.*image +/dev/stdout\n$"
                     ARGS ${D}/tiny.json --device cpu --spp 1 --quiet -o - --format png)
  raystream_cli_case(NAME hdr_to_dev_stdout EXIT 0
                     STDOUT_REGEX "^#\\?RADIANCE\n"
                     STDERR_REGEX "paths out.*image +/dev/stdout\n$"
                     ARGS ${D}/tiny.json --device cpu --spp 1 --quiet -o /dev/stdout
                          --format hdr)
  raystream_cli_case(NAME image_type_unknown EXIT 2
                     REGEX "^raystream: error: /dev/null: unsupported image type \\(name the output .png, .hdr, .pfm or .exr, or give --format png\\|hdr\\|pfm\\|exr\\)\n$"
                     ARGS ${D}/tiny.json --device cpu --spp 1 -o /dev/null)
  raystream_cli_case(NAME image_type_disagrees EXIT 2
                     REGEX "^raystream: error: [^\n]*out.png: the name says png but --format is hdr\n$"
                     FORBID ${O}/image_type_disagrees/out.png
                     ARGS ${D}/tiny.json --device cpu --spp 1 --format hdr
                          -o ${O}/image_type_disagrees/out.png)
  # Issue 34, item 3: the report and the statistics say what ran: 42 materials take 6 key bits,
  # so the multisplit fell back to the radix sort; the megakernel does not sort.
  raystream_cli_case(NAME multisplit_fallback_reported EXIT 0
                     REGEX "\"sort_by_material\": true,\n  \"material_multisplit\": false,.*sort by material on, seed 0"
                     ARGS ${D}/many_materials.json --device cpu --spp 1 --quiet
                          --shade single --sort-by-material multisplit --stats /dev/stdout
                          -o ${O}/multisplit_fallback_reported/out.png)
  raystream_cli_case(NAME multisplit_reported EXIT 0
                     REGEX "\"material_multisplit\": true,.*sort by material multisplit, seed 0"
                     ARGS ${D}/tiny.json --device cpu --spp 1 --quiet
                          --shade single --sort-by-material multisplit --stats /dev/stdout
                          -o ${O}/multisplit_reported/out.png)
  # The material queues: the statistics and the report give each lobe kind's share of the shaded
  # paths.
  raystream_cli_case(NAME shade_queues_reported EXIT 0
                     REGEX "\"shade\": \"queues\",.*\"Lambertian\": [1-9][0-9]*.*shading +queues: emitter [0-9.]+%, Lambertian [0-9.]+%"
                     ARGS ${D}/tiny.json --device cpu --spp 2 --quiet --shade queues
                          --stats /dev/stdout -o ${O}/shade_queues_reported/out.png)
  # ... and item 6: a setting that does nothing says so, once, unless --quiet.
  raystream_cli_case(NAME megakernel_sort_reported EXIT 0
                     REGEX "raystream: --sort-by-material: the megakernel does not sort; ignored\n.*\"sort_by_material\": false,\n  \"material_multisplit\": false,\n  \"compact\": false,.*schedule megakernel, sort by material off"
                     ARGS ${D}/tiny.json --device cpu --spp 1 --schedule megakernel
                          --sort-by-material on --stats /dev/stdout
                          -o ${O}/megakernel_sort_reported/out.png)
  raystream_cli_case(NAME pool_with_frame_schedule EXIT 0
                     REGEX "raystream: --pool sizes the stream schedule's path pool; ignored by the frame schedule\n"
                     ARGS ${D}/tiny.json --device cpu --spp 1 --schedule frame --pool 64
                          -o ${O}/pool_with_frame_schedule/out.png)
  raystream_cli_case(NAME quiet_hides_notices EXIT 0
                     STDERR_REGEX "^$"
                     ARGS ${D}/tiny.json --device cpu --spp 1 --schedule frame --pool 64 --quiet
                          -o ${O}/quiet_hides_notices/out.png)
  # Issue 34, item 4: a scene that is not a regular file is refused at once (/dev/zero used to
  # grow without end, a FIFO to wait for a writer).
  if(EXISTS /dev/zero)
    raystream_cli_case(NAME scene_is_a_device EXIT 2 TIMEOUT 30
                       REGEX "^raystream: error: /dev/zero: is not a regular file \\(a character device\\), expected a scene file\n$"
                       FORBID ${O}/scene_is_a_device/out.png
                       ARGS /dev/zero --device cpu --output ${O}/scene_is_a_device/out.png)
  endif()
  # Issue 34, item 5: a NUL in Camera.FILE is a bad scene (exit 2) like a NUL in any other path,
  # found before the default output folder renders/ is made.
  raystream_cli_case(NAME nul_in_camera_file EXIT 2 WORKDIR ${O}/nul_in_camera_file/run
                     REGEX "^raystream: error: [^\n]*/nul_camera_file.json: Camera.FILE: the path holds a NUL character\n$"
                     FORBID ${O}/nul_in_camera_file/run/renders
                     ARGS ${PROJECT_SOURCE_DIR}/${D}/nul_camera_file.json --device cpu --spp 1)
  # Issue 34, item 9: --stats onto the image through a symbolic link is the same bad command
  # line (exit 2) as by name; --stats writes JSON only into a .json file (or through stdout).
  raystream_cli_case(NAME stats_is_the_image_through_a_link EXIT 2
                     SETUP_LINK ${O}/stats_is_the_image_through_a_link/link.json out.png
                     REGEX "^raystream: error: [^\n]*link.json: --stats and the image output name the same file\n$"
                     FORBID ${O}/stats_is_the_image_through_a_link/out.png
                     ARGS ${D}/tiny.json --device cpu --spp 1
                          --output ${O}/stats_is_the_image_through_a_link/out.png
                          --stats ${O}/stats_is_the_image_through_a_link/link.json)
  raystream_cli_case(NAME stats_not_json EXIT 2
                     REGEX "^raystream: error: [^\n]*b.png: --stats writes JSON: name the file .json \\(or - for stdout\\)\n$"
                     FORBID ${O}/stats_not_json/out.png ${O}/stats_not_json/b.png
                     ARGS ${D}/tiny.json --device cpu --spp 1 --output ${O}/stats_not_json/out.png
                          --stats ${O}/stats_not_json/b.png)
  # Issue 34, item 13: the CPU's wave table gives CPU time.
  raystream_cli_case(NAME cpu_wave_table EXIT 0
                     REGEX "fill +waves +paths +regenerated +CPU ms +time %"
                     ARGS ${D}/tiny.json --device cpu --spp 1 --quiet
                          -o ${O}/cpu_wave_table/out.png)
  # Issue 33: EXR output with its AOV layers (exr_io_test reads such a file back with OpenEXR);
  # the AOVs need an EXR; a time budget stops the render and the report says so; checkpoints go
  # beside the image, so not for an image written through; a missing checkpoint is a bad input.
  raystream_cli_case(NAME exr_with_aovs EXIT 0 REGEX "image +${O}/exr_with_aovs/out.exr"
                     REQUIRE ${O}/exr_with_aovs/out.exr
                     ARGS ${D}/tiny.json --device cpu --spp 2 --quiet
                          --aov albedo,normal,depth,variance -o ${O}/exr_with_aovs/out.exr)
  raystream_cli_case(NAME aov_needs_exr EXIT 2
                     REGEX "^raystream: error: [^\n]*out.png: --aov adds layers to an EXR image; this one is png \\(name the output .exr\\)\n$"
                     FORBID ${O}/aov_needs_exr/out.png
                     ARGS ${D}/tiny.json --device cpu --spp 1 --aov depth
                          -o ${O}/aov_needs_exr/out.png)
  raystream_cli_case(NAME time_budget EXIT 0
                     REGEX "[0-9.]+ of 1000000 samples per pixel.*samples +[0-9]+ this run, [0-9]+ on the film \\(per pixel [0-9]+ to [0-9]+\\), stopped by time budget"
                     REQUIRE ${O}/time_budget/out.pfm
                     ARGS ${D}/tiny.json --device cpu --time 1 --quiet -o ${O}/time_budget/out.pfm)
  raystream_cli_case(NAME checkpoint_written EXIT 0
                     REGEX "checkpoint +${O}/checkpoint_written/out.png.checkpoint\n"
                     REQUIRE ${O}/checkpoint_written/out.png ${O}/checkpoint_written/out.png.checkpoint
                     ARGS ${D}/tiny.json --device cpu --spp 2 --quiet --checkpoint 60
                          -o ${O}/checkpoint_written/out.png)
  raystream_cli_case(NAME checkpoint_needs_a_file EXIT 2
                     REGEX "^raystream: error: /dev/stdout: --checkpoint writes beside the image, and this one is written through \\(name an image file\\)\n$"
                     ARGS ${D}/tiny.json --device cpu --spp 1 --checkpoint 5 -o - --format png)
  raystream_cli_case(NAME resume_missing EXIT 2
                     REGEX "^raystream: error: ${O}/resume_missing/none.checkpoint: cannot open the checkpoint"
                     FORBID ${O}/resume_missing/out.png
                     ARGS ${D}/tiny.json --device cpu --spp 1 -o ${O}/resume_missing/out.png
                          --resume ${O}/resume_missing/none.checkpoint)
  # Issue 33: glTF assets made by others (Debian's assimp-testmodels): every good one renders,
  # alone and as the whole scene; every broken one is one line naming the file (exit 2, no
  # image). Run under the sanitizers too (scripts/asan.sh runs every raystream_cli_ case).
  set(G ${RAYSTREAM_TEST_MODELS}/glTF2)
  if(EXISTS ${G}/BoxTextured-glTF/BoxTextured.gltf)
    foreach(good BoxTextured-glTF/BoxTextured.gltf BoxTextured-glTF-Embedded/BoxTextured.gltf
                 BoxTextured-glTF-Binary/BoxTextured.glb
                 BoxTextured-glTF-pbrSpecularGlossiness/BoxTextured.gltf
                 BoxTextured-glTF-techniqueWebGL/BoxTextured.gltf
                 2CylinderEngine-glTF-Binary/2CylinderEngine.glb cameras/Cameras.gltf
                 textureTransform/TextureTransformTest.gltf)
      string(REGEX REPLACE "[/.-]" "_" case "${good}")
      raystream_cli_case(NAME gltf_good_${case} EXIT 0 REGEX "start-up +scene [0-9.]+ ms"
                         REQUIRE ${O}/gltf_good_${case}/out.png
                         ARGS ${G}/${good} --device cpu --spp 1 --resolution 32x24 --quiet
                              -o ${O}/gltf_good_${case}/out.png)
    endforeach()
    # The engine on the GPU, its load time in the report.
    raystream_cli_case(NAME gltf_engine_gpu GPU EXIT 0
                       REGEX "start-up +scene [0-9.]+ ms.*executor +gpu"
                       REQUIRE ${O}/gltf_engine_gpu/engine.png
                       ARGS ${G}/2CylinderEngine-glTF-Binary/2CylinderEngine.glb --device gpu
                            --spp 16 --resolution 320x240 -o ${O}/gltf_engine_gpu/engine.png)
    foreach(broken IndexOutOfRange/IndexOutOfRange.gltf IndexOutOfRange/AllIndicesOutOfRange.gltf
                   BoxWithInfinites-glTF-Binary/BoxWithInfinites.glb MissingBin/BoxTextured.gltf
                   RecursiveNodes/RecursiveNodes.gltf SchemaFailures/sceneWrongType.gltf
                   wrongTypes/badNumber.gltf wrongTypes/badExtension.gltf wrongTypes/badObject.gltf
                   wrongTypes/badUint.gltf wrongTypes/badArray.gltf wrongTypes/badString.gltf
                   IncorrectVertexArrays/Cube.gltf TestNoRootNode/SceneWithoutNodes.gltf
                   TestNoRootNode/NoScene.gltf)
      string(REGEX REPLACE "[/.-]" "_" case "${broken}")
      get_filename_component(folder ${G}/${broken} DIRECTORY)
      raystream_cli_case(NAME gltf_broken_${case} EXIT 2
                         REGEX "^raystream: error: ${folder}/[^\n]+\n$"
                         FORBID ${O}/gltf_broken_${case}/out.png
                         ARGS ${G}/${broken} --device cpu --spp 1 -o ${O}/gltf_broken_${case}/out.png)
    endforeach()
  endif()
  raystream_cli_case(NAME bad_resolution EXIT 2 REGEX "error: --resolution"
                     ARGS ${D}/tiny.json --resolution 0x9)
  raystream_cli_case(NAME render_png EXIT 0
                     REGEX "paths out.*samples/s.*backend +cpu \\(binary built with own\\).*executor +cpu"
                     REQUIRE ${O}/render_png/tiny.png ${O}/render_png/tiny.json
                     ARGS ${D}/tiny.json --device cpu --spp 2 --resolution 20x12 --seed 3
                          --output ${O}/render_png/tiny.png --stats ${O}/render_png/tiny.json)
  raystream_cli_case(NAME render_hdr EXIT 0 REGEX "image +${O}/render_hdr/tiny.hdr"
                     REQUIRE ${O}/render_hdr/tiny.hdr
                     ARGS ${D}/tiny.json --device cpu --spp 1 --compact off
                          --shade single --sort-by-material on --quiet
                          --output ${O}/render_hdr/tiny.hdr)
  # The spp comes from the scene on the CPU: one frame is timed and the count is announced.
  raystream_cli_case(NAME cpu_sample_budget EXIT 0
                     REGEX "on the CPU one frame takes .* rendering 4 samples per pixel"
                     REQUIRE ${O}/cpu_sample_budget/tiny.png
                     ARGS ${D}/tiny.json --device cpu --output ${O}/cpu_sample_budget/tiny.png)
  raystream_cli_case(NAME no_emitter_warning EXIT 0
                     REGEX "warning: ${D}/no_emitter.json: no emitter"
                     REQUIRE ${O}/no_emitter_warning/out.png
                     ARGS ${D}/no_emitter.json --device cpu --spp 1
                          --output ${O}/no_emitter_warning/out.png)
  # Without a CUDA device --device gpu is an error (exit 1) naming the problem.
  raystream_cli_case(NAME device_gpu EXIT "0|1" REGEX "no usable CUDA device|executor +gpu"
                     ARGS ${D}/tiny.json --device gpu --spp 1 --output ${O}/device_gpu/out.png)
  # On a machine with a CUDA device (skipped elsewhere): both binaries render on the GPU and
  # name their backend; peak GPU memory is measured.
  raystream_cli_case(NAME gpu_render_own GPU EXIT 0
                     REGEX "backend +own\n.*executor +gpu.*image"
                     REQUIRE ${O}/gpu_render_own/tiny.png ${O}/gpu_render_own/tiny.json
                     ARGS ${D}/tiny.json --device gpu --spp 8 --resolution 64x48
                          --output ${O}/gpu_render_own/tiny.png
                          --stats ${O}/gpu_render_own/tiny.json)
  raystream_cli_case(NAME gpu_render_sorted_hdr GPU EXIT 0
                     REGEX "schedule frame \\(compact off\\), sort by material on.*peak GPU memory +[0-9.]+ MiB"
                     REQUIRE ${O}/gpu_render_sorted_hdr/spheres.hdr
                     ARGS scenes/cornell_spheres.json --device gpu --spp 4 --resolution 64x64
                          --schedule frame --shade single --sort-by-material on --compact off
                          --output ${O}/gpu_render_sorted_hdr/spheres.hdr)
  if(TARGET raystream-thrust)
    raystream_cli_case(NAME gpu_render_thrust GPU BINARY raystream-thrust EXIT 0
                       REGEX "backend +thrust\n.*executor +gpu"
                       REQUIRE ${O}/gpu_render_thrust/tiny.png
                       ARGS ${D}/tiny.json --device gpu --spp 8 --resolution 64x48
                            --sort-by-material on --output ${O}/gpu_render_thrust/tiny.png)
  endif()
endif()
