#pragma once
/// \file
/// The price database's versioned schema. Each migration moves the schema from
/// version N-1 to N inside one transaction; PRAGMA user_version records N.

#include <functional>
#include <string>
#include <vector>

namespace SQLite {
class Database;
}

namespace advisor::schema {

/// "GPUA": marks a SQLite file as ours (PRAGMA application_id), so a foreign
/// database is recognised instead of being modified.
constexpr int kApplicationId = 0x47505541;

struct Migration {
    int toVersion;
    const char* description;
    std::function<void(SQLite::Database&)> apply;
};

const std::vector<Migration>& migrations();

/// The version a fully migrated database has.
int currentVersion();

} // namespace advisor::schema
