// The folder for temporary files ($TMPDIR, else /tmp), checked before use so a bad TMPDIR is a clear message naming
// it, not a raw errno or filesystem error.
#pragma once

#include <string>
#include <string_view>

namespace stackscope {

// $TMPDIR when set and not empty (as mkstemp(3) callers and std::filesystem::temp_directory_path read it), else /tmp.
std::string temporaryFolder();

// What is wrong with temporaryFolder() for creating files in it: "" when nothing, else "no such folder", "not a
// folder", "not writable" (access(2) W_OK|X_OK), "no file can be created in it (...)" (a file is made and removed).
std::string temporaryFolderProblem();

// One message for a temporary file that could not be made there: names TMPDIR and its value, `purpose` (what the
// file is for), `problem`, and what to do (create the folder, point TMPDIR at a writable one, or unset it).
std::string temporaryFolderMessage(std::string_view purpose, std::string_view problem);

// temporaryFolder() when usable; else throws FileWriteError (the CLI exits 2 on it) with temporaryFolderMessage().
std::string checkedTemporaryFolder(std::string_view purpose);

} // namespace stackscope
