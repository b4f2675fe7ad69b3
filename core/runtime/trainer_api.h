// The C entry point of the libtorch trainer inside libstackscope_torch.so (`train`, the Training page).
#pragma once

#include "core/runtime/torch_module_api.h"

#include <stddef.h>
#include <stdint.h>

#define STACKSCOPE_TORCH_TRAIN_ABI 4

// What to train on. Rows [0, trainRows) are the training part, [trainRows, rows) the validation part
// (split by time: the caller has already normalised both with the training part's statistics).
struct StackscopeTrainData {
    const float* features; // rows x cols, row-major
    const float* targets;  // rows
    int64_t rows;
    int64_t cols;
    int64_t trainRows;
};

// Receives one JSON event (see trainer.cpp: "started", "note", "step", "epoch", "finished"). Returns 0 to go on;
// non-zero when the host failed to handle it (it keeps its own error): the run stops there and the trainer returns
// STACKSCOPE_TORCH_TRAIN_HOST_FAILED. No C++ exception crosses this boundary in either direction.
typedef int (*StackscopeTrainEventFn)(void* user, const char* eventJson);
// Asked before every step; non-zero stops the run within that step, keeping the last epoch's checkpoint.
typedef int (*StackscopeTrainStopFn)(void* user);
#define STACKSCOPE_TORCH_TRAIN_HOST_FAILED 4

extern "C" {
STACKSCOPE_TORCH_EXPORT int stackscope_torch_train_abi(void);
// Trains the MLP described by `configJson` (keys of core/training/training_config.h's JSON), writing
// model.pt, checkpoint.pt into `outputDir` atomically after every epoch. With `resume` non-zero it
// continues from outputDir/checkpoint.pt. `stopRequested` (may be null) is asked before every step. Both
// callbacks get `user` and run on the caller's thread. Returns 0 when done or stopped, 2 for a configuration the
// device cannot run (bf16 where there is none, an unknown GPU) or an output that cannot be written (a full
// disk: nothing of the set model.pt, checkpoint.pt, model_metadata.json is replaced), 3 when a collective
// between processes failed or timed out (the JSON's "dist": one rank of several; the message names the rank and
// the collective), STACKSCOPE_TORCH_TRAIN_HOST_FAILED when `onEvent` returned non-zero, -1 for any other failure;
// the message for a person is in `error`. After each epoch both files are staged (temporary files), the "epoch"
// event is emitted (the caller rewrites model_metadata.json there; a failure it returns aborts the run before
// anything is replaced), then both are renamed into place.
STACKSCOPE_TORCH_EXPORT int stackscope_torch_train(const char* configJson, const struct StackscopeTrainData* data,
                                                   const char* outputDir, int resume, StackscopeTrainEventFn onEvent,
                                                   StackscopeTrainStopFn stopRequested, void* user, char* error,
                                                   size_t errorLen);
// Runs a saved model.pt (state dict written by stackscope_torch_train, same config) on `rows` rows of
// normalised features on the CPU; writes one output per row. For checks against Python. Returns 0 or -1.
STACKSCOPE_TORCH_EXPORT int stackscope_torch_predict(const char* configJson, const char* modelPath,
                                                     const float* features, int64_t rows, int64_t cols, float* out,
                                                     char* error, size_t errorLen);
// Writes the dataset as a dict {"x": float tensor, "y": float tensor, "train_rows": int} with torch's
// pickle format, so Python's torch.load reads it (the benchmark's eager baseline trains on it).
STACKSCOPE_TORCH_EXPORT int stackscope_torch_save_dataset(const struct StackscopeTrainData* data, const char* path,
                                                          char* error, size_t errorLen);
}
