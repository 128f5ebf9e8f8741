# SPDX-License-Identifier: GPL-2.0-only
#
# Standalone only: the sanitizer and fuzzing builds (`make sanitize`, `make fuzz`, build-sanitize/).
#   RDMA_SANITIZE  the module, its tests, examples and benchmark built with AddressSanitizer and
#                  UndefinedBehaviorSanitizer; any report stops the program (no recovery), so
#                  CTest and the example runs fail on it.
#   RDMA_FUZZ      (clang only) the HPCC readers compiled with libFuzzer's coverage
#                  instrumentation and the harnesses of fuzz/ built (build-sanitize/fuzz/).
# Included by CMakeLists.txt before build_lib() so the options reach every target.

option(RDMA_SANITIZE "Build with -fsanitize=address,undefined (module, tests, examples)" OFF)
option(RDMA_FUZZ "Build the libFuzzer harnesses of the HPCC readers (needs clang)" OFF)

if(RDMA_SANITIZE OR RDMA_FUZZ)
  # Line tables are all a sanitizer report needs (file:line per frame); clang's full -g costs a
  # quarter more compile time.
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined
                      -fno-omit-frame-pointer $<IF:$<CXX_COMPILER_ID:Clang>,-gline-tables-only,-g>)
  add_link_options(-fsanitize=address,undefined)
  message(STATUS "rdma: AddressSanitizer and UndefinedBehaviorSanitizer build")
endif()

if(RDMA_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "rdma: RDMA_FUZZ needs clang (libFuzzer); configure with "
                        "-DCMAKE_CXX_COMPILER=clang++ (Debian: apt-get install clang libclang-rt-14-dev)")
  endif()
  # Coverage feedback from the code under test only: the readers and their line reader.
  set_source_files_properties(
    helper/hpcc-topology-reader.cc helper/hpcc-flow-reader.cc helper/hpcc-config-reader.cc
    helper/hpcc-line-cursor.cc PROPERTIES COMPILE_OPTIONS -fsanitize=fuzzer-no-link
    # Their options differ from those the library's precompiled header was built with.
    SKIP_PRECOMPILE_HEADERS ON
  )
endif()
