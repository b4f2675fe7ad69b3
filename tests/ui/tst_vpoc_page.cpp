// The VPOC page: a run on the sample data in the worker thread, the session table, charts, exports,
// bad input, cancel; and the histogram geometry with data rows.
#include "tests/common/sample_data_fixture.h"
#include "ui/vpoc/option_changes.h"
#include "ui/vpoc/profile_geometry.h"
#include "ui/vpoc/session_time_axis.h"
#include "ui/vpoc/session_model.h"
#include "ui/vpoc/volume_profile_view.h"
#include "ui/vpoc/vpoc_form.h"
#include "ui/vpoc/vpoc_page.h"

#include <QAbstractItemModelTester>
#include <cmath>
#include <QCategoryAxis>
#include <QValueAxis>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineSeries>
#include <QProgressBar>
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
        m_sample = test::writeSampleBars(m_dir, 5, QStringLiteral("sample.csv"));
    }

    void geometry_data()
    {
        QTest::addColumn<QList<qulonglong>>("volume");
        QTest::addColumn<QList<double>>("widths");
        QTest::addColumn<QList<int>>("kinds"); // 0 outside, 1 value area, 2 POC
        QTest::addColumn<qulonglong>("scaleTop"); // the volume axis' top (0: the largest level)
        // low tick 100, POC 101, value area 100..102, area 100 x 40 px (10 px per level).
        QTest::newRow("peak in middle") << QList<qulonglong> {5, 10, 5, 1} << QList<double> {50, 100, 50, 10} << QList<int> {1, 2, 1, 0} << qulonglong(0);
        QTest::newRow("all zero") << QList<qulonglong> {0, 0, 0, 0} << QList<double> {0, 0, 0, 0} << QList<int> {1, 2, 1, 0} << qulonglong(0);
        // Against the scale's round top: 41 contracts on a 0..50 axis reach 82 % of the width.
        QTest::newRow("scale top 50") << QList<qulonglong> {20, 41, 5, 0} << QList<double> {40, 82, 10, 0} << QList<int> {1, 2, 1, 0} << qulonglong(50);
    }
    void geometry()
    {
        QFETCH(QList<qulonglong>, volume);
        QFETCH(QList<double>, widths);
        QFETCH(QList<int>, kinds);
        QFETCH(qulonglong, scaleTop);
        ProfileInput in;
        in.volume.assign(volume.begin(), volume.end());
        in.lowTick = 100;
        in.pocTick = 101;
        in.valTick = 100;
        in.vahTick = 102;
        const QRectF area(0, 0, 100, 40);
        const auto bars = layoutProfile(in, area, scaleTop);
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
        // Counts with thousands separators, whatever the system's locale ("1,234,567").
        const auto* sessions = page.sessionModel();
        const QString volume = sessions->index(sessions->rowCount() - 1, SessionModel::VolumeColumn).data().toString();
        QVERIFY(s.volume >= 1000);
        QVERIFY2(volume.contains(QLatin1Char(',')), qPrintable(volume));
        QCOMPARE(QString(volume).remove(QLatin1Char(',')), QString::number(qulonglong(s.volume)));
        // The price axis sits on the 0.25 grid: its anchor, step and ends are whole ticks, labels with two decimals.
        auto* priceAxis = page.priceChart()->findChild<QValueAxis*>(QStringLiteral("priceAxis"));
        if (!priceAxis)
            for (auto* axis : page.priceChart()->axes(Qt::Vertical))
                priceAxis = qobject_cast<QValueAxis*>(axis);
        QVERIFY(priceAxis);
        for (double v : {priceAxis->tickAnchor(), priceAxis->tickInterval(), priceAxis->min(), priceAxis->max()})
            QVERIFY2(std::fabs(v / 0.25 - std::round(v / 0.25)) < 1e-9, qPrintable(QString::number(v, 'f', 6)));
        QCOMPARE(priceAxis->labelFormat(), QStringLiteral("%.2f"));
        QTRY_VERIFY(page.profileView()->scaleStep() > 0); // the volume-by-price chart has its scale

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
        // The file: a pasted error, not a CSV. Said whole (the hint too), in the file's own case, brackets
        // closed.
        QTest::newRow("not a CSV") << QByteArray("Error: CUDA out of memory. Tried to allocate 2.00 GiB\nmore text\n")
                                   << "not market data: the first line (\"Error: CUDA out of memory. Tried to allocate 2.00 GiB\") "
                                      "names no column of bars or trades; give a CSV whose header has timestamp";
        QTest::newRow("header of another kind") << QByteArray("Timestamp,Bid,Ask,Volume\n2024-03-04 09:30:00,1,2,3\n")
                                                << "cannot tell bars from trades (the header has: Timestamp, Bid, Ask, Volume)";
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
        QVERIFY(page.statusIsError());
        QVERIFY(page.detailText().isEmpty()); // nothing hidden under Details
        QCOMPARE(page.statusText().count(QLatin1Char('(')), page.statusText().count(QLatin1Char(')')));
        // The progress bar says nothing of a run that failed (it read "0%": walkthrough 2026-11-27 problem 18).
        auto* bar = page.findChild<QProgressBar*>();
        QVERIFY(bar);
        QVERIFY2(bar->text().isEmpty(), qPrintable(bar->text()));
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

    // The options a result was computed with, and those the form changed since (input, backend, VRAM budget: no).
    void optionChanges_data()
    {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QStringList>("changes");
        QTest::newRow("nothing") << "" << QStringList {};
        QTest::newRow("value area") << "va" << QStringList {QStringLiteral("value area 80 %")};
        QTest::newRow("tick") << "tick" << QStringList {QStringLiteral("tick 0.5")};
        QTest::newRow("session") << "session" << QStringList {QStringLiteral("session rth")};
        QTest::newRow("distribution") << "distribution" << QStringList {QStringLiteral("distribution close")};
        QTest::newRow("developing") << "developing" << QStringList {QStringLiteral("developing values off")};
        QTest::newRow("other file") << "input" << QStringList {};
        QTest::newRow("backend") << "backend" << QStringList {};
        QTest::newRow("VRAM budget") << "vram" << QStringList {};
    }
    void optionChanges()
    {
        QFETCH(QString, option);
        QFETCH(QStringList, changes);
        vpoc::VpocOptions ran;
        ran.input = "a.csv";
        ran.developing = true;
        vpoc::VpocOptions now = ran;
        if (option == QStringLiteral("va"))
            now.profile.vaBasisPoints = 8000;
        else if (option == QStringLiteral("tick"))
            now.read.tick = vpoc::Tick::parse("0.5");
        else if (option == QStringLiteral("session"))
            now.session = vpoc::SessionRule::parse("rth", "America/New_York");
        else if (option == QStringLiteral("distribution"))
            now.profile.distribution = vpoc::Distribution::Close;
        else if (option == QStringLiteral("developing"))
            now.developing = false;
        else if (option == QStringLiteral("input"))
            now.input = "b.csv";
        else if (option == QStringLiteral("backend"))
            now.backend = vpoc::Backend::Cpu;
        else if (option == QStringLiteral("vram"))
            now.vramBudgetMiB = 64;
        QCOMPARE(vpocOptionChanges(ran, now), changes);
        QCOMPARE(vpocOptionsSummary(ran), QStringLiteral("value area 70 %, tick 0.25, session globex"));
        if (option == QStringLiteral("distribution"))
            QCOMPARE(vpocOptionsSummary(now), QStringLiteral("value area 70 %, tick 0.25, session globex, distribution close"));
    }

    // After a run, a changed value area, tick or session marks the results out of date (kept, exports off) until
    // the next run; the same option back clears the mark.
    void changedOptionMarksResults_data()
    {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("now");
        QTest::addColumn<bool>("rerunWorks"); // the sample's prices are on a 0.25 grid: a run with tick 0.5 fails
        QTest::newRow("value area 70 -> 80 %") << "vpoc-va" << "value area 80 %" << true;
        QTest::newRow("tick 0.25 -> 0.5") << "vpoc-tick" << "tick 0.5" << false;
        QTest::newRow("session globex -> rth") << "vpoc-session" << "session rth" << true;
    }
    void changedOptionMarksResults()
    {
        QFETCH(QString, option);
        QFETCH(QString, now);
        QFETCH(bool, rerunWorks);
        VpocPage page;
        page.resize(1280, 720);
        page.show();
        QVERIFY(runSample(page));
        auto* csv = page.findChild<QPushButton*>(QStringLiteral("vpocExportCsv"));
        auto* png = page.findChild<QPushButton*>(QStringLiteral("vpocExportPng"));
        auto* banner = page.findChild<QLabel*>(QStringLiteral("vpocStale"));
        auto* resultsFor = page.findChild<QLabel*>(QStringLiteral("vpocResultsFor"));
        QVERIFY(csv && png && banner && resultsFor);
        QVERIFY(!page.resultsStale() && !banner->isVisible() && csv->isEnabled());
        const QString ran = QStringLiteral("value area 70 %, tick 0.25, session globex");
        QVERIFY2(resultsFor->text().contains(ran), qPrintable(resultsFor->text()));
        const int sessions = page.sessionModel()->rowCount();
        const int series = page.priceChart()->series().size();

        auto change = [&](bool changed) {
            if (option == QStringLiteral("vpoc-va"))
                page.findChild<QDoubleSpinBox*>(option)->setValue(changed ? 80 : 70);
            else if (option == QStringLiteral("vpoc-tick"))
                page.findChild<QDoubleSpinBox*>(option)->setValue(changed ? 0.5 : 0.25);
            else
                page.findChild<QComboBox*>(option)->setCurrentText(changed ? QStringLiteral("rth") : QStringLiteral("globex"));
        };
        change(true);
        QVERIFY(page.resultsStale());
        QVERIFY(banner->isVisible());
        QVERIFY2(banner->text().contains(QStringLiteral("computed with ") + ran), qPrintable(banner->text()));
        QVERIFY2(banner->text().contains(QStringLiteral("options changed since (now ") + now + QLatin1Char(')')), qPrintable(banner->text()));
        QVERIFY2(banner->text().contains(QStringLiteral("press Run again")), qPrintable(banner->text()));
        QVERIFY(!csv->isEnabled() && !png->isEnabled());
        QVERIFY(resultsFor->text().contains(ran)); // still says what the shown results are
        // The results stay visible.
        QCOMPARE(page.sessionModel()->rowCount(), sessions);
        QCOMPARE(page.priceChart()->series().size(), series);
        QVERIFY(!page.profileView()->profile().volume.empty());

        // Looked at by a person: the page as a 1024x640 and a 1920x1080 window hold it (less the page list and menus).
        QDir().mkpath(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots"));
        for (const QSize size : {QSize(850, 540), QSize(1750, 1000)}) {
            page.resize(size);
            QTest::qWait(50);
            QVERIFY(page.grab().save(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots/vpoc-stale-%1-%2.png").arg(option).arg(size.width())));
        }
        page.resize(1280, 720);

        change(false);
        QVERIFY(!page.resultsStale() && !banner->isVisible() && csv->isEnabled());

        change(true);
        QSignalSpy finished(&page, &VpocPage::finished);
        page.run();
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.at(0).at(0).toBool() == rerunWorks, qPrintable(page.statusText()));
        QVERIFY(!page.resultsStale() && !banner->isVisible());
        QCOMPARE(csv->isEnabled(), rerunWorks); // a failed run clears the results: nothing to export
        QCOMPARE(png->isEnabled(), rerunWorks);
        if (rerunWorks)
            QVERIFY2(resultsFor->text().contains(now), qPrintable(resultsFor->text()));
        if (rerunWorks)
            change(false); // the PNG shows the banner
        QVERIFY(page.grab().save(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots/vpoc-stale-") + option + QStringLiteral(".png")));
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

    // The checkbox reads "Developing POC/VAH/VAL": all three are drawn, one point a bar, VAL <= POC <= VAH at each;
    // off, none (only the developing POC was drawn: walkthrough 2026-11-27 third, problem 11). The price axis says its
    // unit and grid.
    void developingLevels_data()
    {
        QTest::addColumn<bool>("developing");
        QTest::newRow("on") << true;
        QTest::newRow("off") << false;
    }
    void developingLevels()
    {
        QFETCH(bool, developing);
        VpocPage page;
        auto* box = qobject_cast<QCheckBox*>(page.form()->fieldWidget("developing-values"));
        QVERIFY(box);
        box->setChecked(developing);
        QVERIFY(runSample(page));
        QMap<QString, QLineSeries*> lines;
        for (auto* series : page.priceChart()->series())
            lines[series->name()] = static_cast<QLineSeries*>(series);
        for (const char* name : {"developing POC", "developing VAH", "developing VAL"})
            QVERIFY2(lines.contains(QString::fromLatin1(name)) == developing, name);
        if (developing) {
            const auto poc = lines.value(QStringLiteral("developing POC"))->points();
            const auto vah = lines.value(QStringLiteral("developing VAH"))->points();
            const auto val = lines.value(QStringLiteral("developing VAL"))->points();
            QVERIFY(!poc.isEmpty());
            QCOMPARE(vah.size(), poc.size());
            QCOMPARE(val.size(), poc.size());
            for (qsizetype i = 0; i < poc.size(); ++i)
                QVERIFY2(val[i].y() <= poc[i].y() && poc[i].y() <= vah[i].y(),
                         qPrintable(QStringLiteral("bar %1: VAL %2, POC %3, VAH %4").arg(i).arg(val[i].y()).arg(poc[i].y()).arg(vah[i].y())));
        }
        auto* price = page.priceChart()->findChild<QValueAxis*>(QStringLiteral("priceAxis"));
        if (!price)
            for (auto* axis : page.priceChart()->axes(Qt::Vertical))
                price = qobject_cast<QValueAxis*>(axis);
        QVERIFY(price);
        QCOMPARE(price->titleText(), QStringLiteral("price (the data's units, tick 0.25)"));
    }

    // Without sessions the volume view says how to get some, not "Select a session" over an empty table.
    void emptyProfileSaysWhatToDo()
    {
        VpocPage page;
        QVERIFY(page.profileView()->emptyText().startsWith(QStringLiteral("No sessions yet")));
        const QString path = m_dir.filePath(QStringLiteral("not-market-data.txt"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("Error: CUDA out of memory\n");
        f.close();
        page.setInputFile(path);
        QSignalSpy finished(&page, &VpocPage::finished);
        page.run();
        QVERIFY(finished.wait(30000));
        QVERIFY(!finished.at(0).at(0).toBool());
        QVERIFY2(page.profileView()->emptyText().startsWith(QStringLiteral("No sessions yet")),
                 qPrintable(page.profileView()->emptyText()));
        QVERIFY(runSample(page));
        QCOMPARE(page.profileView()->emptyText(), QStringLiteral("Select a session")); // a session is shown
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
        // Sessions under an hour are labelled too, on round minutes (es_tradestation.csv: three bars, 09:30 to 09:32).
        QTest::newRow("three bars") << "2024-03-11T13:30:00Z" << "2024-03-11T13:32:00Z" << "America/New_York"
                                    << QStringList {"Mon 09:30", "Mon 09:31", "Mon 09:32"};
        QTest::newRow("45 minutes") << "2024-03-11T13:30:00Z" << "2024-03-11T14:15:00Z" << "America/New_York"
                                    << QStringList {"Mon 09:30", "Mon 09:40", "Mon 09:50", "Mon 10:00", "Mon 10:10"};
        QTest::newRow("starts mid-minute") << "2024-03-11T13:30:20Z" << "2024-03-11T13:33:00Z" << "America/New_York"
                                           << QStringList {"Mon 09:31", "Mon 09:32", "Mon 09:33"};
        QTest::newRow("one instant") << "2024-03-11T13:30:00Z" << "2024-03-11T13:30:00Z" << "America/New_York"
                                     << QStringList {};
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

    // Price labels on the tick grid (ES 0.25: 5095.75, never 5095.81), a round step that is whole ticks.
    void priceTicks_data()
    {
        QTest::addColumn<int>("low");
        QTest::addColumn<int>("high");
        QTest::addColumn<double>("tick");
        QTest::addColumn<int>("intervals");
        QTest::addColumn<double>("stepPrice");
        QTest::newRow("ES session, 6 intervals") << 20345 << 20420 << 0.25 << 6 << 5.0;
        QTest::newRow("ES narrow") << 20345 << 20349 << 0.25 << 4 << 1.0;
        QTest::newRow("tick 0.1") << 49000 << 49300 << 0.1 << 5 << 10.0;
        QTest::newRow("tick 0.03125 (ZN)") << 3500 << 3540 << 0.03125 << 6 << 0.25;
        QTest::newRow("odd tick 0.3") << 100 << 130 << 0.3 << 4 << 6.0;
    }
    void priceTicks()
    {
        QFETCH(int, low);
        QFETCH(int, high);
        QFETCH(double, tick);
        QFETCH(int, intervals);
        QFETCH(double, stepPrice);
        const PriceTicks t = priceAxisTicks(low, high, tick, intervals);
        QVERIFY(t.lowTick <= low - 2 && t.highTick >= high + 2);
        QVERIFY(t.stepTicks >= 1);
        QCOMPARE(t.lowTick % t.stepTicks, 0);
        QCOMPARE(t.highTick % t.stepTicks, 0);
        QVERIFY((t.highTick - t.lowTick) / t.stepTicks <= intervals);
        QCOMPARE(double(t.stepTicks) * tick, stepPrice);
    }

    void volumeTicks_data()
    {
        QTest::addColumn<qulonglong>("peak");
        QTest::addColumn<int>("intervals");
        QTest::addColumn<qulonglong>("step");
        QTest::newRow("12,345 in 4") << qulonglong(12345) << 4 << qulonglong(5000);
        QTest::newRow("80 in 5") << qulonglong(80) << 5 << qulonglong(20);
        QTest::newRow("1 in 3") << qulonglong(1) << 3 << qulonglong(1);
        QTest::newRow("2.4M in 3") << qulonglong(2400000) << 3 << qulonglong(1000000);
    }
    void volumeTicks()
    {
        QFETCH(qulonglong, peak);
        QFETCH(int, intervals);
        QFETCH(qulonglong, step);
        const VolumeTicks t = volumeAxisTicks(peak, intervals);
        QCOMPARE(qulonglong(t.step), step);
        QVERIFY(t.top >= peak && t.top % t.step == 0 && t.top / t.step <= qulonglong(intervals));
        QCOMPARE(VolumeProfileView::volumeText(25000), QStringLiteral("25k"));
        QCOMPARE(VolumeProfileView::volumeText(1500000), QStringLiteral("1.5M"));
        QCOMPARE(VolumeProfileView::volumeText(800), QStringLiteral("800"));
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
