#include "cli/table.h"

#include <algorithm>
#include <ostream>

namespace advisor::cli {
namespace {

// Display width: count UTF-8 code points, not bytes.
size_t displayWidth(const std::string& s) {
    size_t n = 0;
    for (const char c : s) {
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
            ++n;
        }
    }
    return n;
}

} // namespace

TextTable::TextTable(std::vector<std::string> headers)
    : headers_(std::move(headers)), right_(headers_.size(), false) {}

void TextTable::setRightAligned(size_t column, bool right) {
    if (column < right_.size()) {
        right_[column] = right;
    }
}

void TextTable::addRow(std::vector<std::string> cells) {
    cells.resize(headers_.size());
    rows_.push_back(std::move(cells));
}

void TextTable::print(std::ostream& out) const {
    std::vector<size_t> width(headers_.size());
    for (size_t c = 0; c < headers_.size(); ++c) {
        width[c] = displayWidth(headers_[c]);
        for (const auto& r : rows_) {
            width[c] = std::max(width[c], displayWidth(r[c]));
        }
    }
    const auto line = [&](const std::vector<std::string>& cells) {
        std::string s;
        for (size_t c = 0; c < cells.size(); ++c) {
            const size_t pad = width[c] - displayWidth(cells[c]);
            if (c > 0) {
                s += "  ";
            }
            if (right_[c]) {
                s += std::string(pad, ' ') + cells[c];
            } else {
                s += cells[c];
                if (c + 1 < cells.size()) {
                    s += std::string(pad, ' ');
                }
            }
        }
        out << s << '\n';
    };
    line(headers_);
    for (const auto& r : rows_) {
        line(r);
    }
}

} // namespace advisor::cli
