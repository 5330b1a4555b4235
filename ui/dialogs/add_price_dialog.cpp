#include "dialogs/add_price_dialog.h"

#include "commands/price_commands.h"
#include "models/price_table_model.h"
#include "common/date.h"
#include "common/errors.h"
#include "prices/currency.h"
#include "prices/price.h"
#include "session.h"
#include "ui_text.h"

#include <QComboBox>
#include <QCompleter>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace advisor::ui {

AddPriceDialog::AddPriceDialog(Session& session, const QString& gpuName, QWidget* parent)
    : QDialog(parent), session_(session) {
    setWindowTitle(tr("Add a price"));
    gpu_ = new QComboBox;
    gpu_->setEditable(true);
    gpu_->setInsertPolicy(QComboBox::NoInsert);
    QStringList names;
    for (const auto& g : session_.catalog().gpus()) {
        names << QString::fromStdString(g.name);
    }
    names.sort(Qt::CaseInsensitive);
    gpu_->addItems(names);
    gpu_->completer()->setCaseSensitivity(Qt::CaseInsensitive);
    gpu_->completer()->setFilterMode(Qt::MatchContains);
    gpu_->setCurrentText(gpuName);
    condition_ = new QComboBox;
    condition_->addItem(tr("New"), QStringLiteral("new"));
    condition_->addItem(tr("Used"), QStringLiteral("used"));
    amount_ = new QLineEdit;
    amount_->setPlaceholderText(tr("e.g. 1599"));
    currency_ = new QComboBox;
    for (const auto c : knownCurrencies()) {
        currency_->addItem(QString::fromLatin1(c.data(), static_cast<int>(c.size())));
    }
    currency_->setCurrentText(QString::fromStdString(session_.settings().currency));
    currency_->setToolTip(tr("Charts and perf/$ use USD prices (no exchange rates are kept)"));
    date_ = new QLineEdit(QString::fromStdString(Date::today().toString()));
    date_->setPlaceholderText(tr("YYYY-MM-DD or YYYY-MM"));
    source_ = new QLineEdit;
    source_->setPlaceholderText(tr("e.g. eBay sold listings"));
    url_ = new QLineEdit;
    note_ = new QLineEdit;
    error_ = new QLabel;
    error_->setWordWrap(true);
    error_->setStyleSheet(QStringLiteral("color: #c0392b"));
    error_->hide();
    auto* form = new QFormLayout;
    form->addRow(tr("&GPU:"), gpu_);
    form->addRow(tr("&Condition:"), condition_);
    form->addRow(tr("&Price:"), amount_);
    form->addRow(tr("C&urrency:"), currency_);
    form->addRow(tr("&Date seen:"), date_);
    form->addRow(tr("&Source:"), source_);
    form->addRow(tr("&URL:"), url_);
    form->addRow(tr("&Note:"), note_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &AddPriceDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(error_);
    layout->addWidget(buttons);
    (gpuName.isEmpty() ? static_cast<QWidget*>(gpu_) : amount_)->setFocus();
}

PriceInput AddPriceDialog::input() const {
    PriceInput in;
    in.gpu = gpu_->currentText().trimmed().toStdString();
    in.conditionText = condition_->currentData().toString().toStdString();
    in.amountText = amount_->text().trimmed().toStdString();
    in.currency = currency_->currentText().toStdString();
    in.dateText = date_->text().trimmed().toStdString();
    in.source = source_->text().trimmed().toStdString();
    in.sourceUrl = url_->text().trimmed().toStdString();
    in.note = note_->text().trimmed().toStdString();
    return in;
}

QString AddPriceDialog::error() const {
    return error_->text();
}

void AddPriceDialog::accept() {
    try {
        auto* command = AddPriceCommand::create(session_, input());
        addedId_ = command->priceId();
        session_.undoStack()->push(command);
    } catch (const InputError& e) {
        error_->setText(describeProblems(e, QStringLiteral("\n"), &PriceTableModel::fieldLabel));
        error_->show();
        const std::map<std::string, QWidget*> widgets = {
            {"gpu", gpu_},       {"condition", condition_}, {"amount", amount_}, {"currency", currency_},
            {"observed_date", date_}, {"source", source_},  {"source_url", url_},  {"note", note_}};
        const auto first = widgets.find(e.problems().front().where.field);
        if (first != widgets.end()) {
            first->second->setFocus(); // the cursor goes to the first refused field
        }
        return;
    }
    QDialog::accept();
}

} // namespace advisor::ui
