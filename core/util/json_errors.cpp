// Line and column of a JSON parse failure, including number overflows that nlohmann reports without an offset.
#include "core/util/json_errors.h"

#include <fmt/format.h>

#include <cctype>

namespace stackscope {

namespace {

constexpr int kNumberOverflow = 406; // nlohmann out_of_range.406: "number overflow parsing '...'"

std::string overflowToken(const nlohmann::json::exception& e)
{
    const std::string what = e.what();
    const auto open = what.find("parsing '");
    const auto close = what.rfind('\'');
    if (open == std::string::npos || close == std::string::npos || close <= open + 9)
        return {};
    return what.substr(open + 9, close - open - 9);
}

std::string lineColumn(const std::string& text, std::size_t offset)
{
    std::size_t line = 1;
    std::size_t column = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return fmt::format("line {}, column {}", line, column);
}

// The first place where `token` stands as a whole number (not inside a longer number or a string's letters).
std::size_t findNumber(const std::string& text, const std::string& token)
{
    for (std::size_t at = text.find(token); at != std::string::npos; at = text.find(token, at + 1)) {
        const char before = at == 0 ? ' ' : text[at - 1];
        const std::size_t end = at + token.size();
        const char after = end < text.size() ? text[end] : ' ';
        const bool numberChar = std::isdigit(static_cast<unsigned char>(before)) || before == '.' || before == '-' ||
                                before == '+' || before == 'e' || before == 'E';
        if (!numberChar && !std::isdigit(static_cast<unsigned char>(after)) && after != '.')
            return at;
    }
    return std::string::npos;
}

} // namespace

std::string jsonErrorPlace(const std::string& text, const nlohmann::json::exception& e)
{
    if (const auto* p = dynamic_cast<const nlohmann::json::parse_error*>(&e))
        return lineColumn(text, p->byte > 0 ? p->byte - 1 : 0);
    if (e.id == kNumberOverflow) {
        const std::string token = overflowToken(e);
        const std::size_t at = token.empty() ? std::string::npos : findNumber(text, token);
        if (at != std::string::npos)
            return lineColumn(text, at);
    }
    return {};
}

std::string jsonErrorWhat(const nlohmann::json::exception& e)
{
    if (e.id == kNumberOverflow && !overflowToken(e).empty())
        return fmt::format("the number {} is too large for a double (at most about 1.8e308)", overflowToken(e));
    return e.what();
}

} // namespace stackscope
