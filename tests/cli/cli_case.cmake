# Runs one raystream command line and checks its outcome; used by the CLI tests in this folder.
#   cmake -DEXE=<binary> -DARGS="a|b|c" -DEXPECT_EXIT="0" [-DEXPECT_REGEX=<regex>]
#         [-DOUT_DIR=<folder, emptied first>] [-DSETUP_FILE=<file created first>]
#         [-DWORKDIR=<folder created first, the command runs in it>]
#         [-DSETUP_LINK="<link>|<target>" (a symbolic link made first)]
#         [-DSTDOUT_REGEX=<regex>] [-DSTDERR_REGEX=<regex>] [-DREQUIRE="f1|f2"] [-DFORBID="f1|f2"]
#         -P cli_case.cmake
# EXPECT_EXIT may list several codes ("0|1") where the outcome depends on the machine; the
# output (stdout and stderr together) must match EXPECT_REGEX, stdout alone STDOUT_REGEX and
# stderr alone STDERR_REGEX;
# REQUIRE files must exist and FORBID files must not exist afterwards.
cmake_minimum_required(VERSION 3.24)
if(OUT_DIR)
  file(REMOVE_RECURSE "${OUT_DIR}")
  file(MAKE_DIRECTORY "${OUT_DIR}")
endif()
if(SETUP_FILE)
  file(WRITE "${SETUP_FILE}" "a plain file\n")
endif()
if(SETUP_LINK)
  string(REPLACE "|" ";" link "${SETUP_LINK}")
  list(GET link 0 link_name)
  list(GET link 1 link_target)
  file(CREATE_LINK "${link_target}" "${link_name}" SYMBOLIC)
endif()
set(workdir_option)
if(WORKDIR)
  file(MAKE_DIRECTORY "${WORKDIR}")
  set(workdir_option WORKING_DIRECTORY "${WORKDIR}")
endif()
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND "${EXE}" ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err ${workdir_option})
set(all "${out}${err}")
message(STATUS "raystream ${args}\nexit code ${rc}\n${all}")
string(REPLACE "|" ";" expected_codes "${EXPECT_EXIT}")
if(NOT rc IN_LIST expected_codes)
  message(FATAL_ERROR "exit code ${rc}, expected ${EXPECT_EXIT}")
endif()
if(DEFINED EXPECT_REGEX AND NOT all MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "output does not match '${EXPECT_REGEX}'")
endif()
if(DEFINED STDOUT_REGEX AND NOT out MATCHES "${STDOUT_REGEX}")
  message(FATAL_ERROR "stdout does not match '${STDOUT_REGEX}'")
endif()
if(DEFINED STDERR_REGEX AND NOT err MATCHES "${STDERR_REGEX}")
  message(FATAL_ERROR "stderr does not match '${STDERR_REGEX}'")
endif()
string(REPLACE "|" ";" required "${REQUIRE}")
foreach(f IN LISTS required)
  if(NOT EXISTS "${f}")
    message(FATAL_ERROR "expected file ${f} was not written")
  endif()
endforeach()
string(REPLACE "|" ";" forbidden "${FORBID}")
foreach(f IN LISTS forbidden)
  if(EXISTS "${f}")
    message(FATAL_ERROR "file ${f} exists but must not")
  endif()
endforeach()
if(OUT_DIR)
  # No temporary file may be left behind, whatever happened.
  file(GLOB leftovers "${OUT_DIR}/.*.tmp-*" "${OUT_DIR}/*/.*.tmp-*")
  if(leftovers)
    message(FATAL_ERROR "temporary files left behind: ${leftovers}")
  endif()
endif()
