// `gpu-advisor screenshot`: renders a page of the real window offscreen to a PNG - for the
// README and for tests - and exits. Needs no display.
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/context.h"
#include "common/errors.h"
#include "common/text.h"
#include "main_window.h"
#include "pages/advisor_page.h"
#include "pages/calculators_page.h"
#include "session.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPixmap>
#include <QSaveFile>

#include <ostream>

namespace advisor::cli {
namespace {

int screenshot(Context& ctx, const Args& args) {
    args.expectPositionals(0, "");
    const QString out = QString::fromStdString(args.required("out"));
    if (!out.endsWith(QLatin1String(".png"), Qt::CaseInsensitive)) {
        throw UsageError("--out must end in .png");
    }
    const QString page = QString::fromStdString(args.value("page").value_or("advisor"));
    const int width = args.integer("width", 640, 4000).value_or(1280);
    const int height = args.integer("height", 480, 4000).value_or(820);
    ctx.gui();
    ui::Session session;
    session.open(ctx.dbPath());
    ui::MainWindow window(session);
    if (!window.showPage(page)) {
        throw UsageError("--page must be one of: " + window.pageKeys().join(QStringLiteral(", ")).toStdString());
    }
    if (args.has("answers")) {
        window.advisorPage()->restart(); // --answers start at the first question, not at the walk remembered
    }
    if (const auto b = args.number("budget", 0, 1e9)) {
        window.advisorPage()->setBudget(*b > 0 ? std::optional<double>(*b) : std::nullopt);
    }
    if (const auto answers = args.value("answers")) {
        for (const auto& a : text::split(*answers, ',')) {
            if (!window.advisorPage()->answer(QString::fromStdString(std::string(text::trim(a))))) {
                throw UsageError("--answers: '" + std::string(text::trim(a)) + "' does not answer \"" +
                                 window.advisorPage()->walk().current().text + "\"");
            }
        }
    }
    if (const auto tab = args.value("tab")) {
        if (!window.calculatorsPage()->showTab(QString::fromStdString(*tab))) {
            throw UsageError("--tab must be power, psu, build, memory or cloud");
        }
    }
    window.resize(width, height);
    window.show();
    // Let layouts settle and queued replots run.
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < 300) {
        QApplication::processEvents(QEventLoop::AllEvents, 50);
    }
    const QImage image = window.grab().toImage();
    QSaveFile file(out);
    if (image.isNull() || !file.open(QIODevice::WriteOnly) || !image.save(&file, "PNG") || !file.commit()) {
        throw AdvisorError(out.toStdString() + ": cannot write: " + file.errorString().toStdString());
    }
    if (ctx.json()) {
        ctx.printJson({{"out", out.toStdString()}, {"page", page.toStdString()}, {"width", image.width()},
                       {"height", image.height()}});
    } else {
        ctx.out() << "Wrote " << out.toStdString() << " (" << page.toStdString() << ", " << image.width() << " x "
                  << image.height() << ")\n";
    }
    return 0;
}

} // namespace

Command screenshotCommand() {
    return {"screenshot", "render a page of the window to a PNG (no display needed)",
            "Usage: gpu-advisor screenshot --out FILE.png [--page advisor|charts|prices|calculators|cloud]\n"
            "                              [--width PX] [--height PX] [--answers yes,no,...] [--budget USD]\n"
            "                              [--tab power|psu|build|memory|cloud]\n\n"
            "Opens the real window offscreen on your database, shows the page, saves what it\n"
            "draws and exits. The window's remembered state (chart filters, page) is used.\n"
            "--answers walk the Advisor page's chart from its first question (as clicks would, instead\n"
            "of the walk the window remembers), with --budget answering its budget questions; --tab\n"
            "picks the calculator shown on the Calculators page.\n",
            [](Context& ctx, const std::vector<std::string>& rest) {
                return screenshot(ctx, Args::parse(rest, {{"out"}, {"page"}, {"width"}, {"height"}, {"answers"}, {"budget"}, {"tab"}}));
            }};
}

} // namespace advisor::cli
