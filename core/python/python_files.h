// The quick look at a Python environment from its files alone: where its site-packages are, and torch/version.py.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace stackscope {

// What starting the interpreter would not change: the layouts whose import path is certain from the files.
struct PythonFileContext {
    std::vector<std::string> pythonPath; // $PYTHONPATH, searched before site-packages
    std::string home;                    // ~/.local/lib/pythonX.Y/site-packages (not for venvs: they turn it off)
    // For pyenv's shims: $PYENV_ROOT (or ~/.pyenv), $PYENV_VERSION, the folder whose .python-version files count,
    // and $PATH (a "system" version is the next python3 on it).
    std::string pyenvRoot;
    std::string pyenvVersion;
    std::string cwd;
    std::vector<std::string> pathDirs;
    static PythonFileContext fromEnvironment();
};

// The interpreter a pyenv shim ($PYENV_ROOT/shims/python3, a bash script that runs `pyenv exec`) would run, chosen
// as pyenv chooses (PYENV_VERSION, then .python-version from the folder upwards, then $PYENV_ROOT/version, else the
// system's python3 on PATH); nullopt when `interpreter` is no shim or the choice names nothing installed. Starting
// the shim itself took more than 5 s on the loaded 2-core machine (RESULTS.md).
std::optional<std::string> pyenvShimTarget(const std::string& interpreter, const PythonFileContext& context);

// The quick query's answer (core/python/python_queries.h, kQuick) read from the files of `interpreter`'s
// environment, with "looked_up": "files"; nullopt where only the interpreter can tell: a venv that includes the
// system's site-packages, a system layout (Debian's dist-packages), a shim, Python 2, an editable torch (.pth).
std::optional<nlohmann::json> quickLookFromFiles(const std::string& interpreter, const PythonFileContext& context);

// torch/version.py of the torch folder `torchDir`, read (a small regular file only) and parsed as text; nullopt when
// it cannot be read or is not plain assignments.
std::optional<nlohmann::json> readTorchVersionPy(const std::string& torchDir);

// "rocm", "cuda" or "cpu" from parseTorchVersionPy's answer.
std::string torchBuildOf(const nlohmann::json& versionPy);

// torch/version.py's assignments (`__version__ = '2.11.0+cu130'`, `hip: Optional[str] = None`) as JSON values;
// nullopt when a line it needs is not a plain string, None or boolean. Linear in the text's length, whatever the
// length of a line (no regex: a 100 KB line once overflowed std::regex's recursion).
std::optional<nlohmann::json> parseTorchVersionPy(const std::string& text);

} // namespace stackscope
