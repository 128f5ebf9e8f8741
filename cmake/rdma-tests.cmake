# SPDX-License-Identifier: GPL-2.0-only
#
# Test wiring of the rdma module, included by CMakeLists.txt after build_lib() in both modes.
#
# The test target is
#  - standalone: build/test/rdma-gtest (created by cmake/ns3-standalone.cmake's build_lib());
#  - in-tree: ns-3's test library of the module (build_lib() stores its target name in the
#    variable test<libname>: "librdma-test" up to ns-3.43, "rdma-test" later), which ns-3 links
#    into its test-runner; test/rdma-test-suite.cc runs the GoogleTest tests as the ns-3
#    TestSuite "rdma" (./test.py -s rdma).
#
# Compile definitions given to the tests (all string literals):
#   RDMA_BUILD_DIR       absolute build directory (standalone: build/, in-tree: ns-3's output dir);
#                        read-only for tests: they write into rdmatest::OutputDir(), a
#                        temporary directory (test/rdma-test-environment.h)
#   RDMA_SOURCE_DIR      absolute path of this module's source folder
#   RDMA_INCAST_EXAMPLE  absolute path of the rdma-incast example binary, "" when examples are
#                        not built (in-tree with examples disabled)
#   RDMA_SCALE_UP_EXAMPLE the scale-up-allreduce example binary, "" likewise

set(_rdma_test_target "")
if(NS3_STANDALONE)
  set(_rdma_test_target "${NS3_STANDALONE_TEST_TARGET}")
  set(_rdma_build_dir "${PROJECT_BINARY_DIR}")
else()
  set(_rdma_test_target "${testrdma}")
  set(_rdma_build_dir "${CMAKE_OUTPUT_DIRECTORY}")
endif()

if(_rdma_test_target AND TARGET ${_rdma_test_target})
  if(NOT NS3_STANDALONE)
    # ns-3 creates the test library with the plain target_link_libraries() signature in some
    # releases and with keywords in others; appending to the property works with either.
    set_property(TARGET ${_rdma_test_target} APPEND PROPERTY LINK_LIBRARIES GTest::gtest)
  endif()
  set(_rdma_incast_example "")
  if(TARGET rdma-incast)
    set(_rdma_incast_example "$<TARGET_FILE:rdma-incast>")
  endif()
  set(_rdma_scale_up_example "")
  if(TARGET scale-up-allreduce)
    set(_rdma_scale_up_example "$<TARGET_FILE:scale-up-allreduce>")
    add_dependencies(${_rdma_test_target} scale-up-allreduce)
  endif()
  # Tests run these examples: build them before the tests.
  foreach(_rdma_example rdma-incast hpcc-compat dcqcn-convergence pfc-storm fat-tree-workload)
    if(TARGET ${_rdma_example})
      add_dependencies(${_rdma_test_target} ${_rdma_example})
    endif()
  endforeach()
  target_compile_definitions(
    ${_rdma_test_target}
    PRIVATE RDMA_BUILD_DIR="${_rdma_build_dir}" RDMA_SOURCE_DIR="${CMAKE_CURRENT_SOURCE_DIR}"
            RDMA_INCAST_EXAMPLE="${_rdma_incast_example}"
            RDMA_SCALE_UP_EXAMPLE="${_rdma_scale_up_example}"
  )
endif()

# test/check-build-lists.py: CMakeLists.txt and wscript list the same files, and every source on
# disk is listed. Debian's interpreter first (only the standard library is needed).
find_program(RDMA_PYTHON3 NAMES python3 HINTS /usr/bin)
if(RDMA_PYTHON3 AND (NS3_STANDALONE OR ENABLE_TESTS))
  add_test(NAME check-build-lists
           COMMAND ${RDMA_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/test/check-build-lists.py
                   ${CMAKE_CURRENT_SOURCE_DIR}
           WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
  )
  # test/check-in-tree.py: what ns-3's own CMake and test-runner read from this module's files
  # (the textual dependency scan of CMakeLists.txt, valid test names), which a standalone build
  # never exercises.
  add_test(NAME check-in-tree
           COMMAND ${RDMA_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/test/check-in-tree.py
                   ${CMAKE_CURRENT_SOURCE_DIR}
           WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
  )
  # test/check-bench-env.py: the environment benchmarks/run-benchmarks.py gives its timed runs
  # (glibc's huge-page tunable added to GLIBC_TUNABLES, the rest kept).
  add_test(NAME check-bench-env
           COMMAND ${RDMA_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/test/check-bench-env.py
                   ${CMAKE_CURRENT_SOURCE_DIR}
           WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
  )
endif()

unset(_rdma_test_target)
unset(_rdma_build_dir)
unset(_rdma_incast_example)
unset(_rdma_scale_up_example)
