// CapturedStderr: what a vendor library prints to the process's stderr during one call (rocm_smi's rsmi_init writes
// "Failed to open drm root directory /sys/class/drm." on a machine without AMD GPUs), kept for the message that
// explains the call's outcome instead of landing raw in the user's terminal.
#pragma once

#include <string>
#include <utility>

namespace stackscope {

// Redirects file descriptor 2 to an unlinked temporary file for its lifetime; take() ends the capture and returns the
// text. One capture at a time in the process (a second waits): two overlapping redirects would restore each other's
// descriptors. While it lasts, anything another thread prints to stderr is captured too, so keep it around one call.
// When the redirect cannot be made (no temporary file), nothing is captured and the text goes to stderr as usual.
class CapturedStderr {
public:
    CapturedStderr();
    // Restores stderr; text not taken is written to it, so nothing printed is lost.
    ~CapturedStderr();
    CapturedStderr(const CapturedStderr&) = delete;
    CapturedStderr& operator=(const CapturedStderr&) = delete;

    // Restores stderr and returns what was printed since the constructor (empty when nothing was, or when the
    // redirect could not be made). Later calls return "".
    std::string take();
    bool capturing() const { return m_savedFd >= 0; }

private:
    void restore();

    int m_savedFd = -1;
    int m_fileFd = -1;
    bool m_locked = false;
};

// Runs `call` with stderr captured: its result and the text it printed.
template <typename Call>
auto callCapturingStderr(Call&& call) -> std::pair<decltype(call()), std::string>
{
    CapturedStderr capture;
    auto result = call();
    return { std::move(result), capture.take() };
}

// `text` as one line for a message: lines joined with " / ", blank ones dropped, cut at `maxChars` with "…".
std::string capturedAsOneLine(const std::string& text, std::size_t maxChars = 400);

// Writes `text` to stderr as it was printed (a library's message the caller does not report itself).
void printToStderr(const std::string& text);

} // namespace stackscope
