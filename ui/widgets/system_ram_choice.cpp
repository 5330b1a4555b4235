#include "widgets/system_ram_choice.h"

#include "perf/llm_offload.h"

#include <QComboBox>
#include <QCoreApplication>

namespace advisor::ui {
namespace {

// Desktops (two channels), a workstation's four and a server's eight.
constexpr const char* kKinds[] = {"ddr4-3200", "ddr5-5600", "ddr5-6400", "ddr4-3200x4", "ddr5-5600x4", "ddr5-4800x8"};

QString tr(const char* text) {
    return QCoreApplication::translate("SystemRamChoice", text);
}

} // namespace

void fillSystemRamChoice(QComboBox* box) {
    box->addItem(tr("GPU memory only"), QString());
    for (const char* kind : kKinds) {
        // The bandwidth first, so that a narrow box still shows it: "89.6 GB/s (DDR5-5600 x2)".
        const auto ram = perf::parseSystemRam(kind, nullptr);
        QString memory = QString::fromLatin1(kind).toUpper().replace(QLatin1Char('X'), QStringLiteral(" x"));
        if (!memory.contains(QLatin1Char('x'))) {
            memory += QStringLiteral(" x2");
        }
        box->addItem(QStringLiteral("%1 GB/s (%2)").arg(ram->gbPerSecond, 0, 'f', 1).arg(memory),
                     QString::fromLatin1(kind));
        box->setItemData(box->count() - 1, QString::fromStdString(ram->label), Qt::ToolTipRole);
    }
    box->setToolTip(tr("LLM inference on a card too small for the model, as llama.cpp runs it with the rest in this "
                       "system RAM: whole layers on the card and the others on the CPU, or a mixture of experts' "
                       "routed experts in RAM. Tokens are generated with the CPU reading that part; prompts copy it "
                       "to the card over PCIe for each micro-batch. Such cards are marked +RAM. GPU memory only "
                       "leaves them out."));
}

std::optional<double> chosenSystemRamGbs(const QComboBox* box) {
    const QString kind = box->currentData().toString();
    if (kind.isEmpty()) {
        return std::nullopt;
    }
    const auto ram = perf::parseSystemRam(kind.toStdString(), nullptr);
    return ram ? std::optional<double>(ram->gbPerSecond) : std::nullopt;
}

} // namespace advisor::ui
