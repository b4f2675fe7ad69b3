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
};

// The quick query's answer (core/python/python_queries.h, kQuick) read from the files of `interpreter`'s
// environment, with "looked_up": "files"; nullopt where only the interpreter can tell: a venv that includes the
// system's site-packages, a system layout (Debian's dist-packages), a shim, Python 2, an editable torch (.pth).
std::optional<nlohmann::json> quickLookFromFiles(const std::string& interpreter, const PythonFileContext& context);

// torch/version.py's assignments (`__version__ = '2.11.0+cu130'`, `hip: Optional[str] = None`) as JSON values;
// nullopt when a line it needs is not a plain string, None or boolean.
std::optional<nlohmann::json> parseTorchVersionPy(const std::string& text);

} // namespace stackscope
