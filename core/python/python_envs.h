// The user's Python environments that have PyTorch: where to look, and what each one's torch is.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace stackscope {

// Where discovery looks; fromEnvironment() reads this process's environment, tests give made-up trees.
struct PythonPlaces {
    std::vector<std::string> pathDirs; // $PATH, in order: every python3 in it
    std::string virtualEnv;            // $VIRTUAL_ENV
    std::string condaPrefix;           // $CONDA_PREFIX
    std::vector<std::string> condaBases; // base installs whose envs/ hold conda/mamba environments
    std::string pyenvRoot;             // $PYENV_ROOT or ~/.pyenv: versions/*
    std::string home;                  // ~/.venvs/*, ~/venv*
    std::string cwd;                   // ./.venv
    std::vector<std::string> userAdded; // --python PATH (an interpreter or an environment's folder)
    static PythonPlaces fromEnvironment();
};

struct PythonCandidate {
    std::string path;   // the interpreter
    std::string source; // "PATH", "VIRTUAL_ENV", "CONDA_PREFIX", "conda env", "pyenv", "./.venv", "~/.venvs", "~/venv*", "added"
    // Why discovery will not start this interpreter (core/python/python_trust.h); empty: it may. Its files are
    // still read.
    std::string notStarted;
};

// Every interpreter the places name, existing and executable, each once (same folder after symlinks, same name).
std::vector<PythonCandidate> pythonCandidates(const PythonPlaces& places);

struct PythonQueryOptions {
    // The quick look reads the environment's files where they say everything (a venv, a conda env, a pyenv version:
    // core/python/python_files.h) and starts the interpreter only for the rest: starting twelve interpreters at once
    // took 2.9 s on the 2-core build machine (RESULTS.md). False: always ask the interpreter.
    bool readFiles = true;
    // Otherwise each interpreter runs a short script that finds torch without importing it and reads torch/version.py, all in
    // parallel: 0.22 s for one interpreter alone, so discovery ends in well under 2 s on an idle machine. Eleven at
    // once on the 2-core build machine under load (a load average of 10-16) needed more than 1.5 s each (RESULTS.md):
    // 5 s keeps a busy machine's interpreters from being called unusable.
    std::chrono::milliseconds quickTimeout {5000};
    // details: import torch in each (arch list, devices, BLAS, amdsmi/pynvml). `import torch` of Debian's 1.13 took
    // 14.5-21 s on the 2-core build machine under load (RESULTS.md); 60 s is about three times that.
    bool details = false;
    std::chrono::milliseconds detailsTimeout {60000};
    // `python -m torch.utils.collect_env` (31 s measured on the same machine): kept for the report only.
    bool collectEnv = false;
    std::chrono::milliseconds collectEnvTimeout {120000};
};

// One object per candidate (the snapshot's "python_envs", docs/python-environments.md): "path", "source",
// "has_torch" (true/false, or null when the interpreter could not be asked, with "error", or was not started, with
// "not_started" and the "probe_command" that looks inside it), "python_version",
// "torch_version", "build" ("rocm"/"cuda"/"cpu"), "hip_version", "cuda_version", and with details "arch_list",
// "devices", "blas_backend", "amdsmi", "pynvml", "env"; with collectEnv "collect_env".
nlohmann::json queryPythonEnvs(const std::vector<PythonCandidate>& candidates, const PythonQueryOptions& options = {});

// The environments of `envs` (queryPythonEnvs' output) that have torch.
std::vector<nlohmann::json> pythonEnvsWithTorch(const nlohmann::json& envs);

// One environment as a person reads it in a list (the Probes page's picker): the fields of queryPythonEnvs' object,
// typed. JSON stays the snapshot's and the report's format; the GUI gets these.
struct PythonEnvSummary {
    std::string path;
    std::string source;
    std::optional<bool> hasTorch; // empty: it could not be asked (`error`) or was not started (`notStarted`)
    bool looked = false;          // its torch was looked at: the versions and build below are what it said
    std::string pythonVersion;
    std::string torchVersion;
    std::string build; // "rocm", "cuda", "cpu"
    std::string hipVersion;
    std::string cudaVersion;
    std::string error;      // why the interpreter could not be asked
    std::string notStarted; // why discovery did not start it (core/python/python_trust.h)
};
PythonEnvSummary pythonEnvSummary(const nlohmann::json& env);
std::vector<PythonEnvSummary> pythonEnvSummaries(const nlohmann::json& envs);

} // namespace stackscope
