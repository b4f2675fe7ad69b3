// The VPOC form made from core's table of fields, read back through the fields' parse functions; the mark on results
// out of date; and the sessions table fitting the page's width at 1024x640 and 1920x1080.
#include "tests/common/sample_data_fixture.h"
#include "core/vpoc/vpoc_options.h"
#include "ui/vpoc/option_changes.h"
#include "ui/vpoc/session_model.h"
#include "ui/vpoc/vpoc_form.h"
#include "ui/vpoc/vpoc_page.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;

namespace {

QString valueText(const char* field, const vpoc::VpocRequest& r)
{
    return QString::fromStdString(vpoc::fieldText(vpoc::vpocField(field).value(r)));
}

// Sets a form widget from text as a person would: picks or types it, checks or unchecks.
void setWidget(QWidget* w, const QString& text)
{
    if (auto* combo = qobject_cast<QComboBox*>(w))
        combo->setCurrentText(text);
    else if (auto* spin = qobject_cast<QDoubleSpinBox*>(w))
        spin->setValue(text.toDouble());
    else if (auto* whole = qobject_cast<QSpinBox*>(w))
        whole->setValue(text.toInt());
    else if (auto* check = qobject_cast<QCheckBox*>(w))
        check->setChecked(text == QStringLiteral("true"));
    else if (auto* edit = qobject_cast<QLineEdit*>(w))
        edit->setText(text);
}

} // namespace

class TestVpocForm : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_sample;

private Q_SLOTS:
    void initTestCase()
    {
        m_sample = test::writeSampleBars(m_dir, 3, QStringLiteral("sample.csv"));
    }

    // A widget for every field the table labels, holding the page's default; untouched, the form is those defaults.
    void formFromTable()
    {
        VpocForm form;
        form.setInputFile(QStringLiteral("  in.csv "));
        const vpoc::VpocRequest defaults = VpocForm::pageDefaults();
        const vpoc::VpocRequest request = form.request();
        int widgets = 0;
        for (const auto& f : vpoc::vpocFields()) {
            QWidget* w = form.fieldWidget(f.name);
            QCOMPARE(w != nullptr, f.label != nullptr);
            if (w) {
                ++widgets;
                QCOMPARE(w->objectName(), QStringLiteral("vpoc-%1").arg(QLatin1String(f.name)));
                QVERIFY2(!w->toolTip().isEmpty(), f.name);
            }
            if (qstrcmp(f.name, "input") != 0)
                QCOMPARE(valueText(f.name, request), valueText(f.name, defaults));
        }
        QCOMPARE(widgets, 12);
        QCOMPARE(request.options.input, std::string("in.csv"));
        QVERIFY(request.options.developing && request.options.profile.keepProfiles);
        QVERIFY(!request.options.read.timeZoneGiven); // a zone left as it is was not given
    }

    void changedFieldsParsed_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("value");
        QTest::newRow("session window") << "session"
                                        << "08:30-15:15"
                                        << "08:30-15:15";
        QTest::newRow("session zone") << "session-tz"
                                      << "Europe/London"
                                      << "Europe/London";
        QTest::newRow("value area") << "va"
                                    << "68.5"
                                    << "68.5";
        QTest::newRow("tick") << "tick"
                              << "0.1"
                              << "0.1";
        QTest::newRow("distribution") << "distribution"
                                      << "close"
                                      << "close";
        QTest::newRow("VA method") << "va-method"
                                   << "single"
                                   << "single";
        QTest::newRow("backend") << "backend"
                                 << "cpu"
                                 << "cpu";
        QTest::newRow("VRAM budget") << "vram-budget"
                                     << "64"
                                     << "64";
        QTest::newRow("skip bad rows") << "skip-bad"
                                       << "true"
                                       << "true";
        QTest::newRow("developing off") << "developing-values"
                                        << "false"
                                        << "false";
    }
    void changedFieldsParsed()
    {
        QFETCH(QString, field);
        QFETCH(QString, text);
        QFETCH(QString, value);
        VpocForm form;
        QSignalSpy changed(&form, &VpocForm::changed);
        setWidget(form.fieldWidget(field.toLatin1().constData()), text);
        QVERIFY(changed.size() >= 1);
        QCOMPARE(valueText(field.toLatin1().constData(), form.request()), value);
    }

    void dataZoneGiven()
    {
        VpocForm form;
        setWidget(form.fieldWidget("tz"), QStringLiteral("UTC"));
        QVERIFY(form.request().options.read.timeZoneGiven);
    }

    void badFieldSaysWhich()
    {
        VpocForm form;
        setWidget(form.fieldWidget("session"), QStringLiteral("9-5"));
        try {
            form.request();
            QFAIL("the form read a session of 9-5");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("--session 9-5")), e.what());
        }
    }

    void resultsMark_data()
    {
        QTest::addColumn<bool>("shown");
        QTest::addColumn<QString>("origin");
        QTest::addColumn<QString>("formInput");
        QTest::addColumn<QStringList>("changes");
        QTest::addColumn<bool>("stale");
        QTest::addColumn<bool>("exports");
        QTest::addColumn<QString>("resultsForHas");
        QTest::addColumn<QString>("bannerHas");
        const QString ran = QStringLiteral("value area 70 %, tick 0.25, session globex");
        QTest::newRow("nothing shown") << false << ""
                                       << "/d/a.csv" << QStringList {} << false << false << ""
                                       << "";
        QTest::newRow("current") << true << ""
                                 << "/d/a.csv" << QStringList {} << false << true << "Results for a.csv: " + ran << "";
        QTest::newRow("other file") << true << ""
                                    << "/d/b.csv" << QStringList {} << true << false << "not the file above"
                                    << "these results are for a.csv";
        QTest::newRow("option changed") << true << ""
                                        << "/d/a.csv" << QStringList { "value area 80 %" } << true << false << ran
                                        << "options changed since (now value area 80 %)";
        QTest::newRow("a report's run") << true << "report r.zip"
                                        << "" << QStringList {} << false << true << "From report r.zip (a.csv)"
                                        << "";
    }
    void resultsMark()
    {
        QFETCH(bool, shown);
        QFETCH(QString, origin);
        QFETCH(QString, formInput);
        QFETCH(QStringList, changes);
        QFETCH(bool, stale);
        QFETCH(bool, exports);
        QFETCH(QString, resultsForHas);
        QFETCH(QString, bannerHas);
        vpoc::VpocResult r;
        r.options.input = "/d/a.csv";
        const ResultsMark m
            = ui::resultsMark(shown ? &r : nullptr, QStringLiteral("/d/a.csv"), origin, formInput, changes);
        QCOMPARE(m.stale, stale);
        QCOMPARE(m.exportsEnabled, exports);
        QCOMPARE(m.resultsForWarns, stale);
        QVERIFY2(m.resultsFor.contains(resultsForHas), qPrintable(m.resultsFor));
        QVERIFY2(m.banner.contains(bannerHas), qPrintable(m.banner));
        QCOMPARE(m.banner.isEmpty(), !stale);
    }

    // 1024x640 and 1920x1080 windows less the page list and menus: the sessions table fits without scrolling
    // sideways; the times left out of its columns are in each row's tooltip. After a failed run (an empty table,
    // where the times fit) the next run's rows are fitted again (walkthrough 2026-11-27: POC/VAH/VAL off the right).
    void sessionsTableFits_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("times"); // the first and last bar's times have columns of their own
        QTest::addColumn<QString>("session");
        QTest::addColumn<bool>("failFirst"); // a good run, then one that fails (tick 0.5 off the data's grid) first
        QTest::addColumn<QSize>("resizeTo"); // the page made this size after the run (empty: left as it is)
        QTest::newRow("1024x640") << QSize(850, 540) << false << "globex" << false << QSize();
        QTest::newRow("1920x1080") << QSize(1750, 1000) << true << "globex" << false << QSize();
        QTest::newRow("1024x640 rth") << QSize(850, 540) << false << "rth" << false << QSize();
        QTest::newRow("1024x640 rth after a failed run") << QSize(850, 540) << false << "rth" << true << QSize();
        QTest::newRow("1920x1080 made 1024x640") << QSize(1750, 1000) << false << "rth" << false << QSize(850, 540);
        QTest::newRow("1024x640 made 1920x1080") << QSize(850, 540) << true << "rth" << false << QSize(1750, 1000);
    }
    void sessionsTableFits()
    {
        QFETCH(QSize, size);
        QFETCH(bool, times);
        QFETCH(QString, session);
        QFETCH(bool, failFirst);
        QFETCH(QSize, resizeTo);
        VpocPage page;
        page.resize(size);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QSignalSpy finished(&page, &VpocPage::finished);
        page.setInputFile(m_sample);
        setWidget(page.findChild<QWidget*>(QStringLiteral("vpoc-session")), session);
        if (failFirst) {
            page.run();
            QVERIFY(finished.wait(60000));
            QVERIFY(finished.takeFirst().at(0).toBool());
            setWidget(page.findChild<QWidget*>(QStringLiteral("vpoc-tick")), QStringLiteral("0.5"));
            page.run();
            QVERIFY(finished.wait(60000));
            QVERIFY(!finished.takeFirst().at(0).toBool());
            setWidget(page.findChild<QWidget*>(QStringLiteral("vpoc-tick")), QStringLiteral("0.25"));
            QTest::qWait(100);
        }
        page.setInputFile(m_sample);
        page.run();
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(page.statusText()));
        QTest::qWait(200);
        if (resizeTo.isValid()) {
            page.resize(resizeTo);
            QTest::qWait(200);
        }
        auto* table = page.findChild<QTableView*>(QStringLiteral("vpocSessions"));
        QVERIFY(table);
        QCOMPARE(table->horizontalScrollBar()->maximum(), 0);
        int used = 0;
        for (int c = 0; c < SessionModel::NUM_COLUMNS; ++c)
            used += table->isColumnHidden(c) ? 0 : table->columnWidth(c);
        QVERIFY2(used <= table->viewport()->width(),
            qPrintable(QStringLiteral("%1 px of columns in %2 px").arg(used).arg(table->viewport()->width())));
        for (int c : { int(SessionModel::DateColumn), int(SessionModel::VolumeColumn), int(SessionModel::PocColumn) })
            QVERIFY(!table->isColumnHidden(c));
        QCOMPARE(!table->isColumnHidden(SessionModel::FirstColumn), times);
        QCOMPARE(!table->isColumnHidden(SessionModel::LastColumn), times);
        const QString tip = page.sessionModel()->index(0, SessionModel::PocColumn).data(Qt::ToolTipRole).toString();
        const QString first = page.sessionModel()->index(0, SessionModel::FirstColumn).data().toString();
        QVERIFY2(!first.isEmpty() && tip.contains(first), qPrintable(tip));
        QDir().mkpath(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots"));
        QVERIFY(page.grab().save(
            QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots/vpoc-fit-%1.png").arg(size.width())));
    }
};

QTEST_MAIN(TestVpocForm)
#include "tst_vpoc_form.moc"
