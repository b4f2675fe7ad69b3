// The one base of StackScope's errors. what() is the message for a person: what is wrong and what to do next. kind()
// says whose move it is, and from it come the CLI's exit code (cli/main.cpp) and how a page presents the message.
#pragma once

#include <stdexcept>
#include <string>

namespace stackscope {

enum class ErrorKind {
    Input,  // what the person gave (an option, a file, a folder, an output path) is not usable: they change it (exit 2)
    Failed, // the input was fine and the job ran, but this machine, a library, a device or a peer failed it (exit 1)
};

class Error : public std::runtime_error {
public:
    Error(const std::string& what, ErrorKind kind)
        : std::runtime_error(what)
        , m_kind(kind)
    {
    }
    ErrorKind kind() const noexcept { return m_kind; }

private:
    ErrorKind m_kind;
};

} // namespace stackscope
