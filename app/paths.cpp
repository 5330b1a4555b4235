#include "paths.h"

#include <QDir>
#include <QStandardPaths>

namespace advisor::app {

std::string defaultDatabasePath() {
    // GenericDataLocation + our name, so the path does not depend on whether the
    // application/organisation names are set yet: ~/.local/share/gpu-advisor on Linux.
    const QString base = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    return QDir(base).filePath(QStringLiteral("gpu-advisor/prices.sqlite")).toStdString();
}

} // namespace advisor::app
