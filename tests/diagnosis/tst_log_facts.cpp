// Facts stated in pasted logs: prompts, GPU names and gfx targets, torch builds, ROCm, dkms, env, host.
#include "core/diagnosis/gpu_names.h"
#include "core/diagnosis/log_facts.h"
#include "core/diagnosis/log_reader.h"
#include "core/diagnosis/visibility_facts.h"

#include <QtTest>

#include <sstream>

using namespace stackscope;

namespace {

LogFacts factsOf(const QString& text)
{
    return extractLogFacts(NormalizedText(text.toStdString()));
}

QString gpus(const Snapshot& s)
{
    QStringList out;
    for (const auto& g : s.gpus)
        out << QString::fromStdString(g.vendor + ":" + g.arch.value_or("?") + ":" + g.name);
    return out.join(" | ");
}

} // namespace

class TestLogFacts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void stripsPrompts_data()
    {
        QTest::addColumn<QString>("in");
        QTest::addColumn<QString>("out");
        QTest::newRow("python") << ">>> import torch" << "import torch";
        QTest::newRow("ipython") << "In [3]: torch.cuda.is_available()" << "torch.cuda.is_available()";
        QTest::newRow("shell") << "$ rocminfo" << "rocminfo";
        QTest::newRow("user@host") << "imac@ai2:~$ dkms status" << "dkms status";
        QTest::newRow("venv") << "(rocm71) imac@ai2:~/src/rocm71$ export A=1" << "export A=1";
        QTest::newRow("root #") << "root@cdd69b58e233:/var/lib/jenkins# python3" << "python3";
        QTest::newRow("starship") << "\xe2\x9d\xaf rocminfo" << "rocminfo";
        QTest::newRow("not a prompt") << "RuntimeError: HIP error" << "RuntimeError: HIP error";
        QTest::newRow("email-like text") << "mail me at a@b.c: thanks" << "mail me at a@b.c: thanks";
    }
    void stripsPrompts()
    {
        QFETCH(QString, in);
        QFETCH(QString, out);
        QCOMPARE(QString::fromStdString(stripPrompt(in.toStdString())), out);
    }

    void gpusFromText_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("llama.cpp devices")
            << "ggml_cuda_init: found 2 ROCm devices:\n  Device 0: AMD Radeon RX 9070, gfx1201 (0x1201), VMM: no\n"
               "  Device 1: AMD Radeon 740M Graphics, gfx1103 (0x1103), VMM: no"
            << "amd:gfx1201:AMD Radeon RX 9070 | amd:gfx1103:AMD Radeon 740M Graphics";
        QTest::newRow("rocminfo agent") << "  Name:                    gfx1100\n  Uuid:   GPU-0aac\n  Marketing Name:          Radeon RX 7900 XTX"
                                        << "amd:gfx1100:Radeon RX 7900 XTX";
        QTest::newRow("ISA name is not an agent") << "      Name:                    amdgcn-amd-amdhsa--gfx1100" << "";
        QTest::newRow("APU in the CPU name + dGPU")
            << "CPU: AMD Ryzen 5 3400G with Radeon Vega Graphics\nGPU: AMD Radeon RX 6600 (amdgcn-amd-amdhsa--gfx1032"
            << "amd:gfx902:with Radeon Vega Graphics | amd:gfx1032:RX 6600";
        QTest::newRow("name without space") << "Radeon 5700XT" << "amd:gfx1010:RX 5700 XT";
        QTest::newRow("AMD and a name without RX") << "\"Found no NVIDIA driver on your system.\" on AMD 6700XT" << "amd:gfx1031:RX 6700 XT";
        QTest::newRow("amd64 is not AMD") << "torch-2.1.0-cp310-cp310-win_amd64.whl 6700XT" << "";
        QTest::newRow("longest name wins") << "AMD Radeon RX 7900 XTX" << "amd:gfx1100:RX 7900 XTX";
        QTest::newRow("ollama unsupported list is the library's")
            << "msg=\"amdgpu [0] gfx1103 is not supported by /tmp/o/rocm [gfx1030 gfx1100 gfx900]\"" << "amd:gfx1103:";
        QTest::newRow("hip_fatbin") << ":1:hip_fatbin.cpp :687 : No compatible code objects found for: gfx1152, value" << "amd:gfx1152:";
        QTest::newRow("PYTORCH_ROCM_ARCH is not a GPU") << "export PYTORCH_ROCM_ARCH='gfx1151'" << "";
        QTest::newRow("nvidia") << "GPU 0: NVIDIA GeForce RTX 4090" << "nvidia:sm_89:RTX 4090";
        // fuzz_diagnose_log: ", gfx" only before "Device " made the llama.cpp reader cut at npos (an exception).
        QTest::newRow("gfx before Device") << "MI60 / MI50, gfx906:sramecc+:xnack- (0x906), VRAM:Device 3: AMD Inl" << "amd:gfx906:MI60";
        QTest::newRow("same GPU twice") << "gcnArchName='gfx1201'\nAMD Radeon RX 9070 XT" << "amd:gfx1201:RX 9070 XT";
        QTest::newRow("kfd dmesg: APU next to dGPU")
            << "[    3.128554] kfd kfd: added device 1002:7340\n[    4.018420] kfd kfd: added device 1002:1636"
            << "amd:gfx1012:Navi 14 (RX 5500) | amd:gfx90c:Renoir";
        QTest::newRow("kfd dmesg, newer kernel") << "kfd kfd: amdgpu: added device 1002:744c" << "amd:gfx1100:Navi 31 (RX 7900)";
        QTest::newRow("lspci -nn") << "06:00.0 VGA compatible controller [0300]: Advanced Micro Devices, Inc. [AMD/ATI] Phoenix1 [1002:15bf] (rev c1)"
                                   << "amd:gfx1103:Phoenix1";
        QTest::newRow("unknown PCI id") << "kfd kfd: added device 1002:ffff" << "";
        QTest::newRow("rocminfo agent cut before its Marketing Name") << "*******\nAgent 2\n*******\n  Name:                    gfx1100"
                                                                      << "amd:gfx1100:";
        QTest::newRow("rocBLAS names the arch")
            << "rocBLAS error: Cannot read C:/ROCm/6.2/bin/rocblas/library/TensileLibrary.dat: No such file or directory for GPU arch : gfx1201"
            << "amd:gfx1201:";
        QTest::newRow("PCI id not of a controller line") << "see [1002:1636] in the table" << "";
    }
    void gpusFromText()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QCOMPARE(gpus(factsOf(text).snapshot), expected);
    }

    void torchFromText_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("backend");
        QTest::addColumn<QString>("built");
        QTest::newRow("pip3 line") << "[pip3] torch==2.10.0.dev20250929+rocm7.0\n[pip3] torchvision==0.25.0+rocm7.0"
                                   << "2.10.0.dev20250929" << "rocm" << "7.0";
        QTest::newRow("pytorch-triton is not torch") << "[pip3] pytorch-triton-rocm==3.5.0+git" << "" << "" << "";
        QTest::newRow("uv pip list") << "torch             2.8.0+rocm7.1.0.lw.git7a520360" << "2.8.0" << "rocm" << "7.1.0";
        QTest::newRow("wheel url") << "https://x/torch-2.3.0.dev20240126%2Brocm6.0-cp310-cp310-linux_x86_64.whl"
                                   << "2.3.0.dev20240126" << "rocm" << "6.0";
        QTest::newRow("printed version") << "2.9.0.dev20250705+rocm6.4" << "2.9.0.dev20250705" << "rocm" << "6.4";
        QTest::newRow("cuda build") << "PyTorch version: 2.5.1+cu124" << "2.5.1" << "cuda" << "12.4";
        QTest::newRow("wheel index only") << "pip3 install torch --index-url https://download.pytorch.org/whl/rocm6.2"
                                          << "" << "rocm" << "6.2";
        QTest::newRow("TheRock") << "Torch version: `2.10.0a0+rocm7.9.0rc20251007`" << "2.10.0a0" << "rocm" << "7.9.0";
        QTest::newRow("repl repr of a cpu build") << ">>> torch.__version__\n'2.1.0+cpu'" << "2.1.0" << "cpu" << "";
        QTest::newRow("printed with a key") << "torch version = 2.2.1+rocm5.7" << "2.2.1" << "rocm" << "5.7";
        QTest::newRow("pip exact match") << "Collecting torch===1.7.1" << "1.7.1" << "" << "";
        QTest::newRow("collect_env of a cpu build")
            << "PyTorch version: 1.7.1\nIs debug build: False\nCUDA used to build PyTorch: None\nROCM used to build PyTorch: N/A"
            << "1.7.1" << "cpu" << "";
        QTest::newRow("collect_env of a rocm build is not cpu")
            << "CUDA used to build PyTorch: N/A\nROCM used to build PyTorch: 6.2.41133-dd7f95766" << "" << "rocm" << "6.2.41133";
        QTest::newRow("collect_env of a cuda build")
            << "PyTorch version: 1.6.0\nIs debug build: No\nCUDA used to build PyTorch: 10.2" << "1.6.0" << "cuda" << "10.2";
        QTest::newRow("collect_env keeps the wheel's own cuda")
            << "PyTorch version: 2.5.1+cu124\nCUDA used to build PyTorch: 12.4" << "2.5.1" << "cuda" << "12.4";
        QTest::newRow("conda cpu build") << "pytorch                   2.0.1           py3.10_cpu_0    pytorch" << "" << "cpu" << "";
        QTest::newRow("conda cpuonly") << "cpuonly                   2.0                           0    pytorch" << "" << "cpu" << "";
        QTest::newRow("conda _pytorch_select cpu") << "_pytorch_select           0.1                       cpu_0  " << "" << "cpu" << "";
        QTest::newRow("conda _pytorch_select gpu is not cpu") << "_pytorch_select           0.2                       gpu_0  " << "" << "" << "";
    }

    // The NVIDIA driver as collect_env and nvidia-smi print it (the CUDA driver matrix compares it with torch's CUDA).
    void driverFromText_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("driver");
        QTest::newRow("collect_env") << "Nvidia driver version: 418.67\ncuDNN version: Could not collect" << "418.67";
        QTest::newRow("nvidia-smi header")
            << "| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2     |" << "535.104.05";
        QTest::newRow("first statement wins") << "Driver Version: 410.48\nNvidia driver version: 550.54.14" << "410.48";
        QTest::newRow("rocm-smi's driver is not NVIDIA's") << "Driver version: 6.8.5" << "";
        QTest::newRow("amd-smi's kernel driver is not NVIDIA's") << "Driver Version: 6.10.5" << "";
        QTest::newRow("deviceQuery has no colon") << "CUDA Driver Version / Runtime Version          10.1 / 10.0" << "";
    }
    void driverFromText()
    {
        QFETCH(QString, text);
        QFETCH(QString, driver);
        QCOMPARE(QString::fromStdString(factsOf(text).snapshot.cuda.driverVersion.value_or("")), driver);
    }

    // The text's own check that PyTorch sees no GPU, and a container started without one (issue 32).
    void gpuCheckAndContainer_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("noGpu");
        QTest::addColumn<bool>("containerWithoutGpu");
        QTest::newRow("repl answer on the next line") << ">>> torch.cuda.is_available()\nFalse" << true << false;
        QTest::newRow("ipython Out") << "In [2]: torch.cuda.is_available()\nOut[2]: False" << true << false;
        QTest::newRow("print on one line") << "torch.cuda.is_available() = False" << true << false;
        QTest::newRow("prose") << "torch.cuda.is_available() returns false on my RX 6800" << true << false;
        QTest::newRow("True is no finding") << ">>> torch.cuda.is_available()\nTrue" << false << false;
        QTest::newRow("answer far away is not read") << ">>> torch.cuda.is_available()\n>>> x = 1\n>>> y\nFalse" << false << false;
        QTest::newRow("collect_env is not the user's check") << "Is CUDA available: False" << false << false;
        QTest::newRow("PyTorch's no-driver error") << "RuntimeError: Found no NVIDIA driver on your system." << true << false;
        QTest::newRow("Lightning's device parser") << "You requested GPUs: [0]\n            But your machine only has: []" << true << false;
        QTest::newRow("Lightning with fewer GPUs is not none") << "You requested gpu: [0, 1, 2, 3]\n But your machine only has: [0]" << false << false;
        QTest::newRow("docker run without gpus")
            << "$ sudo docker run -t -i floydhub/pytorch:latest-gpu-py3 python -c 'import torch; print(torch.cuda.is_available())'\nFalse"
            << true << true;
        QTest::newRow("docker run --gpus") << "$ docker run --gpus all -it img python\n>>> torch.cuda.is_available()\nFalse" << true << false;
        QTest::newRow("rocm devices passed") << "docker run -it --device=/dev/kfd --device=/dev/dri rocm/pytorch" << false << false;
        QTest::newRow("podman without gpus") << "podman run --rm -it docker.io/rocm/pytorch bash" << false << true;
        QTest::newRow("docker run in prose") << "I tried docker run and it failed" << false << false;
    }
    void gpuCheckAndContainer()
    {
        QFETCH(QString, text);
        QFETCH(bool, noGpu);
        QFETCH(bool, containerWithoutGpu);
        const auto h = factsOf(text).snapshot.hostExtras;
        QCOMPARE(h.torchFoundNoGpu.has_value(), noGpu);
        QCOMPARE(h.containerRunWithoutGpus.has_value(), containerWithoutGpu);
    }
    // The text's own check that PyTorch initialised the GPU runtime.
    void gpuFound_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("found");
        QTest::newRow("collect_env True") << "Is CUDA available: True" << true;
        QTest::newRow("collect_env False") << "Is CUDA available: False" << false;
        QTest::newRow("repl answer True") << ">>> torch.cuda.is_available()\nTrue" << true;
        QTest::newRow("print on one line") << "torch.cuda.is_available() = True" << true;
        QTest::newRow("True then an error") << "torch.cuda.is_available() True but training fails" << false;
        QTest::newRow("False first wins") << ">>> torch.cuda.is_available()\nFalse\nIs CUDA available: True" << false;
    }
    void gpuFound()
    {
        QFETCH(QString, text);
        QFETCH(bool, found);
        QCOMPARE(factsOf(text).snapshot.hostExtras.torchFoundGpu.has_value(), found);
    }
    void torchFromText()
    {
        QFETCH(QString, text);
        QFETCH(QString, version);
        QFETCH(QString, backend);
        QFETCH(QString, built);
        const auto t = factsOf(text).snapshot.torch;
        QCOMPARE(QString::fromStdString(t.version.value_or("")), version);
        QCOMPARE(QString::fromStdString(t.backend.value_or("")), backend);
        QCOMPARE(QString::fromStdString(t.builtWith.value_or("")), built);
    }

    void stackFacts()
    {
        const auto f = factsOf("imac@ai2:~$ rocminfo | head -1\nROCk module version 6.14.14 is loaded\n"
                               "imac@ai2:~$ dkms status\namdgpu/6.14.14-2193512.24.04, 6.14.0-29-generic, x86_64: installed\n"
                               "ii  rocm-core   7.0.0.70000-17~24.04   amd64   ROCm Runtime software stack\n"
                               "Package: rocm-libs\nVersion: 6.4.0.60400-47~22.04\nPackage: other\nVersion: 9.9.9\n"
                               "/opt/rocm-6.4.3/lib/libhsa-runtime64.so.1(+0x2cce7)\n"
                               "BOOT_IMAGE=/vmlinuz-5.15.0-101-generic root=/dev/mapper/x ro iommu=pt\n"
                               "WSL environment detected.\n");
        const auto& s = f.snapshot;
        QCOMPARE(QString::fromStdString(s.rocm.amdgpuDriverVersion.value_or("")), QString("6.14.14"));
        QCOMPARE(f.snapshot.hostExtras.dkms.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(f.snapshot.hostExtras.dkms[0].kernel), QString("6.14.0-29-generic"));
        QCOMPARE(QString::fromStdString(f.snapshot.hostExtras.dkms[0].status), QString("installed"));
        QStringList versions;
        for (const auto& i : s.rocm.installs)
            versions << QString::fromStdString(i.version.value_or(""));
        QCOMPARE(versions, (QStringList {"7.0.0", "6.4.0", "6.4.3"}));
        QVERIFY(f.snapshot.hostExtras.kernelCmdline && f.snapshot.hostExtras.kernelCmdline->find("iommu=pt") != std::string::npos);
        QCOMPARE(f.snapshot.hostExtras.wsl, std::optional<bool>(true));
        QVERIFY(f.lines.size() >= 6);
        QVERIFY2(f.lines[0].find("(line 2)") != std::string::npos, f.lines[0].c_str());
    }

    void envFacts_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected"); // NAME=VALUE, ...
        QTest::newRow("export") << "(venv) u@h:~$ export TORCH_BLAS_PREFER_HIPBLASLT=1" << "TORCH_BLAS_PREFER_HIPBLASLT=1";
        QTest::newRow("prefix assignment") << "root@x:/w# HSA_OVERRIDE_GFX_VERSION=10.3.0 python3" << "HSA_OVERRIDE_GFX_VERSION=10.3.0";
        QTest::newRow("advice is not a setting")
            << "If reserved memory is large try setting PYTORCH_HIP_ALLOC_CONF=expandable_segments:True" << "";
        QTest::newRow("ollama map")
            << "msg=\"server config\" env=\"map[CUDA_VISIBLE_DEVICES: HIP_VISIBLE_DEVICES: HSA_OVERRIDE_GFX_VERSION:11.5.1 OLLAMA_DEBUG:DEBUG]\""
            << "HSA_OVERRIDE_GFX_VERSION=11.5.1";
        QTest::newRow("unknown names ignored") << "export MY_SECRET=x" << "";
        QTest::newRow("export of an empty value sets it") << "$ export CUDA_VISIBLE_DEVICES=" << "CUDA_VISIBLE_DEVICES=";
        QTest::newRow("a prefix assignment of an empty value") << "$ CUDA_VISIBLE_DEVICES= python train.py" << "CUDA_VISIBLE_DEVICES=";
        QTest::newRow("cmd's set of an empty value removes it") << "C:\\Users\\me>set CUDA_VISIBLE_DEVICES=" << "";
    }
    // The CUDA allocator ComfyUI/Fooocus run with: named by their device line, presumed from their default, or off.
    void allocatorFacts_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("allocConf"); // PYTORCH_CUDA_ALLOC_CONF as the facts hold it, "" for none
        QTest::newRow("device line names it") << "Device: cuda:0 NVIDIA GeForce GTX 960M : cudaMallocAsync" << "backend:cudaMallocAsync";
        QTest::newRow("device line names native") << "Device: cuda:0 NVIDIA GeForce GTX 960M : native\nComfyUI\\comfy\\sd.py" << "";
        QTest::newRow("ComfyUI path: its default presumed")
            << "  File \"C:\\ComfyUI\\comfy\\model_management.py\", line 105, in get_total_memory" << "backend:cudaMallocAsync";
        QTest::newRow("switched off") << "python main.py --disable-cuda-malloc\n  File \"/w/ComfyUI/nodes.py\"" << "";
        QTest::newRow("ComfyUI on ROCm: no cudaMallocAsync")
            << "torch 2.4.0+rocm6.1\n  File \"/w/ComfyUI/comfy/model_management.py\"" << "";
        QTest::newRow("set by the user wins") << "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True python main.py\nComfyUI" << "expandable_segments:True";
        QTest::newRow("no ComfyUI") << "RuntimeError: CUDA error: operation not supported" << "";
    }
    void allocatorFacts()
    {
        QFETCH(QString, text);
        QFETCH(QString, allocConf);
        const auto env = factsOf(text).snapshot.env;
        const auto it = env.find("PYTORCH_CUDA_ALLOC_CONF");
        QCOMPARE(QString::fromStdString(it == env.end() ? "" : it->second), allocConf);
    }

    // A torch build for the vendor whose GPUs the text does not show (TORCH_WRONG_VENDOR_BUILD's fact), with the
    // backend read from messages only one build prints.
    void absentVendor_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("backend");
        QTest::addColumn<bool>("absent");
        QTest::newRow("ROCm message, NVIDIA GPU") << "GPU 0: NVIDIA GeForce RTX 3050\nRuntimeError: No HIP GPUs are available" << "rocm" << true;
        QTest::newRow("CUDA message, AMD GPU") << "Marketing Name: AMD Radeon VII\n  Name: gfx906\nFound no NVIDIA driver on your system" << "cuda" << true;
        QTest::newRow("ROCm message, AMD GPU") << "AMD Radeon RX 7900 XTX\nRuntimeError: No HIP GPUs are available" << "rocm" << false;
        QTest::newRow("the build's version wins over a message") << "torch 2.3.1+cu121\nNo HIP GPUs are available\nGPU 0: NVIDIA GeForce RTX 4090" << "cuda" << false;
        QTest::newRow("no GPU shown: unknown") << "RuntimeError: No HIP GPUs are available" << "rocm" << false;
        QTest::newRow("both vendors shown") << "torch 2.3.1+rocm6.0\nGPU 0: NVIDIA GeForce RTX 4090\nAMD Radeon RX 7900 XTX" << "rocm" << false;
    }
    void absentVendor()
    {
        QFETCH(QString, text);
        QFETCH(QString, backend);
        QFETCH(bool, absent);
        const auto s = factsOf(text).snapshot;
        QCOMPARE(QString::fromStdString(s.torch.backend.value_or("")), backend);
        const auto fact = torchForAbsentVendor(s);
        QVERIFY2(fact.has_value() == absent, fact.value_or("(none)").c_str());
    }

    void envFacts()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QStringList got;
        for (const auto& [k, v] : factsOf(text).snapshot.env)
            got << QString::fromStdString(k + "=" + v);
        QCOMPARE(got.join(", "), expected);
    }

    void everyTableSourceIsAUrl()
    {
        for (const auto& e : gpuNameTable())
            QVERIFY2(std::string(e.source).rfind("https://", 0) == 0, e.name);
    }
};

QTEST_GUILESS_MAIN(TestLogFacts)
#include "tst_log_facts.moc"
