#pragma once
/// \file
/// The application window: a navigation list of pages, the pages, the menus (export, undo,
/// page shortcuts) and the status bar. It remembers its geometry and last page (QSettings).
/// It only assembles pages; each page is its own widget.

#include <QMainWindow>

class QListWidget;
class QStackedWidget;

namespace advisor::ui {

class AdvisorPage;
class CalculatorsPage;
class ChartsPage;
class PricesPage;
class Session;

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(Session& session, QWidget* parent = nullptr);

    /// Shows a page by its stable key: "advisor", "charts", "prices", "calculators".
    bool showPage(const QString& key);
    QString currentPageKey() const;
    QStringList pageKeys() const;
    /// Help > Keyboard Shortcuts: every shortcut of the menus and pages, as HTML.
    QString shortcutsText() const;
    ChartsPage* chartsPage() const { return charts_; }
    AdvisorPage* advisorPage() const { return advisor_; }
    PricesPage* pricesPage() const { return prices_; }
    CalculatorsPage* calculatorsPage() const { return calculators_; }

    /// Opens the database after the first paint; a failure is shown in the window.
    void openDatabaseLater(const std::string& path);
    /// Shows an error in the window (and the status bar).
    void showError(const QString& title, const QString& text);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void backUpNow();
    void restoreFromBackup();
    void showMessageBox(int icon, const QString& title, const QString& text);
    void addPage(const QString& key, const QString& title, QWidget* page);
    void buildMenus();
    void restoreWindowState();

    Session& session_;
    QListWidget* navigation_ = nullptr;
    QStackedWidget* pages_ = nullptr;
    ChartsPage* charts_ = nullptr;
    AdvisorPage* advisor_ = nullptr;
    PricesPage* prices_ = nullptr;
    CalculatorsPage* calculators_ = nullptr;
    QStringList keys_;
};

} // namespace advisor::ui
