#pragma once
// Alt+letter keys (mnemonics) on a screen: two controls with the same letter make the key
// cycle between them instead of acting, and a letter shared with a menu keeps the menu shut.

#include <QAbstractButton>
#include <QGroupBox>
#include <QLabel>
#include <QMenuBar>
#include <QTabBar>
#include <QWidget>

#include <map>

namespace advisor::testing {

// The letter after a single '&' ("&&" is a literal ampersand), lower-cased; null if none.
inline QChar mnemonicOf(const QString& text) {
    for (qsizetype i = 0; i + 1 < text.size(); ++i) {
        if (text[i] == QLatin1Char('&')) {
            if (text[i + 1] == QLatin1Char('&')) {
                ++i;
                continue;
            }
            return text[i + 1].toLower();
        }
    }
    return {};
}

// Every letter used more than once by what `root` shows (labels with a buddy, buttons, group
// boxes, tab titles, and the menu bar if it has one), as "x: &Edit | E&xport" lines.
inline QStringList clashingMnemonics(QWidget* root) {
    std::map<QChar, QStringList> users;
    const auto note = [&users](const QString& text) {
        if (const QChar m = mnemonicOf(text); !m.isNull()) {
            users[m] << text;
        }
    };
    for (QWidget* w : root->findChildren<QWidget*>()) {
        if (!w->isVisibleTo(root)) {
            continue;
        }
        if (auto* label = qobject_cast<QLabel*>(w); label != nullptr && label->buddy() != nullptr) {
            note(label->text());
        } else if (auto* button = qobject_cast<QAbstractButton*>(w)) {
            note(button->text());
        } else if (auto* group = qobject_cast<QGroupBox*>(w)) {
            note(group->title());
        } else if (auto* tabs = qobject_cast<QTabBar*>(w)) {
            for (int i = 0; i < tabs->count(); ++i) {
                note(tabs->tabText(i));
            }
        } else if (auto* menus = qobject_cast<QMenuBar*>(w)) {
            for (QAction* a : menus->actions()) {
                note(a->text());
            }
        }
    }
    QStringList clashes;
    for (const auto& [letter, texts] : users) {
        if (texts.size() > 1) {
            clashes << QStringLiteral("%1: %2").arg(letter, texts.join(QStringLiteral(" | ")));
        }
    }
    return clashes;
}

} // namespace advisor::testing
