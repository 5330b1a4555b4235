#include "paths.h"

#include <QCoreApplication>
#include <QDir>
#include <QStandardPaths>

namespace advisor::app {

std::string defaultDatabasePath() {
    if (QCoreApplication::applicationName().isEmpty() ||
        QCoreApplication::applicationName() != QStringLiteral("gpu-advisor")) {
        QCoreApplication::setApplicationName(QStringLiteral("gpu-advisor"));
    }
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return QDir(dir).filePath(QStringLiteral("prices.sqlite")).toStdString();
}

} // namespace advisor::app
