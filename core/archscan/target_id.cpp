// Parsing of GPU target names (AMD target ids, bundle entry ids, CUDA architectures).
#include "core/archscan/target_id.h"

#include <cctype>
#include <cstdlib>

namespace stackscope::archscan {

namespace {

bool isHex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0 && !std::isupper(static_cast<unsigned char>(c)); }
bool isAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

} // namespace

bool isAmdProcessorName(const std::string& name)
{
    if (name.size() < 6 || name.compare(0, 3, "gfx") != 0)
        return false;
    if (!genericTargetMembers(name).empty())
        return true;
    for (std::size_t i = 3; i < name.size(); ++i)
        if (!isHex(name[i]))
            return false;
    return std::isdigit(static_cast<unsigned char>(name[3])) != 0;
}

const std::vector<std::string>& genericTargetMembers(const std::string& generic)
{
    // LLVM docs/AMDGPUUsage.rst, "Generic processors".
    static const std::map<std::string, std::vector<std::string>> table = {
        {"gfx9-generic", {"gfx900", "gfx902", "gfx904", "gfx906", "gfx909", "gfx90c"}},
        {"gfx9-4-generic", {"gfx940", "gfx941", "gfx942", "gfx950"}},
        {"gfx10-1-generic", {"gfx1010", "gfx1011", "gfx1012", "gfx1013"}},
        {"gfx10-3-generic", {"gfx1030", "gfx1031", "gfx1032", "gfx1033", "gfx1034", "gfx1035", "gfx1036"}},
        {"gfx11-generic", {"gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150", "gfx1151", "gfx1152", "gfx1153"}},
        {"gfx12-generic", {"gfx1200", "gfx1201"}},
    };
    static const std::vector<std::string> none;
    const auto it = table.find(generic);
    return it == table.end() ? none : it->second;
}

std::optional<AmdTargetId> parseAmdTargetId(const std::string& id)
{
    AmdTargetId t;
    const auto colon = id.find(':');
    t.processor = id.substr(0, colon);
    if (!isAmdProcessorName(t.processor))
        return std::nullopt;
    std::size_t pos = colon;
    while (pos != std::string::npos) {
        const auto next = id.find(':', pos + 1);
        const std::string f = id.substr(pos + 1, next == std::string::npos ? std::string::npos : next - pos - 1);
        if (f.size() < 2 || (f.back() != '+' && f.back() != '-'))
            return std::nullopt;
        const std::string name = f.substr(0, f.size() - 1);
        for (char c : name)
            if (!isAlnum(c))
                return std::nullopt;
        t.features[name] = std::string(1, f.back());
        pos = next;
    }
    return t;
}

BundleEntryId parseBundleEntryId(const std::string& id)
{
    BundleEntryId e;
    const auto dash = id.find('-');
    e.kind = id.substr(0, dash);
    if (dash == std::string::npos)
        return e;
    const std::string rest = id.substr(dash + 1);
    // Current form: <triple with 4 parts, environment empty>-<target id>, hence the "--".
    const auto dd = rest.find("--");
    if (dd != std::string::npos) {
        e.triple = rest.substr(0, dd + 1);
        e.targetId = rest.substr(dd + 2);
        return e;
    }
    // Old form without the empty environment: hip-amdgcn-amd-amdhsa-gfx906.
    for (const char* proc : {"-gfx", "-sm_"}) {
        const auto p = rest.find(proc);
        if (p != std::string::npos) {
            e.triple = rest.substr(0, p);
            e.targetId = rest.substr(p + 1);
            return e;
        }
    }
    e.triple = rest;
    return e;
}

std::optional<CudaArch> parseCudaArch(const std::string& name)
{
    std::string digits;
    if (name.compare(0, 3, "sm_") == 0)
        digits = name.substr(3);
    else if (name.compare(0, 8, "compute_") == 0)
        digits = name.substr(8);
    else
        return std::nullopt;
    CudaArch a;
    if (!digits.empty() && (digits.back() == 'a' || digits.back() == 'f')) {
        a.suffix = digits.back();
        digits.pop_back();
    }
    if (digits.size() < 2 || digits.size() > 4)
        return std::nullopt;
    for (char c : digits)
        if (!std::isdigit(static_cast<unsigned char>(c)))
            return std::nullopt;
    const int v = std::atoi(digits.c_str());
    a.major = v / 10;
    a.minor = v % 10;
    return a;
}

std::string cudaArchName(const CudaArch& a, const char* prefix)
{
    std::string s = prefix + std::to_string(a.major * 10 + a.minor);
    if (a.suffix)
        s += a.suffix;
    return s;
}

std::optional<std::string> overrideToProcessor(const std::string& value)
{
    // MAJOR.MINOR.STEPPING in decimal; the processor name writes minor and stepping as one hex digit each.
    int parts[3] = {0, 0, 0};
    std::size_t pos = 0;
    for (int i = 0; i < 3; ++i) {
        const auto end = value.find('.', pos);
        const std::string p = value.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        if (p.empty() || p.size() > 2)
            return std::nullopt;
        for (char c : p)
            if (!std::isdigit(static_cast<unsigned char>(c)))
                return std::nullopt;
        parts[i] = std::atoi(p.c_str());
        if ((i == 2) != (end == std::string::npos))
            return std::nullopt;
        pos = end + 1;
    }
    if (parts[0] < 6 || parts[1] > 15 || parts[2] > 15)
        return std::nullopt;
    static const char* hex = "0123456789abcdef";
    return "gfx" + std::to_string(parts[0]) + hex[parts[1]] + hex[parts[2]];
}

std::optional<std::string> processorToOverride(const std::string& processor)
{
    if (!isAmdProcessorName(processor) || !genericTargetMembers(processor).empty())
        return std::nullopt;
    const std::string digits = processor.substr(3);
    const std::string major = digits.substr(0, digits.size() - 2);
    auto hexval = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : c - 'a' + 10; };
    return major + "." + std::to_string(hexval(digits[digits.size() - 2])) + "." + std::to_string(hexval(digits.back()));
}

std::vector<AmdTargetId> gfxTokensInName(const std::string& name)
{
    std::vector<AmdTargetId> out;
    std::size_t pos = 0;
    while ((pos = name.find("gfx", pos)) != std::string::npos) {
        if (pos > 0 && isAlnum(name[pos - 1])) {
            pos += 3;
            continue;
        }
        std::size_t end = pos + 3;
        while (end < name.size() && isAlnum(name[end]))
            ++end;
        AmdTargetId t;
        t.processor = name.substr(pos, end - pos);
        // Generic targets have dashes inside the token: gfx11-generic, gfx10-3-generic.
        for (const auto& g : {"gfx9-generic", "gfx9-4-generic", "gfx10-1-generic", "gfx10-3-generic", "gfx11-generic", "gfx12-generic"}) {
            if (name.compare(pos, std::char_traits<char>::length(g), g) == 0) {
                t.processor = g;
                end = pos + t.processor.size();
                break;
            }
        }
        if (isAmdProcessorName(t.processor)) {
            // Tensile writes features with '-' or ':' separators: gfx90a-xnack+, gfx90a:xnack-.
            for (;;) {
                bool found = false;
                for (const char* f : {"xnack", "sramecc"}) {
                    const std::size_t n = std::char_traits<char>::length(f);
                    if (end + n + 2 <= name.size() && (name[end] == '-' || name[end] == ':') &&
                        name.compare(end + 1, n, f) == 0 && (name[end + 1 + n] == '+' || name[end + 1 + n] == '-')) {
                        t.features[f] = std::string(1, name[end + 1 + n]);
                        end += n + 2;
                        found = true;
                    }
                }
                if (!found)
                    break;
            }
            out.push_back(std::move(t));
        }
        pos = end;
    }
    return out;
}

} // namespace stackscope::archscan
