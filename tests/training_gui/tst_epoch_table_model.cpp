// The per-epoch table model under QAbstractItemModelTester: rows, display text, sort values, best epoch.
#include "ui/training/epoch_table_model.h"
#include "ui/training/epoch_table_view.h"

#include <QHeaderView>

#include <QAbstractItemModelTester>
#include <QFont>
#include <QtTest>

using namespace stackscope::ui;

namespace {

EpochTable table(int epochs, int best)
{
    EpochTable t;
    for (int i = 1; i <= epochs; ++i)
        t.epochs.push_back({i, 1.0 / i, 1.5 / i, 1000.0 * i, 0.25 * i});
    t.bestEpoch = best;
    return t;
}

std::vector<double> column(int epochs, double numerator)
{
    std::vector<double> v;
    for (int i = 1; i <= epochs; ++i)
        v.push_back(numerator / i);
    return v;
}

QLocale numbers()
{
    QLocale l;
    l.setNumberOptions(l.numberOptions() & ~QLocale::OmitGroupSeparator);
    return l;
}

} // namespace

class TestEpochTableModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void rows_data()
    {
        QTest::addColumn<int>("epochs");
        QTest::addColumn<int>("best");
        QTest::newRow("empty") << 0 << 0;
        QTest::newRow("one") << 1 << 1;
        QTest::newRow("best in the middle") << 5 << 3;
        QTest::newRow("best not known yet") << 3 << 0;
    }
    void rows()
    {
        QFETCH(int, epochs);
        QFETCH(int, best);
        EpochTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setData(table(7, 7)); // replaced wholesale below
        model.setData(table(epochs, best));
        QCOMPARE(model.rowCount(), epochs);
        QCOMPARE(model.columnCount(), int(EpochTableModel::NUM_COLUMNS));
        QCOMPARE(model.headerData(EpochTableModel::ValLossColumn, Qt::Horizontal).toString(), QStringLiteral("Val loss"));
        for (int r = 0; r < epochs; ++r) {
            const int epoch = r + 1;
            const bool isBest = epoch == best;
            QCOMPARE(model.index(r, EpochTableModel::EpochColumn).data(EpochTableModel::SortRole).toInt(), epoch);
            QCOMPARE(model.index(r, EpochTableModel::ValLossColumn).data(EpochTableModel::SortRole).toDouble(), 1.5 / epoch);
            QCOMPARE(model.index(r, EpochTableModel::TrainLossColumn).data().toString(),
                     numbers().toString(1.0 / epoch, 'f', EpochTableModel::lossDecimals(column(epochs, 1.0))));
            QCOMPARE(model.index(r, EpochTableModel::SecondsColumn).data().toString(), numbers().toString(0.25 * epoch, 'f', 2));
            QCOMPARE(model.index(r, EpochTableModel::TrainLossColumn).data(Qt::ToolTipRole).toString().section(QLatin1Char('\n'), 0, 0),
                     model.index(r, EpochTableModel::TrainLossColumn).data().toString());
            QCOMPARE(model.index(r, EpochTableModel::EpochColumn).data(EpochTableModel::BestRole).toBool(), isBest);
            QCOMPARE(model.index(r, EpochTableModel::EpochColumn).data().toString().contains(QStringLiteral("best")), isBest);
            QCOMPARE(model.index(r, EpochTableModel::ValLossColumn).data(Qt::FontRole).value<QFont>().bold(), isBest);
        }
    }

    // One precision per column: four significant digits of the column's smallest value, for every row.
    void lossDecimals_data()
    {
        QTest::addColumn<QList<double>>("values");
        QTest::addColumn<int>("decimals");
        QTest::newRow("around one") << QList<double> {1.153, 1.1524, 0.9} << 4;
        QTest::newRow("above one only: four at least") << QList<double> {2.5, 1.25} << 4;
        QTest::newRow("small") << QList<double> {0.5, 0.0123} << 5;
        QTest::newRow("zeros ignored") << QList<double> {0.0, 0.25} << 4;
        QTest::newRow("empty") << QList<double> {} << 4;
        QTest::newRow("large") << QList<double> {12345.0} << 4;
        QTest::newRow("tiny, capped") << QList<double> {1e-12} << 8;
    }
    void lossDecimals()
    {
        QFETCH(QList<double>, values);
        QFETCH(int, decimals);
        QCOMPARE(EpochTableModel::lossDecimals(std::vector<double>(values.begin(), values.end())), decimals);
    }

    // The rows: 1.153 beside 1.1524 read alike; samples/s and seconds with thousands separators.
    void sameFormatInAColumn()
    {
        EpochTable t;
        t.epochs.push_back({1, 1.153, 1.2, 123456.0, 1234.5});
        t.epochs.push_back({2, 1.1524, 1.19, 98765.4, 12.25});
        EpochTableModel model;
        model.setData(t);
        const QLocale l = numbers();
        QCOMPARE(model.index(0, EpochTableModel::TrainLossColumn).data().toString(), l.toString(1.153, 'f', 4));
        QCOMPARE(model.index(1, EpochTableModel::TrainLossColumn).data().toString(), l.toString(1.1524, 'f', 4));
        QCOMPARE(model.index(0, EpochTableModel::SamplesPerSColumn).data().toString(), l.toString(123456.0, 'f', 0));
        QVERIFY(model.index(0, EpochTableModel::SamplesPerSColumn).data().toString().contains(l.groupSeparator()));
        QCOMPARE(model.index(0, EpochTableModel::SecondsColumn).data().toString(), l.toString(1234.5, 'f', 2));
        QVERIFY(!model.headerData(EpochTableModel::SamplesPerSColumn, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
    }

    void fitColumns_data()
    {
        QTest::addColumn<QList<int>>("needs");
        QTest::addColumn<int>("available");
        QTest::addColumn<QList<int>>("widths");
        QTest::newRow("room to share") << QList<int> {40, 60, 60} << 175 << QList<int> {45, 65, 65};
        QTest::newRow("remainder to the first") << QList<int> {10, 10} << 23 << QList<int> {12, 11};
        QTest::newRow("exactly") << QList<int> {50, 50} << 100 << QList<int> {50, 50};
        QTest::newRow("too narrow: needs kept, the view scrolls") << QList<int> {80, 80} << 100 << QList<int> {80, 80};
        QTest::newRow("no columns") << QList<int> {} << 100 << QList<int> {};
    }
    void fitColumns()
    {
        QFETCH(QList<int>, needs);
        QFETCH(int, available);
        QFETCH(QList<int>, widths);
        const auto got = fitColumnWidths(std::vector<int>(needs.begin(), needs.end()), available);
        QCOMPARE(QList<int>(got.begin(), got.end()), widths);
    }

    // At the width the Training page gives it at 1024x640 every header and cell is whole.
    void viewShowsWholeText()
    {
        EpochTable t;
        for (int i = 1; i <= 30; ++i)
            t.epochs.push_back({i, 1.0 / i, 1.5 / i, 123456.0 + i, 12.5});
        t.bestEpoch = 30;
        EpochTableModel model;
        model.setData(t);
        EpochTableView view;
        view.setModel(&model);
        view.resize(view.minimumSizeHint().width() + 20, 200);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QFontMetrics header(view.horizontalHeader()->font());
        for (int c = 0; c < model.columnCount(); ++c) {
            const QString name = model.headerData(c, Qt::Horizontal).toString();
            QVERIFY2(view.columnWidth(c) >= header.horizontalAdvance(name), qPrintable(name));
        }
        QVERIFY(view.minimumSizeHint().width() < 400); // fits beside a chart at 1024x640
    }
};

QTEST_MAIN(TestEpochTableModel)
#include "tst_epoch_table_model.moc"
