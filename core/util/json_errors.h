// Where in a JSON text nlohmann's parser failed, as line and column a person can go to.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace stackscope {

// "line 3, column 14" for a parse error (its byte offset), or for a number too large for a double
// (out_of_range 406, which carries no offset: the number's first occurrence in `text` is located);
// empty when the place is not known.
std::string jsonErrorPlace(const std::string& text, const nlohmann::json::exception& e);

// What went wrong, for a person: "the number 1e999999999 is too large for a double" or the parser's message.
std::string jsonErrorWhat(const nlohmann::json::exception& e);

} // namespace stackscope
