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
  # MALLOC_PERTURB_: glibc fills what malloc hands out and what free takes back with a pattern, so a test that reads
  # memory nobody wrote (UnzeroedArray's storage) or memory already freed sees garbage, not the zeros or the old
  # values it would happen to find (it caught a range-for over a freed result in tst_vpoc_batched).
  set_tests_properties(${T_NAME} PROPERTIES TIMEOUT ${T_TIMEOUT} SKIP_RETURN_CODE 77
    ENVIRONMENT "MALLOC_PERTURB_=165;QT_QPA_PLATFORM=offscreen;STACKSCOPE_CLI=$<TARGET_FILE:stackscope-cli>;STACKSCOPE_MODULE_DIR=${STACKSCOPE_MODULE_OUTPUT_DIR};${T_ENV}")
  if(T_LABELS)
    set_tests_properties(${T_NAME} PROPERTIES LABELS "${T_LABELS}")
  endif()
endfunction()

# stackscope_add_fuzzer(NAME <name> SOURCE <file.cpp> LIBS ... [INSTRUMENT <lib>...]): a libFuzzer target (ASan +
# UBSan) linking LIBS; the INSTRUMENT libraries are compiled for coverage too, or libFuzzer would see nothing inside
# them. Only with -DSTACKSCOPE_FUZZ=ON, in a build folder of its own configured with clang (CC=clang CXX=clang++).
function(stackscope_add_fuzzer)
  if(NOT STACKSCOPE_FUZZ)
    return()
  endif()
  cmake_parse_arguments(F "" "NAME;SOURCE" "LIBS;INSTRUMENT" ${ARGN})
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "STACKSCOPE_FUZZ needs clang: configure a separate build folder with CC=clang CXX=clang++")
  endif()
  foreach(_lib ${F_INSTRUMENT})
    target_compile_options(${_lib} PRIVATE -fsanitize=fuzzer-no-link,address,undefined)
  endforeach()
  add_executable(${F_NAME} ${F_SOURCE})
  target_compile_options(${F_NAME} PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_options(${F_NAME} PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_libraries(${F_NAME} PRIVATE ${F_LIBS})
endfunction()
