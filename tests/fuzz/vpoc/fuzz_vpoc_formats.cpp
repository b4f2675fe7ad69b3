// libFuzzer target for every market data reader picked by content (DBN, SCID, NinjaTrader, parallel CSV):
// any bytes must end in rows or an InputError, never a crash, a hang or unbounded memory.
#include "core/vpoc/market_source.h"

#include <cstdio>
#include <string>
#include <unistd.h>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace stackscope::vpoc;
    // The first byte picks the options; the rest is the file. Its first bytes select the reader, so the
    // seed corpus (tests/fixtures/market) starts each reader off.
    ReadOptions options;
    if (size > 0) {
        options.skipBad = data[0] & 1;
        options.threads = 1 + ((data[0] >> 1) & 3);
        options.windowBytes = (data[0] & 8) ? 1024 : 0;
        options.maxLineBytes = 200;
        ++data;
        --size;
    }
    static const std::string path = "/dev/shm/fuzz-vpoc-formats-" + std::to_string(::getpid());
    if (FILE* f = std::fopen(path.c_str(), "wb")) {
        std::fwrite(data, 1, size, f);
        std::fclose(f);
    }
    try {
        auto src = openMarketFile(path, options);
        std::vector<MarketRecord> rows;
        std::vector<double> extras;
        while (src->read(rows, 64, &extras)) {
            if (extras.size() != rows.size() * src->extraColumns().size())
                __builtin_trap(); // extras must stay row-aligned
            rows.clear();
            extras.clear();
        }
    } catch (const InputError&) {
        // Bad input is the expected outcome for most inputs.
    } catch (const std::invalid_argument&) {
        // A --tick that DBN's 1e-9 grid cannot hold; not reached with the default tick.
        __builtin_trap();
    }
    return 0;
}
