// The Probes page's run bar: its choices mapped to the stale banner's choice and to the runs, Run and Cancel by
// whether a run goes on, a change said once.
#include "ui/probes/probe_form.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;

namespace {

QPushButton* button(ProbeForm& form, const char* text)
{
    for (auto* b : form.findChildren<QPushButton*>())
        if (b->text() == QLatin1String(text))
            return b;
    return nullptr;
}

} // namespace

class TestProbeForm : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void choice_data()
    {
        QTest::addColumn<double>("timeout");
        QTest::addColumn<bool>("variants");
        QTest::addColumn<QStringList>("environments");
        QTest::addColumn<int>("changes"); // changed() emitted by the two setters
        QTest::newRow("defaults") << 30.0 << false << QStringList {"libtorch"} << 0;
        QTest::newRow("short timeout") << 5.0 << false << QStringList {"libtorch", "python:/usr/bin/python3"} << 1;
        QTest::newRow("variants on") << 30.0 << true << QStringList {"python:/usr/bin/python3"} << 1;
        QTest::newRow("both") << 600.0 << true << QStringList {} << 2;
        QTest::newRow("timeout clamped to 1 s") << 0.2 << false << QStringList {"libtorch"} << 1;
    }
    void choice()
    {
        QFETCH(double, timeout);
        QFETCH(bool, variants);
        QFETCH(QStringList, environments);
        QFETCH(int, changes);
        ProbeForm form;
        QCOMPARE(form.timeoutSeconds(), 30.0);
        QVERIFY(!form.ruleVariants());
        QSignalSpy changed(&form, &ProbeForm::changed);
        form.setTimeoutSeconds(timeout);
        form.setRuleVariants(variants);
        QCOMPARE(changed.size(), changes);
        const double shown = std::max(1.0, timeout);
        const ProbeRunChoice c = form.choice(environments);
        QCOMPARE(c.environments, environments);
        QCOMPARE(c.timeoutS, shown);
        QCOMPARE(c.ruleVariants, variants);
        const auto runs = form.runs(environments);
        QCOMPARE(runs.size(), static_cast<std::size_t>(environments.size()));
        for (const auto& r : runs)
            QCOMPARE(static_cast<double>(r.timeout.count()), shown * 1000);
    }

    void runAndCancel_data()
    {
        QTest::addColumn<bool>("running");
        QTest::newRow("idle") << false;
        QTest::newRow("running") << true;
    }
    void runAndCancel()
    {
        QFETCH(bool, running);
        ProbeForm form;
        form.setRunning(running);
        QCOMPARE(button(form, "Run all probes")->isEnabled(), !running);
        QCOMPARE(button(form, "Cancel")->isEnabled(), running);
        QSignalSpy run(&form, &ProbeForm::runClicked);
        QSignalSpy cancel(&form, &ProbeForm::cancelClicked);
        button(form, "Run all probes")->click();
        button(form, "Cancel")->click();
        QCOMPARE(run.size(), running ? 0 : 1);
        QCOMPARE(cancel.size(), running ? 1 : 0);
    }
};

QTEST_MAIN(TestProbeForm)
#include "tst_probe_form.moc"
