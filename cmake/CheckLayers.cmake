# The house drawn from the includes (issue 34): each core folder is one library and builds only on the folders
# declared for it here. Run as a script (`cmake -DSOURCE_DIR=<repo> [-DSTAMP=<file>] -P cmake/CheckLayers.cmake`):
# the build runs it whenever a source changes (target stackscope_layers) and CTest runs it (tst_layers). It fails
# on an include of core/<folder>/ that the including folder does not declare, on core including ui/ or app/, and on
# ui/ including app/. The table is in build order: a folder may only declare folders written above it, so the house
# has no loop.
#
# To let a folder build on another, add it to the folder's line below and to its target_link_libraries.
set(STACKSCOPE_LAYERS
  "util:"
  "snapshot:util"
  "runtime:util snapshot"
  "inspect:util snapshot runtime"
  "archscan:util snapshot runtime inspect"
  "telemetry:util snapshot runtime"
  "vpoc:util snapshot runtime"
  "perf:util snapshot runtime inspect"
  "diagnosis:util snapshot"
  "probes:util snapshot runtime inspect diagnosis perf"
  "python:util snapshot"
  "training:util snapshot runtime inspect vpoc"
  "report:util snapshot runtime inspect archscan telemetry diagnosis probes perf"
  "torch:util runtime probes"
)

cmake_minimum_required(VERSION 3.20)

if(NOT SOURCE_DIR)
  message(FATAL_ERROR "CheckLayers.cmake: pass -DSOURCE_DIR=<the repository root>")
endif()

set(_problems "")
set(_seen "")
foreach(_entry IN LISTS STACKSCOPE_LAYERS)
  string(REPLACE ":" ";" _parts "${_entry}")
  list(GET _parts 0 _folder)
  list(LENGTH _parts _n)
  set(_deps "")
  if(_n GREATER 1)
    list(GET _parts 1 _depline)
    string(REPLACE " " ";" _deps "${_depline}")
  endif()
  foreach(_dep IN LISTS _deps)
    if(NOT _dep IN_LIST _seen)
      list(APPEND _problems "the table: '${_folder}' declares '${_dep}', which is not written above it (a loop or a typo)")
    endif()
  endforeach()
  list(APPEND _seen ${_folder})
  set(_allowed_${_folder} ${_deps} ${_folder})
endforeach()

# Every folder under core/ must be in the table: a new folder declares its place in the house.
file(GLOB _folders LIST_DIRECTORIES true RELATIVE ${SOURCE_DIR}/core ${SOURCE_DIR}/core/*)
foreach(_folder IN LISTS _folders)
  if(IS_DIRECTORY ${SOURCE_DIR}/core/${_folder} AND NOT _folder IN_LIST _seen)
    list(APPEND _problems "core/${_folder}/ is not in the table of cmake/CheckLayers.cmake: add it with the folders it builds on")
  endif()
endforeach()

function(_check_file path area allowed)
  file(STRINGS ${path} _lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"(core|ui|app)/")
  foreach(_line IN LISTS _lines)
    if(NOT _line MATCHES "^[ \t]*#[ \t]*include[ \t]*\"([a-z]+)/([a-z_0-9]+)/")
      continue() # a file directly in core/ (generated headers)
    endif()
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([a-z]+)/([a-z_0-9]+)/.*" "\\1;\\2" _target "${_line}")
    list(GET _target 0 _top)
    list(GET _target 1 _sub)
    file(RELATIVE_PATH _rel ${SOURCE_DIR} ${path})
    string(STRIP "${_line}" _line)
    if(area STREQUAL "ui")
      if(_top STREQUAL "app")
        set(_problems ${_problems} "${_rel}: ${_line}: ui/ is a library below the programs and never includes app/" PARENT_SCOPE)
        return()
      endif()
    elseif(NOT _top STREQUAL "core")
      set(_problems ${_problems} "${_rel}: ${_line}: core/ has no Qt and never includes ${_top}/" PARENT_SCOPE)
      return()
    elseif(NOT _sub IN_LIST allowed)
      set(_problems ${_problems}
          "${_rel}: ${_line}: core/${area} does not build on core/${_sub} (move the shared piece down, or declare the edge in cmake/CheckLayers.cmake if it points down)"
          PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(_problems ${_problems} PARENT_SCOPE)
endfunction()

foreach(_folder IN LISTS _seen)
  file(GLOB_RECURSE _files ${SOURCE_DIR}/core/${_folder}/*.h ${SOURCE_DIR}/core/${_folder}/*.cpp
       ${SOURCE_DIR}/core/${_folder}/*.cu ${SOURCE_DIR}/core/${_folder}/*.in)
  foreach(_f IN LISTS _files)
    _check_file(${_f} ${_folder} "${_allowed_${_folder}}")
  endforeach()
endforeach()
file(GLOB_RECURSE _ui_files ${SOURCE_DIR}/ui/*.h ${SOURCE_DIR}/ui/*.cpp)
foreach(_f IN LISTS _ui_files)
  _check_file(${_f} ui "")
endforeach()

if(_problems)
  list(LENGTH _problems _count)
  list(JOIN _problems "\n  " _text)
  message(FATAL_ERROR "The layering of core/ is broken (${_count} problems; docs/ARCHITECTURE.md, \"The house\"):\n  ${_text}\n")
endif()
if(STAMP)
  file(TOUCH ${STAMP})
endif()
