// The per-epoch table model under QAbstractItemModelTester: rows, display text, sort values, best epoch.
#include "ui/training/epoch_table_model.h"

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
            QCOMPARE(model.index(r, EpochTableModel::TrainLossColumn).data().toString(), QString::number(1.0 / epoch, 'g', 5));
            QCOMPARE(model.index(r, EpochTableModel::SecondsColumn).data().toString(), QString::number(0.25 * epoch, 'f', 2));
            QCOMPARE(model.index(r, EpochTableModel::EpochColumn).data(EpochTableModel::BestRole).toBool(), isBest);
            QCOMPARE(model.index(r, EpochTableModel::EpochColumn).data().toString().contains(QStringLiteral("best")), isBest);
            QCOMPARE(model.index(r, EpochTableModel::ValLossColumn).data(Qt::FontRole).value<QFont>().bold(), isBest);
        }
    }
};

QTEST_MAIN(TestEpochTableModel)
#include "tst_epoch_table_model.moc"
