// The VPOC fields (core/vpoc/vpoc_options.h) as command-line flags: each flag, its type and help come from the table,
// and its text is parsed once, after the command line is read, by the field's own parse function.
#pragma once

#include "app/cli/command.h"

#include "core/vpoc/vpoc_options.h"

#include <deque>
#include <initializer_list>
#include <string>
#include <string_view>

namespace stackscope::cli {

class VpocFlags {
public:
    // Adds the table's fields that the command line has (only those named, when `only` is not empty) to `cmd`, in the
    // table's order.
    void add(CLI::App* cmd, std::initializer_list<std::string_view> only = {})
    {
        for (const auto& field : vpoc::vpocFields()) {
            if (!field.cliType || (only.size() && !named(only, field.name)))
                continue;
            Given& g = m_given.emplace_back();
            g.field = &field;
            g.option = field.kind == vpoc::FieldKind::Switch ? addSwitch(cmd, field) : addValue(cmd, field, g.text);
        }
    }

    // The text a flag was given ("" when it was not).
    std::string text(std::string_view name) const
    {
        for (const auto& g : m_given)
            if (name == g.field->name)
                return g.option->count() ? g.text : std::string();
        return {};
    }

    // Every field's default, then each flag given parsed into it; a bad value is a UsageError.
    vpoc::VpocRequest request() const
    {
        vpoc::VpocRequest request;
        for (const auto& g : m_given) {
            if (!g.option->count())
                continue;
            try {
                g.field->parse(g.field->kind == vpoc::FieldKind::Switch ? std::string("true") : g.text, request);
            } catch (const std::invalid_argument& e) {
                throw UsageError(e.what());
            }
        }
        return request;
    }

private:
    struct Given {
        const vpoc::VpocField* field = nullptr;
        CLI::Option* option = nullptr;
        std::string text;
    };

    static bool named(std::initializer_list<std::string_view> names, const char* name)
    {
        for (auto n : names)
            if (n == name)
                return true;
        return false;
    }

    CLI::Option* addSwitch(CLI::App* cmd, const vpoc::VpocField& field)
    {
        return excluding(cmd, cmd->add_flag(std::string("--") + field.name, field.help), field);
    }

    CLI::Option* addValue(CLI::App* cmd, const vpoc::VpocField& field, std::string& text)
    {
        auto* option = cmd->add_option(std::string("--") + field.name, text, field.help)->type_name(field.cliType);
        // The help shows the choices ("TEXT:{auto,bars,trades}") and ranges; the field's parse checks them.
        if (field.kind == vpoc::FieldKind::Choice) {
            std::string choices;
            for (const char* c : field.choices)
                choices += (choices.empty() ? "{" : ",") + std::string(c);
            option->check(CLI::Validator(choices + "}"));
        }
        if (field.cliCheck)
            option->check(CLI::Validator(field.cliCheck));
        if (field.required)
            option->required();
        return excluding(cmd, option, field);
    }

    CLI::Option* excluding(CLI::App* cmd, CLI::Option* option, const vpoc::VpocField& field)
    {
        if (field.excludes)
            if (auto* other = cmd->get_option_no_throw(std::string("--") + field.excludes))
                option->excludes(other);
        return option;
    }

    std::deque<Given> m_given; // CLI11 writes into each text: their addresses stay put
};

} // namespace stackscope::cli
