// "Paste a log or error": the System and Report pages' buttons open it, a dropped text file fills it,
// and the diagnosis (core diagnose(), as `stackscope-cli diagnose --log`) shows the matching rule.
#include "ui/main_window.h"
#include "ui/probes/log_diagnosis_dialog.h"
#include "ui/models/findings_model.h"
#include "ui/report/report_page.h"
#include "ui/system/system_page.h"

#include <QMimeData>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

using namespace stackscope::ui;

namespace {
QStringList ruleIds(const FindingsModel* model)
{
    QStringList ids;
    for (int r = 0; r < model->rowCount(); ++r)
        ids << model->index(r, 0).data(FindingsModel::IdRole).toString();
    return ids;
}

// The traceback users paste (PyTorch on an RDNA card with a wheel built for other archs).
const char* kTraceback = "Traceback (most recent call last):\n"
                         "  File \"train.py\", line 12, in <module>\n"
                         "    y = model(x)\n"
                         "RuntimeError: HIP error: invalid device function\n"
                         "HIP kernel errors might be asynchronously reported at some other API call\n";
} // namespace

class TestLogDiagnosis : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void buttonsOpenIt_data()
    {
        QTest::addColumn<QString>("page");
        QTest::newRow("System") << "System";
        QTest::newRow("Report") << "Report";
    }
    void buttonsOpenIt()
    {
        QFETCH(QString, page);
        MainWindow window;
        window.show();
        QVERIFY(window.showPage(page));
        QWidget* p = page == QStringLiteral("System") ? static_cast<QWidget*>(window.systemPage()) : window.reportPage();
        auto* button = p->findChild<QPushButton*>(QStringLiteral("pasteLogButton"));
        QVERIFY(button);
        button->click();
        auto* dialog = window.findChild<LogDiagnosisDialog*>();
        QVERIFY(dialog && dialog->isVisible());
    }

    void pastedTracebackFindsRule()
    {
        MainWindow window;
        auto* dialog = window.openLogDiagnosis();
        QSignalSpy done(dialog, &LogDiagnosisDialog::diagnosed);
        dialog->diagnoseText(QString::fromLatin1(kTraceback), QStringLiteral("pasted text"));
        QVERIFY(done.wait(20000));
        QVERIFY2(ruleIds(dialog->findingsModel()).contains(QStringLiteral("NO_CODE_OBJECT_FOR_GPU")),
                 qPrintable(ruleIds(dialog->findingsModel()).join(QLatin1Char(' '))));
        QVERIFY(dialog->summary().contains(QStringLiteral("findings")) || dialog->summary().contains(QStringLiteral("1 finding")));
    }

    void unknownTextSaysSo()
    {
        MainWindow window;
        auto* dialog = window.openLogDiagnosis();
        QSignalSpy done(dialog, &LogDiagnosisDialog::diagnosed);
        dialog->diagnoseText(QStringLiteral("everything is fine\n"), QStringLiteral("pasted text"));
        QVERIFY(done.wait(20000));
        QCOMPARE(dialog->findingsModel()->rowCount(), 0);
        QVERIFY(dialog->summary().startsWith(QStringLiteral("No known problem")));
    }

    void droppedTextFileIsDiagnosed()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("train.log"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kTraceback);
        f.close();
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(path)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window, &drop);
        auto* dialog = window.findChild<LogDiagnosisDialog*>();
        QVERIFY(dialog);
        QTRY_VERIFY_WITH_TIMEOUT(ruleIds(dialog->findingsModel()).contains(QStringLiteral("NO_CODE_OBJECT_FOR_GPU")), 20000);
    }
};

QTEST_MAIN(TestLogDiagnosis)
#include "tst_log_diagnosis.moc"
