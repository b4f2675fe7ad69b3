#!/usr/bin/env python3
"""The user's C++ extension, compiled just in time (torch.utils.cpp_extension.load_inline) with MAX_JOBS as the shell
has it: ninja then runs as many compilers as the machine has cores, and each cc1plus reading torch/extension.h needs
about a gigabyte. On a machine whose RAM they outgrow the kernel's OOM killer ends a compiler and g++ says
"Killed signal terminated program cc1plus".
  python3 ext_build.py --build-dir /tmp/ext"""
import argparse
import os

import torch
from torch.utils.cpp_extension import load_inline

p = argparse.ArgumentParser()
p.add_argument("--build-dir", required=True)
a = p.parse_args()
os.makedirs(a.build_dir, exist_ok=True)
cpp = r"""
#include <torch/extension.h>
torch::Tensor twice(torch::Tensor x) { return x * 2; }
"""
print(f"MAX_JOBS={os.environ.get('MAX_JOBS', '')!r}, cores {os.cpu_count()}", flush=True)
mod = load_inline(name="twice_ext", cpp_sources=cpp, functions=["twice"], build_directory=a.build_dir, verbose=False)
print(f"ok: {mod.twice(torch.ones(4)).sum().item()}", flush=True)
