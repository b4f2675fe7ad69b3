// libFuzzer target for every market data reader picked by content (DBN, SCID, NinjaTrader, parallel CSV):
// any bytes must end in rows or an InputError, never a crash, a hang or unbounded memory. Then the VPOC job on the same
// bytes on several threads (small windows, a piece a thread: the block profiler and the clean-chunk merge) must give
// the JSON, or the error, of the job on one thread.
#include "core/vpoc/market_source.h"
#include "core/vpoc/vpoc_engine.h"
#include "core/vpoc/vpoc_output.h"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

// runVpoc's JSON with the profiles, or its error, as text.
std::string vpocText(const stackscope::vpoc::VpocOptions& vo)
{
    try {
        return stackscope::vpoc::toJson(*stackscope::vpoc::runVpoc(vo), true).dump();
    } catch (const std::exception& e) {
        return std::string("error: ") + e.what();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace stackscope::vpoc;
    // The first byte picks the options; the rest is the file. Its first bytes select the reader, so the
    // seed corpus (tests/fixtures/market) starts each reader off.
    ReadOptions options;
    uint8_t pick = 0;
    if (size > 0) {
        pick = data[0];
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
    // The job on one thread and on 2-5 (bits 1-2 + 1) with the same windows: bit 4 a custom session (rows outside
    // it), bit 5 the typical distribution, bit 6 the smallest window (4 x maxLineBytes + 4) instead of 1 KiB.
    VpocOptions vo;
    vo.input = path;
    vo.backend = Backend::Cpu;
    vo.read = options;
    vo.read.windowBytes = (pick & 64) ? 1 : 1024;
    vo.session = SessionRule::parse((pick & 16) ? "01:30-23:00" : "globex", "America/New_York");
    vo.profile.distribution = (pick & 32) ? Distribution::Typical : Distribution::Uniform;
    vo.profile.keepProfiles = true;
    vo.minRowsPerThread = 1; // a piece a thread in every block, however small
    vo.threads = 1;
    const std::string one = vpocText(vo);
    vo.threads = 2 + ((pick >> 1) & 3);
    const std::string many = vpocText(vo);
    if (one != many) {
        std::fprintf(stderr, "VPOC on %u threads differs from one thread:\n%s\nvs one thread:\n%s\n", vo.threads,
                     many.substr(0, 4000).c_str(), one.substr(0, 4000).c_str());
        std::abort();
    }
    return 0;
}
