option(TSTUDIO_TEST_DEBUG_INFO "Keep debug sections in test executables (about 200 MB each)" OFF)

# Compile settings every test source shares (tests and the precompiled headers' hosts alike).
# Test sources are compiled at -O1 without debug information: most of a test file's compile time
# is spent optimising Qt Test's and the engine's inline code, which tests run once; the engine they
# link keeps the build type's flags. (A cold build with 255 tests took about an hour on 2 cores.)
function(_tstudio_test_compile_settings name)
    # Tests link the engine as one shared library (engine/CMakeLists.txt's engine_shared), not
    # each the whole static engine.
    set_target_properties(${name} PROPERTIES TSTUDIO_SHARED_ENGINE ON)
    if(NOT TSTUDIO_TEST_DEBUG_INFO)
        if(CMAKE_BUILD_TYPE STREQUAL "RelWithDebInfo" OR CMAKE_BUILD_TYPE STREQUAL "Release")
            target_compile_options(${name} PRIVATE -O1 -g0)
        endif()
    endif()
    target_compile_definitions(${name} PRIVATE
        TSTUDIO_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
        TSTUDIO_TSTUDIO_EXE="$<TARGET_FILE:tstudio>"
        TSTUDIO_GUI_EXE="$<TARGET_FILE:tensorstudio>")
    tstudio_ccache_pch_sloppiness(${name})
endfunction()

# Precompiled headers for the tests: the Qt Test, Qt Core, protobuf and engine headers most test
# files include. Parsing them is about half of a test file's compile time (test_rnn.cpp: 9.1 s
# alone, 4.4 s with them precompiled). A precompiled header is only used by sources compiled with
# the same macros that its headers test (QT_GUI_LIB and QT_WIDGETS_LIB change what <QtTest>
# declares), so there are two: one for tests that link only Qt Core and one for those that link Qt
# Widgets. Tests built with AddressSanitizer, or linking Qt Gui without Widgets, go without.
option(TSTUDIO_TEST_PCH "Compile tests with precompiled headers" ON)
set(TSTUDIO_TEST_PCH_HEADERS
    <QTest> <QtTest> <QTemporaryDir> <QFile> <QDir> <QJsonObject> <QJsonDocument> <QJsonArray>
    <google/protobuf/text_format.h>
    <algorithm> <cmath> <filesystem> <fstream> <map> <random> <set> <thread> <vector>
    <builder/attr_values.h> <builder/graph_builder.h> <builder/ops_sugar.h> <builder/variables.h>
    <autodiff/gradients.h> <framework/allocator.h> <framework/op_registry.h> <kernels/kernels.h>
    <ops/ops.h> <registries/register_all_ops.h> <registries/default_registries.h> <runtime/session.h>)

# tstudio_add_test_pch_host(NAME LIBRARY...): an object library that only builds the tests'
# precompiled header with the usage requirements (include paths, Qt's macros) of LIBRARY...
function(tstudio_add_test_pch_host name)
    add_library(${name} OBJECT "${PROJECT_SOURCE_DIR}/tests/support/pch_host.cpp")
    target_link_libraries(${name} PRIVATE Qt6::Test ${ARGN})
    _tstudio_test_compile_settings(${name})
    tstudio_warnings(${name}) # -Wpedantic changes predefined macros (__cpp_runtime_arrays)
    target_precompile_headers(${name} PRIVATE ${TSTUDIO_TEST_PCH_HEADERS})
endfunction()

# Libraries whose usage requirements reach TARGET: its own links and, from each, what that library
# passes on (INTERFACE_LINK_LIBRARIES, followed transitively; $<LINK_ONLY:...> passes on no macros).
function(_tstudio_usage_links target out_var)
    get_target_property(pending ${target} LINK_LIBRARIES)
    set(seen "")
    while(pending)
        list(POP_FRONT pending lib)
        if(NOT lib OR lib MATCHES "-NOTFOUND$" OR lib MATCHES "^\\$<" OR lib IN_LIST seen)
            continue()
        endif()
        list(APPEND seen "${lib}")
        if(TARGET ${lib})
            get_target_property(aliased ${lib} ALIASED_TARGET)
            if(aliased)
                list(APPEND seen "${aliased}")
                set(lib ${aliased})
            endif()
            get_target_property(passed_on ${lib} INTERFACE_LINK_LIBRARIES)
            if(passed_on)
                list(APPEND pending ${passed_on})
            endif()
        endif()
    endwhile()
    set(${out_var} ${seen} PARENT_SCOPE)
endfunction()

# The precompiled header's host that NAME's sources can use, or "" for none.
function(_tstudio_test_pch_host name libraries out_var)
    set(${out_var} "" PARENT_SCOPE)
    if(NOT TSTUDIO_TEST_PCH OR NOT TARGET tstudio_test_pch_core)
        return()
    endif()
    _tstudio_usage_links(${name} links)
    if(links MATCHES "Qt6?::Widgets")
        set(${out_var} tstudio_test_pch_widgets PARENT_SCOPE)
    elseif(links MATCHES "Qt6?::Gui")
        # The view models' host (Qt Gui and Concurrent): only their tests share its macros.
        if(TARGET tstudio_test_pch_gui AND "viewmodel" IN_LIST links)
            set(${out_var} tstudio_test_pch_gui PARENT_SCOPE)
        endif()
    else()
        set(${out_var} tstudio_test_pch_core PARENT_SCOPE)
    endif()
endfunction()

# tstudio_write_test_moc_predefs(): the compiler's predefined macros, for moc's #if evaluation (what
# AUTOMOC's moc_predefs.h holds), written once per configure into the calling directory's build
# folder; sets TSTUDIO_TEST_MOC_PREDEFS there for the tests' moc commands.
function(tstudio_write_test_moc_predefs)
    set(predefs "${CMAKE_CURRENT_BINARY_DIR}/moc_predefs.h")
    execute_process(COMMAND ${CMAKE_CXX_COMPILER} -dM -E -x c++ /dev/null
        OUTPUT_FILE "${predefs}.new" RESULT_VARIABLE result)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "${CMAKE_CXX_COMPILER} -dM -E failed: cannot list its predefined macros for moc")
    endif()
    # Rewritten only when it changes: a newer file would run moc again and recompile every test.
    file(COPY_FILE "${predefs}.new" "${predefs}" ONLY_IF_DIFFERENT)
    file(REMOVE "${predefs}.new")
    set(TSTUDIO_TEST_MOC_PREDEFS "${predefs}" PARENT_SCOPE)
endfunction()

# moc for a test: a Qt Test file declares its test class in the .cpp and ends with
# `#include "<file>.moc"`. AUTOMOC passes moc every include path of the target, and moc then reads
# every header the test includes (1.7 s per test file, ~8 CPU-minutes for the suite) and writes an
# empty mocs_compilation.cpp that is compiled with the precompiled header (2 s each). The class
# needs none of those headers: moc runs on the file alone, with the target's macros and the
# compiler's predefined ones (the same output, byte for byte, for every test when this was written).
# A test whose Q_OBJECT classes are not all in .cpp files that include their own .moc keeps AUTOMOC.
# moc sees no project header: slots behind an #if on a macro that a header defines would be left out
# of the .moc, and the test would then fail to compile or link (give such a test AUTOMOC).
function(_tstudio_test_moc name)
    set(moc_sources "")
    set(needs_automoc OFF)
    foreach(source IN LISTS ARGN)
        file(STRINGS "${source}" meta REGEX "Q_OBJECT|Q_GADGET|Q_NAMESPACE")
        if(NOT meta)
            continue()
        endif()
        get_filename_component(base "${source}" NAME_WE)
        get_filename_component(ext "${source}" LAST_EXT)
        file(STRINGS "${source}" own_moc REGEX "^#include [\"<]${base}\\.moc[\">]")
        if(ext STREQUAL ".cpp" AND own_moc)
            list(APPEND moc_sources "${source}")
        else()
            set(needs_automoc ON)
        endif()
    endforeach()
    if(needs_automoc)
        set_target_properties(${name} PROPERTIES AUTOMOC ON)
        set_source_files_properties("${CMAKE_CURRENT_BINARY_DIR}/${name}_autogen/mocs_compilation.cpp"
            PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
        return()
    endif()
    set(moc_dir "${CMAKE_CURRENT_BINARY_DIR}/${name}_moc")
    set(defs "$<TARGET_PROPERTY:${name},COMPILE_DEFINITIONS>")
    foreach(source IN LISTS moc_sources)
        get_filename_component(base "${source}" NAME_WE)
        set(output "${moc_dir}/${base}.moc")
        # moc reads its arguments from a file, one per line (as qt6_generate_moc does), so that the
        # target's macros need no target-level dependency on the programs they name.
        set(parameters "${moc_dir}/${base}.moc_parameters")
        file(GENERATE OUTPUT "${parameters}" CONTENT
            "$<$<BOOL:${defs}>:-D$<JOIN:${defs},\n-D>\n>--include\n${TSTUDIO_TEST_MOC_PREDEFS}\n${source}\n-o\n${output}\n")
        add_custom_command(OUTPUT "${output}"
            COMMAND Qt6::moc "@${parameters}"
            DEPENDS "${source}" "${parameters}" "${TSTUDIO_TEST_MOC_PREDEFS}" Qt6::moc
            COMMENT "moc ${base}.cpp"
            VERBATIM)
        target_sources(${name} PRIVATE "${output}")
    endforeach()
    target_include_directories(${name} PRIVATE "${moc_dir}")
endfunction()

# Skips are skips. A Qt Test program counts initTestCase and cleanupTestCase as passed whatever
# happens, so one whose every test function QSKIPs ends with "Totals: 2 passed, 0 failed" and some
# skipped (one whose initTestCase QSKIPs, "0 passed, 0 failed, 1 skipped"): CTest reports such a
# program as skipped, not passed.
# Every Qt Test run also writes its log to ${TSTUDIO_TEST_RESULTS_DIR}/<test>.txt, from which
# scripts/test_summary.py counts the test functions and lists each skip with its reason.
set(TSTUDIO_QTEST_ALL_SKIPPED_REGEX "Totals: [0-2] passed, 0 failed, [1-9][0-9]* skipped")
set(TSTUDIO_TEST_RESULTS_DIR "${CMAKE_BINARY_DIR}/test-results")
file(MAKE_DIRECTORY "${TSTUDIO_TEST_RESULTS_DIR}") # Qt Test fails when it cannot open its log file

# _tstudio_qtest_add(TEST PROGRAM): registers Qt Test program PROGRAM as CTest test TEST, logging to
# the console (what CTest reads) and to TEST's file in the results directory.
function(_tstudio_qtest_add test program)
    add_test(NAME ${test} COMMAND ${program} -o "${TSTUDIO_TEST_RESULTS_DIR}/${test}.txt,txt" -o -,txt)
    set_tests_properties(${test} PROPERTIES SKIP_REGULAR_EXPRESSION "${TSTUDIO_QTEST_ALL_SKIPPED_REGEX}")
endfunction()

# tstudio_add_qtest(NAME SOURCES... LIBRARIES... LABELS...): one Qt Test executable per test file,
# registered with CTest, labelled, and run offscreen with an isolated home for settings.
function(tstudio_add_qtest name)
    cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;LIBRARIES;LABELS" ${ARGN})
    add_executable(${name} ${ARG_SOURCES})
    list(TRANSFORM ARG_SOURCES PREPEND "${CMAKE_CURRENT_SOURCE_DIR}/" REGEX "^[^/]")
    _tstudio_test_moc(${name} ${ARG_SOURCES})
    target_link_libraries(${name} PRIVATE Qt6::Test ${ARG_LIBRARIES})
    # Tests link the engine as a shared library (engine_shared) and without debug sections of their
    # own (the symbols stay, so backtraces and sanitizer reports still name functions); configure
    # with -DTSTUDIO_TEST_DEBUG_INFO=ON to keep them for stepping through a test in gdb.
    if(NOT TSTUDIO_TEST_DEBUG_INFO)
        target_link_options(${name} PRIVATE -Wl,--strip-debug)
    endif()
    _tstudio_test_compile_settings(${name})
    _tstudio_test_pch_host(${name} "${ARG_LIBRARIES}" pch_host)
    if(pch_host)
        target_precompile_headers(${name} REUSE_FROM ${pch_host})
        # A source that defines EIGEN_USE_THREADS includes Eigen's thread pool, whose identifier
        # `signals` Qt's headers define as a macro: it must come before Qt, so it goes without.
        # (Read when CMake configures: re-run cmake after adding the define to an existing test.)
        foreach(source IN LISTS ARG_SOURCES)
            file(STRINGS "${source}" eigen_threads REGEX "^#define EIGEN_USE_THREADS")
            if(eigen_threads)
                set_source_files_properties("${source}" TARGET_DIRECTORY ${name}
                    PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
            endif()
        endforeach()
    endif()
    tstudio_warnings(${name})
    _tstudio_qtest_add(${name} ${name})
    if(NOT ARG_TIMEOUT)
        set(ARG_TIMEOUT 120)
    endif()
    set(home "${CMAKE_CURRENT_BINARY_DIR}/home/${name}")
    # Qt Test's watchdog ends a test function after 300 s (QTEST_FUNCTION_TIMEOUT, in ms); a program
    # given a longer CTest TIMEOUT gets the same limit per function, so that on a slow machine the
    # declared TIMEOUT, not Qt's default, is what stops it.
    math(EXPR function_timeout_ms "${ARG_TIMEOUT} * 1000")
    set_tests_properties(${name} PROPERTIES
        LABELS "${ARG_LABELS}"
        TIMEOUT ${ARG_TIMEOUT}
        ENVIRONMENT "QT_QPA_PLATFORM=offscreen;HOME=${home};XDG_CONFIG_HOME=${home}/.config;XDG_CACHE_HOME=${home}/.cache;TSTUDIO_SOURCE_DIR=${PROJECT_SOURCE_DIR};QTEST_FUNCTION_TIMEOUT=${function_timeout_ms}")
endfunction()

# tstudio_add_poisoned_twin(NAME): NAME's program run again as NAME_poisoned, with every output a
# kernel allocates without a zero fill first set to 0xFF bytes (TSTUDIO_POISON_UNINITIALIZED): a
# kernel that leaves part of an output unwritten then shows NaN or -1 there instead of passing on
# the allocator's chance zeros.
function(tstudio_add_poisoned_twin name)
    _tstudio_qtest_add(${name}_poisoned ${name})
    get_test_property(${name} LABELS labels)
    get_test_property(${name} TIMEOUT timeout)
    get_test_property(${name} ENVIRONMENT environment)
    set_tests_properties(${name}_poisoned PROPERTIES
        LABELS "${labels};poisoned"
        TIMEOUT ${timeout}
        ENVIRONMENT "${environment};TSTUDIO_POISON_UNINITIALIZED=1")
endfunction()

# tstudio_add_isa_twin(NAME LEVEL): NAME's program run again as NAME_isa_<LEVEL> with the
# instruction sets the engine's kernels use capped at LEVEL (TSTUDIO_CPU_ISA: baseline, sse4.2, avx,
# avx2; core/cpu_features.h): the code paths a weaker x86-64 CPU takes (Eigen's AVX2 or baseline
# GEMM tiles, oneDNN held to AVX2 or SSE4.1, the SSE resize rows, the table CRC32C) run in CI on
# this machine too.
function(tstudio_add_isa_twin name level)
    string(REPLACE "." "" suffix "${level}")
    _tstudio_qtest_add(${name}_isa_${suffix} ${name})
    get_test_property(${name} LABELS labels)
    get_test_property(${name} TIMEOUT timeout)
    get_test_property(${name} ENVIRONMENT environment)
    set_tests_properties(${name}_isa_${suffix} PROPERTIES
        LABELS "${labels};isa"
        TIMEOUT ${timeout}
        ENVIRONMENT "${environment};TSTUDIO_CPU_ISA=${level}")
endfunction()
