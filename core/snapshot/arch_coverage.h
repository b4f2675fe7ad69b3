// Value types of the kernel coverage scan: targets found in a library, per-device coverage.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace stackscope::archscan {

enum class LibraryKind { Hip, Cuda, Tensile, Miopen };
enum class CodeFormat { CodeObject, Sass, Ptx };
// yes: native code; ptx: only through the driver's PTX JIT; generic: only through a generic
// AMD target (gfx11-generic ...); no: nothing that runs on the device.
enum class Coverage { Yes, No, Ptx, Generic };

// One GPU target a library carries.
struct ScannedTarget {
    std::string id;   // target id as the toolchain writes it: gfx90a:sramecc+:xnack-, sm_90a, compute_90
    std::string arch; // processor: gfx90a, sm_90a
    std::map<std::string, std::string> features; // "xnack" -> "+" | "-"; absent means "any"
    CodeFormat format = CodeFormat::CodeObject;
    bool compressed = false;
    std::string bundleId; // full offload-bundle entry id (hip only): hipv4-amdgcn-amd-amdhsa--gfx1030
    bool operator==(const ScannedTarget& o) const
    {
        return id == o.id && format == o.format && compressed == o.compressed && bundleId == o.bundleId;
    }
};

// Per device: the verdict and, when not plain "yes", what it means and what to do.
struct DeviceCoverage {
    Coverage coverage = Coverage::No;
    std::string explanation; // empty for yes
    bool operator==(const DeviceCoverage& o) const { return coverage == o.coverage && explanation == o.explanation; }
};

struct LibraryScan {
    std::string path;
    LibraryKind kind = LibraryKind::Hip;
    std::vector<ScannedTarget> targets;
    std::uint64_t containers = 0;     // offload bundles / fatbin blobs / matching files seen
    std::vector<std::string> errors;  // per-file problems; the scan went on (at most kMaxErrorsKept)
    std::uint64_t errorsNotKept = 0;  // errors beyond that cap
    std::uint64_t targetsNotKept = 0; // distinct targets beyond kMaxTargetsKept (bounded_scan.h)
    // The file could not be read whole (cannot open it, changed while read, damaged or truncated): what it
    // covers is not known, so it never counts as covering a device.
    bool unreadable = false;
    std::map<std::string, DeviceCoverage> covers; // device -> verdict (devices of the library's vendor only)
    bool operator==(const LibraryScan& o) const
    {
        return path == o.path && kind == o.kind && targets == o.targets && containers == o.containers
            && errors == o.errors && errorsNotKept == o.errorsNotKept && targetsNotKept == o.targetsNotKept
            && unreadable == o.unreadable && covers == o.covers;
    }
};

// What HSA_OVERRIDE_GFX_VERSION does to one AMD device.
struct OverrideEffect {
    std::string device;       // gfx1101
    std::string overrideValue; // 11.0.0
    std::string reportedArch; // gfx1100: what HIP reports with the override
    bool inEffect = false;    // true: the variable is set now; false: a suggestion
    std::vector<std::string> newlyCovered; // libraries that go from no to yes
    bool operator==(const OverrideEffect& o) const
    {
        return device == o.device && overrideValue == o.overrideValue && reportedArch == o.reportedArch
            && inEffect == o.inEffect && newlyCovered == o.newlyCovered;
    }
};

struct ArchCoverage {
    std::vector<LibraryScan> libraries;
    std::vector<std::string> devices;
    std::vector<OverrideEffect> overrides;
    std::vector<std::string> notes; // what the default set left out and why (libtorch not loaded ...)
    // True when some library of a device's vendor does not cover it ("no").
    bool anyUncovered() const;
    // True when some scanned file could not be read whole (LibraryScan::unreadable).
    bool anyUnreadable() const;
    bool operator==(const ArchCoverage& o) const
    {
        return libraries == o.libraries && devices == o.devices && overrides == o.overrides && notes == o.notes;
    }
};

const char* libraryKindName(LibraryKind k);
const char* codeFormatName(CodeFormat f);
const char* coverageName(Coverage c);
// The reverse of the names above; nullopt for a name this StackScope does not know.
std::optional<LibraryKind> libraryKindFromName(const std::string& name);
std::optional<CodeFormat> codeFormatFromName(const std::string& name);
std::optional<Coverage> coverageFromName(const std::string& name);

} // namespace stackscope::archscan
