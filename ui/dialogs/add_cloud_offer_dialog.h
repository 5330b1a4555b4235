#pragma once
/// \file
/// Enter a cloud offer (a provider's instance and its price per hour). Core validates it; a
/// refused field is named as the form labels it and the dialog stays open. The offer is
/// added as one undoable step.

#include <QDialog>

#include <cstdint>
#include <memory>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace advisor {
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

    CloudOfferInput input() const;
    /// The id of the stored offer after acceptance.
    std::int64_t addedId() const { return addedId_; }
    /// The last refusal, empty if none.
    QString error() const;

    QLineEdit* providerField() const { return provider_; }
    QComboBox* gpuField() const { return gpu_; }
    QSpinBox* gpuCountField() const { return gpuCount_; }
    QLineEdit* hourlyField() const { return hourly_; }

public slots:
    void accept() override;

private:
    Session& session_;
    std::int64_t addedId_ = 0;
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
