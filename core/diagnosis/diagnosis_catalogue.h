// A catalogue (resources/rules/catalogues/FORMAT.md): one vendor's error vocabulary as data. Each entry becomes a
// rule in diagnosis.json's shape, read by the same reader, so a catalogue adds no code per case.
#pragma once

#include "core/diagnosis/diagnosis_rules.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace stackscope {

inline constexpr const char* kCatalogueSchema = "stackscope.diagnosis-catalogue/1";

struct CatalogueRules {
    std::vector<nlohmann::json> rules; // diagnosis.json rule objects, with "catalogue" set
    std::vector<CatalogueCode> codes;  // every code of the vocabulary and the rule id that names it
};

// Throws DiagnosisRulesError naming `origin`, the entry and the key.
// The catalogue is taken by value: its entries are moved into the rules (pass std::move(parsed) where it is not
// needed after).
CatalogueRules catalogueToRules(nlohmann::json catalogue, const std::string& origin);

} // namespace stackscope
