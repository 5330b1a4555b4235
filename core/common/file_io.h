#pragma once
/// \file
/// Whole-file reads with a size limit and atomic writes (temp file + rename), so an
/// interrupted export never leaves a half-written file where a good one was.

#include <cstddef>
#include <string>
#include <string_view>

namespace advisor::files {

/// Reads a file into memory. Throws InputError naming the file when it cannot be
/// opened, is a directory, or is larger than maxBytes.
std::string readAll(const std::string& path, size_t maxBytes = 256 * 1024 * 1024);

/// Writes content to path via a temporary file in the same directory and rename().
/// Throws AdvisorError naming the file on failure; the previous file is left intact.
void writeAtomically(const std::string& path, std::string_view content);

/// Flushes a finished file's contents to the disk (fsync), so a power cut cannot leave a
/// copy that looks complete but is not. Throws AdvisorError naming the file.
void syncToDisk(const std::string& path);

/// The two formats of the table files users import and export (prices, cloud offers).
enum class TableFormat { Csv, Json };

/// By extension (.csv, .json); throws InputError naming the file otherwise.
TableFormat tableFormatForPath(const std::string& path);

/// Lower-case extension without the dot ("csv" for "a/b.CSV"), empty when none.
std::string extension(const std::string& path);

/// Last path component, for messages ("prices.csv" for "/tmp/x/prices.csv").
std::string baseName(const std::string& path);

} // namespace advisor::files
