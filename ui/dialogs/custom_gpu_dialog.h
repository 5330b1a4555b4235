#pragma once
/// \file
/// Enter a GPU the catalog lacks (a new card, an engineering sample): the specifications the
/// performance model and calculators need. Core validates them; a bad field is named in the
/// dialog, which stays open. The GPU is added as one undoable step.

#include "catalog/gpu.h"

#include <QDialog>
#include <QString>

#include <memory>
#include <string>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace advisor::ui {

class FieldForm;
class Session;

class CustomGpuDialog : public QDialog {
    Q_OBJECT

public:
    explicit CustomGpuDialog(Session& session, QWidget* parent = nullptr);
    ~CustomGpuDialog() override;

    /// The GPU as entered (id assigned when stored).
    Gpu gpu() const;
    /// The id of the stored GPU after acceptance.
    const std::string& addedId() const { return addedId_; }
    /// The last refusal, empty if none.
    QString error() const;

    QLineEdit* nameField() const { return name_; }
    QLineEdit* architectureField() const { return architecture_; }
    QDoubleSpinBox* memoryField() const { return memory_; }
    QDoubleSpinBox* bandwidthField() const { return bandwidth_; }

public slots:
    void accept() override;

private:
    Session& session_;
    std::string addedId_;
    QLineEdit* name_ = nullptr;
    QComboBox* vendor_ = nullptr;
    QComboBox* segment_ = nullptr;
    QLineEdit* architecture_ = nullptr;
    QSpinBox* year_ = nullptr;
    QDoubleSpinBox* memory_ = nullptr;
    QLineEdit* memoryType_ = nullptr;
    QDoubleSpinBox* bandwidth_ = nullptr;
    QComboBox* tensorCores_ = nullptr;
    QDoubleSpinBox* fp32_ = nullptr;
    QDoubleSpinBox* fp16_ = nullptr;
    QDoubleSpinBox* fp8_ = nullptr;
    QDoubleSpinBox* l2_ = nullptr;
    QDoubleSpinBox* tdp_ = nullptr;
    QSpinBox* slots_ = nullptr;
    QSpinBox* pcieGen_ = nullptr;
    std::unique_ptr<FieldForm> fields_; ///< the form's rows and the catalog fields they set
};

} // namespace advisor::ui
