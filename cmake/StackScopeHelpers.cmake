# Small helpers shared by every folder: warnings, embedded resources, tests.

function(stackscope_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wno-unused-parameter)
endfunction()

# stackscope_embed_text(<out.cpp> <symbol> <file>): a C++ source holding the file's text as
# `extern const char* const <symbol>` so that binaries work without an installed resources folder.
function(stackscope_embed_text out symbol file)
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DIN=${file} -DOUT=${out} -DSYMBOL=${symbol}
            -P ${PROJECT_SOURCE_DIR}/cmake/EmbedText.cmake
    DEPENDS ${file} ${PROJECT_SOURCE_DIR}/cmake/EmbedText.cmake
    COMMENT "Embedding ${file}")
endfunction()

# stackscope_add_test(NAME <name> SOURCES ... LIBS ... [LABELS ...] [QT]): one test executable that
# links the targets under test (sources are never recompiled) and registers it with CTest.
function(stackscope_add_test)
  cmake_parse_arguments(T "QT" "NAME;TIMEOUT" "SOURCES;LIBS;LABELS;ENV" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES})
  stackscope_warnings(${T_NAME})
  target_link_libraries(${T_NAME} PRIVATE ${T_LIBS})
  target_include_directories(${T_NAME} PRIVATE ${PROJECT_SOURCE_DIR})
  target_compile_definitions(${T_NAME} PRIVATE
    STACKSCOPE_TEST_FIXTURES="${PROJECT_SOURCE_DIR}/tests/fixtures"
    STACKSCOPE_TEST_BINARY_DIR="${CMAKE_CURRENT_BINARY_DIR}")
  if(T_QT)
    target_link_libraries(${T_NAME} PRIVATE Qt6::Test)
    set_target_properties(${T_NAME} PROPERTIES AUTOMOC ON)
  endif()
  add_test(NAME ${T_NAME} COMMAND ${T_NAME})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  set_tests_properties(${T_NAME} PROPERTIES TIMEOUT ${T_TIMEOUT} SKIP_RETURN_CODE 77
    ENVIRONMENT "QT_QPA_PLATFORM=offscreen;STACKSCOPE_CLI=$<TARGET_FILE:stackscope-cli>;STACKSCOPE_MODULE_DIR=${STACKSCOPE_MODULE_OUTPUT_DIR};${T_ENV}")
  if(T_LABELS)
    set_tests_properties(${T_NAME} PROPERTIES LABELS "${T_LABELS}")
  endif()
endfunction()
