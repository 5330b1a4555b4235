#include "app_identity.h"

#include <QApplication>


namespace advisor::app {

void setApplicationIdentity() {
    QCoreApplication::setOrganizationName(QStringLiteral("gpu-advisor"));
    QCoreApplication::setApplicationName(QStringLiteral("gpu-advisor"));
    QCoreApplication::setApplicationVersion(QStringLiteral(ADVISOR_VERSION));
    QGuiApplication::setApplicationDisplayName(QStringLiteral("GPU Advisor"));
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.gpu_advisor.GpuAdvisor"));
}

} // namespace advisor::app
