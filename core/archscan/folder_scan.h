// Library folders whose architectures show in file names: rocBLAS/hipBLASLt Tensile, MIOpen databases.
#pragma once

#include "core/snapshot/arch_coverage.h"

#include <optional>
#include <string>

namespace stackscope::archscan {

// rocBLAS / hipBLASLt `library/` folder: TensileLibrary*_gfxNNNN*, Kernels.so-000-gfxNNNN.hsaco,
// extop_gfxNNNN.co ... A target is listed when a file name holds the whole token gfxNNNN.
LibraryScan scanTensileFolder(const std::string& folder);

// MIOpen's per-architecture databases (share/miopen/db): gfx1030_36.kdb, gfx90a6e.kdb, gfx942130.kdb;
// the name is the processor followed by the compute-unit count.
LibraryScan scanMiopenFolder(const std::string& folder);

// Which folder kind the names inside suggest; nullopt for neither (then its files are scanned one by one).
std::optional<LibraryKind> classifyFolder(const std::string& folder);

// "gfx90a6e.kdb" -> "gfx90a"; "gfx1030_36.kdb" -> "gfx1030"; empty when the name is no MIOpen database.
std::string miopenDatabaseArch(const std::string& fileName);

} // namespace stackscope::archscan
