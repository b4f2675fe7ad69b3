// A missing or broken library is a finding with the loader's message and the path tried, never a crash.
#include "core/runtime/dynamic_library.h"
#include "core/inspect/inspector.h"
#include "core/inspect/runtime_sources.h"

#include <QtTest>

using namespace stackscope;

namespace {
const LibraryStatus* find(const Snapshot& s, const std::string& component)
{
    for (const auto& l : s.libraries) {
        if (l.component == component)
            return &l;
    }
    return nullptr;
}
const Finding* findFinding(const Snapshot& s, const std::string& id)
{
    for (const auto& f : s.findings) {
        if (f.id == id)
            return &f;
    }
    return nullptr;
}
} // namespace

class TestMissingLibraries : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void loaderRecordsEveryAttempt()
    {
        const auto lib = DynamicLibrary::open({"/nonexistent/libfoo.so", "libstackscope-does-not-exist.so.9"});
        QVERIFY(!lib.isLoaded());
        QCOMPARE(lib.attempts().size(), size_t(2));
        QVERIFY(QString::fromStdString(lib.attempts()[0].error).contains(QStringLiteral("No such file")));
        QVERIFY(QString::fromStdString(lib.failureSummary()).contains(QStringLiteral("/nonexistent/libfoo.so")));
    }

    void brokenModule_data()
    {
        QTest::addColumn<QByteArray>("content"); // empty: the file does not exist
        QTest::addColumn<QString>("message");
        QTest::newRow("missing") << QByteArray() << "No such file";
        QTest::newRow("not an ELF") << QByteArray("this is not a shared library\n") << "";
        QTest::newRow("truncated ELF") << QByteArray("\x7f" "ELF\x02\x01\x01", 7) << "";
    }
    void brokenModule()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("libstackscope_torch.so"));
        if (!content.isEmpty()) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(content);
        }
        Snapshot s;
        s.capturedAt = "now";
        std::vector<std::unique_ptr<RuntimeSource>> sources;
        sources.push_back(makeTorchModuleSource(path.toStdString()));
        for (auto& src : sources)
            src->collect(s);
        const LibraryStatus* st = find(s, "libtorch module");
        QVERIFY(st);
        QVERIFY(!st->loaded);
        QCOMPARE(st->tried.size(), size_t(1));
        QCOMPARE(QString::fromStdString(st->tried[0].path), path);
        QVERIFY(!st->tried[0].error.empty());
        if (!message.isEmpty())
            QVERIFY2(QString::fromStdString(st->tried[0].error).contains(message), st->tried[0].error.c_str());
        QVERIFY(!s.torch.version);
    }

    void inspectionReportsTheFailure()
    {
        // The whole inspection with only a broken torch module as run-time source.
        std::vector<std::unique_ptr<RuntimeSource>> sources;
        sources.push_back(makeTorchModuleSource("/nonexistent/libstackscope_torch.so"));
        const Snapshot s = inspectMachine(InspectOptions {}, std::move(sources));
        const Finding* f = findFinding(s, "TORCH_MODULE_LOAD_FAILED");
        QVERIFY(f);
        QCOMPARE(f->severity, Severity::Warning);
        QVERIFY(QString::fromStdString(f->detail).contains(QStringLiteral("/nonexistent/libstackscope_torch.so")));
        QVERIFY(!f->fix.empty());
    }

    void notAModule()
    {
        // A real shared library that is not StackScope's module: loads, but is reported as wrong.
        Snapshot s;
        makeTorchModuleSource("libz.so.1")->collect(s);
        const LibraryStatus* st = find(s, "libtorch module");
        QVERIFY(st && st->loaded);
        QVERIFY(st->error && QString::fromStdString(*st->error).contains(QStringLiteral("not a StackScope torch module")));
    }
};

QTEST_GUILESS_MAIN(TestMissingLibraries)
#include "tst_missing_libraries.moc"
