// The matcher: evidence and line numbers, ordering, confidence, applicability, probe triggers, fix verification.
#include "core/diagnosis/diagnosis.h"
#include "core/snapshot/snapshot_json.h"

#include <QtTest>

#include <nlohmann/json.hpp>

using namespace stackscope;

namespace {

const char* kFallback = "Attempting to use hipBLASLt on an unsupported architecture! Overriding blas backend to hipblas";

std::vector<Finding> diagnoseLog(const std::string& text, const Snapshot* s = nullptr)
{
    DiagnosisInput in;
    in.snapshot = s;
    in.logs.push_back({"test.log", text});
    return diagnose(in);
}

// A copy, so that a finding taken from a temporary result stays valid.
std::optional<Finding> find(const std::vector<Finding>& fs, const std::string& id)
{
    for (const auto& f : fs) {
        if (f.id == id)
            return f;
    }
    return std::nullopt;
}

GpuInfo amdGpu(int index, const std::string& arch)
{
    GpuInfo g;
    g.index = index;
    g.vendor = "amd";
    g.name = "AMD GPU " + arch;
    g.arch = arch;
    return g;
}

Snapshot rocmSnapshot(const std::string& torchVersion, std::vector<GpuInfo> gpus = {amdGpu(0, "gfx1100")})
{
    Snapshot s;
    s.gpus = std::move(gpus);
    s.torch.version = torchVersion;
    s.torch.backend = "rocm";
    RocmInstall i;
    i.path = "/opt/rocm";
    i.version = "6.2.4";
    s.rocm.installs.push_back(i);
    return s;
}

ProbeOutcome probe(const std::string& id, const std::string& device, const std::string& variant,
                   std::map<std::string, std::string> env, ProbeResult r, const std::string& stderrText)
{
    ProbeOutcome p;
    p.probeId = id;
    p.device = device;
    p.variant = variant;
    p.env = std::move(env);
    p.outcome = r;
    p.capturedStderr = stderrText;
    if (r != ProbeResult::Ok)
        p.message = stderrText;
    return p;
}

const FixAdvice* fixWithEnv(const Finding& f, const std::string& key)
{
    for (const auto& fix : f.fixes) {
        if (fix.env.count(key))
            return &fix;
    }
    return nullptr;
}

} // namespace

class TestDiagnosis : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void exactTextSurvivesWrapping()
    {
        const auto fs = diagnoseLog("step 1\nUserWarning: Attempting to use hipBLASLt on an\r\n   unsupported architecture! "
                                    "Overriding blas backend to hipblas\nstep 2\n");
        const auto f = find(fs, "HIPBLASLT_ARCH_FALLBACK");
        QVERIFY(f);
        QCOMPARE(f->evidence.size(), std::size_t(1));
        QCOMPARE(*f->evidence[0].line, 2);
        QVERIFY(f->evidence[0].text.find("on an unsupported architecture!") != std::string::npos);
    }

    void sourceLineNumbersAreTolerated()
    {
        // A rule whose exact text carries a line number matches a build that prints another.
        const auto rules = DiagnosisRules::fromJson(R"({"schema": "stackscope.diagnosis-rules/1", "rules": [{
            "id": "LINE_TEST", "title": "t", "severity": "info", "confidence": "high", "cause": "c",
            "signatures": [{"text": "Triggered internally at ../aten/src/ATen/Context.cpp:296"}],
            "fixes": [{"text": "f"}], "sources": ["https://example.org"]}]})",
                                                    "line-test.json");
        DiagnosisInput in;
        in.logs.push_back({"x", "warning (Triggered internally at ../aten/src/ATen/Context.cpp:301.)"});
        const auto fs = diagnose(in, rules);
        QCOMPARE(fs.size(), std::size_t(1));
        QVERIFY2(fs[0].evidence[0].text.find("Context.cpp:301") != std::string::npos, "evidence shows the real line number");
    }

    void oneEvidencePerLine()
    {
        // The exact text and the tolerant pattern of the same rule both match this line: one evidence.
        const auto fs = diagnoseLog(std::string("a\n") + kFallback + "\n");
        const auto f = find(fs, "HIPBLASLT_ARCH_FALLBACK");
        QVERIFY(f);
        QCOMPARE(f->evidenceCount, std::size_t(1));
        QCOMPARE(*f->evidence[0].line, 2);
    }

    void evidenceIsCapped()
    {
        std::string log;
        for (int i = 0; i < 30; ++i)
            log += std::string(kFallback) + "\n";
        const auto f = find(diagnoseLog(log), "HIPBLASLT_ARCH_FALLBACK");
        QVERIFY(f);
        QCOMPARE(f->evidence.size(), kMaxEvidence);
        QCOMPARE(f->evidenceCount, std::size_t(30));
        QCOMPARE(*f->evidence.back().line, int(kMaxEvidence));
    }

    void confidenceCountsMatchesBeyondTheEvidenceCap()
    {
        std::string log;
        for (std::size_t i = 0; i < kMaxEvidence + 5; ++i)
            log += "HIPBLAS_STATUS_ALLOC_FAILED when calling `hipblasCreate(handle)`\n"; // low
        log += "HIPBLAS_STATUS_ALLOC_FAILED when calling `hipblasDtrsmBatched(h)`\n"; // medium, not kept as evidence
        const auto f = find(diagnoseLog(log), "HIPBLAS_ALLOC_FAILED");
        QVERIFY(f);
        QCOMPARE(f->evidence.size(), kMaxEvidence);
        QCOMPARE(f->confidence, Confidence::Medium);
    }

    void errorsComeFirst()
    {
        const auto fs = diagnoseLog(std::string(kFallback) + "\nRuntimeError: HIP error: invalid device function\n"
                                    "HIP kernel errors might be asynchronously reported at some other API call\n");
        QCOMPARE(fs.size(), std::size_t(3));
        QCOMPARE(fs[0].id, std::string("NO_CODE_OBJECT_FOR_GPU"));
        QCOMPARE(fs[0].severity, Severity::Error);
        QCOMPARE(fs[1].id, std::string("HIPBLASLT_ARCH_FALLBACK")); // info rules keep the file's order
        QCOMPARE(fs[2].id, std::string("ASYNC_ERROR_LOCATION"));
    }

    // A presumed cause (TextSignature::presumed) stands for a wrapper message that names no cause, ranks with the
    // generic codes, and gives way to a line that names the cause or the failing call.
    void presumedCauseRanks_data()
    {
        QTest::addColumn<QString>("log");
        QTest::addColumn<QString>("first");
        QTest::addColumn<QString>("second");
        QTest::newRow("wrapper alone: shared memory presumed")
            << "RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:825, unhandled system error, NCCL version 2.7.8"
            << "NCCL_SHM" << "NCCL_SYSTEM_ERROR";
        QTest::newRow("a WARN naming the call keeps the wrapper first")
            << "host:1:2 [0] misc/socket.cc:456 NCCL WARN Call to connect failed : Connection timed out\n"
               "RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:825, unhandled system error, NCCL version 2.7.8"
            << "NCCL_SYSTEM_ERROR" << "NCCL_SHM";
        QTest::newRow("a line naming another cause ranks above the presumption")
            << "host:1:1 [0] NCCL INFO Bootstrap : no socket interface found\n"
               "torch.distributed.DistBackendError: NCCL error in: NCCLUtils.hpp:268, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5"
            << "NCCL_SOCKET_INTERFACE" << "NCCL_SHM";
        QTest::newRow("the shared-memory line itself is not presumed")
            << "host:1:2 [0] include/shm.h:28 NCCL WARN Call to posix_fallocate failed : No space left on device\n"
               "RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)"
            << "NCCL_SHM" << "NCCL_SYSTEM_ERROR";
    }
    void presumedCauseRanks()
    {
        QFETCH(QString, log);
        QFETCH(QString, first);
        QFETCH(QString, second);
        const auto fs = diagnoseLog(log.toStdString());
        QVERIFY(fs.size() >= 2);
        QCOMPARE(QString::fromStdString(fs[0].id), first);
        QCOMPARE(QString::fromStdString(fs[1].id), second);
        const auto shm = find(fs, "NCCL_SHM");
        QVERIFY(shm);
        const bool presumed = shm->rankNote.find("presumed") != std::string::npos;
        QCOMPARE(presumed, QTest::currentDataTag() != QByteArray("the shared-memory line itself is not presumed"));
    }

    void confidenceComesFromTheSignature_data()
    {
        QTest::addColumn<QString>("rule");
        QTest::addColumn<QString>("log");
        QTest::addColumn<int>("confidence");
        QTest::newRow("out of registers: high") << "HSA_OVERRIDE_SIDE_EFFECTS"
                                                << "HSA_STATUS_ERROR_OUT_OF_REGISTERS: Kernel has requested more VGPRs than are available on this agent code: 0x2d"
                                                << int(Confidence::High);
        QTest::newRow("invalid ISA: medium") << "HSA_OVERRIDE_SIDE_EFFECTS" << "error : HSA_STATUS_ERROR_INVALID_ISA: x"
                                             << int(Confidence::Medium);
        QTest::newRow("hipblasCreate: low") << "HIPBLAS_ALLOC_FAILED"
                                            << "HIPBLAS_STATUS_ALLOC_FAILED when calling `hipblasCreate(handle)`" << int(Confidence::Low);
        QTest::newRow("trsm: medium") << "HIPBLAS_ALLOC_FAILED" << "HIPBLAS_STATUS_ALLOC_FAILED when calling `hipblasDtrsmBatched(h)`"
                                      << int(Confidence::Medium);
        // Lowered for issue 22: OUT_OF_RESOURCES also comes from driver/user-space skew and unsupported GPUs.
        QTest::newRow("kfd out of resources: low") << "KFD_PERMISSION" << "Call returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: x"
                                                   << int(Confidence::Low);
        QTest::newRow("kfd permission: high") << "KFD_PERMISSION" << "Unable to open /dev/kfd read-write: Permission denied"
                                              << int(Confidence::High);
    }
    // Symptom words guess a cause only when nothing else names one: a message in the text wins, and the guess says so.
    void symptomWordsGuessOnlyWithoutAClaim_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("first"); // the first finding's id, "" for none
        QTest::addColumn<bool>("guess");
        QTest::newRow("description only") << "pytorch dataloader raise bus error: out of shared memory, in kubernetes container"
                                          << "SHM_TOO_SMALL" << true;
        QTest::newRow("a message names the cause") << "bus error in docker\nRuntimeError: CUDA out of memory. Tried to allocate 2.00 MiB"
                                                   << "CUDA_OOM" << false;
        QTest::newRow("nothing to go on") << "the training got slower after the update" << "" << false;
    }
    void symptomWordsGuessOnlyWithoutAClaim()
    {
        QFETCH(QString, text);
        QFETCH(QString, first);
        QFETCH(bool, guess);
        const auto fs = diagnoseLog(text.toStdString());
        if (first.isEmpty()) {
            QVERIFY(fs.empty());
            return;
        }
        QVERIFY(!fs.empty());
        QCOMPARE(QString::fromStdString(fs.front().id), first);
        QCOMPARE(fs.front().confidence == Confidence::Low, guess);
        QCOMPARE(fs.front().rankNote.find("a guess from the words") != std::string::npos, guess);
        if (guess)
            QCOMPARE(fs.front().severity, Severity::Warning);
        QVERIFY(std::none_of(fs.begin() + 1, fs.end(), [](const Finding& f) { return f.id == "SHM_TOO_SMALL"; }));
    }

    void confidenceComesFromTheSignature()
    {
        QFETCH(QString, rule);
        QFETCH(QString, log);
        QFETCH(int, confidence);
        const auto fs = diagnoseLog(log.toStdString());
        const auto f = find(fs, rule.toStdString());
        QVERIFY(f);
        QCOMPARE(int(f->confidence), confidence);
    }

    void applicability_data()
    {
        QTest::addColumn<QString>("torch"); // empty: no snapshot
        QTest::addColumn<QString>("backend");
        QTest::addColumn<int>("applies"); // -1 null, 0 false, 1 true
        QTest::newRow("no snapshot") << "" << "" << -1;
        QTest::newRow("torch 2.5.1 rocm") << "2.5.1+rocm6.2" << "rocm" << 1;
        QTest::newRow("torch 2.3.1 rocm") << "2.3.1+rocm6.0" << "rocm" << 0;
        QTest::newRow("cuda build") << "2.5.1+cu124" << "cuda" << 0;
    }
    void applicability()
    {
        QFETCH(QString, torch);
        QFETCH(QString, backend);
        QFETCH(int, applies);
        Snapshot s = rocmSnapshot(torch.toStdString());
        s.torch.backend = backend.toStdString();
        const auto fs = diagnoseLog(kFallback, torch.isEmpty() ? nullptr : &s);
        const auto f = find(fs, "HIPBLASLT_ARCH_FALLBACK");
        QVERIFY2(f, "a matching text is a finding even where the rule does not apply (the log may be another machine's)");
        QCOMPARE(f->applies ? int(*f->applies) : -1, applies);
        QVERIFY(!f->applicability.empty());
    }

    void envSetApplicability()
    {
        const std::string log = "HSA_STATUS_ERROR_OUT_OF_REGISTERS: Kernel has requested more VGPRs than are available on this agent";
        Snapshot s = rocmSnapshot("2.5.1+rocm6.2");
        QCOMPARE(find(diagnoseLog(log, &s), "HSA_OVERRIDE_SIDE_EFFECTS")->applies, std::optional<bool>(false));
        s.env["HSA_OVERRIDE_GFX_VERSION"] = "11.0.0";
        QCOMPARE(find(diagnoseLog(log, &s), "HSA_OVERRIDE_SIDE_EFFECTS")->applies, std::optional<bool>(true));
    }

    void fixesForOtherArchsAreMarked_data()
    {
        QTest::addColumn<QString>("arch"); // empty: no snapshot
        QTest::addColumn<int>("applies1030");
        QTest::addColumn<int>("applies1100");
        QTest::newRow("gfx1031") << "gfx1031" << 1 << 0;
        QTest::newRow("gfx1102") << "gfx1102" << 0 << 1;
        QTest::newRow("gfx110 is not gfx1100's family list") << "gfx110" << 0 << 0;
        QTest::newRow("no snapshot") << "" << -1 << -1;
    }
    void fixesForOtherArchsAreMarked()
    {
        QFETCH(QString, arch);
        QFETCH(int, applies1030);
        QFETCH(int, applies1100);
        Snapshot s = rocmSnapshot("2.5.1+rocm6.2", {amdGpu(0, arch.toStdString())});
        const auto fs = diagnoseLog("HIP error: invalid device function", arch.isEmpty() ? nullptr : &s);
        const auto f = find(fs, "NO_CODE_OBJECT_FOR_GPU");
        QVERIFY(f);
        std::optional<bool> a1030, a1100;
        for (const auto& fix : f->fixes) {
            auto it = fix.env.find("HSA_OVERRIDE_GFX_VERSION");
            if (it != fix.env.end() && it->second == std::optional<std::string>("10.3.0"))
                a1030 = fix.applies;
            if (it != fix.env.end() && it->second == std::optional<std::string>("11.0.0"))
                a1100 = fix.applies;
        }
        QCOMPARE(a1030 ? int(*a1030) : -1, applies1030);
        QCOMPARE(a1100 ? int(*a1100) : -1, applies1100);
    }

    void archTokens()
    {
        QCOMPARE(archToken("gfx90a:sramecc+:xnack-"), std::string("gfx90a"));
        QCOMPARE(archToken("gfx1100"), std::string("gfx1100"));
        QCOMPARE(archToken(""), std::string(""));
    }

    void gfxTokensAreWhole_data()
    {
        QTest::addColumn<QString>("arch");
        QTest::addColumn<bool>("raised");
        QTest::newRow("gfx1100") << "gfx1100" << true;
        QTest::newRow("gfx1100 with features") << "gfx1100:xnack-" << true;
        QTest::newRow("gfx110") << "gfx110" << false;
        QTest::newRow("gfx11000") << "gfx11000" << false;
        QTest::newRow("gfx1150") << "gfx1150" << false;
    }
    void gfxTokensAreWhole()
    {
        QFETCH(QString, arch);
        QFETCH(bool, raised);
        Snapshot s = rocmSnapshot("2.7.1+rocm6.3", {amdGpu(0, arch.toStdString())});
        s.env["TORCH_BLAS_PREFER_HIPBLASLT"] = "1";
        DiagnosisInput in;
        in.snapshot = &s;
        QCOMPARE(find(diagnose(in), "GFX110X_HIPBLASLT_SLOW").has_value(), raised);
    }

    void probeTextIsEvidence()
    {
        DiagnosisInput in;
        in.probes.push_back(probe("linear_fwd_bwd", "0", "baseline", {}, ProbeResult::Ok,
                                  std::string("UserWarning: ") + kFallback + "\n"));
        const auto fs = diagnose(in);
        const auto f = find(fs, "HIPBLASLT_ARCH_FALLBACK");
        QVERIFY(f);
        QCOMPARE(f->evidence[0].source, std::string("probe"));
        QVERIFY(f->evidence[0].origin.find("linear_fwd_bwd on device 0 (baseline), stderr") != std::string::npos);
        QCOMPARE(*f->evidence[0].line, 1);
        QCOMPARE(f->verified, std::optional<bool>()); // no variant tried
    }

    void variantVerifiesAFix()
    {
        DiagnosisInput in;
        in.probes.push_back(probe("matmul_fp32", "0", "baseline", {}, ProbeResult::Ok, kFallback));
        in.probes.push_back(probe("matmul_fp32", "0", "TORCH_BLAS_PREFER_HIPBLASLT=0", {{"TORCH_BLAS_PREFER_HIPBLASLT", "0"}},
                                  ProbeResult::Ok, ""));
        const auto f = find(diagnose(in), "HIPBLASLT_ARCH_FALLBACK");
        QVERIFY(f);
        const auto* fix = fixWithEnv(*f, "TORCH_BLAS_PREFER_HIPBLASLT");
        QVERIFY(fix);
        QCOMPARE(fix->verified, std::optional<bool>(true));
        QVERIFY(fix->verifiedDetail.find("verified here") != std::string::npos);
        QCOMPARE(f->verified, std::optional<bool>(true));
        QCOMPARE(f->fixes[0].verified, std::optional<bool>()); // no env: never verified
    }

    void variantThatDidNotHelp()
    {
        const std::string err = "RuntimeError: Attempting to use hipBLASLt on a unsupported architecture!";
        DiagnosisInput in;
        in.probes.push_back(probe("linear_fwd_bwd", "0", "baseline", {}, ProbeResult::Error, err));
        in.probes.push_back(probe("linear_fwd_bwd", "0", "DISABLE_ADDMM_CUDA_LT=1", {{"DISABLE_ADDMM_CUDA_LT", "1"}},
                                  ProbeResult::Error, err));
        in.probes.push_back(probe("linear_fwd_bwd", "1", "DISABLE_ADDMM_HIP_LT=1", {{"DISABLE_ADDMM_HIP_LT", "1"}},
                                  ProbeResult::Ok, "")); // another device: not the affected probe
        const auto f = find(diagnose(in), "HIPBLASLT_RUNTIMEERROR");
        QVERIFY(f);
        QCOMPARE(fixWithEnv(*f, "DISABLE_ADDMM_CUDA_LT")->verified, std::optional<bool>(false));
        QCOMPARE(fixWithEnv(*f, "DISABLE_ADDMM_HIP_LT")->verified, std::optional<bool>());
        QCOMPARE(f->verified, std::optional<bool>(false));
    }

    void variantThatStillPrintsTheProblemIsNotVerified()
    {
        DiagnosisInput in;
        in.probes.push_back(probe("matmul_fp32", "0", "baseline", {}, ProbeResult::Ok, kFallback));
        in.probes.push_back(probe("matmul_fp32", "0", "v", {{"TORCH_BLAS_PREFER_HIPBLASLT", "0"}}, ProbeResult::Ok, kFallback));
        const auto f = find(diagnose(in), "HIPBLASLT_ARCH_FALLBACK");
        QCOMPARE(fixWithEnv(*f, "TORCH_BLAS_PREFER_HIPBLASLT")->verified, std::optional<bool>(false));
    }

    void unsettingAVariableIsVerified()
    {
        const std::string err = "HSA_STATUS_ERROR_OUT_OF_REGISTERS: Kernel has requested more VGPRs than are available on this agent";
        DiagnosisInput in;
        in.probes.push_back(probe("conv2d", "0", "baseline", {{"HSA_OVERRIDE_GFX_VERSION", "11.0.0"}}, ProbeResult::Crash, err));
        in.probes.push_back(probe("conv2d", "0", "unset HSA_OVERRIDE_GFX_VERSION", {}, ProbeResult::Ok, ""));
        const auto f = find(diagnose(in), "HSA_OVERRIDE_SIDE_EFFECTS");
        QVERIFY(f);
        const auto* fix = fixWithEnv(*f, "HSA_OVERRIDE_GFX_VERSION");
        QCOMPARE(fix->env.at("HSA_OVERRIDE_GFX_VERSION"), std::optional<std::string>());
        QCOMPARE(fix->verified, std::optional<bool>(true));
    }

    void diagnosticStepsAreNeverVerified()
    {
        const std::string err = "HIP error: an illegal memory access was encountered\n"
                                "HIP kernel errors might be asynchronously reported at some other API call";
        DiagnosisInput in;
        in.probes.push_back(probe("softmax", "0", "baseline", {}, ProbeResult::Error, err));
        in.probes.push_back(probe("softmax", "0", "AMD_SERIALIZE_KERNEL=3", {{"AMD_SERIALIZE_KERNEL", "3"}}, ProbeResult::Ok, ""));
        const auto f = find(diagnose(in), "ASYNC_ERROR_LOCATION");
        QVERIFY(f);
        QCOMPARE(fixWithEnv(*f, "AMD_SERIALIZE_KERNEL")->verified, std::optional<bool>());
        QCOMPARE(f->verified, std::optional<bool>());
    }

    void probeFailingOnTheIntegratedGpu_data()
    {
        QTest::addColumn<QString>("device");
        QTest::addColumn<int>("outcome");
        QTest::addColumn<bool>("raised");
        QTest::newRow("error on iGPU") << "1" << int(ProbeResult::Error) << true;
        QTest::newRow("crash on iGPU") << "1" << int(ProbeResult::Crash) << true;
        QTest::newRow("ok on iGPU") << "1" << int(ProbeResult::Ok) << false;
        QTest::newRow("error on dGPU") << "0" << int(ProbeResult::Error) << false;
        QTest::newRow("error on cpu") << "cpu" << int(ProbeResult::Error) << false;
    }
    void probeFailingOnTheIntegratedGpu()
    {
        QFETCH(QString, device);
        QFETCH(int, outcome);
        QFETCH(bool, raised);
        Snapshot s = rocmSnapshot("2.5.1+rocm6.2", {amdGpu(0, "gfx1100"), amdGpu(1, "gfx1036")});
        s.env["HIP_VISIBLE_DEVICES"] = "0,1"; // keeps the snapshot trigger quiet: only the probe can raise it
        DiagnosisInput in;
        in.snapshot = &s;
        in.probes.push_back(probe("zeros", device.toStdString(), "baseline", {}, ProbeResult(outcome), "hipErrorOutOfMemory"));
        const auto f = find(diagnose(in), "WRONG_DEVICE_IGPU");
        QCOMPARE(f.has_value(), raised);
        if (f) {
            QCOMPARE(f->evidence[0].source, std::string("probe"));
            QCOMPARE(f->confidence, Confidence::High);
        }
    }

    void snapshotOnlyIgpuRiskIsMediumConfidence()
    {
        Snapshot s = rocmSnapshot("2.5.1+rocm6.2", {amdGpu(0, "gfx1100"), amdGpu(1, "gfx1036")});
        DiagnosisInput in;
        in.snapshot = &s;
        const auto f = find(diagnose(in), "WRONG_DEVICE_IGPU");
        QVERIFY(f);
        QCOMPARE(f->confidence, Confidence::Medium);
        QVERIFY(f->evidence[0].text.find("gfx1036") != std::string::npos);
    }

    // Patterns run on windows around their anchor (issue 21: linear matching), so a very long line is
    // matched near the anchor instead of being skipped; a pattern that would need more than the window does not match.
    void veryLongLinesMatchNearTheAnchor()
    {
        const std::string filler(kMaxPatternLineLength + 10, 'x');
        QVERIFY(find(diagnoseLog(filler + " HSA_STATUS_ERROR_INVALID_ISA"), "HSA_OVERRIDE_SIDE_EFFECTS"));
        QVERIFY(find(diagnoseLog(filler + " HIP error: invalid device function"), "NO_CODE_OBJECT_FOR_GPU"));
        // rocBLAS's "No paths matched <path>*gfxNNNN*co": a path longer than the window after the anchor is not followed.
        const std::string longPath(kAnchorWindowAfter + 100, 'p');
        QVERIFY(!find(diagnoseLog("rocBLAS warning: No paths matched /" + longPath + "*gfx1100*co"), "ROCBLAS_TENSILE_MISSING"));
        QVERIFY(find(diagnoseLog("rocBLAS warning: No paths matched /opt/rocm/lib/rocblas/library/*gfx1100*co"), "ROCBLAS_TENSILE_MISSING"));
    }

    void nothingMatchesNothing()
    {
        QVERIFY(diagnoseLog("").empty());
        QVERIFY(diagnoseLog("epoch 1 loss 0.5\nall good\n").empty());
        DiagnosisInput none;
        QVERIFY(diagnose(none).empty());
    }

    void jsonShape()
    {
        const auto j = findingsToJson(diagnoseLog(kFallback));
        QVERIFY(j.contains("findings"));
        const auto& f = j["findings"].at(0);
        for (const char* key : {"id", "title", "severity", "confidence", "evidence", "detail", "fixes", "sources", "verified",
                                "applies", "evidence_count"})
            QVERIFY2(f.contains(key), key);
        QVERIFY(f["verified"].is_null());
        QCOMPARE(f["evidence"].at(0)["line"].get<int>(), 1);
        QVERIFY(f["fixes"].at(1)["env"]["TORCH_BLAS_PREFER_HIPBLASLT"] == "0");
    }

    // The one finding type reads back what it writes, for a diagnosis's findings as for a system check's.
    void findingJsonRoundTrip()
    {
        auto findings = diagnoseLog(kFallback);
        QVERIFY(!findings.empty());
        Finding check;
        check.id = "KFD_ABSENT";
        check.severity = Severity::Warning;
        check.title = "no /dev/kfd";
        check.detail = "it is missing";
        check.fix = "load amdgpu";
        check.sources = {"https://example.org/kfd"};
        findings.push_back(check);
        findings.front().fixes.front().env["UNSET_ME"] = std::nullopt;
        findings.front().fixes.front().verified = false;
        const auto j = findingsToJson(findings)["findings"];
        QVERIFY(findingsFromJson(j, "findings") == findings);
    }

    // Files written before issue 19 named a diagnosis finding's id "rule" and its detail "cause".
    void findingOldKeys()
    {
        const auto f = findingFromJson(nlohmann::json::parse(R"({"rule": "GPU_HANG", "severity": "error", "title": "t",
            "cause": "the cause", "confidence": "low", "fixes": [{"text": "x", "env": {"A": "1", "B": null}}]})"));
        QCOMPARE(f.id, std::string("GPU_HANG"));
        QCOMPARE(f.detail, std::string("the cause"));
        QCOMPARE(f.confidence, Confidence::Low);
        QVERIFY(f.fixes.at(0).env.at("A") == std::optional<std::string>("1"));
        QVERIFY(!f.fixes.at(0).env.at("B"));
        // A snapshot's check finding of before has no diagnosis keys: it reads as a check.
        const auto check = findingFromJson(nlohmann::json::parse(R"({"id": "KFD_ABSENT", "severity": "info", "title": "t",
            "detail": "d", "fix": "f", "sources": []})"));
        QCOMPARE(check.id, std::string("KFD_ABSENT"));
        QCOMPARE(check.fix, std::string("f"));
        QVERIFY(check.fixes.empty() && check.evidence.empty() && !check.verified);
        try {
            findingsFromJson(nlohmann::json::parse(R"([{"id": "A"}, {"id": "B", "evidence": [3]}])"), "findings");
            QFAIL("a finding with a number for evidence was read");
        } catch (const SnapshotError& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(QStringLiteral("'findings[1].evidence[0]' must be an object")), e.what());
        }
    }

    void probeOutcomeJsonRoundTrip()
    {
        const auto p = probe("matmul_bf16", "0", "v", {{"A", "1"}}, ProbeResult::Wrong, "max error 0.5");
        const auto back = probeOutcomeFromJson(toJson(p));
        QCOMPARE(back.probeId, p.probeId);
        QCOMPARE(back.env, p.env);
        QCOMPARE(back.outcome, ProbeResult::Wrong);
        QCOMPARE(back.capturedStderr, p.capturedStderr);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, probeOutcomeFromJson(nlohmann::json {{"probe", "x"}, {"device", "0"},
                                                                                         {"outcome", "exploded"}}));
    }
};

QTEST_GUILESS_MAIN(TestDiagnosis)
#include "tst_diagnosis.moc"
