// The application's recent Qt log messages (warnings, errors), kept in memory for the report's logs/recent.log.
#pragma once

#include <string>
#include <vector>

namespace stackscope::ui {

// Installs a message handler once (idempotent) that keeps the last `kMaxLines` messages and passes
// every message on to the handler that was installed before, so nothing printed is lost.
void installRecentLog();
// "2026-11-21T19:03:12Z warning: text", oldest first.
std::vector<std::string> recentLogLines();

inline constexpr std::size_t kMaxRecentLogLines = 500;

} // namespace stackscope::ui
