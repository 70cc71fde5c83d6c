# tstudio_forbid_lines(SOURCES... REGEX regex FAILURE text SUCCESS text): the shared body of the
# cmake -P source checks (engine/check_no_qt.cmake, widgets/check_background_run.cmake,
# viewmodel/check_viewmodel_qt.cmake): fails, listing every file and line, when a line of SOURCES
# matches REGEX; otherwise says SUCCESS with the number of files read.
function(tstudio_forbid_lines)
    cmake_parse_arguments(ARG "" "REGEX;FAILURE;SUCCESS" "SOURCES" ${ARGN})
    set(offenders "")
    foreach(f IN LISTS ARG_SOURCES)
        file(STRINGS "${f}" lines REGEX "${ARG_REGEX}")
        if(lines)
            list(APPEND offenders "${f}: ${lines}")
        endif()
    endforeach()
    list(LENGTH ARG_SOURCES count)
    if(offenders)
        message(FATAL_ERROR "${ARG_FAILURE}:\n${offenders}")
    endif()
    message(STATUS "checked ${count} ${ARG_SUCCESS}")
endfunction()
