#include "dialogs/field_form.h"

#include "catalog/catalog.h"
#include "ui_text.h"

#include <QComboBox>
#include <QCompleter>
#include <QFormLayout>
#include <QLabel>
#include <QWidget>

namespace advisor::ui {

FieldForm::FieldForm() : layout_(new QFormLayout), error_(new QLabel) {
    error_->setWordWrap(true);
    error_->setStyleSheet(QStringLiteral("color: #c0392b"));
    error_->hide();
}

void FieldForm::addRow(const QString& label, QWidget* widget, const std::string& field) {
    layout_->addRow(label, widget);
    QString plain = QString(label).remove(QLatin1Char('&'));
    if (plain.endsWith(QLatin1Char(':'))) {
        plain.chop(1);
    }
    rows_[field] = {plain, widget};
}

void FieldForm::showProblems(const InputError& e) {
    error_->setText(describeProblems(e, QStringLiteral("\n"), [this](const std::string& field) {
        const auto it = rows_.find(field);
        return it != rows_.end() ? it->second.label : qs(field);
    }));
    error_->show();
    if (!e.problems().empty()) {
        const auto it = rows_.find(e.problems().front().where.field);
        if (it != rows_.end()) {
            it->second.widget->setFocus();
        }
    }
}

bool FieldForm::tryStore(const std::function<void()>& store) {
    try {
        store();
    } catch (const InputError& e) {
        showProblems(e);
        return false;
    }
    return true;
}

QString FieldForm::error() const {
    return error_->text();
}

QComboBox* gpuNameBox(const Catalog& catalog, const QString& current) {
    auto* box = new QComboBox;
    box->setEditable(true);
    box->setInsertPolicy(QComboBox::NoInsert);
    QStringList names;
    for (const auto& g : catalog.gpus()) {
        names << qs(g.name);
    }
    names.sort(Qt::CaseInsensitive);
    box->addItems(names);
    box->completer()->setCaseSensitivity(Qt::CaseInsensitive);
    box->completer()->setFilterMode(Qt::MatchContains);
    box->setCurrentText(current);
    return box;
}

} // namespace advisor::ui
