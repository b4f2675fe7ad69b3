// The Training page in the main window after a short CPU run, at 1024x640 (with the Monitor dock closed and open) and
// 1920x1080: every chart's vertical axis title fits beside its plot (the "k samples/s" of the throughput chart was cut
// in short charts, issue 35), and the screenshots are kept to look at (training-window-*.png in the test folder).
#include "core/training/training_run.h"
#include "tests/common/sample_data_fixture.h"
#include "ui/main_window.h"
#include "ui/monitor/monitor_dock.h"
#include "ui/training/training_charts.h"
#include "ui/training/training_form.h"
#include "ui/training/training_page.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QFontMetricsF>
#include <QStandardPaths>
#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;

namespace {

// Vertical axis titles longer than their plot is high: Qt Charts draws them cut ("k sampl...").
QStringList cutTitles(TrainingCharts* charts)
{
    QStringList out;
    for (QChartView* view : {charts->lossView(), charts->samplesView(), charts->memoryView()}) {
        QChart* chart = view->chart();
        for (QAbstractAxis* axis : chart->axes(Qt::Vertical)) {
            if (!axis->isVisible() || !axis->isTitleVisible() || axis->titleText().isEmpty())
                continue;
            const double text = QFontMetricsF(axis->titleFont()).horizontalAdvance(axis->titleText());
            if (text > chart->plotArea().height())
                out << QStringLiteral("%1: '%2' is %3 px, the plot %4 px high")
                           .arg(chart->title(), axis->titleText())
                           .arg(text, 0, 'f', 0)
                           .arg(chart->plotArea().height(), 0, 'f', 0);
        }
    }
    return out;
}

} // namespace

class TestTrainingWindow : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_sample;
    QString m_moduleMissing;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_sample = test::writeSampleBars(m_dir, 3, QStringLiteral("sample-3-days.csv"));
        m_moduleMissing = test::moduleMissing([] { training::trainerModule(); });
    }

    void axisTitlesFit_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("monitor");
        QTest::newRow("1024x640") << QSize(1024, 640) << false;
        QTest::newRow("1024x640-monitor") << QSize(1024, 640) << true;
        QTest::newRow("1920x1080") << QSize(1920, 1080) << false;
    }
    void axisTitlesFit()
    {
        if (!m_moduleMissing.isEmpty())
            QSKIP(qPrintable(QStringLiteral("no libtorch module in this build: %1").arg(m_moduleMissing)));
        QFETCH(QSize, size);
        QFETCH(bool, monitor);
        MainWindow window;
        window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.showPage(QStringLiteral("Training")));
        if (monitor)
            window.monitorDock()->show();
        QTRY_COMPARE(window.size(), size);
        TrainingPage* page = window.trainingPage();
        training::TrainingConfig c;
        c.input = m_sample.toStdString();
        c.output = m_dir.filePath(QString::fromLatin1(QTest::currentDataTag())).toStdString();
        c.device = training::DeviceSelection::cpu();
        c.epochs = 4;
        c.batchSize = 64;
        c.stepInterval = 4;
        page->form()->setConfig(c);
        page->start();
        QTRY_VERIFY_WITH_TIMEOUT(!page->isRunning(), 120000);
        QCOMPARE(page->lastStatus(), QStringLiteral("finished"));
        QTest::qWait(100); // the charts fit their ticks to the plot once the layout settles
        const QString shot = QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/training-window-%1.png")
                                 .arg(QString::fromLatin1(QTest::currentDataTag()));
        QVERIFY(window.grab().save(shot));
        qInfo("screenshot: %s; throughput plot %.0f px high", qPrintable(shot),
              page->charts()->samplesView()->chart()->plotArea().height());
        const QStringList cut = cutTitles(page->charts());
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QStringLiteral("; "))));
    }

    // How a refused and a failed start read at the smallest size: an Input error names the field (and focuses it), a
    // failure says it failed and what to do next.
    void problemsShown_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expected");
        QTest::newRow("input") << "input" << "Check Batch size:";
        QTest::newRow("failed") << "failed" << "Training failed:";
    }
    void problemsShown()
    {
        if (!m_moduleMissing.isEmpty())
            QSKIP(qPrintable(QStringLiteral("no libtorch module in this build: %1").arg(m_moduleMissing)));
        QFETCH(QString, kind);
        QFETCH(QString, expected);
        MainWindow window;
        window.resize(1024, 640);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.showPage(QStringLiteral("Training")));
        TrainingPage* page = window.trainingPage();
        training::TrainingConfig c;
        c.input = m_sample.toStdString();
        c.output = m_dir.filePath(QStringLiteral("problem-") + kind).toStdString();
        c.device = training::DeviceSelection::cpu();
        c.epochs = 1;
        if (kind == QStringLiteral("input"))
            c.batchSize = 1000000; // more than the sample's training rows
        else
            c.precision = "bf16"; // libtorch's CPU kernels refuse it mid-step
        page->form()->setConfig(c);
        page->start();
        QTRY_VERIFY_WITH_TIMEOUT(!page->isRunning(), 120000);
        if (kind == QStringLiteral("failed") && page->lastStatus() != QStringLiteral("failed"))
            QSKIP("bf16 on the CPU trains in this build: no failure to show");
        QTest::qWait(100);
        const QString shot = QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/training-window-1024x640-%1.png").arg(kind);
        QVERIFY(window.grab().save(shot));
        qInfo("screenshot: %s; status: %s", qPrintable(shot), qPrintable(page->statusText()));
        QVERIFY2(page->statusText().contains(expected), qPrintable(page->statusText()));
        if (kind == QStringLiteral("failed"))
            QVERIFY2(page->statusText().contains(QStringLiteral("press Start again")), qPrintable(page->statusText()));
    }
};

QTEST_MAIN(TestTrainingWindow)
#include "tst_training_window.moc"
