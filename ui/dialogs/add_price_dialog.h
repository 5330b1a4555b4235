#pragma once
/// \file
/// Record a price you saw: GPU, new or used, amount, currency, date and where. Core validates
/// it; a bad field is named in the dialog, which stays open. Added as one undoable step.

#include <QDialog>

#include <cstdint>
#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;

namespace advisor {
struct PriceInput;
}

namespace advisor::ui {

class FieldForm;
class Session;

class AddPriceDialog : public QDialog {
    Q_OBJECT

public:
    explicit AddPriceDialog(Session& session, const QString& gpuName = {}, QWidget* parent = nullptr);
    ~AddPriceDialog() override;

    PriceInput input() const;
    std::int64_t addedId() const { return addedId_; }
    QString error() const;

    QComboBox* gpuField() const { return gpu_; }
    QLineEdit* amountField() const { return amount_; }
    QLineEdit* dateField() const { return date_; }

public slots:
    void accept() override;

private:
    Session& session_;
    std::int64_t addedId_ = 0;
    QComboBox* gpu_ = nullptr;
    QComboBox* condition_ = nullptr;
    QLineEdit* amount_ = nullptr;
    QComboBox* currency_ = nullptr;
    QLineEdit* date_ = nullptr;
    QLineEdit* source_ = nullptr;
    QLineEdit* url_ = nullptr;
    QLineEdit* note_ = nullptr;
    std::unique_ptr<FieldForm> fields_; ///< the form's rows and the price fields they set
};

} // namespace advisor::ui
