// `stackscope --screenshot FILE` waits for the page shown to be ready: the Report page's picture has the summary card
// of the machine shown (its value boxes, #262a30 in summary_card.cpp), never the empty card its preview replaces 200 ms
// after the snapshot (the grab once raced that timer and lost about half the time). Each row is taken three times.
#include <QDir>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {
const QString kRoots = QStringLiteral(STACKSCOPE_TEST_FIXTURES "/roots/");

// Runs the GUI program with `args`; its exit code, with stderr for the message.
int runGui(const QStringList& args, QByteArray* err = nullptr, QByteArray* out = nullptr)
{
    QProcess p;
    p.start(qEnvironmentVariable("STACKSCOPE_GUI_PROGRAM"), args);
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        if (err)
            *err = "did not finish within 120 s";
        return -1;
    }
    if (err)
        *err = p.readAllStandardError();
    if (out)
        *out = p.readAllStandardOutput();
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

// Pixels in the summary card's value boxes (GPU arch, VRAM, driver; the stack's versions): none on the empty card.
int cardValuePixels(const QImage& image)
{
    const QRgb valueBox = qRgb(0x26, 0x2a, 0x30);
    int n = 0;
    for (int y = 0; y < image.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x)
            n += (line[x] & 0xffffff) == (valueBox & 0xffffff);
    }
    return n;
}
} // namespace

class TestReportScreenshot : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (qEnvironmentVariable("STACKSCOPE_GUI_PROGRAM").isEmpty())
            QSKIP("STACKSCOPE_GUI_PROGRAM is not set (run through CTest)");
    }

    void reportPageHasTheCard_data()
    {
        QTest::addColumn<QString>("source"); // a recorded root, or "report:ROOT" for a report made from it and opened
        QTest::addColumn<QString>("size");
        QTest::addColumn<int>("width");
        QTest::newRow("recorded root, 1920x1080") << "ubuntu2404-rocm7" << "1920x1080" << 1920;
        QTest::newRow("recorded root without GPU, 1280x720") << "debian12-nogpu" << "1280x720" << 1280;
        QTest::newRow("opened report, 1920x1080") << "report:ubuntu2204-2x7900xt" << "1920x1080" << 1920;
    }
    void reportPageHasTheCard()
    {
        QFETCH(QString, source);
        QFETCH(QString, size);
        QFETCH(int, width);
        QTemporaryDir dir;
        QStringList machine {QStringLiteral("--root"), kRoots + source};
        if (source.startsWith(QStringLiteral("report:"))) {
            QByteArray err, out;
            const QString root = kRoots + source.mid(7);
            QCOMPARE(runGui({QStringLiteral("--root"), root, QStringLiteral("--report"), dir.path()}, &err, &out), 0);
            const QString folder = QString::fromUtf8(out).section(QLatin1Char('\n'), 0, 0);
            QVERIFY2(QDir(folder).exists(), out.constData());
            machine = {QStringLiteral("--open-report"), folder};
        }
        for (int take = 1; take <= 3; ++take) {
            const QString png = dir.filePath(QStringLiteral("report-%1.png").arg(take));
            QByteArray err;
            const int status = runGui(machine + QStringList {QStringLiteral("--page"), QStringLiteral("Report"),
                                                             QStringLiteral("--size"), size,
                                                             QStringLiteral("--screenshot"), png},
                                      &err);
            QVERIFY2(status == 0, err.constData());
            const QImage image(png);
            QCOMPARE(image.width(), width);
            const int pixels = cardValuePixels(image);
            QVERIFY2(pixels > 1000, qPrintable(QStringLiteral("take %1: %2 pixels of the card's value boxes: the picture "
                                                              "has the empty card (%3)")
                                                   .arg(take)
                                                   .arg(pixels)
                                                   .arg(png)));
        }
    }
};

QTEST_MAIN(TestReportScreenshot)
#include "tst_report_screenshot.moc"
