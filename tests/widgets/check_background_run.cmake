# Fails when a source of the GUI starts a task with QtConcurrent::run directly: tasks start through
# runInBackground (viewmodel/common/background_run.h), which makes the hand-off to the pooled thread
# visible to ThreadSanitizer (cmake/TStudioSanitize.cmake); a direct call would be reported as races.
include("${CMAKE_CURRENT_LIST_DIR}/../source_rule.cmake")
file(GLOB_RECURSE sources "${SOURCE_DIR}/widgets/*.h" "${SOURCE_DIR}/widgets/*.cpp"
     "${SOURCE_DIR}/viewmodel/*.h" "${SOURCE_DIR}/viewmodel/*.cpp"
     "${SOURCE_DIR}/app/*.h" "${SOURCE_DIR}/app/*.cpp" "${SOURCE_DIR}/project/*.h" "${SOURCE_DIR}/project/*.cpp")
list(FILTER sources EXCLUDE REGEX "/viewmodel/common/background_run\\.h$")
tstudio_forbid_lines(SOURCES ${sources} REGEX "QtConcurrent::run[ \t]*\\("
                     FAILURE "QtConcurrent::run called directly (use runInBackground from viewmodel/common/background_run.h)"
                     SUCCESS "GUI sources: every background task starts through runInBackground")
