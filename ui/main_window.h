#pragma once
/// \file
/// The application window: a navigation list of pages and a stack showing the
/// current page. It only assembles pages; each page is its own widget.

#include <QMainWindow>

class QListWidget;
class QStackedWidget;

namespace advisor::ui {

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);

    /// Shows a page by its stable key: "advisor", "charts", "prices", "calculators".
    bool showPage(const QString& key);
    QString currentPageKey() const;
    QStringList pageKeys() const;

private:
    void addPage(const QString& key, const QString& title, QWidget* page);

    QListWidget* navigation_ = nullptr;
    QStackedWidget* pages_ = nullptr;
    QStringList keys_;
};

} // namespace advisor::ui
