#include "widgets/remembered_inputs.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSettings>
#include <QSpinBox>

namespace advisor::ui {

QVariant inputValue(const QWidget* widget) {
    if (const auto* s = qobject_cast<const QSpinBox*>(widget)) {
        return s->value();
    }
    if (const auto* d = qobject_cast<const QDoubleSpinBox*>(widget)) {
        return d->value();
    }
    if (const auto* c = qobject_cast<const QComboBox*>(widget)) {
        return c->currentData().toString(); // item data: a GPU id, a mode; stable across languages
    }
    if (const auto* b = qobject_cast<const QCheckBox*>(widget)) {
        return b->isChecked();
    }
    return {};
}

bool setInputValue(QWidget* widget, const QVariant& value) {
    bool ok = false;
    if (auto* s = qobject_cast<QSpinBox*>(widget)) {
        const int v = value.toInt(&ok);
        ok = ok && v >= s->minimum() && v <= s->maximum();
        if (ok) {
            s->setValue(v);
        }
    } else if (auto* d = qobject_cast<QDoubleSpinBox*>(widget)) {
        const double v = value.toDouble(&ok);
        ok = ok && v >= d->minimum() && v <= d->maximum();
        if (ok) {
            d->setValue(v);
        }
    } else if (auto* c = qobject_cast<QComboBox*>(widget)) {
        for (int i = 0; i < c->count() && !ok; ++i) {
            if (c->itemData(i).toString() == value.toString()) {
                c->setCurrentIndex(i);
                ok = true;
            }
        }
    } else if (auto* b = qobject_cast<QCheckBox*>(widget)) {
        ok = value.isValid();
        if (ok) {
            b->setChecked(value.toBool());
        }
    }
    return ok;
}

RememberedInputs::RememberedInputs(const QString& group, std::vector<Input> inputs, QObject* parent)
    : QObject(parent), group_(group), inputs_(std::move(inputs)) {
    QSettings settings;
    for (const auto& input : inputs_) {
        defaults_.push_back(inputValue(input.widget));
        saved_.push_back(settings.value(group_ + QLatin1Char('/') + input.name));
    }
    restore(saved_);
    for (const auto& input : inputs_) {
        const auto changed = [this, input] { save(input); };
        if (auto* s = qobject_cast<QSpinBox*>(input.widget)) {
            connect(s, &QSpinBox::valueChanged, this, changed);
        } else if (auto* d = qobject_cast<QDoubleSpinBox*>(input.widget)) {
            connect(d, &QDoubleSpinBox::valueChanged, this, changed);
        } else if (auto* c = qobject_cast<QComboBox*>(input.widget)) {
            connect(c, &QComboBox::currentIndexChanged, this, changed);
        } else if (auto* b = qobject_cast<QCheckBox*>(input.widget)) {
            connect(b, &QCheckBox::toggled, this, changed);
        }
    }
}

void RememberedInputs::resetToDefaults() {
    restore(defaults_);
    for (const auto& input : inputs_) {
        save(input);
    }
}

void RememberedInputs::reapplySaved() {
    restore(saved_);
    for (size_t i = 0; i < inputs_.size(); ++i) {
        if (saved_[i].isValid()) {
            save(inputs_[i]);
        }
    }
}

void RememberedInputs::restore(const std::vector<QVariant>& values) {
    restoring_ = true;
    for (size_t i = 0; i < inputs_.size(); ++i) {
        if (values[i].isValid()) {
            setInputValue(inputs_[i].widget, values[i]); // a value no longer possible keeps the default
        }
    }
    restoring_ = false;
}

void RememberedInputs::save(const Input& input) const {
    if (!restoring_) {
        QSettings().setValue(group_ + QLatin1Char('/') + input.name, inputValue(input.widget));
    }
}

} // namespace advisor::ui
