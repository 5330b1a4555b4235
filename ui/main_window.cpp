#include "main_window.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QStackedWidget>

namespace advisor::ui {

namespace {

QWidget* placeholder(const QString& text) {
    auto* label = new QLabel(text);
    label->setAlignment(Qt::AlignCenter);
    label->setWordWrap(true);
    return label;
}

} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("GPU Advisor"));
    auto* central = new QWidget(this);
    auto* layout = new QHBoxLayout(central);
    navigation_ = new QListWidget(central);
    navigation_->setMaximumWidth(180);
    pages_ = new QStackedWidget(central);
    layout->addWidget(navigation_);
    layout->addWidget(pages_, 1);
    setCentralWidget(central);

    addPage(QStringLiteral("advisor"), tr("Advisor"), placeholder(tr("The recommendation flowchart.")));
    addPage(QStringLiteral("charts"), tr("Charts"), placeholder(tr("Performance and performance per dollar.")));
    addPage(QStringLiteral("prices"), tr("Prices"), placeholder(tr("Your price database.")));
    addPage(QStringLiteral("calculators"), tr("Calculators"),
            placeholder(tr("Power, PSU, cloud vs desktop, memory and build calculators.")));

    connect(navigation_, &QListWidget::currentRowChanged, pages_, &QStackedWidget::setCurrentIndex);
    navigation_->setCurrentRow(0);
    resize(1100, 720);
}

void MainWindow::addPage(const QString& key, const QString& title, QWidget* page) {
    keys_ << key;
    navigation_->addItem(title);
    pages_->addWidget(page);
}

bool MainWindow::showPage(const QString& key) {
    const int index = static_cast<int>(keys_.indexOf(key));
    if (index < 0) {
        return false;
    }
    navigation_->setCurrentRow(index);
    return true;
}

QString MainWindow::currentPageKey() const {
    const int index = pages_->currentIndex();
    return index >= 0 && index < keys_.size() ? keys_.at(index) : QString();
}

QStringList MainWindow::pageKeys() const {
    return keys_;
}

} // namespace advisor::ui
