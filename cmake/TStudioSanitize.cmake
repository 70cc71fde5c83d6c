# -DTSTUDIO_SANITIZE=address|undefined|thread: the program built under one sanitizer, in a build
# directory of its own (scripts/check-deep.sh makes build-ubsan and build-tsan).
#
# What is instrumented: every library and program of the product (engine with its kernels, the
# protobuf messages, models, project, widgets, app: tstudio and tensorstudio), through
# tstudio_sanitize_product_targets() at the end of the top-level CMakeLists.txt. The test sources
# themselves are compiled as in the normal build under AddressSanitizer and UndefinedBehaviorSanitizer;
# they link the sanitizer's runtime, and every check fires in the product code they drive, in process
# or in the tstudio / tensorstudio programs they start. Under ThreadSanitizer the tests are compiled
# with it too (tstudio_sanitize_directory_sources): see there why.
#
# Each test of such a build carries the sanitizer's CTest label (asan, ubsan, tsan) and its runtime
# options: a finding stops the program with a report, so the test fails. Tests of threaded code
# (the intra-op pool, the executor, queue runners, the training thread with pause and stop, the
# dashboard's feed, the layout workers) carry the label `threads` in every build: a ThreadSanitizer
# build runs those (`ctest -L threads`).
set(TSTUDIO_SANITIZE "" CACHE STRING
    "Build the product under one sanitizer: address, undefined or thread (use a separate build directory)")
set_property(CACHE TSTUDIO_SANITIZE PROPERTY STRINGS "" address undefined thread)

set(TSTUDIO_SANITIZE_FLAGS "")
set(TSTUDIO_SANITIZE_LABEL "")
set(TSTUDIO_SANITIZE_ENVIRONMENT "")
if(TSTUDIO_SANITIZE)
    if(NOT TSTUDIO_SANITIZE MATCHES "^(address|undefined|thread)$")
        message(FATAL_ERROR "TSTUDIO_SANITIZE is '${TSTUDIO_SANITIZE}': expected address, undefined or thread")
    endif()
    set(suppressions "${PROJECT_SOURCE_DIR}/cmake/sanitizers")
    if(TSTUDIO_SANITIZE STREQUAL "address")
        set(TSTUDIO_SANITIZE_FLAGS -fsanitize=address -fno-omit-frame-pointer)
        set(TSTUDIO_SANITIZE_LABEL asan)
        set(TSTUDIO_SANITIZE_SLOWDOWN 3)
        # Container-overflow checks need every user of a std::vector instrumented; the tests are not.
        set(TSTUDIO_SANITIZE_ENVIRONMENT
            "ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:detect_container_overflow=0"
            "LSAN_OPTIONS=suppressions=${suppressions}/lsan.supp:print_suppressions=0")
    elseif(TSTUDIO_SANITIZE STREQUAL "undefined")
        # Every kind the compiler's -fsanitize=undefined checks (scripts/check-deep.sh builds with clang
        # when it is installed), each one fatal (a report fails the test).
        set(TSTUDIO_SANITIZE_FLAGS -fsanitize=undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
        set(TSTUDIO_SANITIZE_LABEL ubsan)
        set(TSTUDIO_SANITIZE_SLOWDOWN 2)
        set(TSTUDIO_SANITIZE_ENVIRONMENT "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
    else()
        set(TSTUDIO_SANITIZE_FLAGS -fsanitize=thread)
        set(TSTUDIO_SANITIZE_LABEL tsan)
        set(TSTUDIO_SANITIZE_SLOWDOWN 10)
        # ignore_noninstrumented_modules: the memory accesses of interceptors (malloc, free, memmove)
        # called from code not compiled with -fsanitize=thread (Qt's libraries) are not checked. Qt
        # synchronises its threads (QMutex, QWaitCondition, QThreadPool, posted events) through futexes
        # TSan cannot see, so its internal copies and frees would be reported as races; our own code,
        # instrumented, is checked as before (cmake/sanitizers/tsan.supp lists what remains).
        set(TSTUDIO_SANITIZE_ENVIRONMENT
            "TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:ignore_noninstrumented_modules=1:suppressions=${suppressions}/tsan.supp")
    endif()
    # Every program links the sanitizer's runtime (tests included: they call into instrumented code).
    add_link_options(-fsanitize=${TSTUDIO_SANITIZE})
    message(STATUS "Sanitizer: ${TSTUDIO_SANITIZE} (CTest label ${TSTUDIO_SANITIZE_LABEL})")
endif()

# tstudio_sanitize_product_targets(TARGET...): compile the C++ of each existing TARGET under the
# sanitizer (nothing without TSTUDIO_SANITIZE). CUDA sources are left to nvcc as they are.
function(tstudio_sanitize_product_targets)
    if(NOT TSTUDIO_SANITIZE)
        return()
    endif()
    foreach(target IN LISTS ARGN)
        if(TARGET ${target})
            target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${TSTUDIO_SANITIZE_FLAGS}>)
        endif()
    endforeach()
endfunction()

# tstudio_label_sanitized_tests(): in a sanitizer build, every test the calling directory registered
# gets the sanitizer's label and runtime options, and a time-out TSTUDIO_SANITIZE_SLOWDOWN times its
# own (instrumented code runs slower: about 2x under UBSan, 3x under ASan, 5-15x under TSan). Call it at the end of a directory's CMakeLists.txt
# (CMake 3.25 sets test properties only from the directory that made the test).
function(tstudio_label_sanitized_tests)
    if(NOT TSTUDIO_SANITIZE)
        return()
    endif()
    get_property(tests DIRECTORY PROPERTY TESTS)
    foreach(test IN LISTS tests)
        set_property(TEST ${test} APPEND PROPERTY LABELS ${TSTUDIO_SANITIZE_LABEL})
        set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT ${TSTUDIO_SANITIZE_ENVIRONMENT})
        get_test_property(${test} TIMEOUT timeout)
        if(NOT timeout)
            set(timeout 1500) # CTest's default
        endif()
        math(EXPR timeout "${timeout} * ${TSTUDIO_SANITIZE_SLOWDOWN}")
        set_property(TEST ${test} PROPERTY TIMEOUT ${timeout})
    endforeach()
endfunction()

# tstudio_sanitize_directory_sources(): under ThreadSanitizer, compile the C++ of every target the
# calling directory defines (the tests) with -fsanitize=thread as well. libstdc++ inlines shared_ptr's
# reference counting differently when it is built for ThreadSanitizer (_GLIBCXX_TSAN): without it, the
# last release reads both counts with one plain 8-byte load TSan does not see. A test object compiled
# without the sanitizer gives the linker such an uninstrumented copy of, for example,
# std::vector<Tensor>::~vector, and TSan then reports a tensor freed on one executor thread after
# another thread's release as a race (test_queue_runner did, before this). Under the other
# sanitizers mixing is harmless, and the tests keep the normal build's objects.
function(tstudio_sanitize_directory_sources)
    if(TSTUDIO_SANITIZE STREQUAL "thread")
        add_compile_options($<$<COMPILE_LANGUAGE:CXX>:${TSTUDIO_SANITIZE_FLAGS}>)
    endif()
endfunction()
