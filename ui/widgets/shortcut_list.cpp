#include "widgets/shortcut_list.h"

#include <QAction>
#include <QCoreApplication>
#include <QMenu>
#include <QMenuBar>
#include <QShortcut>
#include <QStringList>
#include <QWidget>

namespace advisor::ui {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ShortcutList", text);
}

// "&Export Chart…" -> "Export Chart"
QString plainText(QString text) {
    text.remove(QLatin1Char('&'));
    if (text.endsWith(QChar(0x2026))) {
        text.chop(1);
    }
    return text;
}

} // namespace

std::vector<ShortcutGroup> collectShortcuts(const QMenuBar* menus,
                                            const std::vector<std::pair<QString, const QWidget*>>& pages) {
    std::vector<ShortcutGroup> groups;
    ShortcutGroup everywhere{tr("Everywhere"), {}};
    for (const QAction* top : menus->actions()) {
        if (top->menu() == nullptr) {
            continue;
        }
        for (const QAction* a : top->menu()->actions()) {
            QStringList keys;
            for (const QKeySequence& k : a->shortcuts()) {
                keys << k.toString(QKeySequence::NativeText);
            }
            if (!keys.isEmpty()) {
                everywhere.rows.push_back({keys.join(QStringLiteral(", ")), plainText(a->text())});
            }
        }
    }
    groups.push_back(std::move(everywhere));
    for (const auto& [title, page] : pages) {
        ShortcutGroup group{title, {}};
        for (const QShortcut* s : page->findChildren<QShortcut*>()) {
            group.rows.push_back({s->key().toString(QKeySequence::NativeText), s->whatsThis()});
        }
        for (const QWidget* w : page->findChildren<QWidget*>()) {
            for (const QString& entry : w->property(kKeyboardHelpProperty).toStringList()) {
                group.rows.push_back({entry.section(QLatin1Char('|'), 0, 0), entry.section(QLatin1Char('|'), 1)});
            }
        }
        if (!group.rows.empty()) {
            groups.push_back(std::move(group));
        }
    }
    return groups;
}

QString shortcutsHtml(const std::vector<ShortcutGroup>& groups) {
    QString html = QStringLiteral("<table cellspacing='0' cellpadding='3'>");
    for (const auto& g : groups) {
        html += QStringLiteral("<tr><th colspan='2' align='left'><br>%1</th></tr>").arg(g.title.toHtmlEscaped());
        for (const auto& r : g.rows) {
            html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(r.keys.toHtmlEscaped(), r.what.toHtmlEscaped());
        }
    }
    return html + QStringLiteral("</table><p>") +
           tr("Alt + an underlined letter goes to that field or presses that button.").toHtmlEscaped() +
           QStringLiteral("</p>");
}

} // namespace advisor::ui
