// The name-to-compute-capability table.
#include "core/snapshot/gpu_sku.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <vector>

namespace stackscope {

namespace {

struct Sku {
    const char* token; // a whole word of the upper-cased name ("H100"), or a prefix ending in '*' ("RTX 40*")
    const char* arch;
};

// Longer, more specific tokens first: "A100" before "A10", "GH200" before "H200".
constexpr Sku kSkus[] = {
    { "GB200", "sm_100" },
    { "B200", "sm_100" },
    { "B100", "sm_100" },
    { "GH200", "sm_90" },
    { "H200", "sm_90" },
    { "H100", "sm_90" },
    { "H800", "sm_90" },
    { "H20", "sm_90" },
    { "L40S", "sm_89" },
    { "L40", "sm_89" },
    { "L20", "sm_89" },
    { "L4", "sm_89" },
    { "A100", "sm_80" },
    { "A800", "sm_80" },
    { "A30", "sm_80" },
    { "A40", "sm_86" },
    { "A10G", "sm_86" },
    { "A10", "sm_86" },
    { "A16", "sm_86" },
    { "A2", "sm_86" },
    { "T4", "sm_75" },
    { "V100", "sm_70" },
    { "P100", "sm_60" },
};

// GeForce / workstation series by their number: "RTX 4090" -> 40xx.
struct Series {
    const char* prefix; // the model number's leading digits
    const char* arch;
};
constexpr Series kGeForce[] = { { "50", "sm_120" }, { "40", "sm_89" }, { "30", "sm_86" }, { "20", "sm_75" } };

std::vector<std::string> words(const std::string& name)
{
    std::string upper = name;
    std::transform(upper.begin(), upper.end(), upper.begin(),
        [](unsigned char c) { return c == '-' || c == '_' || c == '/' ? ' ' : static_cast<char>(std::toupper(c)); });
    std::istringstream in(upper);
    std::vector<std::string> out;
    for (std::string w; in >> w;)
        out.push_back(w);
    return out;
}

} // namespace

std::optional<std::string> nvidiaArchFromName(const std::string& name)
{
    const auto w = words(name);
    for (const auto& sku : kSkus) {
        if (std::find(w.begin(), w.end(), sku.token) != w.end())
            return std::string(sku.arch);
    }
    // "RTX 6000 Ada", "RTX A6000": the workstation names.
    const bool ada = std::find(w.begin(), w.end(), "ADA") != w.end();
    for (std::size_t i = 0; i < w.size(); ++i) {
        if ((w[i] != "RTX" && w[i] != "GTX") || i + 1 >= w.size())
            continue;
        const std::string& model = w[i + 1];
        if (ada)
            return std::string("sm_89");
        if (model.size() == 5 && model[0] == 'A' && std::isdigit(static_cast<unsigned char>(model[1])))
            return std::string("sm_86"); // RTX A4000 .. A6000 (Ampere)
        if (model.size() == 4
            && std::all_of(model.begin(), model.end(), [](unsigned char c) { return std::isdigit(c); })) {
            for (const auto& s : kGeForce)
                if (model.compare(0, 2, s.prefix) == 0)
                    return std::string(s.arch);
        }
    }
    return std::nullopt;
}

} // namespace stackscope
