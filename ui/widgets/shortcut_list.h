#pragma once
/// \file
/// The window's keyboard shortcuts as a reference (Help > Keyboard Shortcuts), read from the
/// window itself - menu actions and each page's QShortcuts, described by their whatsThis - so
/// it can neither miss a key nor list one that does nothing.

#include <QString>

#include <utility>
#include <vector>

class QMenuBar;
class QWidget;

namespace advisor::ui {

struct ShortcutRow {
    QString keys; ///< as the platform writes them ("Ctrl+N")
    QString what;
};

struct ShortcutGroup {
    QString title; ///< "Everywhere" or a page's title
    std::vector<ShortcutRow> rows;
};

/// A widget that handles keys itself (the chart's arrow keys) lists them in this dynamic
/// property: a QStringList of "keys|what they do".
inline constexpr const char* kKeyboardHelpProperty = "advisorKeyboardHelp";

/// Menu actions with a shortcut first, then each page's shortcuts and its widgets' own keys
/// (pages: title and widget).
std::vector<ShortcutGroup> collectShortcuts(const QMenuBar* menus,
                                            const std::vector<std::pair<QString, const QWidget*>>& pages);

/// The groups as an HTML table, with a closing line on Alt + the underlined letter.
QString shortcutsHtml(const std::vector<ShortcutGroup>& groups);

} // namespace advisor::ui
