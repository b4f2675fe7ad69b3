// Version parsing and series-level ranges used by rule applicability and snapshot triggers.
#include "core/diagnosis/version_range.h"

#include <QtTest>

using namespace stackscope;

class TestVersionRange : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parsesVersions_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QList<int>>("parts");
        QTest::newRow("torch rocm") << "2.5.1+rocm6.2" << QList<int> {2, 5, 1};
        QTest::newRow("hip") << "6.2.41133-dd7f95766" << QList<int> {6, 2, 41133};
        QTest::newRow("dpkg") << "5.2.3-8" << QList<int> {5, 2, 3};
        QTest::newRow("v prefix") << "v7.10.0" << QList<int> {7, 10, 0};
        QTest::newRow("dev") << "2.6.0.dev20241014" << QList<int> {2, 6, 0};
        QTest::newRow("not a version") << "unknown" << QList<int> {};
    }
    void parsesVersions()
    {
        QFETCH(QString, text);
        QFETCH(QList<int>, parts);
        const auto v = parseVersion(text.toStdString());
        if (parts.isEmpty()) {
            QVERIFY(!v);
            return;
        }
        QVERIFY(v);
        QCOMPARE(QList<int>(v->begin(), v->end()), parts);
    }

    void ranges_data()
    {
        QTest::addColumn<QString>("range");
        QTest::addColumn<QString>("version");
        QTest::addColumn<bool>("inside");
        QTest::newRow(">=2.4 2.4.0") << ">=2.4" << "2.4.0" << true;
        QTest::newRow(">=2.4 2.3.1") << ">=2.4" << "2.3.1" << false;
        QTest::newRow("<=2.10 2.10.1 (series)") << "<=2.10" << "2.10.1+rocm7.1" << true;
        QTest::newRow("<=2.10 2.9") << "<=2.10" << "2.9.0" << true;
        QTest::newRow("<=2.10 2.11") << "<=2.10" << "2.11.0" << false;
        QTest::newRow(">=7.9 7.10 numeric") << ">=7.9" << "7.10.0" << true;
        QTest::newRow(">=7.9 7.8.1") << ">=7.9" << "7.8.1" << false;
        QTest::newRow("window inside") << ">=2.2,<=2.6" << "2.6.0.dev20241014" << true;
        QTest::newRow("window above") << ">=2.2, <=2.6" << "2.7.0" << false;
        QTest::newRow("==2.6") << "==2.6" << "2.6.3" << true;
        QTest::newRow("<2.7 2.7.0") << "<2.7" << "2.7.0" << false;
        QTest::newRow(">6.2 6.2.4") << ">6.2" << "6.2.4" << false;
        QTest::newRow(">6.2.3 6.2.4") << ">6.2.3" << "6.2.4" << true;
    }
    void ranges()
    {
        QFETCH(QString, range);
        QFETCH(QString, version);
        QFETCH(bool, inside);
        const auto v = parseVersion(version.toStdString());
        QVERIFY(v);
        QCOMPARE(VersionRange::parse(range.toStdString()).contains(*v), inside);
    }

    void rejectsBadRanges_data()
    {
        QTest::addColumn<QString>("range");
        QTest::newRow("no operator") << "2.4";
        QTest::newRow("no number") << ">=";
        QTest::newRow("letters") << ">=2.x";
        QTest::newRow("empty part") << ">=2.4,";
        QTest::newRow("empty") << "";
    }
    void rejectsBadRanges()
    {
        QFETCH(QString, range);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, VersionRange::parse(range.toStdString()));
    }
};

QTEST_GUILESS_MAIN(TestVersionRange)
#include "tst_version_range.moc"
