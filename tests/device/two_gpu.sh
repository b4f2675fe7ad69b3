#!/usr/bin/env bash
# Two GPUs through c10d: tests/device/multi_gpu.sh with GPUS=2 (the scaling runs, the default model, SIGSTOP,
# kill -9 then --resume, two torchrun agents of one rank each). Writes $OUT/multi_gpu.txt.
# Usage (repo root): tests/device/two_gpu.sh
GPUS=2 exec bash tests/device/multi_gpu.sh "$@"
