// The System page's display pieces: the finding detail's rich text (findingDetailHtml), FindingsBox (a new list shows
// its first finding, a selection its detail) and StackTabs (a stack row's whole value, the coverage tab's note).
#include "core/archscan/arch_scan.h"
#include "core/snapshot/stack_rows.h"
#include "ui/models/coverage_model.h"
#include "ui/models/findings_model.h"
#include "ui/models/stack_model.h"
#include "ui/system/findings_box.h"
#include "ui/system/stack_tabs.h"
#include "ui/widgets/command_text_browser.h"
#include "ui/widgets/gpu_card.h"

#include <QClipboard>
#include <QLabel>
#include <QProgressBar>
#include <QTableView>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <QtTest>

using namespace stackscope;
using namespace stackscope::ui;

Q_DECLARE_METATYPE(stackscope::Finding)
Q_DECLARE_METATYPE(std::optional<std::uint64_t>)

namespace {
Finding finding(const std::string& id, Severity severity, const std::string& title)
{
    Finding f;
    f.id = id;
    f.severity = severity;
    f.title = title;
    f.detail = "detail of " + id;
    return f;
}

Evidence seen(int n)
{
    Evidence e;
    e.origin = "pasted text";
    e.text = "line " + std::to_string(n);
    return e;
}
} // namespace

class TestSystemViews : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void findingDetail_data()
    {
        QTest::addColumn<Finding>("finding");
        QTest::addColumn<QStringList>("has");
        QTest::addColumn<QStringList>("lacks");

        Finding check = finding("KFD_ABSENT", Severity::Info, "/dev/kfd is absent");
        check.fix = "load the amdgpu driver";
        check.sources = {"https://rocm.docs.amd.com/", "the kernel's documentation"};
        QTest::newRow("a check: one fix, a link and a plain source")
            << check
            << QStringList {"<h3 style='color:", "/dev/kfd is absent</h3>", "<code>KFD_ABSENT</code> · info",
                            "load the amdgpu driver", "<a href=\"https://rocm.docs.amd.com/\">",
                            "<li>the kernel's documentation</li>"}
            << QStringList {"<ol>", "<h4>Seen</h4>", "<a href=\"the kernel"};

        Finding diagnosis = finding("NO_CODE_OBJECT_FOR_GPU", Severity::Error, "No kernel for <this> GPU");
        FixAdvice look;
        look.text = "run with AMD_LOG_LEVEL=3";
        look.diagnostic = true;
        FixAdvice fix;
        fix.text = "install the wheel built for your GPU";
        diagnosis.fixes = {look, fix};
        diagnosis.evidence = {seen(1), seen(2), seen(3), seen(4)};
        QTest::newRow("a diagnosis: fixes in order, three lines seen, title escaped")
            << diagnosis
            << QStringList {"No kernel for &lt;this&gt; GPU", "<ol><li>run with AMD_LOG_LEVEL=3 <i>(locates the problem)</i></li>",
                            "<li>install the wheel built for your GPU</li></ol>", "<h4>Seen</h4>",
                            "pasted text: <code>line 3</code>", "<code>NO_CODE_OBJECT_FOR_GPU</code> · error"}
            << QStringList {"line 4", "<this>", "<a href"};
    }
    void findingDetail()
    {
        QFETCH(Finding, finding);
        QFETCH(QStringList, has);
        QFETCH(QStringList, lacks);
        const QString html = findingDetailHtml(finding);
        for (const auto& s : has)
            QVERIFY2(html.contains(s), qPrintable(s + QStringLiteral(" not in ") + html));
        for (const auto& s : lacks)
            QVERIFY2(!html.contains(s), qPrintable(s + QStringLiteral(" in ") + html));
    }

    // A new list selects its first finding (the most important) and shows it; a row chosen shows its own; an empty
    // list shows none.
    void findingsBoxSelection_data()
    {
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("choose"); // -1: keep the first
        QTest::addColumn<QString>("detail");
        QTest::newRow("first of two") << 2 << -1 << "finding 0";
        QTest::newRow("second chosen") << 2 << 1 << "finding 1";
        QTest::newRow("none") << 0 << -1 << "";
    }
    void findingsBoxSelection()
    {
        QFETCH(int, count);
        QFETCH(int, choose);
        QFETCH(QString, detail);
        FindingsModel model;
        FindingsBox box(&model);
        model.setFindings({finding("OLD", Severity::Warning, "an older list")});
        QVERIFY(box.detail().contains(QStringLiteral("an older list")));
        std::vector<Finding> list;
        for (int i = 0; i < count; ++i)
            list.push_back(finding("ID_" + std::to_string(i), Severity::Error, "finding " + std::to_string(i)));
        model.setFindings(list);
        if (choose >= 0)
            box.table()->selectRow(choose);
        if (detail.isEmpty())
            QCOMPARE(box.detail(), QString());
        else
            QVERIFY2(box.detail().startsWith(detail), qPrintable(box.detail()));
        QCOMPARE(box.table()->isColumnHidden(FindingsModel::VerifiedColumn), true);
    }

    // The selected stack row's whole value and its note; a new list clears it.
    void stackRowDetail()
    {
        StackModel stack;
        CoverageModel coverage;
        StackTabs tabs(&stack, &coverage);
        StackRow ok {"ROCm install", "7.0.2", "/opt/rocm-7.0.2", StackStatus::Ok, ""};
        StackRow unknown {"HIP runtime", "-", "not queried (recorded machine)", StackStatus::Unknown,
                          "a recorded machine's libraries are not loaded here"};
        stack.setRows({ok, unknown});
        QCOMPARE(tabs.stackDetail(), QString());
        tabs.stackView()->selectRow(1);
        const QString detail = tabs.stackDetail();
        for (const char* part : {"HIP runtime · unknown", "Found at: not queried (recorded machine)",
                                 "a recorded machine's libraries are not loaded here"})
            QVERIFY2(detail.contains(QString::fromUtf8(part)), qPrintable(detail));
        tabs.stackView()->selectRow(0);
        QVERIFY2(tabs.stackDetail().contains(QStringLiteral("Version: 7.0.2")), qPrintable(tabs.stackDetail()));
        stack.setRows({ok});
        QCOMPARE(tabs.stackDetail(), QString());
    }

    // The coverage tab's note: why the table is empty, what a cell tells when it has rows, and the selected cell's own.
    void coverageNote()
    {
        StackModel stack;
        CoverageModel coverage;
        StackTabs tabs(&stack, &coverage);
        QCOMPARE(tabs.coverageNote(), QString()); // nothing shown yet
        coverage.setCoverage(std::nullopt);
        QVERIFY(!coverage.emptyReason().isEmpty());
        QCOMPARE(tabs.coverageNote(), coverage.emptyReason());
        const std::string lib = STACKSCOPE_TEST_FIXTURES "/archscan/";
        coverage.setCoverage(archscan::scanCoverage({lib + "rocblas/library", lib + "rocblas-gfx110-trap/library"},
                                                    {"gfx1100"}));
        QCOMPARE(coverage.rowCount(), 2);
        QVERIFY2(tabs.coverageNote().startsWith(QStringLiteral("Select a cell")), qPrintable(tabs.coverageNote()));
        const QModelIndex cell = coverage.index(1, CoverageModel::FIRST_DEVICE_COLUMN);
        tabs.coverageView()->setCurrentIndex(cell);
        QVERIFY(!cell.data(Qt::ToolTipRole).toString().isEmpty());
        QCOMPARE(tabs.coverageNote(), cell.data(Qt::ToolTipRole).toString());
    }

    // A fix's command words stay on one line at every width of the detail pane ("--device=/dev/kfd --" /
    // "device=/dev/dri" at 1920x1080), and a copy gives the command as written, without the word joiners.
    void fixWordsStayWhole_data()
    {
        QTest::addColumn<Finding>("finding");
        QTest::addColumn<QStringList>("whole");
        Finding check = finding("KFD_ABSENT", Severity::Info, "/dev/kfd is absent: no ROCm compute device on this machine");
        check.fix = "Nothing to do unless you expect an AMD GPU here; then load the amdgpu driver (with KFD) and, in a "
                    "container, pass --device=/dev/kfd --device=/dev/dri.";
        QTest::newRow("options in the prose") << check << QStringList {"--device=/dev/kfd", "--device=/dev/dri."};

        Finding docker = finding("CONTAINER_NO_GPU", Severity::Error, "The container sees no GPU");
        FixAdvice run;
        run.text = "AMD: start the container with the GPU devices: `docker run --device=/dev/kfd --device=/dev/dri "
                   "--security-opt seccomp=unconfined --group-add video <image>` (ROCm's Docker guide).";
        docker.fixes = {run};
        QTest::newRow("a command in backticks")
            << docker << QStringList {"--device=/dev/kfd", "--device=/dev/dri", "--security-opt", "seccomp=unconfined",
                                      "--group-add", "<image>"};

        Finding cache = finding("STALE_EXTENSIONS", Severity::Warning, "Stale extensions");
        cache.fix = "Remove ~/.cache/torch_extensions/py312_rocm64 and set PYTORCH_ROCM_ARCH=gfx1100 before the build.";
        QTest::newRow("a home path and an assignment")
            << cache << QStringList {"~/.cache/torch_extensions/py312_rocm64", "PYTORCH_ROCM_ARCH=gfx1100"};
    }
    void fixWordsStayWhole()
    {
        QFETCH(Finding, finding);
        QFETCH(QStringList, whole);
        QTextDocument doc;
        doc.setHtml(findingDetailHtml(finding));
        for (int width = 330; width <= 900; width += 3) { // the pane is about 390 px at 1024x640
            doc.setTextWidth(width);
            QVERIFY(doc.size().height() > 0); // lays the text out: the lines exist from here
            for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
                const QString text = block.text();
                QTextLayout* layout = block.layout();
                for (int i = 1; i < layout->lineCount(); ++i) {
                    // The break in the text as shown without the joiners.
                    const int at = withoutWordJoiners(text.left(layout->lineAt(i).textStart())).size();
                    const QString plain = withoutWordJoiners(text);
                    for (const QString& word : whole)
                        for (qsizetype from = plain.indexOf(word); from >= 0; from = plain.indexOf(word, from + 1))
                            QVERIFY2(at <= from || at >= from + word.size(),
                                     qPrintable(QStringLiteral("%1 broken at %2 px: \"%3\" / \"%4\"")
                                                    .arg(word)
                                                    .arg(width)
                                                    .arg(plain.left(at).right(30), plain.mid(at, 30))));
                }
            }
        }
        CommandTextBrowser browser;
        browser.setHtml(findingDetailHtml(finding));
        browser.selectAll();
        browser.copy();
        const QString copied = QGuiApplication::clipboard()->text();
        QCOMPARE(copied, browser.plainText());
        QVERIFY(!copied.contains(QChar(kWordJoiner)));
        for (const QString& word : whole)
            QVERIFY2(copied.contains(word), qPrintable(word + QStringLiteral(" not in the copy: ") + copied));
    }

    // A GPU card's VRAM figures are a line of text the bar's fill never covers (it covered "VR" of "VRAM"); the bar
    // shows only a known use, never an empty bar for an unknown one.
    void gpuCardVramLine_data()
    {
        QTest::addColumn<std::optional<std::uint64_t>>("total");
        QTest::addColumn<std::optional<std::uint64_t>>("used");
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("bar");
        constexpr std::uint64_t gib = 1ull << 30;
        using Bytes = std::optional<std::uint64_t>;
        QTest::newRow("use known") << Bytes(20 * gib) << Bytes(gib + gib / 2) << "VRAM 1.5 GiB of 20.0 GiB used" << true;
        QTest::newRow("full") << Bytes(20 * gib) << Bytes(20 * gib) << "VRAM 20.0 GiB of 20.0 GiB used" << true;
        QTest::newRow("use unknown") << Bytes(80 * gib) << Bytes() << "VRAM 80.0 GiB (use unknown)" << false;
        QTest::newRow("unknown") << Bytes() << Bytes() << "VRAM unknown" << false;
    }
    void gpuCardVramLine()
    {
        QFETCH(std::optional<std::uint64_t>, total);
        QFETCH(std::optional<std::uint64_t>, used);
        QFETCH(QString, text);
        QFETCH(bool, bar);
        GpuInfo gpu;
        gpu.vendor = "amd";
        gpu.name = "Navi 31 [Radeon RX 7900 XT/7900 XTX]";
        gpu.vramTotalBytes = total;
        gpu.vramUsedBytes = used;
        GpuCard card(gpu);
        card.resize(220, card.sizeHint().height());
        card.show();
        QVERIFY(QTest::qWaitForWindowExposed(&card));
        auto* line = card.findChild<QLabel*>(QStringLiteral("vramText"));
        auto* progress = card.findChild<QProgressBar*>(QStringLiteral("vramBar"));
        QVERIFY(line && progress);
        QCOMPARE(line->text(), text);
        QCOMPARE(progress->isVisible(), bar);
        QVERIFY(!progress->isTextVisible());
        QVERIFY2(!line->geometry().intersects(progress->geometry()), "the bar lies over the VRAM line");
        QVERIFY2(line->sizeHint().width() <= line->width(), qPrintable(QStringLiteral("the VRAM line is cut: %1 of %2 px")
                                                                            .arg(line->sizeHint().width())
                                                                            .arg(line->width())));
    }
};

QTEST_MAIN(TestSystemViews)
#include "tst_system_views.moc"
