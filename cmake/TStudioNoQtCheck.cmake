# Configure-time layering guards: the engine and the command-line tool never link Qt, the view models
# never Qt Widgets, the engine's runtime wing never its building wing, directly or through another
# target. The configure stops here if one does.
function(_tstudio_collect_links target out_var)
    set(seen ${${out_var}})
    get_target_property(libs ${target} LINK_LIBRARIES)
    get_target_property(ilibs ${target} INTERFACE_LINK_LIBRARIES)
    foreach(lib IN LISTS libs ilibs)
        if(NOT lib OR lib MATCHES "-NOTFOUND$" OR lib IN_LIST seen)
            continue()
        endif()
        string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" lib "${lib}")
        # `engine` links engine_shared or engine_root by the linking program's property: both are followed.
        if(lib MATCHES "^\\$<IF:.*,([A-Za-z0-9_:]+),([A-Za-z0-9_:]+)>$")
            set(choices "${CMAKE_MATCH_1}" "${CMAKE_MATCH_2}")
            list(APPEND seen "${lib}")
            foreach(choice IN LISTS choices)
                if(NOT choice IN_LIST seen)
                    list(APPEND seen "${choice}")
                    _tstudio_collect_links(${choice} seen)
                endif()
            endforeach()
            continue()
        endif()
        list(APPEND seen "${lib}")
        if(TARGET ${lib})
            get_target_property(aliased ${lib} ALIASED_TARGET)
            if(aliased)
                set(lib ${aliased})
            endif()
            _tstudio_collect_links(${lib} seen)
        endif()
    endforeach()
    set(${out_var} ${seen} PARENT_SCOPE)
endfunction()

# Stops the configure when `target` links, directly or through another target, a library matching
# `pattern`; `rule` says what the layering forbids.
function(_tstudio_assert_links_none target pattern rule)
    set(all "")
    _tstudio_collect_links(${target} all)
    foreach(lib IN LISTS all)
        if(lib MATCHES "${pattern}")
            message(FATAL_ERROR "Layering violation: target '${target}' links '${lib}'. ${rule} (see ARCHITECTURE.md).")
        endif()
    endforeach()
endfunction()

function(tstudio_assert_no_qt target)
    _tstudio_assert_links_none(${target} "Qt[56]?::|Qt[56]?[A-Z]|libQt" "The engine and tstudio must not depend on Qt")
endfunction()

# The view models (viewmodel/) hold the panels' logic without their widgets: Qt Core, Qt Gui (QColor,
# the undo stack) and Qt Concurrent may come in, Qt Widgets and what builds on it (Charts, Svg's widgets,
# the widgets/ library) may not. CTest's check_viewmodel_qt guards the sources' includes.
function(tstudio_assert_no_qt_widgets target)
    _tstudio_assert_links_none(${target}
        "Qt[56]?::(Widgets|Charts|SvgWidgets|OpenGLWidgets|PrintSupport)|Qt[56]?(Widgets|Charts)|^widgets$|^tensorstudio_gui$"
        "The view models must not depend on Qt Widgets")
endfunction()

# The engine's runtime wing (engine_runtime and the object libraries it takes: kernels, distributed,
# the GPU code) is built on by the building wing (engine_building) and the composition root
# (engine), and never links them; its include path has no building/ either (engine/CMakeLists.txt).
function(tstudio_assert_runtime_wing target)
    _tstudio_assert_links_none(${target} "^engine_building$|^engine(_root|_shared|_registries)?$"
        "The engine's runtime wing must not depend on its building wing or on the composition root")
endfunction()
