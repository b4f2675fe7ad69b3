// libFuzzer entry: arbitrary bytes through the ELF reader, the offload-bundle walker and the fatbin walker.
// Run: fuzz_archscan -max_len=65536 -malloc_limit_mb=256 -max_total_time=600 CORPUS_DIR SEEDS_DIR
#include "core/archscan/arch_scan.h"
#include "core/archscan/nv_fatbin.h"
#include "core/archscan/offload_bundle.h"
#include "core/archscan/folder_scan.h"
#include "core/archscan/target_id.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace stackscope::archscan;
    const ByteView bytes {data, size};
    // Whole file: ELF sections, raw bundles, raw fatbins. Must never throw.
    const LibraryScan scan = scanBinaryBytes(bytes, "fuzz");
    (void)scan;
    // The section walkers on their own, as if the bytes were a section's contents.
    (void)scanOffloadBundles(bytes);
    (void)scanNvFatbin(bytes);
    // Name parsers on the same bytes as text.
    const std::string text(reinterpret_cast<const char*>(data), size < 256 ? size : 256);
    (void)parseAmdTargetId(text);
    (void)parseBundleEntryId(text);
    (void)gfxTokensInName(text);
    (void)miopenDatabaseArch(text);
    (void)overrideToProcessor(text);
    return 0;
}
