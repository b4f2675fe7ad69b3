// The VPOC fields' table: each field's parse on good and bad text, defaults that read back as themselves, and a run's
// JSON "options" written from the table and read back through the same parse functions.
#include "core/vpoc/vpoc_options.h"
#include "core/vpoc/vpoc_output.h"
#include "core/vpoc/vpoc_recorded.h"

#include <QtTest/QtTest>

#include <set>

using namespace stackscope::vpoc;

namespace {

QString valueText(const VpocField& field, const VpocRequest& request)
{
    return QString::fromStdString(fieldText(field.value(request)));
}

} // namespace

class TestVpocOptions : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parse_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("value"); // the field's value after the parse, as text; empty: it throws
        QTest::addColumn<QString>("errorHas"); // what the message says when it throws
        QTest::newRow("format trades") << "format"
                                       << "trades"
                                       << "trades"
                                       << "";
        QTest::newRow("format unknown") << "format"
                                        << "ticks"
                                        << ""
                                        << "--format ticks: give auto, bars or trades";
        QTest::newRow("tick") << "tick"
                              << "0.5"
                              << "0.5"
                              << "";
        QTest::newRow("tick negative") << "tick"
                                       << "-1"
                                       << ""
                                       << "--tick -1: not a positive number";
        QTest::newRow("session rth") << "session"
                                     << "rth"
                                     << "rth"
                                     << "";
        QTest::newRow("session window") << "session"
                                        << "08:30-15:15"
                                        << "08:30-15:15"
                                        << "";
        QTest::newRow("session bad") << "session"
                                     << "9-5"
                                     << ""
                                     << "--session 9-5: write globex, rth or a window";
        QTest::newRow("session zone") << "session-tz"
                                      << "Europe/London"
                                      << "Europe/London"
                                      << "";
        QTest::newRow("session zone unknown") << "session-tz"
                                              << "Mars/Olympus"
                                              << ""
                                              << "unknown time zone 'Mars/Olympus'";
        QTest::newRow("data zone") << "tz"
                                   << "UTC"
                                   << "UTC"
                                   << "";
        QTest::newRow("distribution") << "distribution"
                                      << "typical"
                                      << "typical"
                                      << "";
        QTest::newRow("distribution unknown") << "distribution"
                                              << "mean"
                                              << ""
                                              << "give uniform, close or typical";
        QTest::newRow("va") << "va"
                            << "68.5"
                            << "68.5"
                            << "";
        QTest::newRow("va whole") << "va"
                                  << "80"
                                  << "80"
                                  << "";
        QTest::newRow("va over 100") << "va"
                                     << "150"
                                     << ""
                                     << "--va 150: give a percentage above 0 and at most 100";
        QTest::newRow("va as exponent") << "va"
                                        << "1e3"
                                        << ""
                                        << "--va 1000: give a percentage";
        QTest::newRow("va three decimals") << "va"
                                           << "70.125"
                                           << ""
                                           << "at most two decimals";
        QTest::newRow("va text") << "va"
                                 << "seventy"
                                 << ""
                                 << "--va seventy: give a percentage";
        QTest::newRow("va method") << "va-method"
                                   << "single"
                                   << "single"
                                   << "";
        QTest::newRow("va method unknown") << "va-method"
                                           << "triple"
                                           << ""
                                           << "give dual or single";
        QTest::newRow("backend gpu") << "backend"
                                     << "gpu"
                                     << "gpu"
                                     << "";
        QTest::newRow("backend unknown") << "backend"
                                         << "tpu"
                                         << ""
                                         << "--backend tpu: give auto, cpu or gpu";
        QTest::newRow("vram budget") << "vram-budget"
                                     << "64"
                                     << "64"
                                     << "";
        QTest::newRow("vram budget negative") << "vram-budget"
                                              << "-1"
                                              << ""
                                              << "--vram-budget -1: give the GPU memory";
        QTest::newRow("gpu session rows") << "gpu-session-rows"
                                          << "1"
                                          << "1"
                                          << "";
        QTest::newRow("gpu session rows 0") << "gpu-session-rows"
                                            << "0"
                                            << ""
                                            << "from 1 to 1099511627776";
        QTest::newRow("threads") << "threads"
                                 << "3"
                                 << "3"
                                 << "";
        QTest::newRow("threads past 32 bits") << "threads"
                                              << "99999999999999999999999"
                                              << "4294967295"
                                              << "";
        QTest::newRow("threads signed") << "threads"
                                        << "-2"
                                        << ""
                                        << "--threads -2: not a thread count";
        QTest::newRow("skip bad") << "skip-bad"
                                  << "true"
                                  << "true"
                                  << "";
        QTest::newRow("skip bad text") << "skip-bad"
                                       << "yes"
                                       << ""
                                       << "--skip-bad yes: give true or false";
        QTest::newRow("developing file") << "developing"
                                         << "d.csv"
                                         << "d.csv"
                                         << "";
    }
    void parse()
    {
        QFETCH(QString, field);
        QFETCH(QString, text);
        QFETCH(QString, value);
        QFETCH(QString, errorHas);
        const VpocField& f = vpocField(field.toStdString());
        VpocRequest request;
        try {
            f.parse(text.toStdString(), request);
        } catch (const std::invalid_argument& e) {
            QVERIFY2(value.isEmpty(), e.what());
            QVERIFY2(QString::fromUtf8(e.what()).contains(errorHas), e.what());
            return;
        }
        QVERIFY2(!value.isEmpty(), "the parse took a value it should refuse");
        QCOMPARE(valueText(f, request), value);
    }

    // What a parse sets beside its own value: the session keeps its zone, a data zone counts as given, a developing
    // file turns the developing values on.
    void fieldsTogether()
    {
        VpocRequest r;
        vpocField("session-tz").parse("Europe/London", r);
        vpocField("session").parse("rth", r);
        QCOMPARE(r.options.session.zoneName, std::string("Europe/London"));
        QCOMPARE(r.options.session.startMinute, 9 * 60 + 30);
        vpocField("session").parse("08:00-15:00", r);
        vpocField("session-tz").parse("Asia/Tokyo", r);
        QCOMPARE(r.options.session.name, std::string("08:00-15:00"));
        QCOMPARE(r.options.session.zoneName, std::string("Asia/Tokyo"));
        QVERIFY(!r.options.read.timeZoneGiven);
        vpocField("tz").parse("America/Chicago", r);
        QVERIFY(r.options.read.timeZoneGiven);
        QVERIFY(!r.options.developing);
        vpocField("developing").parse("out.csv", r);
        QVERIFY(r.options.developing);
        QCOMPARE(r.outputs.developingCsv, std::string("out.csv"));
    }

    // Every default reads back as itself through its own parse; every choice is accepted and named the same.
    void defaultsAndChoicesReadBack()
    {
        const VpocRequest defaults;
        std::set<std::string> names;
        for (const auto& f : vpocFields()) {
            QVERIFY2(names.insert(f.name).second, f.name);
            QVERIFY2(f.parse && f.value && f.help && *f.help, f.name);
            const std::string text = fieldText(f.value(defaults));
            VpocRequest again;
            if (!(f.kind == FieldKind::Path && text.empty())) // an unnamed file is no value to parse
                f.parse(text, again);
            QCOMPARE(fieldText(f.value(again)), text);
            for (const char* choice : f.choices) {
                VpocRequest r;
                f.parse(choice, r);
                if (f.kind == FieldKind::Choice)
                    QCOMPARE(fieldText(f.value(r)), std::string(choice));
            }
        }
        QCOMPARE(defaults.options.session.name, std::string("globex"));
        QCOMPARE(defaults.options.profile.vaBasisPoints, 7000u);
    }

    // The JSON "options" of a run hold exactly the table's JSON fields, typed, and read back to the same values.
    void jsonFromTableAndBack()
    {
        VpocRequest given;
        for (const auto& [name, text] : std::initializer_list<std::pair<const char*, const char*>> {
                 { "input", "in.csv" }, { "format", "trades" }, { "tick", "0.5" }, { "session", "rth" },
                 { "session-tz", "Europe/London" }, { "tz", "UTC" }, { "distribution", "close" }, { "va", "68.5" },
                 { "va-method", "single" }, { "vram-budget", "64" }, { "skip-bad", "true" } })
            vpocField(name).parse(text, given);
        VpocResult result;
        result.options = given.options;
        result.format = DataFormat::Trades;
        const auto json = toJson(result);
        const auto& options = json.at("options");
        std::set<std::string> keys;
        for (const auto& f : vpocFields())
            if (f.jsonKey)
                keys.insert(f.jsonKey);
        std::set<std::string> written;
        for (auto it = options.begin(); it != options.end(); ++it)
            written.insert(it.key());
        QVERIFY(keys == written);
        QVERIFY(options.at("tick").is_number_float());
        QVERIFY(options.at("va").is_number_float());
        QVERIFY(options.at("vram_budget_mib").is_number_unsigned());
        QVERIFY(options.at("skip_bad").is_boolean());
        QCOMPARE(options.at("va").get<double>(), 68.5);

        const VpocResult back = recordedVpocRun(json);
        const VpocRequest read { back.options, {} };
        for (const auto& f : vpocFields())
            if (f.jsonKey)
                QCOMPARE(valueText(f, read), valueText(f, given));
        QCOMPARE(int(back.format), int(DataFormat::Trades));
    }

    void recordedBadOption()
    {
        auto json = toJson(VpocResult {});
        json["options"]["distribution"] = "mean";
        try {
            recordedVpocRun(json);
            QFAIL("an unknown distribution was read");
        } catch (const RecordedRunError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains("'distribution'"), e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestVpocOptions)
#include "tst_vpoc_options.moc"
