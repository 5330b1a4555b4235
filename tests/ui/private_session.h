#pragma once
// A session for one test run: its own settings file (pages remember inputs and walks there,
// not in the user's) and its own freshly seeded price database, both in `dir`.
#include "session.h"

#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <memory>

namespace advisor::testing {

// Settings (and standard paths) for one test run: an INI file in `dir`, not the user's.
inline void usePrivateSettings(const QTemporaryDir& dir) {
    QStandardPaths::setTestModeEnabled(true);
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
}

inline std::unique_ptr<ui::Session> openPrivateSession(const QTemporaryDir& dir) {
    usePrivateSettings(dir);
    auto session = std::make_unique<ui::Session>();
    session->open(dir.filePath(QStringLiteral("prices.sqlite")).toStdString());
    return session;
}

} // namespace advisor::testing
