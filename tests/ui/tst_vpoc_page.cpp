// The VPOC page: a run on the sample data in the worker thread, the session table, charts, exports,
// bad input, cancel; and the histogram geometry with data rows.
#include "core/vpoc/sample_data.h"
#include "core/util/atomic_file.h"
#include "ui/vpoc/profile_geometry.h"
#include "ui/vpoc/session_model.h"
#include "ui/vpoc/volume_profile_view.h"
#include "ui/vpoc/vpoc_page.h"

#include <QAbstractItemModelTester>
#include <QLineEdit>
#include <QSignalSpy>
#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;

class TestVpocPage : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_sample;

private Q_SLOTS:
    void initTestCase()
    {
        vpoc::SampleDataOptions o;
        o.days = 5;
        m_sample = m_dir.filePath(QStringLiteral("sample.csv"));
        writeFileAtomically(m_sample.toStdString(), vpoc::generateSampleData(o));
    }

    void geometry_data()
    {
        QTest::addColumn<QList<qulonglong>>("volume");
        QTest::addColumn<QList<double>>("widths");
        QTest::addColumn<QList<int>>("kinds"); // 0 outside, 1 value area, 2 POC
        // low tick 100, POC 101, value area 100..102, area 100 x 40 px (10 px per level).
        QTest::newRow("peak in middle") << QList<qulonglong> {5, 10, 5, 1} << QList<double> {50, 100, 50, 10} << QList<int> {1, 2, 1, 0};
        QTest::newRow("all zero") << QList<qulonglong> {0, 0, 0, 0} << QList<double> {0, 0, 0, 0} << QList<int> {1, 2, 1, 0};
    }
    void geometry()
    {
        QFETCH(QList<qulonglong>, volume);
        QFETCH(QList<double>, widths);
        QFETCH(QList<int>, kinds);
        ProfileInput in;
        in.volume.assign(volume.begin(), volume.end());
        in.lowTick = 100;
        in.pocTick = 101;
        in.valTick = 100;
        in.vahTick = 102;
        const QRectF area(0, 0, 100, 40);
        const auto bars = layoutProfile(in, area);
        QCOMPARE(int(bars.size()), volume.size());
        for (int i = 0; i < volume.size(); ++i) {
            QCOMPARE(bars[size_t(i)].rect.width(), widths[i]);
            QCOMPARE(int(bars[size_t(i)].kind), kinds[i]);
            QCOMPARE(bars[size_t(i)].rect.bottom(), 40.0 - 10.0 * i); // low at the bottom
        }
        int32_t tick = 0;
        QVERIFY(tickAtY(in, area, 39.0, &tick));
        QCOMPARE(tick, 100);
        QVERIFY(tickAtY(in, area, 0.5, &tick));
        QCOMPARE(tick, 103);
        QVERIFY(!tickAtY(in, area, 40.0, &tick));
        QVERIFY(layoutProfile(ProfileInput {}, area).empty());
    }

    void runOnSample()
    {
        VpocPage page;
        page.resize(1280, 820);
        QAbstractItemModelTester tester(page.sessionModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        page.setInputFile(m_sample);
        QSignalSpy finished(&page, &VpocPage::finished);
        page.show();
        page.run();
        QVERIFY(page.isRunning());
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.at(0).at(0).toBool(), true);
        QVERIFY2(page.sessionModel()->rowCount() >= 5, qPrintable(page.statusText()));
        QVERIFY(page.statusText().contains(QStringLiteral("sessions")));
        // The last session is selected: its histogram is shown.
        QVERIFY(!page.profileView()->profile().volume.empty());
        const auto& s = page.sessionModel()->result()->sessions.back();
        QCOMPARE(page.profileView()->profile().pocTick, s.pocTick);

        const QString png = m_dir.filePath(QStringLiteral("charts.png"));
        const QString csv = m_dir.filePath(QStringLiteral("sessions.csv"));
        QVERIFY(page.exportPng(png));
        QVERIFY(page.exportCsv(csv));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY(text.contains("price,volume,in_value_area"));
        QDir().mkpath(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots"));
        QTest::qWait(300); // let the chart scene lay out its axes and title
        QVERIFY(page.grab().save(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots/vpoc-sample.png")));
    }

    void badInputKeepsPage_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("missing column") << QByteArray("timestamp,open,high,low\n2024-03-04 09:30:00,1,2,1\n") << "missing column";
        QTest::newRow("high below low") << QByteArray("timestamp,open,high,low,close,volume\n2024-03-04 09:30:00,5000,4999,5001,5000,10\n")
                                        << ":2:";
    }
    void badInputKeepsPage()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        const QString path = m_dir.filePath(QStringLiteral("bad.csv"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(content);
        f.close();
        VpocPage page;
        page.setInputFile(path);
        QSignalSpy finished(&page, &VpocPage::finished);
        page.run();
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QVERIFY2(page.statusText().contains(path), qPrintable(page.statusText()));
        QVERIFY2(page.statusText().contains(expected), qPrintable(page.statusText()));
        QCOMPARE(page.sessionModel()->rowCount(), 0);
    }

    void noInputSaysWhatToDo()
    {
        VpocPage page;
        QSignalSpy finished(&page, &VpocPage::finished);
        page.run();
        QCOMPARE(finished.size(), 1);
        QVERIFY(page.statusText().contains(QStringLiteral("Sample data")));
    }

    void cancelStopsAndKeepsNothingHalfDone()
    {
        VpocPage page;
        page.setInputFile(m_sample);
        QSignalSpy finished(&page, &VpocPage::finished);
        page.run();
        page.cancel();
        QVERIFY(!page.isRunning());
        QCOMPARE(finished.size(), 1);
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QTest::qWait(500); // a late result of the cancelled job must not land
        QCOMPARE(page.sessionModel()->rowCount(), 0);
        QVERIFY(page.statusText().contains(QStringLiteral("Cancelled")));
    }
};

QTEST_MAIN(TestVpocPage)
#include "tst_vpoc_page.moc"
