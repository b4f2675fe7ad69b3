// Facts stated in pasted logs (see log_facts.h). Every test is a literal find on one line, so the cost is
// linear in the text: no regular expressions here.
#include "core/diagnosis/log_facts.h"

#include "core/diagnosis/gpu_names.h"
#include "core/snapshot/stack_environment.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace stackscope {

namespace {

bool startsWith(std::string_view s, std::string_view p)
{
    return s.substr(0, p.size()) == p;
}

bool endsWith(std::string_view s, std::string_view p)
{
    return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

bool isAlnum(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

std::string trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return std::string(s);
}

std::string lowerCopy(std::string_view s)
{
    std::string out(s);
    for (auto& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// "gfx1030" at `pos` (which points at "gfx"): 3 or 4 of [0-9a-f], then no further letter or digit.
std::string gfxAt(std::string_view s, std::size_t pos)
{
    std::size_t j = pos + 3;
    while (j < s.size() && j - pos - 3 < 5 && (std::isdigit(static_cast<unsigned char>(s[j])) || (s[j] >= 'a' && s[j] <= 'f')))
        ++j;
    const std::size_t n = j - pos - 3;
    if (n < 3 || n > 4 || (j < s.size() && isAlnum(s[j])) || !std::isdigit(static_cast<unsigned char>(s[pos + 3])))
        return {};
    return std::string(s.substr(pos, j - pos));
}

std::string firstGfx(std::string_view s)
{
    for (auto pos = s.find("gfx"); pos != std::string_view::npos; pos = s.find("gfx", pos + 1)) {
        if (pos > 0 && isAlnum(s[pos - 1]) && s[pos - 1] != 'x') // "amdhsa--gfx", " gfx", "'gfx"
            continue;
        if (auto g = gfxAt(s, pos); !g.empty())
            return g;
    }
    return {};
}

// A version token at `pos`: digits and dots (and what follows up to a space, comma, quote or bracket).
std::string tokenAt(std::string_view s, std::size_t pos)
{
    std::size_t j = pos;
    while (j < s.size() && s[j] != ' ' && s[j] != ',' && s[j] != '"' && s[j] != '\'' && s[j] != '`' && s[j] != ')'
           && s[j] != ']')
        ++j;
    return std::string(s.substr(pos, j - pos));
}

// "6.2.3" from "rocm6.2.3rc2025..." or "6.0" from "rocm6.0"; empty if no digits follow.
std::string leadingVersion(std::string_view s)
{
    std::size_t j = 0;
    while (j < s.size() && (std::isdigit(static_cast<unsigned char>(s[j])) || (s[j] == '.' && j + 1 < s.size()
                                                                               && std::isdigit(static_cast<unsigned char>(s[j + 1])))))
        ++j;
    return std::string(s.substr(0, j));
}

} // namespace

std::string stripPrompt(std::string_view line)
{
    std::string_view s = line;
    while (!s.empty() && s.front() == ' ')
        s.remove_prefix(1);
    for (std::string_view p : {">>> ", "... ", "$ ", "# ", "\xe2\x9d\xaf ", "> "}) {
        if (startsWith(s, p))
            return trim(s.substr(p.size()));
    }
    if ((startsWith(s, "In [") || startsWith(s, "Out[")) && s.find("]: ") != std::string_view::npos && s.find("]: ") < 12)
        return trim(s.substr(s.find("]: ") + 3));
    std::string_view rest = s;
    if (startsWith(rest, "(") && rest.find(") ") != std::string_view::npos && rest.find(") ") < 40)
        rest.remove_prefix(rest.find(") ") + 2); // "(venv) "
    const auto space = rest.find(' ');
    const std::string_view head = rest.substr(0, space);
    if (head.size() > 2 && head.find('@') != std::string_view::npos && head.find(':') != std::string_view::npos
        && (head.back() == '$' || head.back() == '#'))
        return space == std::string_view::npos ? std::string() : trim(rest.substr(space + 1));
    return std::string(line);
}

namespace {

struct Extractor {
    LogFacts facts;
    std::string pendingAgentArch; // rocminfo: "Name: gfx1030" waits for its "Marketing Name:"
    int pendingAgentLine = 0;
    bool torchFromWheelIndex = false;
    bool collectEnvCudaNone = false;  // collect_env: "CUDA used to build PyTorch: None"
    std::string pendingGpuCheck;      // "torch.cuda.is_available()" waiting for the next line's answer
    int pendingGpuCheckLine = 0;
    bool pendingRocmPackage = false;  // apt show: "Package: rocm-libs" waits for its "Version:"

    void fact(int line, std::string text) { facts.lines.push_back(fmt::format("{} (line {})", text, line)); }

    void addGpu(int line, std::string name, std::string arch, std::string vendor, std::string how)
    {
        auto& gpus = facts.snapshot.gpus;
        for (auto& g : gpus) {
            const bool sameArch = !arch.empty() && g.arch && *g.arch == arch;
            const bool sameName = !name.empty() && g.name == name;
            if (sameArch || (sameName && arch.empty())) {
                if (g.name.empty() || (g.name.find("Radeon Graphics") != std::string::npos && !name.empty()))
                    g.name = name.empty() ? g.name : name;
                return;
            }
        }
        GpuInfo g;
        g.index = static_cast<int>(gpus.size());
        g.vendor = vendor;
        g.name = name;
        if (!arch.empty())
            g.arch = arch;
        g.source = "log";
        gpus.push_back(g);
        fact(line, fmt::format("GPU {}{}{} ({})", name.empty() ? "" : "'" + name + "' ", arch.empty() ? "" : arch,
                               !arch.empty() && isIntegratedArch(arch) ? ", integrated" : "", how));
    }

    void gpusOnLine(int n, std::string_view s);
    void torchOnLine(int n, std::string_view s);
    void setTorch(int n, const std::string& version, const std::string& how);
    void rocmOnLine(int n, std::string_view s);
    void envOnLine(int n, std::string_view s);
    void hostOnLine(int n, std::string_view s);
    void cpuTorchOnLine(int n, std::string_view s);
    void gpuCheckOnLine(int n, std::string_view s);
    void backendOfMessage(int n, const std::string& line);
    void allocatorHintOnLine(int n, std::string_view s);
    void comfyDefaultAllocator();
    int comfyLine = 0;            // a ComfyUI/Fooocus path or launcher line (their launchers select cudaMallocAsync)
    bool cudaMallocOff = false;   // --disable-cuda-malloc, or an allocator named other than cudaMallocAsync
    void containerOnLine(int n, std::string_view s);
    void nvidiaOnLine(int n, std::string_view s);
};

void Extractor::gpusOnLine(int n, std::string_view s)
{
    // rocminfo agent: "Name: gfx1100" then "Marketing Name: Radeon RX 7900 XTX"
    if (startsWith(s, "Name:")) {
        const auto value = trim(s.substr(5));
        pendingAgentArch = startsWith(value, "gfx") ? gfxAt(value, 0) : std::string();
        pendingAgentLine = n;
        if (!pendingAgentArch.empty())
            addGpu(n, "", pendingAgentArch, "amd", "rocminfo agent"); // a paste may end before its Marketing Name
        return;
    }
    if (startsWith(s, "Marketing Name:") && !pendingAgentArch.empty() && n - pendingAgentLine <= 3) {
        addGpu(n, trim(s.substr(15)), pendingAgentArch, "amd", "rocminfo agent");
        pendingAgentArch.clear();
        return;
    }
    // KFD in dmesg: "kfd kfd: added device 1002:1636" (newer kernels: "kfd kfd: amdgpu: added device 1002:744c");
    // lspci -nn: "VGA compatible controller [0300]: Advanced Micro Devices, Inc. [AMD/ATI] Renoir [1002:1636]".
    for (std::string_view key : {"added device 1002:", "[1002:"}) {
        const auto k = s.find(key);
        if (k == std::string_view::npos || (key[0] == '[' && s.find("controller") == std::string_view::npos))
            continue;
        const auto hex = s.substr(k + key.size(), 4);
        unsigned id = 0;
        if (hex.size() == 4 && std::all_of(hex.begin(), hex.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); }))
            id = static_cast<unsigned>(std::stoul(std::string(hex), nullptr, 16));
        if (const auto d = findAmdPciDevice(id))
            return addGpu(n, d->chip, d->arch, "amd", fmt::format("PCI id 1002:{}", hex));
    }
    // llama.cpp: "Device 0: AMD Radeon RX 9070, gfx1201 (0x1201), VMM: no ..."
    if (const auto d = s.find("Device "); d != std::string_view::npos && s.find(", gfx") != std::string_view::npos) {
        const auto colon = s.find(": ", d);
        const auto comma = s.find(", gfx", d);
        // ", gfx" may stand only before "Device " (fuzz_diagnose_log found such a line: substr(npos) threw).
        if (colon != std::string_view::npos && comma != std::string_view::npos && colon < comma)
            return addGpu(n, trim(s.substr(colon + 2, comma - colon - 2)), firstGfx(s.substr(comma)), "amd", "llama.cpp device list");
    }
    // Ollama: "amdgpu [0] gfx1103 is not supported by ... [list of the library's targets]"
    if (const auto a = s.find("amdgpu ["); a != std::string_view::npos && s.find("] gfx", a) != std::string_view::npos)
        return addGpu(n, "", firstGfx(s.substr(s.find("] gfx", a) + 2, 12)), "amd", "Ollama GPU discovery");
    for (std::string_view key : {"gpu_type=", "compute=", "detected amdgpu versions [", "code objects found for: ", "gcnArchName='",
                                 "for GPU arch : "}) {
        if (const auto k = s.find(key); k != std::string_view::npos) {
            const auto arch = firstGfx(s.substr(k + key.size(), 12));
            if (!arch.empty()) {
                std::string name;
                if (const auto nm = s.find("name='"); nm != std::string_view::npos)
                    name = tokenAt(s, nm + 6);
                return addGpu(n, name, arch, "amd", std::string(key.substr(0, key.size() - 1)));
            }
        }
    }
    static const std::vector<std::string> hints {"radeon", "instinct", "rx ", "rx5", "rx6", "rx7", "rx9", "vega", "geforce",
                                                 "rtx", "tesla", "nvidia", " mi", "h100", "a100"};
    const std::string low = lowerCopy(s);
    if (std::none_of(hints.begin(), hints.end(), [&](const std::string& h) { return low.find(h) != std::string::npos; }))
        return;
    if (auto e = findGpuName(s)) {
        std::string arch = e->arch;
        if (const auto g = firstGfx(s); !g.empty() && std::string(e->vendor) == "amd")
            arch = g; // the line's own gfx target beats the table (overrides, new steppings)
        addGpu(n, e->name, arch, e->vendor, fmt::format("name table: {}", e->source));
    }
}

void Extractor::setTorch(int n, const std::string& version, const std::string& how)
{
    auto& t = facts.snapshot.torch;
    if (t.version && !torchFromWheelIndex)
        return; // the first statement wins (later lines are often other environments)
    torchFromWheelIndex = false;
    const auto plus = version.find('+');
    t.version = version.substr(0, plus);
    if (plus != std::string::npos) {
        const std::string local = version.substr(plus + 1);
        if (startsWith(local, "rocm") && !leadingVersion(local.substr(4)).empty()) {
            t.backend = "rocm";
            t.builtWith = leadingVersion(local.substr(4));
        } else if (startsWith(local, "cu") && local.size() >= 4 && std::isdigit(static_cast<unsigned char>(local[2]))) {
            t.backend = "cuda";
            const auto digits = leadingVersion(local.substr(2));
            t.builtWith = digits.size() >= 3 ? digits.substr(0, digits.size() - 1) + "." + digits.back() : digits;
        } else if (local == "cpu") {
            t.backend = "cpu";
        }
    }
    fact(n, fmt::format("torch {}{} ({})", version, t.builtWith ? fmt::format(" (built for {} {})", *t.backend, *t.builtWith) : "", how));
}

void Extractor::torchOnLine(int n, std::string_view s)
{
    for (auto pos = s.find("torch=="); pos != std::string_view::npos; pos = s.find("torch==", pos + 1)) {
        if (pos == 0 || (!isAlnum(s[pos - 1]) && s[pos - 1] != '-' && s[pos - 1] != '_')) {
            auto start = pos + 7;
            while (start < s.size() && s[start] == '=') // pip's exact match: torch===1.7.1
                ++start;
            return setTorch(n, tokenAt(s, start), "pip line");
        }
    }
    for (std::string_view key : {"PyTorch version: ", "Torch version: ", "PyTorch版本: "}) {
        if (const auto k = s.find(key); k != std::string_view::npos) {
            auto start = k + key.size();
            while (start < s.size() && s[start] == '`')
                ++start;
            auto v = tokenAt(s, start);
            v.erase(std::remove(v.begin(), v.end(), '`'), v.end());
            if (!v.empty() && v != "N/A" && std::isdigit(static_cast<unsigned char>(v[0])))
                return setTorch(n, v, "version line");
        }
    }
    if (startsWith(s, "torch ") || startsWith(s, "[conda] torch ")) {
        auto rest = trim(s.substr(s.find("torch ") + 6));
        if (!rest.empty() && std::isdigit(static_cast<unsigned char>(rest[0])))
            return setTorch(n, tokenAt(rest, 0), "package list");
    }
    if (const auto w = s.find("torch-"); w != std::string_view::npos && s.find("-cp", w) != std::string_view::npos) {
        std::string v(s.substr(w + 6, s.find("-cp", w) - w - 6));
        if (const auto enc = v.find("%2B"); enc != std::string::npos)
            v.replace(enc, 3, "+");
        if (!v.empty() && std::isdigit(static_cast<unsigned char>(v[0])) && v.find(' ') == std::string::npos)
            return setTorch(n, v, "wheel file name");
    }
    auto trimmed = trim(s);
    if (trimmed.size() > 2 && (trimmed.front() == '\'' || trimmed.front() == '"') && trimmed.back() == trimmed.front())
        trimmed = trimmed.substr(1, trimmed.size() - 2); // the REPL's repr: '2.1.0+cpu'
    if (!trimmed.empty() && std::isdigit(static_cast<unsigned char>(trimmed[0])) && trimmed.find(' ') == std::string::npos
        && (trimmed.find("+rocm") != std::string::npos || trimmed.find("+cu") != std::string::npos
            || trimmed.find("+cpu") != std::string::npos))
        return setTorch(n, trimmed, "printed torch.__version__");
    for (std::string_view key : {"torch version = ", "torch.__version__ = ", "torch.__version__: ", "torch version: "}) {
        if (startsWith(lowerCopy(s), key)) {
            const auto v = tokenAt(s, key.size());
            if (!v.empty() && std::isdigit(static_cast<unsigned char>(v[0])))
                return setTorch(n, v, "printed torch.__version__");
        }
    }
    if (const auto u = s.find("/whl/"); u != std::string_view::npos && !facts.snapshot.torch.version) {
        const auto r = s.find("rocm", u);
        const auto v = r == std::string_view::npos ? std::string() : leadingVersion(s.substr(r + 4));
        if (!v.empty()) {
            facts.snapshot.torch.backend = "rocm";
            facts.snapshot.torch.builtWith = v;
            torchFromWheelIndex = true;
            fact(n, fmt::format("torch wheels for ROCm {} (PyTorch wheel index)", v));
        }
    }
    if (const auto k = s.find("ROCM used to build PyTorch: "); k != std::string_view::npos) {
        const auto v = leadingVersion(s.substr(k + 28));
        if (!v.empty()) {
            facts.snapshot.torch.backend = "rocm";
            facts.snapshot.torch.builtWith = v;
            fact(n, fmt::format("torch built with ROCm {} (collect_env)", v));
        }
    }
}

void Extractor::rocmOnLine(int n, std::string_view s)
{
    auto& rocm = facts.snapshot.rocm;
    auto addInstall = [&](const std::string& path, const std::string& version, const char* how) {
        for (const auto& i : rocm.installs)
            if (i.version == std::optional<std::string>(version))
                return;
        rocm.installs.push_back({path, version, "log"});
        fact(n, fmt::format("ROCm {} installed{} ({})", version, path.empty() ? "" : " at " + path, how));
    };
    if (const auto p = s.find("/opt/rocm-"); p != std::string_view::npos) {
        const auto v = leadingVersion(s.substr(p + 10));
        if (v.find('.') != std::string::npos)
            addInstall("/opt/rocm-" + v, v, "path in the log");
    }
    for (std::string_view key : {"ROCm version : ", "ROCm version: ", "ROCM Version: "}) {
        if (const auto k = s.find(key); k != std::string_view::npos) {
            const auto v = leadingVersion(s.substr(k + key.size()));
            if (v.find('.') != std::string::npos)
                addInstall("", v, "version line");
        }
    }
    // The ROCm meta packages' own version: `dpkg -l` ("ii rocm-libs 6.4.0.60400-47~22.04 amd64") and
    // `apt show` ("Package: rocm-libs", then "Version: 6.4.0.60400-47~22.04").
    const auto rocmPackage = [](std::string_view name) {
        for (std::string_view p : {"rocm", "rocm-core", "rocm-libs", "rocm-dev", "rocm-hip-runtime", "rocm-hip-sdk"})
            if (name == p)
                return true;
        return false;
    };
    const auto threeParts = [](const std::string& v) {
        return v.substr(0, std::min(v.size(), v.find('.', v.find('.', v.find('.') + 1) + 1)));
    };
    if (startsWith(s, "ii ")) {
        const auto rest = trim(s.substr(3));
        const auto space = rest.find(' ');
        if (space != std::string::npos && rocmPackage(std::string_view(rest).substr(0, space))) {
            const auto v = leadingVersion(trim(std::string_view(rest).substr(space + 1)));
            if (!v.empty())
                addInstall("", threeParts(v), "dpkg");
        }
    }
    if (startsWith(s, "Package:"))
        pendingRocmPackage = rocmPackage(trim(s.substr(8)));
    else if (pendingRocmPackage && startsWith(s, "Version:")) {
        pendingRocmPackage = false;
        const auto v = leadingVersion(trim(s.substr(8)));
        if (v.find('.') != std::string::npos)
            addInstall("", threeParts(v), "apt show");
    }
    for (std::string_view key : {"HIP runtime version: ", "HIP version: ", "HIP version  : "}) {
        if (const auto k = s.find(key); k != std::string_view::npos && !rocm.hipRuntimeVersion) {
            const auto v = leadingVersion(s.substr(k + key.size()));
            if (v.find('.') != std::string::npos) {
                rocm.hipRuntimeVersion = v;
                fact(n, fmt::format("HIP runtime {}", v));
            }
        }
    }
    for (std::string_view key : {"ROCk module version ", "amdgpu version: ", "AMDGPU "}) {
        if (const auto k = s.find(key); k != std::string_view::npos && !rocm.amdgpuDriverVersion) {
            const auto v = leadingVersion(s.substr(k + key.size()));
            if (std::count(v.begin(), v.end(), '.') >= 1) {
                rocm.amdgpuDriverVersion = v;
                fact(n, fmt::format("amdgpu kernel driver {}", v));
            }
        }
    }
    if (startsWith(s, "amdgpu/") && (s.find(": installed") != std::string_view::npos || s.find(": added") != std::string_view::npos)) {
        const auto v = leadingVersion(s.substr(7));
        facts.snapshot.hostExtras.dkms.push_back({"amdgpu", v, trim(s.substr(s.find(", ") == std::string_view::npos ? s.size() : s.find(", ") + 2,
                                                       s.find(", ", s.find(", ") + 2) - s.find(", ") - 2)),
                             trim(s.substr(s.rfind(": ") + 2))});
        fact(n, fmt::format("dkms: amdgpu {} ({})", v, trim(s.substr(s.rfind(": ") + 2))));
    }
}

void Extractor::envOnLine(int n, std::string_view raw)
{
    // A POSIX shell's "X=" sets X to the empty value ("export CUDA_VISIBLE_DEVICES=" hides every GPU); Windows cmd's
    // "set X=" removes X, and Ollama's config map lists every variable it reads, an empty one unset.
    bool cmdSet = false;
    auto record = [&](const std::string& name, std::string value, const char* how, bool emptyIsSet = true) {
        while (!value.empty() && (value.front() == '"' || value.front() == '\'' || value.front() == '`'))
            value.erase(value.begin());
        while (!value.empty() && (value.back() == '"' || value.back() == '\'' || value.back() == '`'))
            value.pop_back();
        if ((value.empty() && (!emptyIsSet || cmdSet)) || !isStackEnvironmentVariable(name))
            return;
        facts.snapshot.env[name] = value;
        fact(n, fmt::format("{}={} ({})", name, value.empty() ? std::string("'' (empty)") : value, how));
    };
    std::string s = stripPrompt(raw);
    for (std::string_view p : {"export ", "set ", "env "}) {
        if (startsWith(s, p)) {
            cmdSet = p == "set ";
            s = s.substr(p.size());
        }
    }
    // "A=1 B=2 command" or "A=1": leading assignments only (advice text such as "try setting X=1" is not a setting)
    std::string_view rest = s;
    while (!rest.empty()) {
        const auto eq = rest.find('=');
        const auto sp = rest.find(' ');
        if (eq == std::string_view::npos || (sp != std::string_view::npos && sp < eq) || eq == 0)
            break;
        const std::string name(rest.substr(0, eq));
        if (!std::all_of(name.begin(), name.end(), [](char c) { return std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_'; }))
            break;
        record(name, std::string(rest.substr(eq + 1, sp == std::string_view::npos ? std::string_view::npos : sp - eq - 1)), "set in the log");
        rest = sp == std::string_view::npos ? std::string_view() : rest.substr(sp + 1);
    }
    // Ollama: server config env="map[HIP_VISIBLE_DEVICES: HSA_OVERRIDE_GFX_VERSION:11.5.1 ...]"
    if (const auto m = raw.find("env=\"map["); m != std::string_view::npos) {
        const auto end = raw.find(']', m);
        std::string_view map = raw.substr(m + 9, end == std::string_view::npos ? std::string_view::npos : end - m - 9);
        while (!map.empty()) {
            const auto sp = map.find(' ');
            const auto entry = map.substr(0, sp);
            const auto colon = entry.find(':');
            if (colon != std::string_view::npos && colon > 0)
                record(std::string(entry.substr(0, colon)), std::string(entry.substr(colon + 1)), "Ollama server config", false);
            map = sp == std::string_view::npos ? std::string_view() : map.substr(sp + 1);
        }
    }
    // Ollama: msg="skipping rocm gfx compatibility check" HSA_OVERRIDE_GFX_VERSION=11.0.2
    if (const auto k = raw.find("\" HSA_OVERRIDE_GFX_VERSION="); k != std::string_view::npos)
        record("HSA_OVERRIDE_GFX_VERSION", tokenAt(raw, k + 27), "Ollama log");
}

// A CPU-only PyTorch named some other way than a "+cpu" version: collect_env's "CUDA used to build PyTorch: None"
// followed by "ROCM used to build PyTorch: N/A" (torch.version.cuda and torch.version.hip both None), and conda's
// CPU builds (the pytorch package's "cpu_" build string, the "cpuonly" package, the "cpu" pytorch-mutex, the defaults
// channel's "_pytorch_select ... cpu_0" selector).
void Extractor::cpuTorchOnLine(int n, std::string_view s)
{
    auto setCpu = [&](const char* how) {
        auto& t = facts.snapshot.torch;
        if (t.backend)
            return;
        t.backend = "cpu";
        fact(n, fmt::format("torch is a CPU-only build ({})", how));
    };
    if (startsWith(s, "CUDA used to build PyTorch: ")) {
        collectEnvCudaNone = trim(s.substr(28)) == "None";
        return;
    }
    if (startsWith(s, "ROCM used to build PyTorch: ")) {
        if (collectEnvCudaNone && trim(s.substr(28)) == "N/A")
            setCpu("collect_env: built with neither CUDA nor ROCm");
        collectEnvCudaNone = false;
        return;
    }
    const std::string line = trim(s);
    if (startsWith(line, "cpuonly ") || (startsWith(line, "pytorch-mutex ") && line.find(" cpu") != std::string::npos))
        return setCpu("conda package list");
    if (startsWith(line, "pytorch ") && line.find("cpu_") != std::string::npos)
        return setCpu("conda build string");
    if (startsWith(line, "_pytorch_select ") && line.find(" cpu_") != std::string::npos)
        return setCpu("conda's _pytorch_select picks the cpu variant");
}

// The text's own check that PyTorch sees no GPU: torch.cuda.is_available() answering False (on its line, or as the
// next line's output), and PyTorch's no-GPU errors. Several causes end here (no driver, hidden GPUs, a CPU-only
// build, a container without GPUs); rules combine this with the fact that names one.
void Extractor::gpuCheckOnLine(int n, std::string_view s)
{
    auto record = [&](int line, const std::string& text) {
        if (facts.snapshot.hostExtras.torchFoundNoGpu)
            return;
        facts.snapshot.hostExtras.torchFoundNoGpu = text;
        fact(line, fmt::format("PyTorch found no GPU: {}", text));
    };
    auto recordFound = [&](int line, const std::string& text) {
        if (facts.snapshot.hostExtras.torchFoundGpu || facts.snapshot.hostExtras.torchFoundNoGpu)
            return;
        facts.snapshot.hostExtras.torchFoundGpu = text;
        fact(line, fmt::format("PyTorch found a GPU: {}", text));
    };
    const std::string line = trim(s);
    if (!pendingGpuCheck.empty()) {
        const std::string answer = lowerCopy(line);
        if (n - pendingGpuCheckLine <= 2 && (answer == "false" || startsWith(answer, "false ")))
            record(pendingGpuCheckLine, pendingGpuCheck + " -> False");
        else if (n - pendingGpuCheckLine <= 2 && answer == "true")
            recordFound(pendingGpuCheckLine, pendingGpuCheck + " -> True");
        pendingGpuCheck.clear();
    }
    // collect_env's "Is CUDA available: True" (a ROCm build answers for HIP the same way): the runtime initialised where
    // collect_env ran. Its "False" is not taken as the failing program's check (collect_env often runs elsewhere: a
    // login node, another environment).
    if (line == "Is CUDA available: True")
        return recordFound(n, line);
    static const std::string call = "torch.cuda.is_available()";
    if (const auto c = line.find(call); c != std::string::npos) {
        std::string rest = lowerCopy(line.substr(c + call.size()));
        std::size_t i = 0;
        while (i < rest.size() && (rest[i] == ')' || rest[i] == ' ' || rest[i] == '=' || rest[i] == ':' || rest[i] == '-'
                                   || rest[i] == '>' || rest[i] == '`' || rest[i] == '\'' || rest[i] == '"' || rest[i] == ';'))
            ++i;
        for (std::string_view verb : {"returned ", "returns ", "return ", "is "}) {
            if (rest.compare(i, verb.size(), verb) == 0)
                i += verb.size();
        }
        if (rest.compare(i, 5, "false") == 0)
            return record(n, line);
        if (rest.compare(i, 4, "true") == 0 && i + 4 == rest.size())
            return recordFound(n, line);
        if (i >= rest.size()) { // the call alone: its answer is on the next line
            pendingGpuCheck = line;
            pendingGpuCheckLine = n;
        }
        return;
    }
    // Lightning's device parser lists the GPUs torch counts: "You requested gpu: [0]" / "But your machine only has: []".
    for (std::string_view text : {"Found no NVIDIA driver on your system", "No CUDA GPUs are available",
                                  "no CUDA-capable device is detected", "No HIP GPUs are available",
                                  "But your machine only has: []"}) {
        if (line.find(text) != std::string::npos) {
            record(n, line);
            return backendOfMessage(n, line);
        }
    }
}

// Two of those messages exist in one build only: c10's "No HIP GPUs are available" is the hipified text of a ROCm
// build, "Found no NVIDIA driver on your system" comes from a CUDA build's driver check (torch/cuda/__init__.py).
void Extractor::backendOfMessage(int n, const std::string& line)
{
    auto& t = facts.snapshot.torch;
    if (t.backend)
        return;
    if (line.find("No HIP GPUs are available") != std::string::npos)
        t.backend = "rocm";
    else if (line.find("Found no NVIDIA driver on your system") != std::string::npos)
        t.backend = "cuda";
    else
        return;
    fact(n, fmt::format("torch is a {} build (only such a build prints this message)", *t.backend == "rocm" ? "ROCm" : "CUDA"));
}

// The CUDA allocator ComfyUI and Fooocus run PyTorch with: their cuda_malloc.py sets
// PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync on NVIDIA GPUs unless --disable-cuda-malloc is given (or the GPU is on
// its list of cards known to lack it), and their device line names the backend in use
// ("Device: cuda:0 NVIDIA GeForce GTX 1060 : cudaMallocAsync", or ": native").
void Extractor::allocatorHintOnLine(int n, std::string_view s)
{
    const std::string line = trim(s);
    if (startsWith(line, "Device: cuda:") && endsWith(line, ": cudaMallocAsync") && !facts.snapshot.env.count("PYTORCH_CUDA_ALLOC_CONF")) {
        facts.snapshot.env["PYTORCH_CUDA_ALLOC_CONF"] = "backend:cudaMallocAsync";
        fact(n, "PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync (ComfyUI's device line names the cudaMallocAsync allocator)");
    } else if (line.find("--disable-cuda-malloc") != std::string::npos || startsWith(line, "Device: cuda:")) {
        cudaMallocOff = true;
    }
    if (comfyLine == 0)
        for (std::string_view marker : {"ComfyUI", "comfy/model_management.py", "comfy\\model_management.py", "Fooocus", "ldm_patched",
                                        "\"cuda-malloc\""})
            if (s.find(marker) != std::string_view::npos)
                comfyLine = n;
}

void Extractor::comfyDefaultAllocator()
{
    auto& snap = facts.snapshot;
    const bool amd = snap.torch.backend == std::optional<std::string>("rocm")
        || std::any_of(snap.gpus.begin(), snap.gpus.end(), [](const GpuInfo& g) { return g.vendor == "amd"; });
    if (comfyLine == 0 || cudaMallocOff || amd || snap.env.count("PYTORCH_CUDA_ALLOC_CONF"))
        return;
    snap.env["PYTORCH_CUDA_ALLOC_CONF"] = "backend:cudaMallocAsync";
    fact(comfyLine, "PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync presumed: ComfyUI/Fooocus select it by default on NVIDIA "
                    "GPUs, and the text shows no --disable-cuda-malloc");
}

// `docker run` / `podman run` / `nerdctl run` of the text that passes the container no GPU: none of --gpus,
// --runtime=nvidia, --device (/dev/kfd, /dev/dri, CDI nvidia.com/gpu=...), --privileged or NVIDIA_VISIBLE_DEVICES.
void Extractor::containerOnLine(int n, std::string_view raw)
{
    if (facts.snapshot.hostExtras.containerRunWithoutGpus)
        return;
    std::string_view s = raw;
    if (startsWith(s, "sudo "))
        s.remove_prefix(5);
    bool run = false;
    for (std::string_view engine : {"docker run ", "podman run ", "nerdctl run ", "docker container run "})
        run = run || startsWith(s, engine);
    if (!run)
        return;
    for (std::string_view gpu : {"--gpus", "--runtime", "--device", "--privileged", "NVIDIA_VISIBLE_DEVICES", "/dev/kfd"}) {
        if (s.find(gpu) != std::string_view::npos)
            return;
    }
    facts.snapshot.hostExtras.containerRunWithoutGpus = trim(raw);
    fact(n, fmt::format("container started without a GPU (no --gpus, --runtime=nvidia or --device): {}", trim(raw)));
}

void Extractor::hostOnLine(int n, std::string_view s)
{
    auto& host = facts.snapshot.hostExtras;
    auto& basic = facts.snapshot.host;
    if (startsWith(s, "BOOT_IMAGE=") || (startsWith(s, "root=") && s.find(" ro") != std::string_view::npos)) {
        host.kernelCmdline = trim(s);
        fact(n, fmt::format("kernel command line: {}", trim(s)));
    }
    for (std::string_view w : {"WSL environment detected", "microsoft-standard-WSL", "--usecase=wsl", "(WSL2)", "/dev/dxg", "librocdxg"}) {
        if (s.find(w) != std::string_view::npos && !host.wsl) {
            host.wsl = true;
            fact(n, fmt::format("WSL ({})", w));
        }
    }
    if (s.find("SecureBoot enabled") != std::string_view::npos) {
        host.secureBoot = true;
        fact(n, "Secure Boot enabled (mokutil)");
    } else if (s.find("SecureBoot disabled") != std::string_view::npos) {
        host.secureBoot = false;
        fact(n, "Secure Boot disabled (mokutil)");
    }
    if (startsWith(s, "Linux ") && s.find(" SMP ") != std::string_view::npos && !basic.kernel) {
        const auto parts = s.substr(6);
        const auto sp = parts.find(' ');
        if (sp != std::string_view::npos) {
            basic.kernel = tokenAt(parts, sp + 1);
            fact(n, fmt::format("kernel {} (uname)", *basic.kernel));
        }
    }
    if (startsWith(s, "OS: ") && !basic.os && s.size() > 5 && std::isalpha(static_cast<unsigned char>(s[4]))) {
        basic.os = trim(s.substr(4));
        fact(n, fmt::format("OS {} (collect_env)", *basic.os));
    }
}

} // namespace

// The CUDA torch was built for and the NVIDIA driver, as collect_env and nvidia-smi print them, for the CUDA
// driver matrix (cuda_driver_matrix.h): "CUDA used to build PyTorch: 10.2", "Nvidia driver version: 418.67",
// nvidia-smi's "| NVIDIA-SMI 418.67  Driver Version: 418.67  CUDA Version: 10.1 |". The first statement wins.
void Extractor::nvidiaOnLine(int n, std::string_view s)
{
    auto& t = facts.snapshot.torch;
    if (const auto k = s.find("CUDA used to build PyTorch: "); k != std::string_view::npos && !t.builtWith) {
        const auto v = leadingVersion(s.substr(k + 28));
        if (!v.empty() && (!t.backend || *t.backend == "cuda")) {
            t.backend = "cuda";
            t.builtWith = v;
            fact(n, fmt::format("torch built with CUDA {} (collect_env)", v));
        }
    }
    auto& driver = facts.snapshot.cuda.driverVersion;
    if (driver)
        return;
    for (std::string_view key : {"Nvidia driver version: ", "Driver Version: "}) {
        const auto k = s.find(key);
        if (k == std::string_view::npos)
            continue;
        const auto v = leadingVersion(s.substr(k + key.size()));
        // NVIDIA driver versions are NNN.NN[.NN]; AMD's tools print other numbers after similar words.
        if (v.size() >= 5 && v.find('.') == 3) {
            driver = v;
            fact(n, fmt::format("NVIDIA driver {} ({})", v, key == "Driver Version: " ? "nvidia-smi" : "collect_env"));
            return;
        }
    }
}

LogFacts extractLogFacts(const NormalizedText& text)
{
    Extractor x;
    for (const auto& line : text.lines()) {
        const int n = line.number;
        const std::string s = stripPrompt(line.display);
        x.gpusOnLine(n, s);
        x.torchOnLine(n, s);
        x.rocmOnLine(n, s);
        x.envOnLine(n, line.display);
        x.hostOnLine(n, s);
        x.cpuTorchOnLine(n, s);
        x.gpuCheckOnLine(n, s);
        x.containerOnLine(n, s);
        x.nvidiaOnLine(n, s);
        x.allocatorHintOnLine(n, line.display);
    }
    x.comfyDefaultAllocator();
    return std::move(x.facts);
}

} // namespace stackscope
