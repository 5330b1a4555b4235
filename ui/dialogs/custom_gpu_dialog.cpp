#include "dialogs/custom_gpu_dialog.h"

#include "commands/price_commands.h"
#include "dialogs/field_form.h"
#include "common/date.h"
#include "common/errors.h"
#include "session.h"
#include "ui_text.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QUndoStack>
#include <QVBoxLayout>

namespace advisor::ui {

namespace {

QDoubleSpinBox* number(double max, int decimals, const QString& suffix, const QString& zeroText = {}) {
    auto* box = new QDoubleSpinBox;
    box->setRange(0, max);
    box->setDecimals(decimals);
    box->setSuffix(suffix);
    if (!zeroText.isEmpty()) {
        box->setSpecialValueText(zeroText);
    }
    return box;
}

std::optional<double> optionalValue(const QDoubleSpinBox* box) {
    return box->value() > 0 ? std::optional<double>(box->value()) : std::nullopt;
}

} // namespace

CustomGpuDialog::CustomGpuDialog(Session& session, QWidget* parent) : QDialog(parent), session_(session) {
    setWindowTitle(tr("Add your own GPU"));
    name_ = new QLineEdit;
    name_->setPlaceholderText(tr("e.g. RTX 5080 Ti"));
    vendor_ = new QComboBox;
    vendor_->setEditable(true);
    vendor_->addItems({QStringLiteral("NVIDIA"), QStringLiteral("AMD"), QStringLiteral("Intel")});
    segment_ = new QComboBox;
    segment_->addItem(tr("Consumer (GeForce, Radeon, Arc)"), QStringLiteral("consumer"));
    segment_->addItem(tr("Workstation"), QStringLiteral("workstation"));
    segment_->addItem(tr("Data center"), QStringLiteral("datacenter"));
    architecture_ = new QLineEdit;
    architecture_->setPlaceholderText(tr("e.g. Blackwell"));
    year_ = new QSpinBox;
    year_->setRange(2010, 2100);
    year_->setValue(Date::today().year);
    memory_ = number(4096, 0, tr(" GB"), tr("required"));
    memoryType_ = new QLineEdit(QStringLiteral("GDDR7"));
    bandwidth_ = number(100000, 0, tr(" GB/s"), tr("required"));
    tensorCores_ = new QComboBox;
    tensorCores_->setEditable(true);
    tensorCores_->addItems({QStringLiteral("5th gen (Blackwell)"), QStringLiteral("4th gen (Ada)"),
                            QStringLiteral("4th gen (Hopper)"), QStringLiteral("3rd gen (Ampere)"),
                            QStringLiteral("RDNA3 AI accelerators (WMMA)"), QStringLiteral("CDNA3 Matrix Cores"),
                            QStringLiteral("XMX (Xe2)"), QStringLiteral("none")});
    fp32_ = number(10000, 1, tr(" TFLOPS"), tr("unknown"));
    fp16_ = number(100000, 1, tr(" TFLOPS"), tr("unknown"));
    fp16_->setToolTip(tr("Dense FP16 tensor throughput with FP32 accumulate (no sparsity)"));
    fp8_ = number(100000, 1, tr(" TFLOPS"), tr("none / unknown"));
    l2_ = number(1024, 1, tr(" MB"), tr("unknown"));
    tdp_ = number(5000, 0, tr(" W"), tr("required"));
    slots_ = new QSpinBox;
    slots_->setRange(1, 5);
    slots_->setValue(2);
    pcieGen_ = new QSpinBox;
    pcieGen_->setRange(3, 6);
    pcieGen_->setValue(5);
    // Each row records the catalog field it sets, so that core's refusal names the row as the
    // dialog labels it and the cursor goes there.
    fields_ = std::make_unique<FieldForm>();
    const auto row = [this](const QString& label, QWidget* widget, const char* field) {
        fields_->addRow(label, widget, field);
    };
    row(tr("&Name:"), name_, "name");
    row(tr("&Vendor:"), vendor_, "vendor");
    row(tr("&Segment:"), segment_, "segment");
    row(tr("&Architecture:"), architecture_, "architecture");
    row(tr("&Launch year:"), year_, "launch_year");
    row(tr("&Memory:"), memory_, "memory.size_gb");
    row(tr("Memory &type:"), memoryType_, "memory.type");
    row(tr("&Bandwidth:"), bandwidth_, "memory.bandwidth_gbs");
    row(tr("Tensor &cores:"), tensorCores_, "compute.tensor_cores");
    row(tr("FP&32 (CUDA cores):"), fp32_, "compute.fp32_tflops");
    row(tr("FP&16 tensor:"), fp16_, "tensor_tflops_dense.fp16_fp32acc");
    row(tr("FP&8 tensor:"), fp8_, "tensor_tflops_dense.fp8");
    row(tr("L&2 cache:"), l2_, "cache.l2_mb");
    row(tr("&Power (TDP):"), tdp_, "power.tdp_w");
    row(tr("Sl&ot width:"), slots_, "board.slot_width");
    row(tr("PCIe &generation:"), pcieGen_, "board.pcie_gen");
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &CustomGpuDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Figures as published by the maker (dense, without sparsity). Unknown "
                                    "figures are estimated from similar GPUs and marked as estimates.")));
    layout->addLayout(fields_->layout());
    layout->addWidget(fields_->errorLabel());
    layout->addWidget(buttons);
}

Gpu CustomGpuDialog::gpu() const {
    Gpu g;
    g.name = name_->text().trimmed().toStdString();
    g.id = "custom";
    g.vendor = vendor_->currentText().trimmed().toStdString();
    const QString segment = segment_->currentData().toString();
    g.segment = segment == QLatin1String("datacenter") ? Segment::Datacenter
                : segment == QLatin1String("workstation") ? Segment::Workstation
                                                          : Segment::Consumer;
    g.architecture = architecture_->text().trimmed().toStdString();
    g.launchYear = year_->value();
    g.memoryGb = memory_->value();
    g.memoryType = memoryType_->text().trimmed().toStdString();
    g.memoryBandwidthGbs = bandwidth_->value();
    g.tensorCoreGeneration = tensorCores_->currentText().trimmed().toStdString();
    g.fp32Tflops = optionalValue(fp32_);
    g.tensor.fp16Fp32Acc = optionalValue(fp16_);
    g.tensor.fp8 = optionalValue(fp8_);
    g.l2CacheMb = optionalValue(l2_);
    g.tdpW = tdp_->value();
    g.form = FormFactor::Pcie;
    g.formCode = "pcie";
    g.formLabel = "PCIe";
    g.slotWidth = slots_->value();
    g.pcieGen = pcieGen_->value();
    g.confidence = "user";
    return g;
}

CustomGpuDialog::~CustomGpuDialog() = default;

QString CustomGpuDialog::error() const {
    return fields_->error();
}

void CustomGpuDialog::accept() {
    if (fields_->tryStore([this] {
            auto* command = AddCustomGpuCommand::create(session_, gpu());
            addedId_ = command->gpuId();
            session_.undoStack()->push(command);
        })) {
        QDialog::accept();
    }
}

} // namespace advisor::ui
