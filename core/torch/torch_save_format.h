// Files Python's torch.load reads with its default weights_only=True: a dict of CPU tensors in
// torch.save's zip layout. libtorch's pickle_save tags dicts with torch.jit._pickle.restore_type_tag,
// which weights_only loading refuses (PyTorch >= 2.6), so the pickle program is written here.
#pragma once

#include <torch/torch.h>

#include <string>
#include <utility>
#include <vector>

namespace stackscope::trainer {

// float32 and int64 tensors (made contiguous on the CPU). Returns the bytes of the whole zip file.
std::string torchSaveBytes(const std::vector<std::pair<std::string, torch::Tensor>>& tensors);

} // namespace stackscope::trainer
