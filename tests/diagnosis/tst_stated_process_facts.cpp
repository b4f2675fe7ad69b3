// A pasted text diagnosed against a real machine's snapshot (2x H200, CUDA PyTorch 2.11; the live-fault suite's):
// what the text states about the user's process (their torch, the variables they export, their own "no GPU" check)
// stands in for StackScope's own process, so a cause that needs it is named with the machine as well as without.
#include "core/diagnosis/log_facts.h"
#include "core/diagnosis/machine_diagnosis.h"
#include "core/diagnosis/stated_process_facts.h"
#include "core/snapshot/snapshot_json.h"

#include <QtTest>

using namespace stackscope;

namespace {

const QString kSnapshot
    = QStringLiteral(STACKSCOPE_TEST_FIXTURES "/live-faults/h200x2-20261127-s17/no_caching.snapshot.json");

QString firstClaim(const std::vector<Finding>& findings)
{
    for (const auto& f : findings) {
        if (f.severity != Severity::Info)
            return QString::fromStdString(f.id);
    }
    return QString();
}

Snapshot stated(const QString& text)
{
    return extractLogFacts(NormalizedText(text.toStdString())).snapshot;
}

} // namespace

class TestStatedProcessFacts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void againstMachine_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("claim"); // empty: no warning or error
        QTest::newRow("a ROCm torch on the NVIDIA machine")
            << "torch 2.5.1+rocm6.2\nTraceback (most recent call last):\nRuntimeError: No HIP GPUs are available"
            << "TORCH_WRONG_VENDOR_BUILD";
        QTest::newRow("ComfyUI's allocator on this machine")
            << "Device: cuda:0 NVIDIA H200 : cudaMallocAsync\nRuntimeError: CUDA error: operation not supported"
            << "CUDA_MALLOC_ASYNC_UNSUPPORTED";
        QTest::newRow("the user's shell hides the GPUs")
            << "$ export CUDA_VISIBLE_DEVICES=\n>>> torch.cuda.is_available()\nFalse" << "CUDA_NO_DEVICE_VISIBLE";
        QTest::newRow("the same torch, working") << "torch 2.11.0+cu130\n>>> torch.cuda.device_count()\n2" << "";
        QTest::newRow("operation not supported, default allocator: not the allocator")
            << "RuntimeError: CUDA error: operation not supported" << "CUDA_PLATFORM_ERROR";
    }
    void againstMachine()
    {
        QFETCH(QString, text);
        QFETCH(QString, claim);
        const Snapshot machine = loadSnapshotFile(kSnapshot.toStdString());
        QCOMPARE(machine.gpus.size(), std::size_t(2));
        MachineDiagnosisInput in;
        in.snapshot = &machine;
        in.logs.push_back(readLogText(text.toStdString(), "pasted text"));
        const auto d = diagnoseMachine(in);
        QCOMPARE(firstClaim(d.findings), claim);
        QVERIFY(!d.statedFacts); // the machine's facts, not the text's alone
    }

    void overlay_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("version"); // as the text's facts hold it: the release, the build in backend
        QTest::addColumn<QString>("backend");
        QTest::addColumn<bool>("keepsLibraryPath"); // the machine's torch kept (the same torch)
        QTest::newRow("nothing about torch") << "RuntimeError: CUDA error: out of memory" << "2.11.0+cu130" << "cuda" << true;
        QTest::newRow("the same release") << "torch 2.11.0" << "2.11.0" << "cuda" << true;
        QTest::newRow("another release") << "torch 2.4.0+cu121" << "2.4.0" << "cuda" << false;
        QTest::newRow("another backend") << "torch 2.11.0+rocm7.0" << "2.11.0" << "rocm" << false;
    }
    void overlay()
    {
        QFETCH(QString, text);
        QFETCH(QString, version);
        QFETCH(QString, backend);
        QFETCH(bool, keepsLibraryPath);
        const Snapshot machine = loadSnapshotFile(kSnapshot.toStdString());
        const Snapshot merged = withStatedProcessFacts(machine, stated(text));
        QCOMPARE(QString::fromStdString(merged.torch.version.value_or("")), version);
        QCOMPARE(QString::fromStdString(merged.torch.backend.value_or("")), backend);
        QCOMPARE(merged.torch.libraryPath.has_value(), keepsLibraryPath);
        QCOMPARE(merged.gpus.size(), machine.gpus.size()); // the machine's own facts stay
        QCOMPARE(merged.cuda.driverVersion, machine.cuda.driverVersion);
    }

    void environment()
    {
        const Snapshot machine = loadSnapshotFile(kSnapshot.toStdString());
        QCOMPARE(QString::fromStdString(machine.env.at("NVIDIA_VISIBLE_DEVICES")), QString("0,1"));
        const Snapshot s = stated("$ export CUDA_VISIBLE_DEVICES=1\n$ export NCCL_DEBUG=INFO");
        QVERIFY(statesProcessFacts(s));
        const Snapshot merged = withStatedProcessFacts(machine, s);
        QCOMPARE(QString::fromStdString(merged.env.at("CUDA_VISIBLE_DEVICES")), QString("1"));
        QCOMPARE(QString::fromStdString(merged.env.at("NCCL_DEBUG")), QString("INFO"));
        QCOMPARE(QString::fromStdString(merged.env.at("NVIDIA_VISIBLE_DEVICES")), QString("0,1"));
        QVERIFY(!statesProcessFacts(stated("a line that states nothing")));
    }
};

QTEST_GUILESS_MAIN(TestStatedProcessFacts)
#include "tst_stated_process_facts.moc"
