#include "prices/schema.h"

#include <SQLiteCpp/Database.h>

namespace advisor::schema {

const std::vector<Migration>& migrations() {
    static const std::vector<Migration> list = {
        {1, "GPUs, prices, settings and metadata",
         [](SQLite::Database& db) {
             db.exec(R"sql(
                CREATE TABLE gpus (
                    id        TEXT PRIMARY KEY,
                    name      TEXT NOT NULL,
                    origin    TEXT NOT NULL CHECK (origin IN ('catalog', 'custom')),
                    spec_json TEXT,
                    CHECK (origin = 'catalog' OR spec_json IS NOT NULL)
                );
                CREATE TABLE prices (
                    id            INTEGER PRIMARY KEY AUTOINCREMENT,
                    gpu_id        TEXT NOT NULL REFERENCES gpus(id) ON DELETE CASCADE,
                    amount        REAL NOT NULL CHECK (amount > 0),
                    currency      TEXT NOT NULL,
                    condition     TEXT NOT NULL CHECK (condition IN ('new', 'used')),
                    source        TEXT NOT NULL DEFAULT '',
                    source_url    TEXT NOT NULL DEFAULT '',
                    observed_date TEXT NOT NULL,
                    note          TEXT NOT NULL DEFAULT '',
                    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
                );
                CREATE INDEX prices_by_gpu ON prices(gpu_id, observed_date);
                CREATE TABLE settings (
                    key   TEXT PRIMARY KEY,
                    value TEXT NOT NULL
                );
                CREATE TABLE meta (
                    key   TEXT PRIMARY KEY,
                    value TEXT NOT NULL
                );
             )sql");
         }},
        {2, "cloud offers",
         [](SQLite::Database& db) {
             db.exec(R"sql(
                CREATE TABLE cloud_offers (
                    id                     INTEGER PRIMARY KEY AUTOINCREMENT,
                    provider               TEXT NOT NULL,
                    instance               TEXT NOT NULL DEFAULT '',
                    gpu_name               TEXT NOT NULL,
                    gpu_id                 TEXT REFERENCES gpus(id) ON DELETE SET NULL,
                    gpu_count              INTEGER NOT NULL CHECK (gpu_count >= 1),
                    gpu_memory_gb          REAL CHECK (gpu_memory_gb IS NULL OR gpu_memory_gb > 0),
                    on_demand_usd_per_hour REAL NOT NULL CHECK (on_demand_usd_per_hour > 0),
                    spot_usd_per_hour      REAL CHECK (spot_usd_per_hour IS NULL OR spot_usd_per_hour > 0),
                    region                 TEXT NOT NULL DEFAULT '',
                    observed_date          TEXT NOT NULL,
                    source_url             TEXT NOT NULL DEFAULT '',
                    note                   TEXT NOT NULL DEFAULT '',
                    created_at             TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
                );
                CREATE INDEX cloud_offers_by_gpu ON cloud_offers(gpu_id);
             )sql");
         }},
    };
    return list;
}

int currentVersion() {
    return migrations().back().toVersion;
}

} // namespace advisor::schema
