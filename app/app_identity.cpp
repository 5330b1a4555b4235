#include "app_identity.h"

#include <QApplication>
#include <QIcon>


namespace advisor::app {

void setApplicationIdentity() {
    QCoreApplication::setOrganizationName(QStringLiteral("gpu-advisor"));
    QCoreApplication::setApplicationName(QStringLiteral("gpu-advisor"));
    QCoreApplication::setApplicationVersion(QStringLiteral(ADVISOR_VERSION));
    QGuiApplication::setApplicationDisplayName(QStringLiteral("GPU Advisor"));
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.gpuadvisor.GpuAdvisor"));
    QGuiApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral("io.github.gpuadvisor.GpuAdvisor")));
}

} // namespace advisor::app
