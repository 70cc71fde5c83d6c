# Fails when a view-model source includes a header of Qt Widgets or of a module built on it (Charts,
# SvgWidgets, OpenGLWidgets, PrintSupport) by its module path (<QtWidgets/QWidget>): the view models
# are the panels' logic without their widgets. Unprefixed class headers (<QWidget>) and widgets/'s own
# headers do not compile there at all: viewmodel links neither Qt6::Widgets nor widgets
# (cmake/TStudioNoQtCheck.cmake checks that when CMake configures).
include("${CMAKE_CURRENT_LIST_DIR}/../source_rule.cmake")
file(GLOB_RECURSE sources "${SOURCE_DIR}/viewmodel/*.h" "${SOURCE_DIR}/viewmodel/*.cpp")
tstudio_forbid_lines(SOURCES ${sources}
                     REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]Qt(Widgets|Charts|SvgWidgets|OpenGLWidgets|PrintSupport)/"
                     FAILURE "view-model sources include Qt Widgets" SUCCESS "view-model sources: no Qt Widgets includes")
