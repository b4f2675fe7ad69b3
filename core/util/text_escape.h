// One escaping function for text from input files that ends up in a message on a terminal.
#pragma once

#include <string>
#include <string_view>

namespace stackscope {

// Makes `text` safe to print: control bytes (C0, DEL, and the C1 range U+0080..U+009F) become \xNN, \t \n \r
// become \t \n \r, a backslash stays itself, bytes that are not valid UTF-8 become \xNN; printable
// UTF-8 passes through. So an ESC sequence in a CSV field shows as "\x1b[2J" instead of clearing the screen.
std::string escapeControl(std::string_view text);

// The same for a whole message that may hold several lines: newlines are kept, other control bytes escaped.
std::string escapeMessage(std::string_view text);

// `text` when it has at most `max` bytes; else its start up to the last space that fits (a word longer than `max`
// is cut at a UTF-8 character boundary), followed by " ...": a shortened line never ends mid-word ("/dev/d...").
std::string cutAtWord(std::string_view text, std::size_t max);

// Text for HTML element content or a quoted attribute: & < > " ' become entities (the report's HTML pages).
std::string escapeHtml(std::string_view text);

} // namespace stackscope
