#pragma once
/// \file
/// Names the application for Qt: QSettings, the desktop file, the About box.

namespace advisor::app {

/// Organisation, application name, display name and version.
void setApplicationIdentity();

} // namespace advisor::app
