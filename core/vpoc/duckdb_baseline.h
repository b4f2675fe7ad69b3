// The VPOC job done by DuckDB (libduckdb.so opened at run time through its C API): the baseline of bench vpoc-e2e.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace stackscope::vpoc {

// What DuckDB computed for one session: the same fields VpocResult has, to compare them.
struct DuckSession {
    int32_t day = 0; // days since 1970-01-01
    int32_t pocTick = 0;
    uint64_t volume = 0;
};

class DuckDbBaseline {
public:
    struct Api;
    ~DuckDbBaseline();
    DuckDbBaseline(const DuckDbBaseline&) = delete;
    DuckDbBaseline& operator=(const DuckDbBaseline&) = delete;

    // Opens `library` (or $STACKSCOPE_DUCKDB_LIBRARY, then libduckdb.so on the loader path) and an
    // in-memory database. Null with the reason in `why` when there is none.
    static std::unique_ptr<DuckDbBaseline> open(const std::string& library, std::string& why);
    const std::string& version() const { return m_version; }

    // Reads a trades CSV (timestamp with offset, price, size), assigns globex sessions in New York time,
    // sums size per tick per session and takes the POC with StackScope's tie rule. Throws std::runtime_error
    // with DuckDB's message.
    std::vector<DuckSession> tradesPoc(const std::string& csv, double tick, unsigned threads);

private:
    DuckDbBaseline() = default;
    void query(const std::string& sql);
    std::unique_ptr<Api> m_api;
    void* m_db = nullptr;
    void* m_con = nullptr;
    alignas(8) unsigned char m_result[64] = {};
    std::string m_version;
};

} // namespace stackscope::vpoc
