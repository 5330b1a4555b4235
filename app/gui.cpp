#include "gui.h"

#include "main_window.h"

#include <QApplication>

namespace advisor::app {

int runGui(int argc, char** argv, const std::string& /*databasePath*/) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("gpu-advisor"));
    QApplication::setApplicationDisplayName(QStringLiteral("GPU Advisor"));
    ui::MainWindow window;
    window.show();
    return QApplication::exec();
}

} // namespace advisor::app
