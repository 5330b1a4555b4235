#pragma once
/// \file
/// Small text helpers shared by the pages: core's UTF-8 strings to QString, and a refusal
/// from core as the lines a user reads ("amount: must be more than 0").

#include "common/errors.h"

#include <QString>
#include <QStringList>

#include <string>

namespace advisor::ui {

inline QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

/// One line per problem: "field: reason" (or just the reason).
inline QString describeProblems(const InputError& e, const QString& separator = QStringLiteral("\n")) {
    QStringList lines;
    for (const auto& p : e.problems()) {
        lines << qs((p.where.field.empty() ? std::string() : p.where.field + ": ") + p.reason);
    }
    return lines.join(separator);
}

} // namespace advisor::ui
