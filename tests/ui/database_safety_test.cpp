// The window and the user's data: a damaged database at start is set aside and replaced by
// the newest backup with a message naming the file; File > Restore from Backup works and keeps
// the replaced file; changes another process makes (the command line) appear by themselves.
#include "main_window.h"
#include "dialogs/restore_backup_dialog.h"
#include "models/price_table_model.h"
#include "session.h"

#include <SQLiteCpp/Database.h>

#include <QDir>
#include <QFile>
#include <QListWidget>
#include <QMessageBox>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using namespace advisor;

namespace {

PriceInput price(const std::string& gpu, const std::string& amount) {
    PriceInput in;
    in.gpu = gpu;
    in.amountText = amount;
    in.dateText = "2026-01-15";
    in.source = "ui safety test";
    return in;
}

// What a SQLite browser or a script does to the file while the app is closed.
void writeAsAnotherProgram(const QString& path, const char* sql) {
    SQLite::Database raw(path.toStdString(), SQLite::OPEN_READWRITE);
    raw.exec(sql);
}

// Opens `path` in a shown window, as starting the app does; false when it never opens.
bool openInWindow(ui::Session& session, ui::MainWindow& window, const QString& path) {
    window.show();
    window.openDatabaseLater(path.toStdString());
    return QTest::qWaitFor([&] { return session.isOpen(); });
}

QByteArray readFile(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class DatabaseSafetyTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    int counter_ = 0;

    // A fresh database path per test, in its own directory (backups live beside it).
    QString freshDbPath() {
        const QString sub = dir_.filePath(QString::number(++counter_));
        QDir().mkpath(sub);
        return sub + QStringLiteral("/prices.sqlite");
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir_.path());
    }

    void aDamagedDatabaseAtStartIsSetAsideAndTheBackupRestored() {
        const QString path = freshDbPath();
        size_t seeded = 0;
        {
            ui::Session s;
            s.open(path.toStdString()); // makes the day's backup
            seeded = s.db().priceCount();
            s.db().addPrice(price("RTX 4090", "1500")); // after the backup
        }
        const QByteArray junk(8192, '\x5a');
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(junk);
        }
        ui::Session session;
        ui::MainWindow window(session);
        QSignalSpy recovered(&session, &ui::Session::recovered);
        window.show();
        window.openDatabaseLater(path.toStdString());
        QTRY_COMPARE(recovered.count(), 1);
        QVERIFY(session.isOpen());
        QCOMPARE(session.db().priceCount(), seeded); // the backup's prices
        auto* box = window.findChild<QMessageBox*>(QStringLiteral("messageBox"));
        QVERIFY(box != nullptr);
        QVERIFY2(box->text().contains(path), qPrintable(box->text()));
        QVERIFY(box->text().contains(QStringLiteral("restored from the backup")));
        const QStringList aside = QDir(QFileInfo(path).path()).entryList({QStringLiteral("prices.sqlite.damaged-*")});
        QCOMPARE(aside.size(), 1);
        QCOMPARE(readFile(QFileInfo(path).path() + QLatin1Char('/') + aside.front()), junk);
        box->close();
    }

    void aGpuOfYoursThatTheCatalogNowNamesIsKeptAndTheStatusBarSaysSo() {
        const QString path = freshDbPath();
        {
            ui::Session s;
            s.open(path.toStdString());
            Gpu g = Catalog::builtin().require("RTX 4000 Ada");
            g.id.clear();
            g.name = "Foo X1";
            g.aliases.clear();
            s.db().addCustomGpu(g);
        }
        // As if a later catalog had added a GPU of that name.
        writeAsAnotherProgram(path, "UPDATE gpus SET name = 'RTX 5000 Ada', spec_json = replace(spec_json, "
                                    "'\"Foo X1\"', '\"RTX 5000 Ada\"') WHERE origin = 'custom'");
        ui::Session session;
        ui::MainWindow window(session);
        QVERIFY(openInWindow(session, window, path));
        QVERIFY(session.db().catalog().resolve("RTX 5000 Ada (yours)").status == ResolveStatus::Found);
        const QString shown = window.statusBar()->currentMessage();
        QVERIFY2(shown.contains(QStringLiteral("it is listed as 'RTX 5000 Ada (yours)'")), qPrintable(shown));
    }

    void rowsAnotherProgramWroteAgainstTheRulesAreNamedInTheStatusBar() {
        const QString path = freshDbPath();
        {
            ui::Session s;
            s.open(path.toStdString());
        }
        // The schema's checks let it through; the app's rules do not.
        writeAsAnotherProgram(path, "INSERT INTO prices (gpu_id, amount, currency, condition, observed_date) "
                                    "VALUES ('rtx-4090', 1599, 'USD', 'new', 'last week')");
        ui::Session session;
        ui::MainWindow window(session);
        QVERIFY(openInWindow(session, window, path));
        const QString shown = window.statusBar()->currentMessage();
        QVERIFY2(shown.startsWith(QStringLiteral("1 stored value the app would refuse")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("field 'observed_date': is not a date: 'last week'")),
                 qPrintable(shown));
    }

    void anotherApplicationsDatabaseIsRefusedAndLeftWhereItIs() {
        const QString path = freshDbPath();
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        writeAsAnotherProgram(path, "CREATE TABLE notes (text)"); // not ours: no GPU Advisor application id
        const QByteArray before = readFile(path);
        ui::Session session;
        ui::MainWindow window(session);
        window.show();
        window.openDatabaseLater(path.toStdString());
        QTRY_VERIFY(window.findChild<QMessageBox*>(QStringLiteral("messageBox")) != nullptr);
        auto* box = window.findChild<QMessageBox*>(QStringLiteral("messageBox"));
        QVERIFY2(box->text().contains(QStringLiteral("of another application")), qPrintable(box->text()));
        QVERIFY(!session.isOpen());
        QCOMPARE(readFile(path), before);
        box->close();
    }

    void restoringABackupKeepsTheReplacedDatabaseAndClearsUndo() {
        const QString path = freshDbPath();
        ui::Session session;
        session.open(path.toStdString());
        const size_t before = session.db().priceCount();
        const std::string backup = session.backUpNow();
        session.db().addPrice(price("RTX 3090", "650"));
        session.undoStack()->push(new QUndoCommand(QStringLiteral("something to undo")));
        QSignalSpy opened(&session, &ui::Session::opened);

        ui::RestoreBackupDialog dialog(session);
        QVERIFY(dialog.backupList()->count() >= 2); // the automatic one and ours
        QCOMPARE(dialog.backupList()->currentItem()->data(Qt::UserRole).toString(), QString::fromStdString(backup));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(session.db().priceCount(), before);
        QCOMPARE(opened.count(), 1);
        QCOMPARE(session.undoStack()->count(), 0);
        QVERIFY(dialog.keptAs().contains(QStringLiteral(".replaced-")));
        SQLite::Database kept(dialog.keptAs().toStdString());
        QCOMPARE(kept.execAndGet("SELECT count(*) FROM prices").getInt(), int(before) + 1);
    }

    void aBadBackupIsRefusedInTheDialogAndTheDatabaseStaysOpen() {
        const QString path = freshDbPath();
        ui::Session session;
        session.open(path.toStdString());
        const size_t before = session.db().priceCount();
        const QString bad = QFileInfo(path).path() + QStringLiteral("/bad.sqlite");
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(4096, 'q'));
        }
        ui::RestoreBackupDialog dialog(session);
        dialog.restoreFromFile(bad);
        QVERIFY2(dialog.error().contains(QStringLiteral("bad.sqlite")), qPrintable(dialog.error()));
        QVERIFY(dialog.error().contains(QStringLiteral("nothing was changed")));
        QVERIFY(dialog.result() != QDialog::Accepted);
        QVERIFY(session.isOpen());
        QCOMPARE(session.db().priceCount(), before);
    }

    void changesFromTheCommandLineAppearByThemselves() {
        const QString path = freshDbPath();
        ui::Session session;
        session.open(path.toStdString());
        ui::PriceTableModel model(session);
        const int rows = model.rowCount();
        session.undoStack()->push(new QUndoCommand(QStringLiteral("something to undo")));
        QSignalSpy loaded(&session, &ui::Session::externalChangesLoaded);

        QProcess cli;
        cli.start(QStringLiteral(GPU_ADVISOR_BIN),
                  {QStringLiteral("--db"), path, QStringLiteral("prices"), QStringLiteral("add"), QStringLiteral("--gpu"),
                   QStringLiteral("RTX 5090"), QStringLiteral("--price"), QStringLiteral("2222")});
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitCode(), 0);
        // The poll timer notices it: no call from the test.
        QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), rows + 1, 4 * ui::Session::kExternalCheckMs);
        QCOMPARE(loaded.count(), 1);
        QCOMPARE(session.undoStack()->count(), 0); // its steps may no longer apply
        QVERIFY(!session.checkForExternalChanges()); // nothing new since
    }

    void theWindowAndTheCommandLineWriteAtOnceAndLoseNothing() {
        const QString path = freshDbPath();
        const QString csv = QFileInfo(path).path() + QStringLiteral("/big.csv");
        {
            QFile f(csv);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("gpu,amount,observed_date,currency,condition,source\n");
            for (int i = 0; i < 4000; ++i) {
                f.write(QStringLiteral("RTX 4090,%1,2025-07-01,USD,new,cli-import\n").arg(900 + i).toUtf8());
            }
        }
        ui::Session session;
        session.open(path.toStdString());
        const size_t before = session.db().priceCount();
        QProcess cli;
        cli.start(QStringLiteral(GPU_ADVISOR_BIN), {QStringLiteral("--db"), path, QStringLiteral("prices"),
                                                    QStringLiteral("import"), csv});
        QVERIFY(cli.waitForStarted());
        int added = 0;
        // The window's own writes while the import holds the write lock: they wait their turn.
        while (cli.state() != QProcess::NotRunning || added < 3) {
            session.db().addPrice(price("RTX 3090", std::to_string(700 + added)));
            ++added;
            cli.waitForFinished(5);
        }
        QCOMPARE(cli.exitCode(), 0);
        QVERIFY2(!cli.readAllStandardError().contains("locked"), "the command line saw a locked database");
        QCOMPARE(session.db().priceCount(), before + 4000 + size_t(added));
    }

    void ownChangesAreNotMistakenForAnotherProgramsChanges() {
        const QString path = freshDbPath();
        ui::Session session;
        session.open(path.toStdString());
        session.db().addPrice(price("RTX 4090", "1400"));
        QVERIFY(!session.checkForExternalChanges());
        // A worker's own connection (as the import uses), bracketed: not reported either.
        session.beginWorkerWrite();
        {
            PriceDb worker(path.toStdString(), Catalog::builtin());
            worker.addPrice(price("RTX 4090", "1450"));
        }
        QVERIFY(!session.checkForExternalChanges()); // paused while the worker writes
        session.endWorkerWrite();
        QVERIFY(!session.checkForExternalChanges());
        // The same write without the bracket is another program's change.
        {
            PriceDb other(path.toStdString(), Catalog::builtin());
            other.addPrice(price("RTX 4090", "1475"));
        }
        QVERIFY(session.checkForExternalChanges());
    }

    void aRestoreByTheCommandLineIsNoticed() {
        const QString path = freshDbPath();
        ui::Session session;
        session.open(path.toStdString());
        const std::string backup = session.backUpNow();
        session.db().addPrice(price("RTX 4090", "1400"));
        const size_t withAdded = session.db().priceCount();
        QProcess cli;
        cli.start(QStringLiteral(GPU_ADVISOR_BIN),
                  {QStringLiteral("--db"), path, QStringLiteral("db"), QStringLiteral("restore"), QString::fromStdString(backup)});
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitCode(), 0);
        // The file was renamed away under the open connection: the session must follow the path.
        QVERIFY(session.checkForExternalChanges());
        QCOMPARE(session.db().priceCount(), withAdded - 1);
    }
};

QTEST_MAIN(DatabaseSafetyTest)
#include "database_safety_test.moc"
