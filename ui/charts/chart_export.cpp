#include "charts/chart_export.h"

#include "charts/bar_chart_builder.h"
#include "common/errors.h"
#include "widgets/plot_fit.h"

#include <qcustomplot.h>

#include <QFileInfo>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>

#include <algorithm>

namespace advisor::ui {

namespace {

[[noreturn]] void fail(const QString& path, const QString& why) {
    throw AdvisorError(path.toStdString() + ": " + why.toStdString());
}

QSaveFile& openForWriting(QSaveFile& file, const QString& path) {
    if (!file.open(QIODevice::WriteOnly)) {
        fail(path, QObject::tr("cannot write: %1").arg(file.errorString()));
    }
    return file;
}

void commit(QSaveFile& file, const QString& path) {
    if (!file.commit()) {
        fail(path, QObject::tr("cannot write: %1").arg(file.errorString()));
    }
}

} // namespace

std::optional<ExportFormat> exportFormatFor(const QString& path) {
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext == QLatin1String("png")) {
        return ExportFormat::Png;
    }
    if (ext == QLatin1String("pdf")) {
        return ExportFormat::Pdf;
    }
    if (ext == QLatin1String("svg")) {
        return ExportFormat::Svg;
    }
    if (ext == QLatin1String("csv")) {
        return ExportFormat::Csv;
    }
    return std::nullopt;
}

QSize exportChart(const charts::ChartData& data, const ChartStyle& style, const QString& path, QSize size, double scale) {
    const auto format = exportFormatFor(path);
    if (!format) {
        fail(path, QObject::tr("unknown file type; use .png, .pdf, .svg or .csv"));
    }
    const bool autoHeight = size.height() == 0;
    if (size.width() < 100 || (!autoHeight && size.height() < 100) || size.width() > 20000 || size.height() > 20000) {
        fail(path, QObject::tr("size %1 x %2 is outside 100-20000").arg(size.width()).arg(size.height()));
    }
    QSaveFile file(path);
    if (*format == ExportFormat::Csv) {
        const std::string csv = charts::chartCsv(data);
        openForWriting(file, path).write(csv.data(), static_cast<qint64>(csv.size()));
        commit(file, path);
        return size;
    }
    QCustomPlot plot;
    plot.resize(size.width(), autoHeight ? BarChartBuilder::preferredHeight(data) : size.height());
    BarChartBuilder::build(plot, data, style);
    // A narrow export wraps its words rather than cutting them off; the lines this adds make
    // an automatic height taller, so that the GPU rows keep theirs.
    const int taller = fitPlotToWidth(plot, size.width());
    if (autoHeight) {
        size.setHeight(std::min(20000, BarChartBuilder::preferredHeight(data) + taller));
        plot.resize(size);
    }
    switch (*format) {
    case ExportFormat::Png: {
        const QImage image = plot.toPixmap(size.width(), size.height(), scale).toImage();
        if (image.isNull() || !image.save(&openForWriting(file, path), "PNG")) {
            fail(path, QObject::tr("cannot render the PNG image"));
        }
        break;
    }
    case ExportFormat::Pdf: {
        // One page exactly the chart's size; 1 px = 1 pt, everything drawn as vectors and text.
        QPdfWriter writer(&openForWriting(file, path));
        writer.setResolution(72);
        writer.setPageSize(QPageSize(QSizeF(size), QPageSize::Point, QString(), QPageSize::ExactMatch));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        writer.setCreator(QStringLiteral("GPU Advisor"));
        writer.setTitle(QString::fromStdString(data.title));
        QCPPainter painter(&writer);
        plot.toPainter(&painter, size.width(), size.height());
        painter.end();
        break;
    }
    case ExportFormat::Svg: {
        QSvgGenerator generator;
        generator.setOutputDevice(&openForWriting(file, path));
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        generator.setTitle(QString::fromStdString(data.title));
        generator.setDescription(QString::fromStdString(data.subtitle));
        QCPPainter painter(&generator);
        plot.toPainter(&painter, size.width(), size.height());
        painter.end();
        break;
    }
    case ExportFormat::Csv:
        break;
    }
    commit(file, path);
    return size;
}

} // namespace advisor::ui
