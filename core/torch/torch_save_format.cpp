// torch.save's format for an OrderedDict of tensors: a protocol-2 pickle program plus one record per storage.
#include "core/torch/torch_save_format.h"

#include <caffe2/serialize/inline_container.h>

#include <cstring>
#include <stdexcept>

namespace stackscope::trainer {

namespace {

// Pickle opcodes (Lib/pickle.py).
class PickleProgram {
public:
    void proto() { m_out += "\x80\x02"; }
    void global(const char* module, const char* name) { m_out += std::string("c") + module + "\n" + name + "\n"; }
    void mark() { m_out += '('; }
    void tuple() { m_out += 't'; }
    void emptyTuple() { m_out += ')'; }
    void emptyDict() { m_out += '}'; }
    void reduce() { m_out += 'R'; }
    void setItems() { m_out += 'u'; }
    void binPersId() { m_out += 'Q'; }
    void newFalse() { m_out += '\x89'; }
    void stop() { m_out += '.'; }
    void string(const std::string& s)
    {
        m_out += 'X';
        appendLe(static_cast<uint32_t>(s.size()), 4);
        m_out += s;
    }
    void integer(int64_t v)
    {
        if (v >= INT32_MIN && v <= INT32_MAX) {
            m_out += 'J';
            appendLe(static_cast<uint32_t>(static_cast<int32_t>(v)), 4);
        } else {
            m_out += '\x8a'; // LONG1: 8 little-endian two's complement bytes
            m_out += '\x08';
            appendLe(static_cast<uint64_t>(v), 8);
        }
    }
    const std::string& bytes() const { return m_out; }

private:
    void appendLe(uint64_t v, int n)
    {
        for (int i = 0; i < n; ++i)
            m_out += static_cast<char>((v >> (8 * i)) & 0xff);
    }
    std::string m_out;
};

const char* storageClass(const torch::Tensor& t)
{
    if (t.scalar_type() == torch::kFloat)
        return "FloatStorage";
    if (t.scalar_type() == torch::kLong)
        return "LongStorage";
    throw std::invalid_argument("torchSaveBytes: only float32 and int64 tensors are written");
}

} // namespace

std::string torchSaveBytes(const std::vector<std::pair<std::string, torch::Tensor>>& tensors)
{
    std::vector<torch::Tensor> storages;
    PickleProgram p;
    p.proto();
    // A plain dict: libtorch's own unpickler (torch::pickle_load) turns an OrderedDict into None.
    p.emptyDict();
    p.mark();
    for (const auto& [name, value] : tensors) {
        const auto t = value.detach().to(torch::kCPU).contiguous();
        const std::string key = std::to_string(storages.size());
        storages.push_back(t);
        p.string(name);
        // torch._utils._rebuild_tensor_v2(storage, offset, size, stride, requires_grad, backward_hooks)
        p.global("torch._utils", "_rebuild_tensor_v2");
        p.mark();
        p.mark();
        p.string("storage");
        p.global("torch", storageClass(t));
        p.string(key);
        p.string("cpu");
        p.integer(t.numel());
        p.tuple();
        p.binPersId();
        p.integer(0);
        p.mark();
        for (auto s : t.sizes())
            p.integer(s);
        p.tuple();
        p.mark();
        for (auto s : t.strides())
            p.integer(s);
        p.tuple();
        p.newFalse();
        p.global("collections", "OrderedDict");
        p.emptyTuple();
        p.reduce();
        p.tuple();
        p.reduce();
    }
    p.setItems();
    p.stop();

    std::string zip;
    {
        caffe2::serialize::PyTorchStreamWriter writer([&zip](const void* data, size_t n) {
            zip.append(static_cast<const char*>(data), n);
            return n;
        });
        writer.writeRecord("data.pkl", p.bytes().data(), p.bytes().size());
        static const char order[] = "little";
        writer.writeRecord("byteorder", order, std::strlen(order));
        for (size_t i = 0; i < storages.size(); ++i)
            writer.writeRecord("data/" + std::to_string(i), storages[i].data_ptr(),
                               static_cast<size_t>(storages[i].numel()) * storages[i].element_size());
        writer.writeEndOfFile();
    }
    return zip;
}

} // namespace stackscope::trainer
