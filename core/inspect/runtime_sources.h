// Facts that need a vendor library loaded at run time; one small source per library.
#pragma once

#include "core/snapshot/snapshot.h"

#include <memory>
#include <string>
#include <vector>

namespace stackscope {

// A source appends what it found to the snapshot: GPUs (merged by PCI bus later), versions,
// and a LibraryStatus saying which copy it loaded or why it could not.
class RuntimeSource {
public:
    virtual ~RuntimeSource() = default;
    virtual void collect(Snapshot& snapshot) = 0;
};

std::unique_ptr<RuntimeSource> makeHipRuntimeSource();
std::unique_ptr<RuntimeSource> makeRocmSmiSource();
std::unique_ptr<RuntimeSource> makeNvmlSource();
std::unique_ptr<RuntimeSource> makeCudaRuntimeSource();
// `modulePath` empty: the documented search ($STACKSCOPE_TORCH_MODULE, then beside the program).
std::unique_ptr<RuntimeSource> makeTorchModuleSource(std::string modulePath = {});

std::vector<std::unique_ptr<RuntimeSource>> defaultRuntimeSources();

// "MAJOR.MINOR.PATCH" from HIP's MAJOR*10000000 + MINOR*100000 + PATCH encoding.
std::string hipVersionString(int encoded);
// "MAJOR.MINOR" from CUDA's MAJOR*1000 + MINOR*10 encoding.
std::string cudaVersionString(int encoded);

} // namespace stackscope
