// Findings the System page raises from a snapshot (texts come from resources/rules/system-checks.json).
#pragma once

#include "core/snapshot/snapshot.h"

#include <map>
#include <string>
#include <vector>

namespace stackscope {

// The catalogue of check texts, keyed by id.
class CheckCatalogue {
public:
    // The catalogue embedded in the binary.
    static const CheckCatalogue& builtIn();
    // Throws std::runtime_error naming the problem when the JSON is not a valid catalogue.
    static CheckCatalogue fromJson(const std::string& text);

    // A finding with the catalogue's texts and the given detail; throws for an unknown id.
    Finding make(const std::string& id, const std::string& detail) const;
    Finding make(const std::string& id, const std::string& detail, Severity severity) const;
    std::vector<std::string> ids() const;

private:
    std::map<std::string, Finding> m_checks;
};

// Appends findings for what is wrong or missing in the snapshot.
void addSystemFindings(Snapshot& snapshot, const CheckCatalogue& catalogue = CheckCatalogue::builtIn());

} // namespace stackscope
