#include "dialogs/add_cloud_offer_dialog.h"

#include "commands/cloud_offer_commands.h"
#include "common/date.h"
#include "dialogs/field_form.h"
#include "prices/cloud_offer.h"
#include "session.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QUndoStack>
#include <QVBoxLayout>

namespace advisor::ui {

AddCloudOfferDialog::AddCloudOfferDialog(Session& session, QWidget* parent)
    : QDialog(parent), session_(session), fields_(std::make_unique<FieldForm>()) {
    setWindowTitle(tr("Add a cloud offer"));
    provider_ = new QLineEdit;
    provider_->setPlaceholderText(tr("e.g. Lambda"));
    instance_ = new QLineEdit;
    instance_->setPlaceholderText(tr("e.g. gpu_1x_h100_pcie (optional)"));
    gpu_ = gpuNameBox(session_.catalog(), QString());
    gpu_->setToolTip(tr("As the provider names it; a name the catalog knows lets the model compare speeds"));
    gpuCount_ = new QSpinBox;
    gpuCount_->setRange(1, 64);
    hourly_ = new QLineEdit;
    hourly_->setPlaceholderText(tr("USD per hour for the whole instance, e.g. 2.49"));
    spot_ = new QLineEdit;
    spot_->setPlaceholderText(tr("optional"));
    region_ = new QLineEdit;
    region_->setPlaceholderText(tr("optional"));
    date_ = new QLineEdit(QString::fromStdString(Date::today().toString()));
    date_->setPlaceholderText(tr("YYYY-MM-DD or YYYY-MM"));
    url_ = new QLineEdit;
    note_ = new QLineEdit;

    fields_->addRow(tr("&Provider:"), provider_, "provider");
    fields_->addRow(tr("&Instance:"), instance_, "instance_or_sku");
    fields_->addRow(tr("&GPU:"), gpu_, "gpu");
    fields_->addRow(tr("GPUs per ins&tance:"), gpuCount_, "gpu_count");
    fields_->addRow(tr("Price per &hour:"), hourly_, "on_demand_usd_per_hour");
    fields_->addRow(tr("&Spot price per hour:"), spot_, "spot_usd_per_hour");
    fields_->addRow(tr("&Region:"), region_, "region");
    fields_->addRow(tr("&Date seen:"), date_, "observed_date");
    fields_->addRow(tr("Source &URL:"), url_, "source_url");
    fields_->addRow(tr("&Note:"), note_, "note");
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &AddCloudOfferDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(fields_->layout());
    layout->addWidget(fields_->errorLabel());
    layout->addWidget(buttons);
    provider_->setFocus();
}

AddCloudOfferDialog::~AddCloudOfferDialog() = default;

CloudOfferInput AddCloudOfferDialog::input() const {
    const auto text = [](const QLineEdit* e) { return e->text().trimmed().toStdString(); };
    CloudOfferInput in;
    in.provider = text(provider_);
    in.instance = text(instance_);
    in.gpu = gpu_->currentText().trimmed().toStdString();
    in.gpuCount = std::to_string(gpuCount_->value());
    in.onDemand = text(hourly_);
    in.spot = text(spot_);
    in.region = text(region_);
    in.date = text(date_);
    in.sourceUrl = text(url_);
    in.note = text(note_);
    return in;
}

QString AddCloudOfferDialog::error() const {
    return fields_->error();
}

void AddCloudOfferDialog::accept() {
    if (fields_->tryStore([this] {
            auto* command = AddCloudOfferCommand::create(session_, input());
            addedId_ = command->offerId();
            session_.undoStack()->push(command);
        })) {
        QDialog::accept();
    }
}

} // namespace advisor::ui
