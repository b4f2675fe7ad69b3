# The claims of docs/ARCHITECTURE.md that a script can check, besides the include layering (CheckLayers.cmake). Run
# as a script (`cmake -DSOURCE_DIR=<repo> -P cmake/CheckArchitecture.cmake`); CTest runs it as tst_architecture on the
# tree and as tst_architecture_refused_* on tests/fixtures/architecture/refused, which breaks each claim once.
#
# 1. Typed values cross into ui/: no JSON type in a ui/ header (JSON is a file format, read and written in core/).
# 2. One task runner: no QThreadPool and no std::async in core/, ui/ or app/ outside core/util/task_runner.*; a
#    std::thread of its own only where a thread outlives every task by design (listed below, each saying why).
# 3. Environment variables in one place: no STACKSCOPE_* variable read (getenv, qgetenv, qEnvironmentVariable) outside
#    core/util/environment.cpp, and every one it names is in docs/environment.md.
# 4. One Settings object: no QSettings in ui/ or app/ outside ui/settings/.
# 5. Thin pages: no page class (a class in ui/ whose name ends in Page) has over 250 lines of methods, counted by
#    cmake/page_method_lines.py (every member function definition, out of line or in the class body, from its first line
#    to its closing brace; comments and strings blanked).
cmake_minimum_required(VERSION 3.20)

if(NOT SOURCE_DIR)
  message(FATAL_ERROR "CheckArchitecture.cmake: pass -DSOURCE_DIR=<the repository root>")
endif()

# ui/ headers that still carry a JSON document, with why. The report exporter writes the report file: its request and
# result hold the file's JSON documents (the pages' runs as they are written into it).
set(_json_in_ui_headers_allowed "ui/report/report_exporter.h")
# Threads that outlive every task by design: the runner's own, the telemetry sampler (start to stop, across jobs), NVML
# clock-event sampling (beside the measurements it watches) and the flight recorder's watchdog (it must fire while the
# rank's threads are stuck in a collective).
set(_own_threads_allowed
  "core/util/task_runner.h" "core/util/task_runner.cpp"
  "core/telemetry/sampler.h" "core/telemetry/sampler.cpp"
  "core/perf/clock_events.h" "core/perf/clock_events.cpp"
  "core/torch/flight_recorder.cpp")

set(_problems "")
file(GLOB_RECURSE _sources RELATIVE ${SOURCE_DIR}
     ${SOURCE_DIR}/core/*.h ${SOURCE_DIR}/core/*.cpp ${SOURCE_DIR}/core/*.cu
     ${SOURCE_DIR}/ui/*.h ${SOURCE_DIR}/ui/*.cpp ${SOURCE_DIR}/app/*.h ${SOURCE_DIR}/app/*.cpp)
list(SORT _sources)

foreach(_rel IN LISTS _sources)
  file(STRINGS ${SOURCE_DIR}/${_rel} _lines)
  string(REGEX MATCH "^ui/.*\\.h$" _ui_header "${_rel}")
  foreach(_line IN LISTS _lines)
    string(REGEX REPLACE "//.*$" "" _code "${_line}") # comments may name what they do not use
    if(_ui_header AND _code MATCHES "nlohmann" AND NOT _rel IN_LIST _json_in_ui_headers_allowed)
      list(APPEND _problems "${_rel}: names a JSON type (${_code}) - typed values cross into ui/: give it a struct in core/ and read the JSON there")
      break()
    endif()
    if(_code MATCHES "QThreadPool")
      list(APPEND _problems "${_rel}: uses QThreadPool - run the work through ui::JobTracker or core's TaskRunner (core/util/task_runner.h)")
      break()
    endif()
    if(_code MATCHES "std::async" AND NOT _rel MATCHES "^core/util/task_runner\\.")
      list(APPEND _problems "${_rel}: uses std::async - start it on the task runner (TaskRunner::start, core/util/task_runner.h)")
      break()
    endif()
    if(_code MATCHES "std::(j)?thread([^:a-z_]|$)" AND NOT _rel IN_LIST _own_threads_allowed)
      list(APPEND _problems "${_rel}: starts a std::thread of its own - use the task runner (forEach, together, start), or list the file in cmake/CheckArchitecture.cmake with why its thread outlives every task")
      break()
    endif()
    if(_code MATCHES "(getenv|qgetenv|qEnvironmentVariable[A-Za-z]*)[ \t]*\\([ \t]*(QStringLiteral\\()?\"STACKSCOPE_")
      list(APPEND _problems "${_rel}: reads a STACKSCOPE_* variable itself - add it to core/util/environment.h and docs/environment.md and read it with envValue()")
      break()
    endif()
    if(_code MATCHES "QSettings" AND _rel MATCHES "^(ui|app)/" AND NOT _rel MATCHES "^ui/settings/")
      list(APPEND _problems "${_rel}: opens QSettings - keep the value in ui/settings/settings.h (the one Settings object)")
      break()
    endif()
  endforeach()
endforeach()

# Every variable core/util/environment.cpp names is documented.
if(EXISTS ${SOURCE_DIR}/core/util/environment.cpp)
  file(STRINGS ${SOURCE_DIR}/core/util/environment.cpp _named REGEX "\"STACKSCOPE_[A-Z0-9_]+\"")
  set(_doc "")
  if(EXISTS ${SOURCE_DIR}/docs/environment.md)
    file(READ ${SOURCE_DIR}/docs/environment.md _doc)
  endif()
  foreach(_line IN LISTS _named)
    string(REGEX MATCH "STACKSCOPE_[A-Z0-9_]+" _var "${_line}")
    string(FIND "${_doc}" "`${_var}`" _at)
    if(_at LESS 0)
      list(APPEND _problems "core/util/environment.cpp: ${_var} is not in docs/environment.md - say there what it does")
    endif()
  endforeach()
else()
  list(APPEND _problems "core/util/environment.cpp is missing: the STACKSCOPE_* variables are read there")
endif()

# Thin pages: the counter is Python (brace matching); it prints one line per page class over the limit.
set(_page_method_limit 250)
find_program(_python NAMES python3 python)
if(NOT _python)
  list(APPEND _problems "python3 was not found: install it (the page size check, cmake/page_method_lines.py, runs on it)")
else()
  execute_process(COMMAND ${_python} ${CMAKE_CURRENT_LIST_DIR}/page_method_lines.py ${SOURCE_DIR} --limit ${_page_method_limit}
                  OUTPUT_VARIABLE _over ERROR_VARIABLE _error RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    list(APPEND _problems "cmake/page_method_lines.py failed (exit ${_rc}): ${_error}")
  endif()
  string(REPLACE ";" "," _over "${_over}")
  string(REGEX REPLACE "\n$" "" _over "${_over}")
  if(_over)
    string(REPLACE "\n" ";" _over "${_over}")
    list(APPEND _problems ${_over})
  endif()
  execute_process(COMMAND ${_python} ${CMAKE_CURRENT_LIST_DIR}/page_method_lines.py ${SOURCE_DIR}
                  OUTPUT_VARIABLE _pages RESULT_VARIABLE _rc)
  if(_rc EQUAL 0 AND _pages)
    message(STATUS "Lines of methods of the page classes (at most ${_page_method_limit}):\n${_pages}")
  endif()
endif()

if(_problems)
  list(LENGTH _problems _n)
  string(REPLACE ";" "\n  " _text "${_problems}")
  message(FATAL_ERROR "docs/ARCHITECTURE.md's checked claims: ${_n} problem(s):\n  ${_text}")
endif()
message(STATUS "docs/ARCHITECTURE.md's checked claims hold")
