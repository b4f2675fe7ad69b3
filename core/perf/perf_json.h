// The suite's JSON: the torch module's raw measurements in, `bench bandwidth --json` / the report's "bandwidth" out
// (schema stackscope.bandwidth/1). Parsed once into perf::Figure; nothing downstream reads the JSON again.
#pragma once

#include "core/util/error.h"

#include "core/perf/perf_types.h"

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <vector>

namespace stackscope::perf {

inline constexpr const char* kBandwidthSchema = "stackscope.bandwidth/1";

class PerfJsonError : public Error {
public:
    explicit PerfJsonError(const std::string& what)
        : Error(what, ErrorKind::Input)
    {
    }
};

nlohmann::json toJson(const Figure& f);
// Throws PerfJsonError naming the key (`where` prefixes it: "figures[3]").
Figure figureFromJson(const nlohmann::json& j, const std::string& where);
// A document's or the module's "figures" array.
std::vector<Figure> figuresFromJson(const nlohmann::json& figures);

} // namespace stackscope::perf
