// Coverage JSON -> ArchCoverage: the snapshot's `arch_coverage` read back into values (snapshot files, reports).
#include "core/snapshot/arch_coverage_json.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace stackscope::archscan {

using nlohmann::json;

std::optional<LibraryKind> libraryKindFromName(const std::string& name)
{
    for (auto k : {LibraryKind::Hip, LibraryKind::Cuda, LibraryKind::Tensile, LibraryKind::Miopen})
        if (name == libraryKindName(k))
            return k;
    return std::nullopt;
}

std::optional<CodeFormat> codeFormatFromName(const std::string& name)
{
    for (auto f : {CodeFormat::CodeObject, CodeFormat::Sass, CodeFormat::Ptx})
        if (name == codeFormatName(f))
            return f;
    return std::nullopt;
}

std::optional<Coverage> coverageFromName(const std::string& name)
{
    for (auto c : {Coverage::Yes, Coverage::No, Coverage::Ptx, Coverage::Generic})
        if (name == coverageName(c))
            return c;
    return std::nullopt;
}

namespace {

[[noreturn]] void fail(const std::string& field, const std::string& what)
{
    throw CoverageJsonError(fmt::format("'{}' {}; fix or remove that value, or scan again (stackscope-cli inspect)",
                                        field, what));
}

// The member, or nullptr when it is missing or null (older files lack the newer keys).
const json* member(const json& obj, const char* key)
{
    auto it = obj.find(key);
    return it == obj.end() || it->is_null() ? nullptr : &*it;
}

std::string readString(const json& obj, const char* key, const std::string& field)
{
    const json* v = member(obj, key);
    if (v && !v->is_string())
        fail(field + "." + key, fmt::format("must be a string, found {}", v->type_name()));
    return v ? v->get<std::string>() : std::string();
}

bool readBool(const json& obj, const char* key, const std::string& field)
{
    const json* v = member(obj, key);
    if (v && !v->is_boolean())
        fail(field + "." + key, fmt::format("must be true or false, found {}", v->type_name()));
    return v && v->get<bool>();
}

std::uint64_t readCount(const json& obj, const char* key, const std::string& field)
{
    const json* v = member(obj, key);
    if (v && !v->is_number_unsigned())
        fail(field + "." + key, fmt::format("must be a non-negative integer, found {}", v->dump()));
    return v ? v->get<std::uint64_t>() : 0;
}

std::vector<std::string> readStrings(const json& obj, const char* key, const std::string& field)
{
    std::vector<std::string> out;
    const json* v = member(obj, key);
    if (v && !v->is_array())
        fail(field + "." + key, fmt::format("must be an array of strings, found {}", v->type_name()));
    for (size_t i = 0; v && i < v->size(); ++i) {
        if (!(*v)[i].is_string())
            fail(fmt::format("{}.{}[{}]", field, key, i), fmt::format("must be a string, found {}", (*v)[i].type_name()));
        out.push_back((*v)[i].get<std::string>());
    }
    return out;
}

std::map<std::string, std::string> readStringMap(const json& obj, const char* key, const std::string& field)
{
    std::map<std::string, std::string> out;
    const json* v = member(obj, key);
    if (v && !v->is_object())
        fail(field + "." + key, fmt::format("must be an object of strings, found {}", v->type_name()));
    if (!v)
        return out;
    for (const auto& [k, value] : v->items()) {
        if (!value.is_string())
            fail(fmt::format("{}.{}.{}", field, key, k), fmt::format("must be a string, found {}", value.type_name()));
        out[k] = value.get<std::string>();
    }
    return out;
}

// An enum by its name; `fallback` when the key is missing.
template <typename E>
E readName(const json& obj, const char* key, const std::string& field, std::optional<E> (*fromName)(const std::string&),
           E fallback, const char* allowed)
{
    if (!member(obj, key))
        return fallback;
    const std::string name = readString(obj, key, field);
    const auto parsed = fromName(name);
    if (!parsed)
        fail(field + "." + key, fmt::format("is \"{}\", which this StackScope does not know (one of {})", name, allowed));
    return *parsed;
}

const json& objectAt(const json& arr, size_t i, const std::string& field)
{
    if (!arr[i].is_object())
        fail(field, fmt::format("must be an object, found {}", arr[i].type_name()));
    return arr[i];
}

// Each element of the array at `key` read by `readOne(element, its field)`.
template <typename T, typename F>
std::vector<T> readArray(const json& obj, const char* key, const std::string& field, F readOne)
{
    std::vector<T> out;
    const json* v = member(obj, key);
    if (v && !v->is_array())
        fail(field + "." + key, fmt::format("must be an array, found {}", v->type_name()));
    for (size_t i = 0; v && i < v->size(); ++i) {
        const auto at = fmt::format("{}.{}[{}]", field, key, i);
        out.push_back(readOne(objectAt(*v, i, at), at));
    }
    return out;
}

ScannedTarget readTarget(const json& t, const std::string& field)
{
    ScannedTarget target;
    target.id = readString(t, "id", field);
    target.arch = readString(t, "arch", field);
    target.features = readStringMap(t, "features", field);
    target.format = readName(t, "format", field, &codeFormatFromName, CodeFormat::CodeObject, "code-object, sass, ptx");
    target.compressed = readBool(t, "compressed", field);
    target.bundleId = readString(t, "bundle_id", field);
    return target;
}

std::map<std::string, DeviceCoverage> readCovers(const json& lib, const std::string& field)
{
    std::map<std::string, DeviceCoverage> covers;
    const auto explain = readStringMap(lib, "explain", field);
    for (const auto& [device, verdict] : readStringMap(lib, "covers", field)) {
        const auto parsed = coverageFromName(verdict);
        if (!parsed)
            fail(fmt::format("{}.covers.{}", field, device),
                 fmt::format("is \"{}\", which this StackScope does not know (one of yes, no, ptx, generic)", verdict));
        const auto why = explain.find(device);
        covers[device] = {*parsed, why == explain.end() ? std::string() : why->second};
    }
    return covers;
}

LibraryScan readLibrary(const json& l, const std::string& field)
{
    LibraryScan lib;
    lib.path = readString(l, "path", field);
    lib.kind = readName(l, "kind", field, &libraryKindFromName, LibraryKind::Hip, "hip, cuda, tensile, miopen");
    lib.targets = readArray<ScannedTarget>(l, "targets", field, readTarget);
    lib.covers = readCovers(l, field);
    lib.containers = readCount(l, "containers", field);
    lib.errors = readStrings(l, "errors", field);
    lib.errorsNotKept = readCount(l, "errors_not_kept", field);
    lib.targetsNotKept = readCount(l, "targets_not_kept", field);
    lib.unreadable = readBool(l, "unreadable", field);
    return lib;
}

OverrideEffect readOverride(const json& o, const std::string& field)
{
    OverrideEffect effect;
    effect.device = readString(o, "device", field);
    effect.overrideValue = readString(o, "value", field);
    effect.reportedArch = readString(o, "reports", field);
    effect.inEffect = readBool(o, "in_effect", field);
    effect.newlyCovered = readStrings(o, "newly_covered", field);
    return effect;
}

} // namespace

ArchCoverage coverageFromJson(const json& j, const std::string& field)
{
    if (!j.is_object())
        fail(field, fmt::format("must be an object, found {}", j.type_name()));
    if (const json* schema = member(j, "schema"); schema && (!schema->is_string() || *schema != kArchCoverageSchema))
        fail(field + ".schema", fmt::format("is {} but this StackScope reads \"{}\"", schema->dump(), kArchCoverageSchema));
    ArchCoverage c;
    c.libraries = readArray<LibraryScan>(j, "libraries", field, readLibrary);
    c.devices = readStrings(j, "devices", field);
    c.overrides = readArray<OverrideEffect>(j, "overrides", field, readOverride);
    c.notes = readStrings(j, "notes", field);
    return c;
}

} // namespace stackscope::archscan
