// Records the progress reports of one VPOC run as the GUI receives them (for tests/fixtures/vpoc/progress_*.csv).
// Usage: record_vpoc_progress FILE [--developing] [--threads N]
// Prints "elapsed_s,bytes_done,bytes_read,bytes_total,phase" rows, then "end,<elapsed_s>" when the result is back.
#include "core/vpoc/vpoc_engine.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

using namespace stackscope;

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: record_vpoc_progress FILE [--developing] [--threads N]\n");
        return 2;
    }
    vpoc::VpocOptions options;
    options.input = argv[1];
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], "--developing") == 0)
            options.developing = true;
        else if (std::strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
            options.threads = static_cast<unsigned>(std::stoul(argv[++i]));
    }
    const auto start = std::chrono::steady_clock::now();
    auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    std::printf("elapsed_s,bytes_done,bytes_read,bytes_total,phase\n");
    try {
        vpoc::runVpoc(options, [&](const vpoc::VpocProgress& p) {
            std::printf("%.3f,%llu,%llu,%llu,%s\n", seconds(), static_cast<unsigned long long>(p.bytesDone),
                        static_cast<unsigned long long>(p.bytesRead), static_cast<unsigned long long>(p.bytesTotal),
                        p.phase == vpoc::VpocPhase::Finishing ? "finishing" : "reading");
        });
    } catch (const std::exception& e) {
        std::fprintf(stderr, "record_vpoc_progress: %s\n", e.what());
        return 2;
    }
    std::printf("end,%.3f\n", seconds());
    return 0;
}
