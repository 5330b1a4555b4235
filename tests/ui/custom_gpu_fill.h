#pragma once
// Fills the Add GPU dialog's memory, bandwidth and power as a user types them (the dialog has
// no accessor for its watts field: it is the spin box whose suffix is " W").
#include "dialogs/custom_gpu_dialog.h"

#include <QDoubleSpinBox>
#include <QString>

namespace advisor::testing {

inline void fillCustomGpuSize(ui::CustomGpuDialog& dialog, double memoryGb, double bandwidthGbs, double watts) {
    dialog.memoryField()->setValue(memoryGb);
    dialog.bandwidthField()->setValue(bandwidthGbs);
    for (auto* box : dialog.findChildren<QDoubleSpinBox*>()) {
        if (box->suffix() == QStringLiteral(" W")) {
            box->setValue(watts);
        }
    }
}

} // namespace advisor::testing
