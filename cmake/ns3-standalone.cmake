# SPDX-License-Identifier: GPL-2.0-only
#
# Standalone build support for ns-3 contrib modules.
#
# Included by the module's CMakeLists.txt when it is configured on its own (cmake -S . -B build)
# instead of inside an ns-3 source tree, i.e. when ns-3's build_lib() is not defined. It finds an
# installed ns-3 (e.g. Debian 12's libns3-dev, ns-3.37) and provides build_lib() and
# build_lib_example() with the subset of ns-3's signature this module uses, so that the same
# CMakeLists.txt serves both modes.
#
# Layout of the build directory (${PROJECT_BINARY_DIR}, "build/" below):
#   build/lib/libns3-<module>.so        the module library
#   build/include/ns3/*.h               public headers plus a generated <module>-module.h, so code
#                                       includes "ns3/<header>.h" exactly as in an ns-3 tree
#   build/examples/<name>               examples (build_lib_example)
#   build/test/<module>-gtest           one GoogleTest executable built from TEST_SOURCES
#                                       (without <module>-test-suite.cc, the ns-3 TestSuite adapter)
#
# Variables provided: NS3_STANDALONE (TRUE), lib<ns3-module> (imported target of each installed
# ns-3 module, e.g. libcore -> ns3::libcore), lib<module> for the module library itself.

include_guard(GLOBAL)

set(NS3_STANDALONE TRUE)

# ---------------------------------------------------------------------------------------------
# Build type, language level, warnings

if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type (Debug, Release, RelWithDebInfo, MinSizeRel)" FORCE)
  set_property(CACHE CMAKE_BUILD_TYPE PROPERTY STRINGS Debug Release RelWithDebInfo MinSizeRel)
endif()
message(STATUS "${PROJECT_NAME}: build type ${CMAKE_BUILD_TYPE}")

set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)

# ns-3's NS_ASSERT and NS_LOG macros compile to nothing unless NS3_ASSERT_ENABLE / NS3_LOG_ENABLE
# are defined. These options (named like ns-3's own) define them for the code compiled here: the
# module, its examples and tests, and the inline code of ns-3's headers. The installed ns-3's
# libraries keep what they were built with: Debian 12's are its release profile with logging
# (--enable-logs) and without assertions, so assertions inside ns-3's .cc files (e.g.
# PacketMetadata::Enable's) only fire in an ns-3 built in its default or debug profile.
# On by default for Debug builds (`make debug`).
if(CMAKE_BUILD_TYPE STREQUAL "Debug")
  set(_ns3_checks_default ON)
else()
  set(_ns3_checks_default OFF)
endif()
option(NS3_ASSERT "Compile NS_ASSERT checks into the module (NS3_ASSERT_ENABLE)" ${_ns3_checks_default})
option(NS3_LOG "Compile NS_LOG logging into the module (NS3_LOG_ENABLE)" ${_ns3_checks_default})
unset(_ns3_checks_default)
message(STATUS "${PROJECT_NAME}: NS_ASSERT ${NS3_ASSERT}, NS_LOG ${NS3_LOG}")

option(NS3_STANDALONE_EXAMPLES "Build the module's examples" ON)
option(NS3_STANDALONE_TESTS "Build the module's GoogleTest executable and register it with CTest" ON)
# ns-3's own option name: the standard and ns-3 headers nearly every file includes (and, in the
# examples and tests, the module's and GoogleTest's) are parsed once per target instead of once
# per file (a small model file spent 1.2 s of its 1.9 s on them; doc/rdma.rst, "Building the
# module", has the build times with and without). As in-tree, a precompiled header hides a
# file's missing #include of a header it holds.
option(NS3_PRECOMPILE_HEADERS "Precompile the headers most files include (standalone build)" ON)
set(NS3_STANDALONE_PCH_HEADERS
    <algorithm> <array> <cmath> <cstdint> <cstring> <map> <sstream> <string> <unordered_map>
    <vector> <ns3/abort.h> <ns3/boolean.h> <ns3/data-rate.h> <ns3/double.h> <ns3/enum.h>
    <ns3/event-id.h> <ns3/header.h> <ns3/ipv4-address.h> <ns3/log.h> <ns3/node.h>
    <ns3/nstime.h> <ns3/object-factory.h> <ns3/object.h> <ns3/packet.h> <ns3/pointer.h>
    <ns3/simulator.h> <ns3/trace-source-accessor.h> <ns3/traced-callback.h> <ns3/uinteger.h>
)
set(NS3_STANDALONE_EXAMPLE_PCH_HEADERS ${NS3_STANDALONE_PCH_HEADERS} <ns3/core-module.h>
    <ns3/network-module.h>
)
set(NS3_STANDALONE_TEST_PCH_HEADERS ${NS3_STANDALONE_EXAMPLE_PCH_HEADERS} <gtest/gtest.h>)

# ---------------------------------------------------------------------------------------------
# The installed ns-3

# No version argument: Debian's ns3ConfigVersion.cmake only accepts an exact version match.
find_package(ns3 CONFIG QUIET)
if(NOT ns3_FOUND)
  message(
    FATAL_ERROR
      "${PROJECT_NAME}: no installed ns-3 found (CMake package 'ns3'). On Debian 12 install it with\n"
      "  apt-get install libns3-dev ns3 libgsl-dev libxml2-dev libpython3-dev\n"
      "(or run 'make deps'), or point CMAKE_PREFIX_PATH / ns3_DIR at an ns-3 >= 3.36 installation."
  )
endif()
if(NOT DEFINED ns3_VERSION OR "${ns3_VERSION}" STREQUAL "")
  message(FATAL_ERROR "${PROJECT_NAME}: the ns-3 found at ${ns3_DIR} does not state its version; "
                      "ns-3 >= 3.36 is required.")
endif()
if(ns3_VERSION VERSION_LESS 3.36)
  message(FATAL_ERROR "${PROJECT_NAME}: ns-3 ${ns3_VERSION} found at ${ns3_DIR}, but ns-3 >= 3.36 "
                      "is required (older, waf-based trees build this module in-tree via wscript).")
endif()
message(STATUS "${PROJECT_NAME}: using ns-3 ${ns3_VERSION} from ${ns3_DIR}")

# lib<name> variables as ns-3 defines them in-tree. ns-3 <= 3.43 exports ns3::lib<name>, later
# releases ns3::<name>.
foreach(
  _ns3_module
  antenna
  aodv
  applications
  bridge
  buildings
  config-store
  core
  csma
  csma-layout
  dsdv
  dsr
  energy
  fd-net-device
  flow-monitor
  internet
  internet-apps
  lr-wpan
  lte
  mesh
  mobility
  mpi
  netanim
  network
  nix-vector-routing
  olsr
  point-to-point
  point-to-point-layout
  propagation
  sixlowpan
  spectrum
  stats
  tap-bridge
  topology-read
  traffic-control
  uan
  virtual-net-device
  wave
  wifi
  wimax
)
  if(TARGET ns3::lib${_ns3_module})
    set(lib${_ns3_module} ns3::lib${_ns3_module})
  elseif(TARGET ns3::${_ns3_module})
    set(lib${_ns3_module} ns3::${_ns3_module})
  endif()
endforeach()
unset(_ns3_module)
foreach(_required core network)
  if(NOT DEFINED lib${_required})
    message(FATAL_ERROR "${PROJECT_NAME}: the installed ns-3 has no '${_required}' module target.")
  endif()
endforeach()

# ---------------------------------------------------------------------------------------------
# Output layout

set(NS3_STANDALONE_INCLUDE_DIR ${PROJECT_BINARY_DIR}/include)
set(NS3_STANDALONE_HEADER_DIR ${NS3_STANDALONE_INCLUDE_DIR}/ns3)
file(MAKE_DIRECTORY ${NS3_STANDALONE_HEADER_DIR})

enable_testing()

# Flags for every target built from this module's sources. NS3_LOG_ENABLE / NS3_ASSERT_ENABLE
# only affect code compiled here (the installed ns-3 keeps whatever it was built with).
function(ns3_standalone_target_setup target)
  target_compile_options(${target} PRIVATE "$<$<CXX_COMPILER_ID:GNU,Clang,AppleClang>:-Wall;-Wextra>")
  # Calls within the module may be inlined (-fPIC alone makes every exported function
  # interposable, so GCC neither inlines nor binds them locally; Clang assumes this anyway).
  target_compile_options(${target} PRIVATE "$<$<CXX_COMPILER_ID:GNU>:-fno-semantic-interposition>")
  if(NS3_ASSERT)
    target_compile_definitions(${target} PRIVATE NS3_ASSERT_ENABLE)
  endif()
  if(NS3_LOG)
    target_compile_definitions(${target} PRIVATE NS3_LOG_ENABLE)
  endif()
endfunction()

# ns3_standalone_executable(NAME <target> OUTPUT_DIRECTORY <dir below the build dir>
#                           SOURCE_FILES ... [HEADER_FILES ...] [LIBRARIES_TO_LINK ...])
# An executable linked with the module library (and its ns-3 dependencies).
function(ns3_standalone_executable)
  cmake_parse_arguments(SEXE "" "NAME;OUTPUT_DIRECTORY" "SOURCE_FILES;HEADER_FILES;LIBRARIES_TO_LINK"
                        ${ARGN}
  )
  if(NOT SEXE_NAME OR NOT SEXE_OUTPUT_DIRECTORY OR NOT SEXE_SOURCE_FILES)
    message(FATAL_ERROR "ns3_standalone_executable: NAME, OUTPUT_DIRECTORY and SOURCE_FILES are required")
  endif()
  add_executable(${SEXE_NAME} ${SEXE_SOURCE_FILES} ${SEXE_HEADER_FILES})
  target_link_libraries(${SEXE_NAME} PRIVATE ${NS3_STANDALONE_LIBNAME} ${SEXE_LIBRARIES_TO_LINK})
  set_target_properties(${SEXE_NAME} PROPERTIES RUNTIME_OUTPUT_DIRECTORY
                                                ${PROJECT_BINARY_DIR}/${SEXE_OUTPUT_DIRECTORY}
  )
  ns3_standalone_target_setup(${SEXE_NAME})
endfunction()

# ---------------------------------------------------------------------------------------------
# build_lib(LIBNAME <name> SOURCE_FILES ... HEADER_FILES ... LIBRARIES_TO_LINK ...
#           [TEST_SOURCES ...] [PRIVATE_HEADER_FILES ...] [DEPRECATED_HEADER_FILES ...])
function(build_lib)
  set(options IGNORE_PCH GENERATE_EXPORT_HEADER)
  set(oneValueArgs LIBNAME)
  set(multiValueArgs SOURCE_FILES HEADER_FILES LIBRARIES_TO_LINK TEST_SOURCES TEST_LIBRARIES_TO_LINK
                     DEPRECATED_HEADER_FILES PRIVATE_HEADER_FILES MODULE_ENABLED_FEATURES
  )
  cmake_parse_arguments(BLIB "${options}" "${oneValueArgs}" "${multiValueArgs}" ${ARGN})
  if(BLIB_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "build_lib: unexpected arguments ${BLIB_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT BLIB_LIBNAME)
    message(FATAL_ERROR "build_lib: LIBNAME is required")
  endif()
  set(_name ${BLIB_LIBNAME})

  # Public headers into build/include/ns3/ (configure_file re-copies when a header changes).
  set(_all_headers ${BLIB_HEADER_FILES} ${BLIB_PRIVATE_HEADER_FILES} ${BLIB_DEPRECATED_HEADER_FILES})
  foreach(_header ${_all_headers})
    get_filename_component(_header_name ${_header} NAME)
    configure_file(${_header} ${NS3_STANDALONE_HEADER_DIR}/${_header_name} COPYONLY)
  endforeach()

  # <name>-module.h including every public header, as ns-3 generates it in-tree.
  string(TOUPPER "${_name}" _upper)
  string(REPLACE "-" "_" _upper "${_upper}")
  set(_module_header "// Generated by cmake/ns3-standalone.cmake: all public headers of the ${_name} module.\n")
  string(APPEND _module_header "#ifndef NS3_MODULE_${_upper}\n#define NS3_MODULE_${_upper}\n\n")
  foreach(_header ${BLIB_HEADER_FILES})
    get_filename_component(_header_name ${_header} NAME)
    string(APPEND _module_header "#include \"ns3/${_header_name}\"\n")
  endforeach()
  string(APPEND _module_header "\n#endif // NS3_MODULE_${_upper}\n")
  file(WRITE ${PROJECT_BINARY_DIR}/${_name}-module.h.tmp "${_module_header}")
  configure_file(${PROJECT_BINARY_DIR}/${_name}-module.h.tmp
                 ${NS3_STANDALONE_HEADER_DIR}/${_name}-module.h COPYONLY
  )

  # The library: build/lib/libns3-<name>.so
  add_library(${_name} SHARED ${BLIB_SOURCE_FILES} ${_all_headers})
  add_library(ns3::${_name} ALIAS ${_name})
  target_include_directories(${_name} PUBLIC ${NS3_STANDALONE_INCLUDE_DIR})
  target_link_libraries(${_name} PUBLIC ${BLIB_LIBRARIES_TO_LINK})
  # Calls from the library to its own functions bind inside it at link time (no PLT and no
  # symbol look-up at load; Debian and Ubuntu link their libraries so too).
  target_link_options(${_name} PRIVATE -Wl,-Bsymbolic-functions)
  set_target_properties(
    ${_name} PROPERTIES OUTPUT_NAME ns3-${_name} LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib
  )
  ns3_standalone_target_setup(${_name})
  if(NS3_PRECOMPILE_HEADERS AND NOT BLIB_IGNORE_PCH)
    target_precompile_headers(${_name} PRIVATE ${NS3_STANDALONE_PCH_HEADERS})
  endif()
  set(NS3_STANDALONE_LIBNAME ${_name} CACHE INTERNAL "module library target")
  set(lib${_name} ${_name} CACHE INTERNAL "module library target")

  # Examples (examples/CMakeLists.txt calls build_lib_example), as ns-3 does in-tree.
  if(NS3_STANDALONE_EXAMPLES)
    foreach(_example_folder example examples)
      if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${_example_folder}/CMakeLists.txt)
        add_subdirectory(${_example_folder})
      endif()
    endforeach()
  endif()

  # Tests: every TEST_SOURCES file except the ns-3 TestSuite adapter goes into one GoogleTest
  # executable, one CTest entry per TEST (discovered when ctest runs, not at build time).
  set(_gtest_sources)
  foreach(_source ${BLIB_TEST_SOURCES})
    if(NOT _source MATCHES "(^|/)${_name}-test-suite\\.cc$")
      list(APPEND _gtest_sources ${_source})
    endif()
  endforeach()
  if(NS3_STANDALONE_TESTS AND _gtest_sources)
    if(NOT TARGET GTest::gtest_main)
      find_package(GTest REQUIRED)
    endif()
    include(GoogleTest)
    set(_test_target ${_name}-gtest)
    add_executable(${_test_target} ${_gtest_sources})
    target_link_libraries(
      ${_test_target} PRIVATE ${_name} ${BLIB_LIBRARIES_TO_LINK} ${BLIB_TEST_LIBRARIES_TO_LINK}
                              GTest::gtest_main
    )
    set_target_properties(${_test_target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/test)
    ns3_standalone_target_setup(${_test_target})
    # The tests' own files at -O1 in an optimized build: they build scenarios and check
    # results, the model they run is the library (-O3). -O3 took half as long again to compile
    # them (rdma-switch-test.cc: 13.1 s against 8.7 s) and the suite ran no faster.
    if(CMAKE_BUILD_TYPE MATCHES "^(Release|RelWithDebInfo|MinSizeRel)$")
      target_compile_options(${_test_target} PRIVATE -O1)
    endif()
    if(NS3_PRECOMPILE_HEADERS AND NOT BLIB_IGNORE_PCH)
      target_precompile_headers(${_test_target} PRIVATE ${NS3_STANDALONE_TEST_PCH_HEADERS}
                                <ns3/${_name}-module.h>
      )
    endif()
    set(_discovery)
    if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.18)
      set(_discovery DISCOVERY_MODE PRE_TEST)
    endif()
    gtest_discover_tests(
      ${_test_target}
      ${_discovery}
      DISCOVERY_TIMEOUT 120
      WORKING_DIRECTORY ${PROJECT_BINARY_DIR}
      PROPERTIES TIMEOUT 600
    )
    set(NS3_STANDALONE_TEST_TARGET ${_test_target} CACHE INTERNAL "module GoogleTest executable")
  else()
    set(NS3_STANDALONE_TEST_TARGET "" CACHE INTERNAL "module GoogleTest executable")
  endif()
endfunction()

# ---------------------------------------------------------------------------------------------
# build_lib_example(NAME <name> SOURCE_FILES ... [HEADER_FILES ...] [LIBRARIES_TO_LINK ...])
# -> build/examples/<name>
function(build_lib_example)
  cmake_parse_arguments(BLIB_EXAMPLE "IGNORE_PCH" "NAME" "SOURCE_FILES;HEADER_FILES;LIBRARIES_TO_LINK"
                        ${ARGN}
  )
  if(BLIB_EXAMPLE_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "build_lib_example: unexpected arguments ${BLIB_EXAMPLE_UNPARSED_ARGUMENTS}")
  endif()
  ns3_standalone_executable(
    NAME ${BLIB_EXAMPLE_NAME}
    OUTPUT_DIRECTORY examples
    SOURCE_FILES ${BLIB_EXAMPLE_SOURCE_FILES}
    HEADER_FILES ${BLIB_EXAMPLE_HEADER_FILES}
    LIBRARIES_TO_LINK ${BLIB_EXAMPLE_LIBRARIES_TO_LINK}
  )
  # One precompiled header for all examples (one file each, the same options): the first
  # example builds it, the others reuse it.
  if(NS3_PRECOMPILE_HEADERS AND NOT BLIB_EXAMPLE_IGNORE_PCH)
    get_property(_pch_target GLOBAL PROPERTY NS3_STANDALONE_EXAMPLE_PCH_TARGET)
    if(_pch_target)
      target_precompile_headers(${BLIB_EXAMPLE_NAME} REUSE_FROM ${_pch_target})
    else()
      target_precompile_headers(${BLIB_EXAMPLE_NAME} PRIVATE ${NS3_STANDALONE_EXAMPLE_PCH_HEADERS}
                                <ns3/${NS3_STANDALONE_LIBNAME}-module.h>
      )
      set_property(GLOBAL PROPERTY NS3_STANDALONE_EXAMPLE_PCH_TARGET ${BLIB_EXAMPLE_NAME})
    endif()
  endif()
endfunction()
