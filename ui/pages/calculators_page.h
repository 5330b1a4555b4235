#pragma once
/// \file
/// The Calculators page: power limit, PSU and wall circuit, build check, memory needs, and
/// cloud vs desktop, one tab each; results follow every input at once.

#include <QWidget>

class QTabWidget;

namespace advisor::ui {

class Session;

class CalculatorsPage : public QWidget {
    Q_OBJECT

public:
    explicit CalculatorsPage(Session& session, QWidget* parent = nullptr);
    QTabWidget* tabs() const { return tabs_; }
    /// Shows a tab by key: "power", "psu", "build", "memory", "cloud".
    bool showTab(const QString& key);

private:
    QTabWidget* tabs_ = nullptr;
};

} // namespace advisor::ui
