#include "dialogs/add_cloud_offer_dialog.h"

#include "commands/cloud_offer_commands.h"
#include "common/date.h"
#include "dialogs/field_form.h"
#include "common/text.h"
#include "prices/cloud_offer.h"
#include "session.h"
#include "ui_text.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
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
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    asNew_ = buttons_->addButton(tr("Save as a ne&w observation"), QDialogButtonBox::ActionRole);
    asNew_->setToolTip(tr("Keep the offer as it was, as history, and add this as a later observation of it "
                          "(set the date you saw the new price)"));
    asNew_->hide(); // only when editing a stored offer
    connect(buttons_, &QDialogButtonBox::accepted, this, &AddCloudOfferDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(asNew_, &QPushButton::clicked, this, &AddCloudOfferDialog::saveAsNewObservation);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(fields_->layout());
    layout->addWidget(fields_->errorLabel());
    layout->addWidget(buttons_);
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

void AddCloudOfferDialog::editOffer(const CloudOffer& offer) {
    editing_ = std::make_unique<CloudOffer>(offer);
    setWindowTitle(tr("Edit cloud offer"));
    buttons_->button(QDialogButtonBox::Ok)->setText(tr("&Save changes"));
    buttons_->button(QDialogButtonBox::Ok)->setToolTip(tr("Correct this offer in place"));
    asNew_->show();
    const auto number = [](const std::optional<double>& v) {
        return v ? QString::fromStdString(text::formatDoubleExact(*v)) : QString();
    };
    provider_->setText(qs(offer.provider));
    instance_->setText(qs(offer.instance));
    gpu_->setCurrentText(qs(offer.gpuName));
    gpuCount_->setValue(offer.gpuCount);
    hourly_->setText(number(offer.onDemandUsdPerHour));
    spot_->setText(number(offer.spotUsdPerHour));
    region_->setText(qs(offer.region));
    date_->setText(qs(offer.observed.toString()));
    url_->setText(qs(offer.sourceUrl));
    note_->setText(qs(offer.note));
    hourly_->setFocus(); // what changes most often
    hourly_->selectAll();
}

QString AddCloudOfferDialog::error() const {
    return fields_->error();
}

void AddCloudOfferDialog::accept() {
    if (fields_->tryStore([this] {
            if (editing_) {
                session_.undoStack()->push(EditCloudOfferCommand::create(session_, editing_->id, input()));
                addedId_ = editing_->id;
                return;
            }
            auto* command = AddCloudOfferCommand::create(session_, input());
            addedId_ = command->offerId();
            session_.undoStack()->push(command);
        })) {
        QDialog::accept();
    }
}

void AddCloudOfferDialog::saveAsNewObservation() {
    if (!editing_) {
        return;
    }
    const auto seen = Date::parse(date_->text().trimmed().toStdString());
    if (seen && !(editing_->observed < *seen)) {
        // Same date: the two would be one observation and "the newest" would be a coin toss.
        fields_->showProblems(InputError({"", 0, "", "observed_date"},
                                         "a new observation needs a later date than the offer's (" +
                                             editing_->observed.toString() + ")"));
        return;
    }
    if (fields_->tryStore([this] {
            auto* command = AddCloudOfferCommand::create(session_, input());
            addedId_ = command->offerId();
            session_.undoStack()->push(command);
        })) {
        QDialog::accept();
    }
}

} // namespace advisor::ui
