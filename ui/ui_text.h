#pragma once
/// \file
/// Small text helpers shared by the pages: core's UTF-8 strings to QString, and a refusal
/// from core as the lines a user reads ("Price: must be greater than zero").

#include "common/errors.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <string>

namespace advisor::ui {

inline QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

/// One line per problem: "field: reason" (or just the reason). `label` names a field as the
/// window shows it ("amount" -> "Price"); without it the field is shown as core names it.
inline QString describeProblems(const InputError& e, const QString& separator = QStringLiteral("\n"),
                                const std::function<QString(const std::string&)>& label = {}) {
    QStringList lines;
    for (const auto& p : e.problems()) {
        const QString field = label ? label(p.where.field) : qs(p.where.field);
        lines << (field.isEmpty() ? qs(p.reason) : field + QStringLiteral(": ") + qs(p.reason));
    }
    return lines.join(separator);
}

} // namespace advisor::ui
