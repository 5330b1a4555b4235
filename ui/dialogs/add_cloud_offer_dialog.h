#pragma once
/// \file
/// Enter a cloud offer (a provider's instance and its price per hour), or change a stored one:
/// correct it in place, or keep it as history and save the form as a newer observation. Core
/// validates it; a refused field is named as the form labels it and the dialog stays open.
/// Each is one undoable step.

#include <QDialog>

#include <cstdint>
#include <memory>

class QComboBox;
class QDialogButtonBox;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace advisor {
struct CloudOffer;
struct CloudOfferInput;
}

namespace advisor::ui {

class FieldForm;
class Session;

class AddCloudOfferDialog : public QDialog {
    Q_OBJECT

public:
    explicit AddCloudOfferDialog(Session& session, QWidget* parent = nullptr);
    ~AddCloudOfferDialog() override;

    /// Fills the form from a stored offer and turns the dialog into its editor: OK corrects it
    /// in place; saveAsNewObservation() adds the form as a later observation instead.
    void editOffer(const CloudOffer& offer);
    CloudOfferInput input() const;
    /// The id of the stored (or corrected) offer after acceptance.
    std::int64_t addedId() const { return addedId_; }
    /// The last refusal, empty if none.
    QString error() const;

    QLineEdit* providerField() const { return provider_; }
    QComboBox* gpuField() const { return gpu_; }
    QSpinBox* gpuCountField() const { return gpuCount_; }
    QLineEdit* hourlyField() const { return hourly_; }

public slots:
    void accept() override;
    /// Adds the form as a new offer, keeping the edited one as history; refused unless the
    /// date seen is later than the edited offer's.
    void saveAsNewObservation();

private:
    Session& session_;
    std::int64_t addedId_ = 0;
    std::unique_ptr<CloudOffer> editing_; ///< the stored offer the form edits, if any
    QDialogButtonBox* buttons_ = nullptr;
    QPushButton* asNew_ = nullptr; ///< "Save as a new observation", shown when editing
    std::unique_ptr<FieldForm> fields_;
    QLineEdit* provider_ = nullptr;
    QLineEdit* instance_ = nullptr;
    QComboBox* gpu_ = nullptr;
    QSpinBox* gpuCount_ = nullptr;
    QLineEdit* hourly_ = nullptr;
    QLineEdit* spot_ = nullptr;
    QLineEdit* region_ = nullptr;
    QLineEdit* date_ = nullptr;
    QLineEdit* url_ = nullptr;
    QLineEdit* note_ = nullptr;
};

} // namespace advisor::ui
