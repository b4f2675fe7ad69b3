// libFuzzer target for the VPOC CSV loader: any bytes must end in rows or an InputError, never a crash.
#include "core/vpoc/csv_reader.h"

#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace stackscope::vpoc;
    // The first byte picks the options so that both formats and --skip-bad are explored.
    ReadOptions options;
    if (size > 0) {
        options.skipBad = data[0] & 1;
        options.format = (data[0] & 6) == 2 ? DataFormat::Bars : (data[0] & 6) == 4 ? DataFormat::Trades : DataFormat::Auto;
        options.maxLineBytes = 256;
        ++data;
        --size;
    }
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    try {
        MarketDataReader reader(in, "fuzz.csv", options);
        std::vector<MarketRecord> rows;
        std::vector<double> extras;
        while (reader.read(rows, 64, &extras)) {
            if (extras.size() != rows.size() * reader.extraColumns().size())
                __builtin_trap(); // extras must stay row-aligned
        }
    } catch (const InputError&) {
        // Bad input is the expected outcome for most inputs.
    }
    return 0;
}
