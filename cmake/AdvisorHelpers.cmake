# Shared CMake helpers: compiler warnings, resource embedding and test registration.

# advisor_set_warnings(<target>) - the project's warning set, applied to every target we own.
function(advisor_set_warnings target)
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
        -Wold-style-cast -Wcast-align -Woverloaded-virtual)
    if(ADVISOR_WARNINGS_AS_ERRORS)
        target_compile_options(${target} PRIVATE -Werror)
    endif()
endfunction()

# advisor_embed_resources(<output.cpp> FILES <relative paths under resources/>)
# Generates a C++ source that holds the given files' bytes, so the executable is
# self-sufficient (no install-path lookups) and core stays free of Qt's resource system.
function(advisor_embed_resources output)
    cmake_parse_arguments(ARG "" "" "FILES" ${ARGN})
    set(inputs "")
    foreach(f IN LISTS ARG_FILES)
        list(APPEND inputs "${ADVISOR_RESOURCES_DIR}/${f}")
    endforeach()
    string(REPLACE ";" "|" files_arg "${ARG_FILES}")
    add_custom_command(
        OUTPUT "${output}"
        COMMAND ${CMAKE_COMMAND} -DROOT=${ADVISOR_RESOURCES_DIR} "-DFILES=${files_arg}"
                -DOUTPUT=${output} -P ${CMAKE_SOURCE_DIR}/cmake/EmbedResources.cmake
        DEPENDS ${inputs} ${CMAKE_SOURCE_DIR}/cmake/EmbedResources.cmake
        COMMENT "Embedding resources into ${output}"
        VERBATIM)
endfunction()

# _advisor_register_test(<name> <default label> <labels> <timeout> <extra environment>)
# The part both test kinds share: compile definitions, the CTest entry, labels, a timeout
# (default 300 s; x6 in sanitizer builds, whose instrumented Debug code runs 5-10x slower)
# and a fixed locale, time zone and offscreen platform.
function(_advisor_register_test name default_label labels timeout env)
    target_compile_definitions(${name} PRIVATE
        ADVISOR_SOURCE_DIR="${CMAKE_SOURCE_DIR}"
        ADVISOR_FIXTURES_DIR="${CMAKE_SOURCE_DIR}/tests/fixtures")
    add_test(NAME ${name} COMMAND ${name})
    if(NOT labels)
        set(labels ${default_label})
    endif()
    if(NOT timeout)
        set(timeout 300)
    endif()
    if(ADVISOR_SANITIZE)
        math(EXPR timeout "${timeout} * 6")
    endif()
    set_tests_properties(${name} PROPERTIES LABELS "${labels}" TIMEOUT ${timeout}
        ENVIRONMENT "LC_ALL=C.UTF-8;TZ=UTC;QT_QPA_PLATFORM=offscreen;${env}")
endfunction()

# add_advisor_test(<name> SOURCES ... [LIBS ...] [LABELS ...] [TIMEOUT s] [ENVIRONMENT K=V ...])
# One GoogleTest executable registered as one CTest test with labels (`unit` by default).
function(add_advisor_test name)
    cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;LIBS;LABELS;ENVIRONMENT" ${ARGN})
    add_executable(${name} ${ARG_SOURCES})
    advisor_set_warnings(${name})
    target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main)
    _advisor_register_test(${name} unit "${ARG_LABELS}" "${ARG_TIMEOUT}" "${ARG_ENVIRONMENT}")
endfunction()

# add_advisor_qt_test(<name> SOURCES ... [LIBS ...] [LABELS ...] [TIMEOUT s]) - one Qt Test
# executable (QTEST_MAIN) registered as one CTest test, offscreen, `ui` label by default.
function(add_advisor_qt_test name)
    cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
    add_executable(${name} ${ARG_SOURCES})
    set_target_properties(${name} PROPERTIES AUTOMOC ON)
    advisor_set_warnings(${name})
    target_link_libraries(${name} PRIVATE ${ARG_LIBS} Qt6::Test)
    _advisor_register_test(${name} ui "${ARG_LABELS}" "${ARG_TIMEOUT}" "")
endfunction()
