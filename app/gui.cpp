#include "gui.h"

#include "app_identity.h"
#include "main_window.h"
#include "session.h"

#include <QApplication>

namespace advisor::app {

int runGui(int argc, char** argv, const std::string& databasePath) {
    QApplication app(argc, argv);
    setApplicationIdentity();
    ui::Session session;
    ui::MainWindow window(session);
    window.show();
    window.openDatabaseLater(databasePath); // after the first paint
    return QApplication::exec();
}

} // namespace advisor::app
