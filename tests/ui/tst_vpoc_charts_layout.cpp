// The VPOC charts in the main window at 1024x640 and 1920x1080, on a three-bar file and on the sample data: both
// legends whole (wrapped, never cut), the time axis labelled however short the session, the volume axis with a
// scale of at least two labels from 0 to at least the largest level; screenshots written to the build folder.
#include "tests/common/sample_data_fixture.h"
#include "ui/main_window.h"
#include "ui/vpoc/session_model.h"
#include "ui/vpoc/volume_profile_view.h"
#include "ui/vpoc/vpoc_page.h"

#include <QCategoryAxis>
#include <QChart>
#include <QLabel>
#include <QLegend>
#include <QSignalSpy>
#include <QtTest>

#include <algorithm>
#include <memory>

using namespace stackscope;
using namespace stackscope::ui;

class TestVpocChartsLayout : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("STACKSCOPE_PYTHON_ENVS", "off");
        QVERIFY(m_dir.isValid());
    }

    void legendsWhole_data() { rows(); }
    // The chart's own legend (which cut its entries to "dev…") is off; ours wrap and show every entry whole.
    void legendsWhole()
    {
        QFETCH(QString, file);
        QFETCH(QSize, size);
        const auto window = runInWindow(file, size);
        QVERIFY(window);
        const VpocPage* page = window->vpocPage();
        QVERIFY(!page->priceChart()->legend()->isVisible());
        const QStringList price { "close", "developing POC", "POC", "VAH", "VAL" };
        for (const auto& [name, entries] : { std::pair { QStringLiteral("vpocPriceLegend"), price },
                 std::pair { QStringLiteral("vpocProfileLegend"), QStringList { "value area", "POC", "outside" } } }) {
            auto* legend = page->findChild<QLabel*>(name);
            QVERIFY2(legend && legend->isVisible(), qPrintable(name));
            QVERIFY2(legend->height() >= legend->heightForWidth(legend->width()),
                qPrintable(QStringLiteral("%1 cut: %2 px high, needs %3").arg(name).arg(legend->height())
                        .arg(legend->heightForWidth(legend->width()))));
            QVERIFY2(legend->geometry().right() < legend->parentWidget()->width(), qPrintable(name));
            for (const QString& entry : entries)
                QVERIFY2(legend->text().contains(QString(entry).replace(QLatin1Char(' '), QStringLiteral("&nbsp;"))),
                    qPrintable(name + QStringLiteral(": ") + entry + QStringLiteral(" in ") + legend->text()));
        }
    }

    void timeAxisLabelled_data() { rows(); }
    // The time axis has labels however short the session (three bars: 09:30, 09:31, 09:32); without any, Qt Charts
    // also drew the axis title over the plot's top-left corner.
    void timeAxisLabelled()
    {
        QFETCH(QString, file);
        QFETCH(QSize, size);
        const auto window = runInWindow(file, size);
        QVERIFY(window);
        QChart* chart = window->vpocPage()->priceChart();
        const auto axes = chart->axes(Qt::Horizontal);
        auto* time = axes.isEmpty() ? nullptr : qobject_cast<QCategoryAxis*>(axes.first());
        QVERIFY(time);
        const QStringList labels = time->categoriesLabels();
        QVERIFY2(labels.size() >= 2, qPrintable(labels.join(QLatin1Char(','))));
        for (const QString& label : labels) {
            const qreal at = time->endValue(label); // labels on their value: a category's end is its time
            QVERIFY2(at >= time->min() && at <= time->max(), qPrintable(label));
        }
        // A label on the axis' last value is centred on the plot's right edge: the chart leaves room for its half.
        const int half = QFontMetrics(time->labelsFont()).horizontalAdvance(labels.last()) / 2;
        QVERIFY2(chart->margins().right() >= half,
            qPrintable(QStringLiteral("right margin %1, half of %2 is %3").arg(chart->margins().right()).arg(labels.last()).arg(half)));
    }

    void volumeScale_data() { rows(); }
    // The volume axis reads 0 to at least the largest level, with at least two labels (180 contracts read "0" alone).
    void volumeScale()
    {
        QFETCH(QString, file);
        QFETCH(QSize, size);
        const auto window = runInWindow(file, size);
        QVERIFY(window);
        const auto* profile = window->vpocPage()->profileView();
        QVERIFY(!profile->profile().volume.empty());
        const uint64_t peak = *std::max_element(profile->profile().volume.begin(), profile->profile().volume.end());
        const QList<uint64_t> scale = profile->scaleValues();
        QVERIFY2(scale.size() >= 2, qPrintable(QStringLiteral("%1 labels for a peak of %2").arg(scale.size()).arg(peak)));
        QCOMPARE(scale.first(), uint64_t(0));
        QVERIFY2(scale.last() >= peak, qPrintable(QStringLiteral("top %1, peak %2").arg(scale.last()).arg(peak)));
    }

private:
    void rows()
    {
        QTest::addColumn<QString>("file"); // empty: three days of the sample data
        QTest::addColumn<QSize>("size");
        const QString threeBars = QStringLiteral(STACKSCOPE_TEST_FIXTURES "/market/es_tradestation.csv");
        for (const QSize size : { QSize(1024, 640), QSize(1920, 1080) }) {
            const QString at = QStringLiteral(" %1x%2").arg(size.width()).arg(size.height());
            QTest::addRow("three bars%s", qPrintable(at)) << threeBars << size;
            QTest::addRow("sample data%s", qPrintable(at)) << QString() << size;
        }
    }

    // The main window at `size` on the VPOC page after a run on `file`; its screenshot in the build folder
    // (screenshots/vpoc-charts-{3bars,sample}-WxH.png). Null when the run failed.
    std::unique_ptr<MainWindow> runInWindow(const QString& file, QSize size)
    {
        auto window = std::make_unique<MainWindow>();
        window->resize(size);
        window->show();
        if (!QTest::qWaitForWindowExposed(window.get()) || !window->showPage(QStringLiteral("VPOC")))
            return nullptr;
        VpocPage* page = window->vpocPage();
        page->setInputFile(file.isEmpty() ? test::writeSampleBars(m_dir, 3, QStringLiteral("sample.csv")) : file);
        QSignalSpy finished(page, &VpocPage::finished);
        page->run();
        if (!finished.wait(60000) || !finished.at(0).at(0).toBool()) {
            qWarning("VPOC run failed: %s", qPrintable(page->statusText()));
            return nullptr;
        }
        QTest::qWait(300); // the chart scene lays out its axes on the event loop
        QDir().mkpath(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots"));
        window->grab().save(QStringLiteral(STACKSCOPE_TEST_BINARY_DIR "/screenshots/vpoc-charts-%1-%2x%3.png")
                                .arg(file.isEmpty() ? QStringLiteral("sample") : QStringLiteral("3bars"))
                                .arg(size.width())
                                .arg(size.height()));
        return window;
    }
};

QTEST_MAIN(TestVpocChartsLayout)
#include "tst_vpoc_charts_layout.moc"
