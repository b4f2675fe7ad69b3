// DuckDB's C API through dlopen (duckdb.h is not needed: the few entry points are declared here as in DuckDB 1.x).
#include "core/vpoc/duckdb_baseline.h"
#include "core/util/environment.h"

#include <fmt/format.h>

#include <cstdlib>
#include <dlfcn.h>
#include <stdexcept>
#include <type_traits>

namespace stackscope::vpoc {

// Signatures from duckdb.h (https://duckdb.org/docs/stable/clients/c/api): handles are pointers, duckdb_state
// is 0 on success, duckdb_result is a 48-byte struct filled by duckdb_query.
struct DuckDbBaseline::Api {
    void* handle = nullptr;
    int (*open)(const char*, void**) = nullptr;
    void (*close)(void**) = nullptr;
    int (*connect)(void*, void**) = nullptr;
    void (*disconnect)(void**) = nullptr;
    int (*query)(void*, const char*, void*) = nullptr;
    void (*destroyResult)(void*) = nullptr;
    const char* (*resultError)(void*) = nullptr;
    uint64_t (*rowCount)(void*) = nullptr;
    int64_t (*valueInt64)(void*, uint64_t, uint64_t) = nullptr;
    const char* (*libraryVersion)() = nullptr;
};

std::unique_ptr<DuckDbBaseline> DuckDbBaseline::open(const std::string& library, std::string& why)
{
    std::string path = library;
    if (path.empty())
        path = envValue(EnvVar::DuckdbLibrary);
    if (path.empty())
        path = "libduckdb.so";
    void* h = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char* e = ::dlerror();
        why = fmt::format("{} ({}); install it (npm install @duckdb/node-api bundles libduckdb.so) and pass "
                          "--duckdb PATH or set STACKSCOPE_DUCKDB_LIBRARY",
                          path, e ? e : "cannot be loaded");
        return nullptr;
    }
    auto api = std::make_unique<Api>();
    api->handle = h;
    bool ok = true;
    auto sym = [&](auto& fn, const char* name) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(h, name));
        ok = ok && fn;
    };
    sym(api->open, "duckdb_open");
    sym(api->close, "duckdb_close");
    sym(api->connect, "duckdb_connect");
    sym(api->disconnect, "duckdb_disconnect");
    sym(api->query, "duckdb_query");
    sym(api->destroyResult, "duckdb_destroy_result");
    sym(api->resultError, "duckdb_result_error");
    sym(api->rowCount, "duckdb_row_count");
    sym(api->valueInt64, "duckdb_value_int64");
    sym(api->libraryVersion, "duckdb_library_version");
    if (!ok) {
        why = path + ": not DuckDB's C library (entry points missing)";
        return nullptr;
    }
    std::unique_ptr<DuckDbBaseline> d(new DuckDbBaseline);
    d->m_api = std::move(api);
    if (d->m_api->open(nullptr, &d->m_db) != 0 || d->m_api->connect(d->m_db, &d->m_con) != 0) {
        why = path + ": cannot open an in-memory database";
        return nullptr;
    }
    d->m_version = d->m_api->libraryVersion();
    return d;
}

DuckDbBaseline::~DuckDbBaseline()
{
    if (!m_api)
        return;
    if (m_con)
        m_api->disconnect(&m_con);
    if (m_db)
        m_api->close(&m_db);
}

void DuckDbBaseline::query(const std::string& sql)
{
    if (m_api->query(m_con, sql.c_str(), m_result) != 0) {
        const char* e = m_api->resultError(m_result);
        const std::string msg = e ? e : "no message";
        m_api->destroyResult(m_result);
        throw std::runtime_error("DuckDB: " + msg);
    }
}

std::vector<DuckSession> DuckDbBaseline::tradesPoc(const std::string& csv, double tick, unsigned threads)
{
    query(fmt::format("SET threads = {}", threads));
    m_api->destroyResult(m_result);
    std::string quoted;
    for (char c : csv)
        quoted += c == '\'' ? std::string("''") : std::string(1, c);
    // Globex: 18:00 New York on the day before to 17:00 on the day; the POC is the most volume, then the
    // level nearest the middle of [low, high] (|2i - (n-1)|), then the lower price: StackScope's rule.
    query(fmt::format(R"(
WITH t AS (SELECT timezone('America/New_York', "timestamp") AS lt, CAST(round(price / {1}) AS BIGINT) AS tick, size
           FROM read_csv('{0}', comment = '#', header = true, delim = ',', auto_detect = false,
                         columns = {{'timestamp': 'TIMESTAMPTZ', 'price': 'DOUBLE', 'size': 'BIGINT'}})),
s AS (SELECT CASE WHEN hour(lt) >= 18 THEN CAST(lt AS DATE) + 1 WHEN hour(lt) < 17 THEN CAST(lt AS DATE) END AS day,
             tick, size FROM t),
p AS (SELECT day, tick, sum(size) AS vol FROM s WHERE day IS NOT NULL GROUP BY day, tick),
b AS (SELECT day, tick, vol, min(tick) OVER w AS lo, max(tick) OVER w AS hi, sum(vol) OVER w AS total
      FROM p WINDOW w AS (PARTITION BY day)),
r AS (SELECT day, tick, total, row_number() OVER (PARTITION BY day ORDER BY vol DESC,
             abs(2 * (tick - lo) - (hi - lo)), tick) AS rn FROM b)
SELECT CAST(day - DATE '1970-01-01' AS BIGINT), tick, CAST(total AS BIGINT) FROM r WHERE rn = 1 ORDER BY day)",
                      quoted, tick));
    std::vector<DuckSession> out(m_api->rowCount(m_result));
    for (uint64_t r = 0; r < out.size(); ++r)
        out[r] = {static_cast<int32_t>(m_api->valueInt64(m_result, 0, r)),
                  static_cast<int32_t>(m_api->valueInt64(m_result, 1, r)),
                  static_cast<uint64_t>(m_api->valueInt64(m_result, 2, r))};
    m_api->destroyResult(m_result);
    return out;
}

} // namespace stackscope::vpoc
