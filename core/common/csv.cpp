#include "common/csv.h"

#include "common/errors.h"
#include "common/text.h"

#include <csv.h>

#include <algorithm>
#include <memory>

namespace advisor::csv {
namespace {

struct ParseState {
    const Limits* limits = nullptr;
    const std::string* file = nullptr;
    std::vector<std::string> fields;
    std::vector<Row> records;
    std::vector<InputProblem> problems;
    int currentLine = 0;
    int recordStartLine = 0;
    bool inRecord = false;
    bool recordTooLong = false;
};

void onField(void* data, size_t len, void* user) {
    auto* st = static_cast<ParseState*>(user);
    if (len > st->limits->maxFieldBytes) {
        if (!st->recordTooLong) {
            // Name the column by the header once the header has been read.
            const size_t col = st->fields.size();
            const bool named = !st->records.empty() && col < st->records.front().fields.size() &&
                               !text::firstInvalidUtf8(st->records.front().fields[col]) &&
                               st->records.front().fields[col].size() <= 64;
            const std::string label = named ? text::toLower(text::trim(st->records.front().fields[col]))
                                            : "column " + std::to_string(col + 1);
            st->problems.push_back(
                {{*st->file, st->recordStartLine, "", label},
                 "field is " + std::to_string(len) + " bytes long; the limit is " +
                     std::to_string(st->limits->maxFieldBytes) + " bytes"});
        }
        st->recordTooLong = true;
        st->fields.emplace_back();
        return;
    }
    st->fields.emplace_back(static_cast<const char*>(data), len);
}

void onRecordEnd(int /*terminator*/, void* user) {
    auto* st = static_cast<ParseState*>(user);
    if (!st->recordTooLong) {
        st->records.push_back({st->recordStartLine, std::move(st->fields)});
    }
    st->fields.clear();
    st->inRecord = false;
    st->recordTooLong = false;
}

// The header line decides: commas win; a line with none takes whichever of ';' and tab it has
// more of (a German spreadsheet's "CSV" is ';'-separated, a copied table tab-separated).
char sniffDelimiter(std::string_view text) {
    const std::string_view first = text.substr(0, text.find('\n'));
    const auto count = [&](char c) { return std::count(first.begin(), first.end(), c); };
    if (count(',') > 0) {
        return ',';
    }
    const auto semicolons = count(';');
    const auto tabs = count('\t');
    if (semicolons == 0 && tabs == 0) {
        return ',';
    }
    return semicolons >= tabs ? ';' : '\t';
}

struct ParserDeleter {
    void operator()(csv_parser* p) const {
        csv_free(p);
        delete p;
    }
};

} // namespace

Table read(std::string_view text, const std::string& fileLabel, const Limits& limits) {
    if (text.size() > limits.maxFileBytes) {
        throw InputError({fileLabel, 0, "", ""}, "file is " + std::to_string(text.size()) +
                                                     " bytes; the limit is " +
                                                     std::to_string(limits.maxFileBytes) + " bytes");
    }
    if (text.substr(0, 3) == "\xEF\xBB\xBF") {
        text.remove_prefix(3);
    }
    if (text::trim(text).empty()) {
        throw InputError({fileLabel, 0, "", ""}, "file is empty; expected a header row");
    }
    if (const size_t nul = text.find('\0'); nul != std::string_view::npos) {
        const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(nul), '\n'));
        throw InputError({fileLabel, line, "", ""}, "contains a NUL byte; this looks like a binary file, not CSV text");
    }

    std::unique_ptr<csv_parser, ParserDeleter> parser(new csv_parser);
    if (csv_init(parser.get(), CSV_STRICT | CSV_STRICT_FINI) != 0) {
        throw AdvisorError("cannot initialise the CSV parser");
    }
    // libcsv grows a field's buffer by this much at a time; its default (128 bytes) makes a long
    // field cost a reallocation per 128 bytes (a 10 MB field took minutes under AddressSanitizer).
    csv_set_blk_size(parser.get(), 64 * 1024);
    const char delimiter = sniffDelimiter(text);
    csv_set_delim(parser.get(), static_cast<unsigned char>(delimiter));
    if (delimiter == '\t') {
        // libcsv skips tabs before a field as blanks, which would swallow empty fields.
        csv_set_space_func(parser.get(), [](unsigned char c) { return c == ' ' ? 1 : 0; });
    }
    ParseState st;
    st.limits = &limits;
    st.file = &fileLabel;

    // Feed one physical line at a time so every record knows the line it starts on.
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        end = end == std::string_view::npos ? text.size() : end + 1;
        ++st.currentLine;
        if (!st.inRecord) {
            st.recordStartLine = st.currentLine;
        }
        const std::string_view chunk = text.substr(pos, end - pos);
        const size_t used = csv_parse(parser.get(), chunk.data(), chunk.size(), onField, onRecordEnd, &st);
        if (used != chunk.size()) {
            st.problems.push_back({{fileLabel, st.currentLine, "", ""},
                                   "malformed quoting (a '\"' inside an unquoted field, or text "
                                   "after a closing quote)"});
            throw InputError(std::move(st.problems));
        }
        // A record still open at the end of the line (a quoted field spanning lines)
        // keeps the line it started on. pstate 0 is libcsv's "row not begun".
        st.inRecord = parser->pstate != 0;
        pos = end;
    }
    if (csv_fini(parser.get(), onField, onRecordEnd, &st) != 0) {
        st.problems.push_back({{fileLabel, st.recordStartLine, "", ""},
                               "unterminated quoted field (opened on this line, never closed)"});
    }
    if (!st.problems.empty()) {
        throw InputError(std::move(st.problems));
    }
    if (st.records.empty()) {
        throw InputError({fileLabel, 0, "", ""}, "file is empty; expected a header row");
    }

    Table table;
    table.delimiter = delimiter;
    table.headerLine = st.records.front().line;
    for (const auto& h : st.records.front().fields) {
        table.header.emplace_back(text::toLower(text::trim(h)));
    }
    table.rows.assign(std::make_move_iterator(st.records.begin() + 1),
                      std::make_move_iterator(st.records.end()));
    return table;
}

std::string numberCell(const Table& table, std::string_view cell) {
    std::string out(cell);
    if (table.delimiter != ';' || std::count(out.begin(), out.end(), ',') != 1 || out.find('.') != std::string::npos) {
        return out;
    }
    out[out.find(',')] = '.';
    // Only a number is rewritten, so an error about the cell quotes it as the file has it.
    return text::parseNumber(out).value ? out : std::string(cell);
}

std::string numberFor(Style style, std::string number) {
    if (style == Style::SemicolonsDecimalCommas) {
        std::replace(number.begin(), number.end(), '.', ',');
    }
    return number;
}

void appendRow(std::string& out, const std::vector<std::string>& fields, Style style) {
    const char delimiter = style == Style::Commas ? ',' : ';';
    // A quoted "1599,99" may be read as text: in a semicolon file a comma is left bare.
    const char* const special = style == Style::Commas ? ",\"\r\n" : ";\"\r\n";
    for (size_t i = 0; i < fields.size(); ++i) {
        if (i > 0) {
            out += delimiter;
        }
        const std::string& f = fields[i];
        const bool needsQuotes =
            f.find_first_of(special) != std::string::npos ||
            (!f.empty() && (f.front() == ' ' || f.front() == '\t' || f.back() == ' ' || f.back() == '\t'));
        if (!needsQuotes) {
            out += f;
            continue;
        }
        out += '"';
        for (const char c : f) {
            if (c == '"') {
                out += '"';
            }
            out += c;
        }
        out += '"';
    }
    out += '\n';
}

namespace {

bool startsLikeFormula(std::string_view s) {
    if (s.empty()) {
        return false;
    }
    const char c = s.front();
    if (c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r') {
        return true;
    }
    // An apostrophe in front of something that would need escaping is itself escaped,
    // so that unneutralizeFormula() is an exact inverse.
    return c == '\'' && startsLikeFormula(s.substr(1));
}

} // namespace

std::string neutralizeFormula(std::string_view cell) {
    if (startsLikeFormula(cell)) {
        return "'" + std::string(cell);
    }
    return std::string(cell);
}

std::string unneutralizeFormula(std::string_view cell) {
    if (cell.size() > 1 && cell.front() == '\'' && startsLikeFormula(cell.substr(1))) {
        return std::string(cell.substr(1));
    }
    return std::string(cell);
}

std::map<std::string, size_t> columnsRequiring(const Table& table, const std::string& fileLabel,
                                               std::initializer_list<const char*> required) {
    std::map<std::string, size_t> columns;
    for (size_t i = 0; i < table.header.size(); ++i) {
        columns[table.header[i]] = i;
    }
    std::vector<InputProblem> problems;
    for (const char* name : required) {
        if (columns.count(name) == 0) {
            problems.push_back({{fileLabel, table.headerLine, "", name}, "required column is missing"});
        }
    }
    if (!problems.empty()) {
        throw InputError(std::move(problems));
    }
    return columns;
}

std::string cellIn(const Row& row, const std::map<std::string, size_t>& columns, const char* name) {
    const auto it = columns.find(name);
    return it == columns.end() || it->second >= row.fields.size() ? std::string()
                                                                   : std::string(text::trim(row.fields[it->second]));
}

} // namespace advisor::csv
