#include "dialogs/add_price_dialog.h"

#include "commands/price_commands.h"
#include "dialogs/field_form.h"
#include "common/date.h"
#include "common/errors.h"
#include "prices/currency.h"
#include "prices/price.h"
#include "session.h"
#include "ui_text.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>

namespace advisor::ui {

AddPriceDialog::~AddPriceDialog() = default;

AddPriceDialog::AddPriceDialog(Session& session, const QString& gpuName, QWidget* parent)
    : QDialog(parent), session_(session) {
    setWindowTitle(tr("Add a price"));
    gpu_ = gpuNameBox(session_.catalog(), gpuName);
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
    fields_ = std::make_unique<FieldForm>();
    fields_->addRow(tr("&GPU:"), gpu_, "gpu");
    fields_->addRow(tr("&Condition:"), condition_, "condition");
    fields_->addRow(tr("&Price:"), amount_, "amount");
    fields_->addRow(tr("C&urrency:"), currency_, "currency");
    fields_->addRow(tr("&Date seen:"), date_, "observed_date");
    fields_->addRow(tr("&Source:"), source_, "source");
    fields_->addRow(tr("U&RL:"), url_, "source_url");
    fields_->addRow(tr("&Note:"), note_, "note");
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &AddPriceDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(fields_->layout());
    layout->addWidget(fields_->errorLabel());
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
    return fields_->error();
}

void AddPriceDialog::accept() {
    if (fields_->tryStore([this] {
            auto* command = AddPriceCommand::create(session_, input());
            addedId_ = command->priceId();
            session_.undoStack()->push(command);
        })) {
        QDialog::accept();
    }
}

} // namespace advisor::ui
