// The calculators' GPU pickers offscreen on a real database: a long GPU name (the RTX PRO 6000
// Blackwell Server Edition's, or a GPU the user adds) does not widen the picker, so it cannot
// narrow a tab's plot, and the open list still shows every name whole.
#include "custom_gpu_fill.h"
#include "dialogs/custom_gpu_dialog.h"
#include "pages/calculators/power_limit_tab.h"
#include "private_session.h"
#include "session.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using namespace advisor;

class GpuPickerTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::unique_ptr<ui::Session> session_;

    // The width a freshly shown tab's picker asks for, with the catalog as it is now.
    int pickerWidth() {
        ui::PowerLimitTab tab(*session_);
        tab.show();
        return tab.gpuField()->sizeHint().width();
    }

private slots:
    void initTestCase() { session_ = testing::openPrivateSession(dir_); }

    void aLongGpuNameDoesNotWidenThePicker() {
        const int before = pickerWidth();
        ui::CustomGpuDialog dialog(*session_);
        const QString name = QStringLiteral("Test Accelerator With A Very Long Product Name, Server Edition");
        dialog.nameField()->setText(name);
        dialog.architectureField()->setText(QStringLiteral("Blackwell"));
        testing::fillCustomGpuSize(dialog, 96, 1792, 600);
        dialog.accept();
        QVERIFY2(dialog.result() == QDialog::Accepted, qPrintable(dialog.error()));
        QCOMPARE(pickerWidth(), before); // without the fixed width it grew from 263 to 414 px offscreen

        ui::PowerLimitTab tab(*session_);
        QComboBox* picker = tab.gpuField();
        QVERIFY(picker->findText(name) >= 0);
        const int text = picker->view()->fontMetrics().horizontalAdvance(name);
        const int list = picker->view()->minimumWidth();
        QVERIFY2(list > text, qPrintable(QStringLiteral("list %1 px for a %2 px name").arg(list).arg(text)));
        session_->undoStack()->undo();
        QCOMPARE(picker->findText(name), -1); // the tab refills its picker when the catalog changes
    }
};

QTEST_MAIN(GpuPickerTest)
#include "gpu_picker_test.moc"
