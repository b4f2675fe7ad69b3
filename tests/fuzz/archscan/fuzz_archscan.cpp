// libFuzzer entry: arbitrary bytes through the ELF reader, the offload-bundle walker, the fatbin walker and the
// message escaper, with the caps on what a scan keeps checked.
// Run: fuzz_archscan -max_len=65536 -malloc_limit_mb=256 -max_total_time=600 CORPUS_DIR SEEDS_DIR
#include "core/archscan/arch_scan.h"
#include "core/archscan/bounded_scan.h"
#include "core/archscan/nv_fatbin.h"
#include "core/archscan/offload_bundle.h"
#include "core/archscan/folder_scan.h"
#include "core/archscan/target_id.h"
#include "core/util/text_escape.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace stackscope::archscan;
    const ByteView bytes {data, size};
    // Whole file: ELF sections, raw bundles, raw fatbins. Must never throw.
    const LibraryScan scan = scanBinaryBytes(bytes, "fuzz");
    // What one library keeps is bounded whatever the bytes (bounded_scan.h); the rest is counted.
    if (scan.errors.size() > kMaxErrorsKept || scan.targets.size() > kMaxTargetsKept)
        __builtin_trap();
    // The section walkers on their own, as if the bytes were a section's contents.
    const BundleScan bundles = scanOffloadBundles(bytes);
    const FatbinScan fatbins = scanNvFatbin(bytes);
    if (bundles.errors.size() > kMaxErrorsKept || fatbins.errors.size() > kMaxErrorsKept ||
        bundles.targets.size() > kMaxTargetsKept || fatbins.targets.size() > kMaxTargetsKept)
        __builtin_trap();
    // Whatever a message quotes from the file reaches the terminal with no control byte left.
    const std::string shown = stackscope::escapeControl(std::string_view(reinterpret_cast<const char*>(data), size));
    for (const unsigned char c : shown)
        if (c < 0x20 || c == 0x7f)
            __builtin_trap();
    // Name parsers on the same bytes as text.
    const std::string text(reinterpret_cast<const char*>(data), size < 256 ? size : 256);
    (void)parseAmdTargetId(text);
    (void)parseBundleEntryId(text);
    (void)gfxTokensInName(text);
    (void)miopenDatabaseArch(text);
    (void)overrideToProcessor(text);
    return 0;
}
