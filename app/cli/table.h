#pragma once
/// \file
/// Plain-text tables for human output: aligned columns, numbers right-aligned.

#include <iosfwd>
#include <string>
#include <vector>

namespace advisor::cli {

class TextTable {
public:
    /// Column titles; a title ending in ':' is left-aligned, otherwise numbers are right-aligned
    /// when setRightAligned() says so.
    explicit TextTable(std::vector<std::string> headers);
    void setRightAligned(size_t column, bool right = true);
    void addRow(std::vector<std::string> cells);
    void print(std::ostream& out) const;
    size_t rowCount() const { return rows_.size(); }

private:
    std::vector<std::string> headers_;
    std::vector<bool> right_;
    std::vector<std::vector<std::string>> rows_;
};

} // namespace advisor::cli
