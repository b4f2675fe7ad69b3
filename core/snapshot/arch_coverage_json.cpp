// JSON form of the coverage result (also the snapshot's `arch_coverage`).
#include "core/snapshot/arch_coverage_json.h"

namespace stackscope::archscan {

const char* libraryKindName(LibraryKind k)
{
    switch (k) {
    case LibraryKind::Hip: return "hip";
    case LibraryKind::Cuda: return "cuda";
    case LibraryKind::Tensile: return "tensile";
    case LibraryKind::Miopen: return "miopen";
    }
    return "hip";
}

const char* codeFormatName(CodeFormat f)
{
    switch (f) {
    case CodeFormat::CodeObject: return "code-object";
    case CodeFormat::Sass: return "sass";
    case CodeFormat::Ptx: return "ptx";
    }
    return "code-object";
}

const char* coverageName(Coverage c)
{
    switch (c) {
    case Coverage::Yes: return "yes";
    case Coverage::No: return "no";
    case Coverage::Ptx: return "ptx";
    case Coverage::Generic: return "generic";
    }
    return "no";
}

bool ArchCoverage::anyUncovered() const
{
    for (const auto& l : libraries)
        for (const auto& [d, c] : l.covers)
            if (c.coverage == Coverage::No)
                return true;
    return false;
}

bool ArchCoverage::anyUnreadable() const
{
    for (const auto& l : libraries)
        if (l.unreadable)
            return true;
    return false;
}

nlohmann::json toJson(const ArchCoverage& c)
{
    using nlohmann::json;
    json libs = json::array();
    for (const auto& l : c.libraries) {
        json targets = json::array();
        for (const auto& t : l.targets) {
            json jt = {{"id", t.id}, {"arch", t.arch}, {"features", json::object()}, {"format", codeFormatName(t.format)},
                       {"compressed", t.compressed}};
            for (const auto& [k, v] : t.features)
                jt["features"][k] = v;
            if (!t.bundleId.empty())
                jt["bundle_id"] = t.bundleId;
            targets.push_back(std::move(jt));
        }
        json covers = json::object();
        json explain = json::object();
        for (const auto& [d, v] : l.covers) {
            covers[d] = coverageName(v.coverage);
            if (!v.explanation.empty())
                explain[d] = v.explanation;
        }
        libs.push_back({{"path", l.path}, {"kind", libraryKindName(l.kind)}, {"targets", std::move(targets)},
                        {"covers", std::move(covers)}, {"explain", std::move(explain)}, {"containers", l.containers},
                        {"errors", l.errors}, {"errors_not_kept", l.errorsNotKept},
                        {"targets_not_kept", l.targetsNotKept}, {"unreadable", l.unreadable}});
    }
    json overrides = json::array();
    for (const auto& o : c.overrides) {
        overrides.push_back({{"device", o.device}, {"value", o.overrideValue}, {"reports", o.reportedArch},
                             {"in_effect", o.inEffect}, {"newly_covered", o.newlyCovered},
                             {"note", o.inEffect ? "HSA_OVERRIDE_GFX_VERSION is set: HIP reports the device as " + o.reportedArch
                                                 : "last resort, unsupported by AMD: HSA_OVERRIDE_GFX_VERSION=" + o.overrideValue +
                                                       " makes HIP treat the device as " + o.reportedArch +
                                                       " (can fail with HSA_STATUS_ERROR_OUT_OF_REGISTERS or wrong results)"}});
    }
    return {{"schema", kArchCoverageSchema}, {"libraries", std::move(libs)}, {"devices", c.devices},
            {"overrides", std::move(overrides)}, {"notes", c.notes}};
}

} // namespace stackscope::archscan
