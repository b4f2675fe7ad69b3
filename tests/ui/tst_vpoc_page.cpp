// The VPOC page: a run on the sample data in the worker thread, the session table, charts, exports,
// bad input, cancel; and the histogram geometry with data rows.
#include "core/vpoc/sample_data.h"
#include "core/util/atomic_file.h"
#include "ui/vpoc/profile_geometry.h"
#include "ui/vpoc/session_time_axis.h"
#include "ui/vpoc/session_model.h"
#include "ui/vpoc/volume_profile_view.h"
#include "ui/vpoc/vpoc_page.h"

#include <QAbstractItemModelTester>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
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

    // Export needs something to export; a failed run clears the previous file's results; another
    // path marks them as the previous file's.
    void staleResults()
    {
        VpocPage page;
        auto* png = page.findChild<QPushButton*>(QStringLiteral("vpocExportPng"));
        auto* csv = page.findChild<QPushButton*>(QStringLiteral("vpocExportCsv"));
        QVERIFY(png && csv);
        QVERIFY(!png->isEnabled() && !csv->isEnabled());
        QVERIFY(runSample(page));
        QVERIFY(png->isEnabled() && csv->isEnabled());
        auto* label = page.findChild<QLabel*>(QStringLiteral("vpocResultsFor"));
        const QString missing = m_dir.filePath(QStringLiteral("missing.csv"));
        page.setInputFile(missing);
        QVERIFY2(label->text().contains(QStringLiteral("not the file above")), qPrintable(label->text()));
        QSignalSpy finished(&page, &VpocPage::finished);
        page.run();
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QVERIFY(!page.hasResults());
        QCOMPARE(page.sessionModel()->rowCount(), 0);
        QVERIFY(page.profileView()->profile().volume.empty());
        QVERIFY(page.priceChart()->series().isEmpty());
        QVERIFY(!png->isEnabled() && !csv->isEnabled());
    }

    void pluralsAndOneLine()
    {
        VpocPage page;
        QVERIFY(runSample(page));
        QVERIFY2(!page.statusText().contains(QRegularExpression(QStringLiteral("\\b1 sessions"))), qPrintable(page.statusText()));
        QVERIFY(!page.statusText().contains(QStringLiteral("--")));
        QVERIFY(!page.statusText().contains(QStringLiteral(".so")));
    }

    // VAH/VAL and POC/developing POC each in their own colour.
    void chartColours()
    {
        VpocPage page;
        QVERIFY(runSample(page));
        QMap<QString, QColor> colours;
        for (auto* series : page.priceChart()->series())
            colours[series->name()] = static_cast<QLineSeries*>(series)->pen().color();
        for (const char* name : {"POC", "VAH", "VAL", "developing POC", "close"})
            QVERIFY2(colours.contains(QString::fromLatin1(name)), name);
        QSet<QRgb> distinct;
        for (const auto& c : colours)
            distinct.insert(c.rgb());
        QCOMPARE(distinct.size(), colours.size());
    }

    // The time axis is in the session's zone: a globex day starts at 18:00 New York time.
    void timeAxisInSessionZone()
    {
        VpocPage page;
        QVERIFY(runSample(page));
        auto* axis = page.priceChart()->findChild<QCategoryAxis*>(QStringLiteral("sessionTimeAxis"));
        if (!axis) {
            const auto axes = page.priceChart()->axes(Qt::Horizontal);
            axis = axes.isEmpty() ? nullptr : qobject_cast<QCategoryAxis*>(axes.first());
        }
        QVERIFY(axis);
        QVERIFY(axis->titleText().contains(QStringLiteral("America/New_York")));
        const QStringList labels = axis->categoriesLabels();
        QVERIFY(!labels.isEmpty());
        QVERIFY2(labels.first().endsWith(QStringLiteral("18:00")), qPrintable(labels.join(QLatin1Char(','))));
    }

    void sessionTimeTicks_data()
    {
        QTest::addColumn<QString>("first"); // UTC
        QTest::addColumn<QString>("last");
        QTest::addColumn<QString>("zone");
        QTest::addColumn<QStringList>("labels");
        // Globex 2024-03-05 (EST, UTC-5): 18:00 on the 4th to 16:59 on the 5th New York time.
        QTest::newRow("globex EST") << "2024-03-04T23:00:00Z" << "2024-03-05T21:59:00Z" << "America/New_York"
                                    << QStringList {"Mon 18:00", "Mon 22:00", "Tue 02:00", "Tue 06:00", "Tue 10:00", "Tue 14:00"};
        // The same clock times after the DST change (EDT, UTC-4).
        QTest::newRow("globex EDT") << "2024-03-11T22:00:00Z" << "2024-03-12T20:59:00Z" << "America/New_York"
                                    << QStringList {"Mon 18:00", "Mon 22:00", "Tue 02:00", "Tue 06:00", "Tue 10:00", "Tue 14:00"};
        QTest::newRow("rth") << "2024-03-05T14:30:00Z" << "2024-03-05T20:59:00Z" << "America/New_York"
                             << QStringList {"Tue 10:00", "Tue 11:00", "Tue 12:00", "Tue 13:00", "Tue 14:00", "Tue 15:00"};
    }
    void sessionTimeTicks()
    {
        QFETCH(QString, first);
        QFETCH(QString, last);
        QFETCH(QString, zone);
        QFETCH(QStringList, labels);
        const auto t0 = QDateTime::fromString(first, Qt::ISODate).toMSecsSinceEpoch();
        const auto t1 = QDateTime::fromString(last, Qt::ISODate).toMSecsSinceEpoch();
        QStringList got;
        for (const auto& [ms, label] : ui::sessionTimeTicks(t0, t1, QTimeZone(zone.toUtf8())))
            got << label;
        QCOMPARE(got, labels);
    }

    // The price chart and the volume profile share one price axis: the POC, VAH and VAL read at the
    // same pixel row in both (within a pixel: the chart rounds its plot area to whole pixels).
    void sharedPriceAxis_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("shownBeforeRun"); // false: the run ends while the page is out of view
        QTest::newRow("1920x1000") << QSize(1920, 1000) << true;
        QTest::newRow("1280x640") << QSize(1280, 640) << true;
        QTest::newRow("1546x820, run while hidden") << QSize(1546, 820) << false;
    }
    void sharedPriceAxis()
    {
        QFETCH(QSize, size);
        QFETCH(bool, shownBeforeRun);
        VpocPage page;
        page.resize(size);
        if (shownBeforeRun) {
            page.show();
            QVERIFY(QTest::qWaitForWindowExposed(&page));
        }
        QVERIFY(runSample(page));
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QTest::qWait(200); // the chart lays out its axes on the event loop
        const auto* result = page.sessionModel()->result().get();
        const auto& s = result->sessions.back();
        const double tick = result->options.read.tick.value;
        auto* profile = page.profileView();
        QVERIFY(profile->priceFrame().has_value());
        const QRectF area = profile->plotArea();
        const double h = area.height() / double(s.profile.size());
        for (int32_t level : {s.pocTick, s.vahTick, s.valTick}) {
            const QPointF inChart = page.priceChart()->mapToPosition(QPointF(double(s.firstUs / 1000), level * tick));
            const QPoint inView = page.priceView()->mapFromScene(inChart);
            const QPoint global = page.priceView()->viewport()->mapToGlobal(inView);
            const double chartY = profile->mapFromGlobal(global).y();
            const double profileY = area.bottom() - h * (level - s.lowTick + 0.5);
            QVERIFY2(std::abs(chartY - profileY) <= 1.0,
                     qPrintable(QStringLiteral("level %1: chart y %2, profile y %3").arg(level).arg(chartY).arg(profileY)));
        }
        QDir().mkpath(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots"));
        page.grab().save(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots/vpoc-aligned-%1.png").arg(size.width()));
    }

    void alignedArea_data()
    {
        QTest::addColumn<double>("top");
        QTest::addColumn<double>("bottom");
        QTest::newRow("100 px") << 0.0 << 100.0;
        QTest::newRow("offset") << 37.0 << 537.0;
    }
    void alignedArea()
    {
        QFETCH(double, top);
        QFETCH(double, bottom);
        ProfileInput in;
        in.volume = {1, 2, 3, 4, 5, 6};
        in.lowTick = 100; // levels 100..105, axis 98..107
        const PriceFrame frame {98, 107, top, bottom};
        const QRectF area = alignedProfileArea(in, frame, 0, 50);
        const double h = area.height() / 6;
        for (int i = 0; i < 6; ++i)
            QVERIFY(std::abs((area.bottom() - h * (i + 0.5)) - frameY(frame, 100 + i)) < 1e-9);
        QCOMPARE(frameY(frame, 107), top);
        QCOMPARE(frameY(frame, 98), bottom);
    }

private:
    bool runSample(VpocPage& page)
    {
        page.setInputFile(m_sample);
        QSignalSpy finished(&page, &VpocPage::finished);
        page.run();
        return finished.wait(60000) && finished.at(0).at(0).toBool() && page.hasResults();
    }
};

QTEST_MAIN(TestVpocPage)
#include "tst_vpoc_page.moc"
