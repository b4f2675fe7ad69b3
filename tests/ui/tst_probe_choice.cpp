// Results know their inputs on the Probes page: what a run was started with and which choices changed since.
#include "ui/probes/probe_option_changes.h"

#include <QtTest>

using namespace stackscope::ui;

class TestProbeChoice : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void changes_data()
    {
        QTest::addColumn<QStringList>("environments");
        QTest::addColumn<double>("timeout");
        QTest::addColumn<bool>("variants");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("same") << QStringList { "libtorch", "python:/usr/bin/python3" } << 30.0 << false
                              << QStringList {};
        QTest::newRow("an environment off")
            << QStringList { "libtorch" } << 30.0 << false << QStringList { "environments libtorch" };
        QTest::newRow("timeout") << QStringList { "libtorch", "python:/usr/bin/python3" } << 10.0 << false
                                 << QStringList { "timeout 10 s" };
        QTest::newRow("variants on") << QStringList { "libtorch", "python:/usr/bin/python3" } << 30.0 << true
                                     << QStringList { "with the rules' fix variants" };
        QTest::newRow("none checked") << QStringList {} << 30.0 << false << QStringList { "no environment" };
    }
    void changes()
    {
        QFETCH(QStringList, environments);
        QFETCH(double, timeout);
        QFETCH(bool, variants);
        QFETCH(QStringList, expected);
        const ProbeRunChoice ran { { "libtorch", "python:/usr/bin/python3" }, 30, false };
        QCOMPARE(probeChoiceChanges(ran, { environments, timeout, variants }), expected);
        QCOMPARE(probeChoiceSummary(ran),
            QStringLiteral("environments libtorch, Python /usr/bin/python3; timeout 30 s; "
                           "without the rules' fix variants"));
    }
};

QTEST_MAIN(TestProbeChoice)
#include "tst_probe_choice.moc"
