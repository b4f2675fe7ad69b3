// CapturedStderr: fd 2 pointed at an unlinked temporary file (a file, not a pipe: a library that prints more than a
// pipe holds would block with nobody reading), restored and read back at the end.
#include "core/runtime/captured_stderr.h"

#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <iostream>
#include <mutex>
#include <unistd.h>

namespace stackscope {

namespace {

std::mutex& captureMutex()
{
    static std::mutex m;
    return m;
}

void flushStderrStreams()
{
    std::fflush(stderr);
    std::cerr.flush();
    std::clog.flush();
}

int dupCloexec(int fd)
{
    return ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
}

} // namespace

CapturedStderr::CapturedStderr()
{
    captureMutex().lock();
    m_locked = true;
    std::FILE* file = std::tmpfile();
    if (!file)
        return;
    m_fileFd = dupCloexec(::fileno(file));
    std::fclose(file);
    if (m_fileFd < 0)
        return;
    flushStderrStreams(); // what was printed before goes to the terminal, not into the capture
    m_savedFd = dupCloexec(STDERR_FILENO);
    if (m_savedFd < 0)
        return;
    int rc;
    do
        rc = ::dup2(m_fileFd, STDERR_FILENO);
    while (rc < 0 && errno == EINTR);
    if (rc < 0) {
        ::close(m_savedFd);
        m_savedFd = -1;
    }
}

CapturedStderr::~CapturedStderr()
{
    const std::string left = take();
    if (!left.empty())
        printToStderr(left);
}

void CapturedStderr::restore()
{
    if (m_savedFd >= 0) {
        flushStderrStreams();
        int rc;
        do
            rc = ::dup2(m_savedFd, STDERR_FILENO);
        while (rc < 0 && errno == EINTR);
        ::close(m_savedFd);
        m_savedFd = -1;
    }
    if (m_locked) {
        m_locked = false;
        captureMutex().unlock();
    }
}

std::string CapturedStderr::take()
{
    const bool captured = m_savedFd >= 0;
    restore();
    std::string text;
    if (m_fileFd < 0)
        return text;
    if (captured) {
        char buf[4096];
        off_t at = 0;
        for (;;) {
            const ssize_t n = ::pread(m_fileFd, buf, sizeof buf, at);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            text.append(buf, static_cast<std::size_t>(n));
            at += n;
        }
    }
    ::close(m_fileFd);
    m_fileFd = -1;
    return text;
}

std::string capturedAsOneLine(const std::string& text, std::size_t maxChars)
{
    std::string line;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        std::string part = text.substr(start, end - start);
        while (!part.empty() && (part.back() == '\r' || part.back() == ' ' || part.back() == '\t'))
            part.pop_back();
        if (!part.empty())
            line += (line.empty() ? "" : " / ") + part;
        start = end + 1;
    }
    if (line.size() > maxChars) {
        std::size_t cut = maxChars; // back to the start of the UTF-8 sequence the cut falls in
        while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80)
            --cut;
        line.resize(cut);
        line += "\u2026";
    }
    return line;
}

void printToStderr(const std::string& text)
{
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
}

} // namespace stackscope
