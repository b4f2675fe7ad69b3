// The VPOC options as a person gives them: one table of fields (name, default, choices, help), from which the vpoc
// command's flags, the VPOC page's form and a run's JSON "options" are made, and the one parse function of each field.
#pragma once

#include "core/vpoc/vpoc_engine.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace stackscope::vpoc {

// What the vpoc command writes besides its table on stdout (the page has its own exports).
struct VpocOutputs {
    std::string developingCsv; // --developing FILE: turns VpocOptions::developing on
    std::string sessionsCsv; // --csv FILE
    bool json = false; // --json
};

// Everything the fields set: the engine's options and the command's outputs. Default-constructed it holds every
// field's default: the table's defaults are these members' initialisers, written once.
struct VpocRequest {
    VpocOptions options;
    VpocOutputs outputs;
};

// An enum-like option's value and its name on the command line, in the form and in a run's JSON, in the order the
// CLI's help and the form offer them.
template <typename E> struct Named {
    E value;
    const char* name;
};
inline constexpr Named<DataFormat> kFormats[]
    = { { DataFormat::Auto, "auto" }, { DataFormat::Bars, "bars" }, { DataFormat::Trades, "trades" } };
inline constexpr Named<Distribution> kDistributions[]
    = { { Distribution::Uniform, "uniform" }, { Distribution::Close, "close" }, { Distribution::Typical, "typical" } };
inline constexpr Named<ValueAreaMethod> kValueAreaMethods[]
    = { { ValueAreaMethod::Dual, "dual" }, { ValueAreaMethod::Single, "single" } };
inline constexpr Named<Backend> kBackends[]
    = { { Backend::Auto, "auto" }, { Backend::Cpu, "cpu" }, { Backend::Gpu, "gpu" } };

const char* formatName(DataFormat format);
const char* distributionName(Distribution distribution);
const char* valueAreaMethodName(ValueAreaMethod method);
const char* backendName(Backend backend);

// The parse function of each field: text as a person gave it (a flag's value, the form's widget, a report's JSON) to
// the typed value. Each throws std::invalid_argument "--flag text: what to write instead". The session rule is read
// by SessionRule::parse (sessions.h) and the tick by Tick::parse (market_data.h).
DataFormat parseFormat(const std::string& text);
Distribution parseDistribution(const std::string& text);
ValueAreaMethod parseValueAreaMethod(const std::string& text);
Backend parseBackend(const std::string& text);
// A percentage (70, 68.5) to basis points: above 0, at most 100, at most two decimals.
uint32_t parseValueArea(const std::string& text);
// A tz database name, checked against the database.
std::string parseTimeZone(const std::string& text);
uint64_t parseVramBudget(const std::string& text);
int64_t parseGpuSessionRows(const std::string& text);
// A whole number of threads (0 = all); one beyond what an unsigned holds is capped like any large one by runVpoc.
unsigned parseThreadCount(const std::string& text);
// "true" or "false": a switch as the form and a run's JSON write it (the command line's flag sets it to true).
bool parseSwitch(const std::string& text, const char* flag);

// How a field is given: the CLI's value type and the form's widget follow from it.
enum class FieldKind {
    Path, // a file (CLI TEXT; the form's input box or none)
    Text, // free text checked by its parse (a time zone)
    Choice, // one of `choices`
    Editable, // `choices` offered, other text allowed (the session: globex, rth or a window)
    Decimal, // a number with a fraction
    Whole, // a whole number
    Switch, // on or off (a CLI flag, a check box, a JSON bool)
};

// A field's value in the type a run's JSON writes it.
using FieldValue = std::variant<std::string, double, uint64_t, bool>;
// The value as text its parse reads back ("0.25", "70", "true"): what the form shows and compares.
std::string fieldText(const FieldValue& value);

// The form's spin box for a Decimal or Whole field.
struct FieldRange {
    double min = 0;
    double max = 0;
    int decimals = 2;
    const char* suffix = ""; // " %", " MiB"
};

struct VpocField {
    const char* name; // the command line's, without "--"
    FieldKind kind;
    const char* help; // the CLI's help, the form's tooltip
    const char* cliType; // the value's type as the CLI's help shows it ("TEXT", "FLOAT", "UINT"); "" for a switch
    const char*
        cliCheck; // what the CLI's help adds after the type ("INT in [1 - ...]"); choices are shown from `choices`
    const char* jsonKey; // its key in a run's JSON "options"; nullptr: not written there
    const char* label; // its label on the VPOC page's form; nullptr: not on the form
    std::vector<const char*> choices;
    FieldRange range;
    bool required = false;
    const char* excludes = nullptr; // a field it cannot be given with (CLI)
    // The one reading of the field's text into `into`; throws std::invalid_argument naming the flag.
    void (*parse)(const std::string& text, VpocRequest& into);
    // The value `from` holds, as a run's JSON writes it.
    FieldValue (*value)(const VpocRequest& from);
};

// Every field, in the order of the CLI's help and the form.
const std::vector<VpocField>& vpocFields();
// The field of that name; throws std::logic_error for a name the table does not have (a programming error).
const VpocField& vpocField(std::string_view name);

} // namespace stackscope::vpoc
