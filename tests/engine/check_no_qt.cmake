# Fails when any engine source includes a Qt header: the engine must build without Qt.
include("${CMAKE_CURRENT_LIST_DIR}/../source_rule.cmake")
file(GLOB_RECURSE sources "${SOURCE_DIR}/engine/*.h" "${SOURCE_DIR}/engine/*.cpp" "${SOURCE_DIR}/engine/*.cu" "${SOURCE_DIR}/engine/*.cuh")
tstudio_forbid_lines(SOURCES ${sources} REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](Q[A-Z]|Qt)"
                     FAILURE "engine sources include Qt" SUCCESS "engine sources: no Qt includes")
