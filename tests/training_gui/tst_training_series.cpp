// The Training charts' math: bounded series (old points merged, new ones exact) and axis ranges.
#include "ui/training/training_series.h"

#include <QtTest>

using namespace stackscope::ui;

class TestTrainingSeries : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void decimation_data()
    {
        QTest::addColumn<int>("capacity");
        QTest::addColumn<int>("appended");
        QTest::newRow("under capacity") << 100 << 50;
        QTest::newRow("exactly full") << 100 << 100;
        QTest::newRow("one over") << 100 << 101;
        QTest::newRow("long run") << 100 << 100000;
        QTest::newRow("tiny capacity is raised to 4") << 1 << 1000;
    }
    void decimation()
    {
        QFETCH(int, capacity);
        QFETCH(int, appended);
        DecimatingSeries s(capacity);
        for (int i = 0; i < appended; ++i)
            s.append(i, 2.0 * i);
        QVERIFY(s.size() <= s.capacity());
        QCOMPARE(s.size() == appended, appended <= s.capacity());
        const auto& p = s.points();
        for (int i = 1; i < p.size(); ++i)
            QVERIFY2(p[i].x() > p[i - 1].x(), "points stay in x order");
        for (const QPointF& q : p)
            QCOMPARE(q.y(), 2.0 * q.x()); // means of points on a line stay on it
        // The newest point is never merged, and the first half of the capacity's newest points are exact.
        QCOMPARE(p.last().x(), double(appended - 1));
        const int exact = std::min(appended, s.capacity() / 2);
        for (int k = 0; k < exact; ++k)
            QCOMPARE(p[p.size() - 1 - k].x(), double(appended - 1 - k));
    }

    void truncate()
    {
        DecimatingSeries s(10);
        for (int i = 0; i <= 6; ++i)
            s.append(i * 0.5, i);
        s.truncateAfter(2.0);
        QCOMPARE(s.size(), 5);
        QCOMPARE(s.points().last().x(), 2.0);
        s.truncateAfter(-1);
        QVERIFY(s.isEmpty());
    }

    void logRanges_data()
    {
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::addColumn<double>("min");
        QTest::addColumn<double>("max");
        QTest::newRow("inside one decade") << 0.9 << 1.1 << 0.1 << 10.0;
        QTest::newRow("two decades") << 0.05 << 2.0 << 0.01 << 10.0;
        QTest::newRow("a power of ten") << 1.0 << 1.0 << 1.0 << 10.0;
        QTest::newRow("large values") << 250.0 << 90000.0 << 100.0 << 100000.0;
    }
    void logRanges()
    {
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(double, min);
        QFETCH(double, max);
        ValueSpan span;
        span.include({QPointF(0, lo), QPointF(1, hi), QPointF(2, 0.0), QPointF(3, -1.0)}, true);
        const AxisRange r = logRange(span);
        QCOMPARE(r.min, min);
        QCOMPARE(r.max, max);
    }

    void linearRanges_data()
    {
        QTest::addColumn<QList<double>>("values");
        QTest::addColumn<bool>("fromZero");
        QTest::addColumn<double>("min");
        QTest::addColumn<double>("max");
        QTest::newRow("empty") << QList<double> {} << true << 0.0 << 1.0;
        QTest::newRow("from zero") << QList<double> {10, 20} << true << 0.0 << 21.0;
        QTest::newRow("padded") << QList<double> {10, 20} << false << 9.5 << 20.5;
        QTest::newRow("flat") << QList<double> {5, 5} << false << 4.5 << 5.5;
        QTest::newRow("flat from zero") << QList<double> {5} << true << 0.0 << 5.25;
        QTest::newRow("all zero") << QList<double> {0, 0} << true << 0.0 << 1.0;
    }
    void linearRanges()
    {
        QFETCH(QList<double>, values);
        QFETCH(bool, fromZero);
        QFETCH(double, min);
        QFETCH(double, max);
        QList<QPointF> points;
        for (double v : values)
            points.append(QPointF(points.size(), v));
        ValueSpan span;
        span.include(points);
        const AxisRange r = linearRange(span, fromZero);
        QCOMPARE(r.min, min);
        QCOMPARE(r.max, max);
    }

    void niceAxes_data()
    {
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::addColumn<double>("min");
        QTest::addColumn<double>("max");
        QTest::addColumn<int>("ticks");
        QTest::newRow("0 to 242") << 0.0 << 242.0 << 0.0 << 250.0 << 6;
        QTest::newRow("losses") << 0.315 << 3.1 << 0.0 << 4.0 << 5;
        QTest::newRow("narrow") << 0.91 << 0.97 << 0.9 << 0.98 << 5;
        QTest::newRow("negative, outward rounding would give 7 ticks") << -3.0 << 7.0 << -5.0 << 10.0 << 4;
        QTest::newRow("already round") << 0.0 << 1.0 << 0.0 << 1.0 << 6;
        QTest::newRow("degenerate") << 2.0 << 2.0 << 2.0 << 2.0 << 2;
    }
    void niceAxes()
    {
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(double, min);
        QFETCH(double, max);
        QFETCH(int, ticks);
        const NiceAxis n = niceAxis({lo, hi});
        QCOMPARE(n.min, min);
        QCOMPARE(n.max, max);
        QCOMPARE(n.ticks, ticks);
        QVERIFY(n.min <= lo && n.max >= hi);
        QVERIFY(n.ticks <= 6);
    }

    // Every tick in one fixed format: the decimals of the step.
    void axisFormats_data()
    {
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::addColumn<QString>("format");
        QTest::newRow("thousands of samples/s") << 0.0 << 4800.0 << QStringLiteral("%.0f");
        QTest::newRow("losses 0 to 4") << 0.315 << 3.1 << QStringLiteral("%.0f");
        QTest::newRow("narrow losses") << 0.91 << 0.97 << QStringLiteral("%.2f");
        QTest::newRow("k samples/s below one") << 0.0 << 0.9 << QStringLiteral("%.1f");
        QTest::newRow("quarter steps") << 0.0 << 1.0 << QStringLiteral("%.1f");
        QTest::newRow("small losses") << 0.0011 << 0.0019 << QStringLiteral("%.4f");
        QTest::newRow("degenerate") << 2.0 << 2.0 << QStringLiteral("%.0f");
    }
    void axisFormats()
    {
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(QString, format);
        QCOMPARE(axisLabelFormat(niceAxis({lo, hi})), format);
    }

    void epochTicks_data()
    {
        QTest::addColumn<double>("epochs");
        QTest::addColumn<double>("step");
        QTest::newRow("1") << 1.0 << 1.0;
        QTest::newRow("10") << 10.0 << 1.0;
        QTest::newRow("15") << 15.0 << 2.0;
        QTest::newRow("30") << 30.0 << 5.0;
        QTest::newRow("200") << 200.0 << 20.0;
        QTest::newRow("1000") << 1000.0 << 100.0;
    }
    void epochTicks()
    {
        QFETCH(double, epochs);
        QFETCH(double, step);
        QCOMPARE(epochTickStep(epochs), step);
    }

    void epochRanges_data()
    {
        QTest::addColumn<int>("planned");
        QTest::addColumn<double>("lastX");
        QTest::addColumn<double>("max");
        QTest::newRow("nothing yet") << 10 << 0.0 << 1.0;
        QTest::newRow("half way") << 10 << 5.0 << 5.0;
        QTest::newRow("grows to the plan") << 10 << 7.0 << 10.0;
        QTest::newRow("long run, early") << 300 << 7.0 << 10.0;
        QTest::newRow("long run, 12") << 300 << 12.0 << 20.0;
        QTest::newRow("long run, 160") << 300 << 160.0 << 200.0;
        QTest::newRow("long run, near the end") << 300 << 260.0 << 300.0;
        QTest::newRow("finished") << 6 << 6.0 << 6.0;
        QTest::newRow("past the plan") << 10 << 10.5 << 11.0;
    }
    void epochRanges()
    {
        QFETCH(int, planned);
        QFETCH(double, lastX);
        QFETCH(double, max);
        const AxisRange r = epochRange(planned, lastX);
        QCOMPARE(r.min, 0.0);
        QCOMPARE(r.max, max);
    }
};

QTEST_GUILESS_MAIN(TestTrainingSeries)
#include "tst_training_series.moc"
