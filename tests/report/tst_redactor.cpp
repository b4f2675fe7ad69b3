// Redactor: planted names, paths, addresses, UUIDs and serials are replaced; public facts are kept; placeholders are stable.
#include "core/report/redactor.h"

#include <QtTest>

#include <random>
#include <string>
#include <vector>

using stackscope::report::PrivateFacts;
using stackscope::report::Redactor;

namespace {

Redactor planted()
{
    PrivateFacts f;
    f.userNames = {"zorbuser"};
    f.hostNames = {"zorb-workstation-7"};
    f.homeDirs = {"/home/zorbuser"};
    return Redactor(f);
}

} // namespace

class TestRedactor : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void replacesPlanted_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("secret");
        QTest::addColumn<QString>("expected");
        QTest::newRow("user word") << "owner zorbuser ok" << "zorbuser" << "owner <user> ok";
        QTest::newRow("user prompt") << "zorbuser@zorb-workstation-7:~$" << "zorb-workstation-7" << "<user>@<host>:~$";
        QTest::newRow("host any case") << "ZORB-WORKSTATION-7 kernel" << "ZORB-WORKSTATION-7" << "<host> kernel";
        QTest::newRow("home path") << "/home/zorbuser/venv/lib/libtorch.so" << "zorbuser" << "<home>/venv/lib/libtorch.so";
        QTest::newRow("other home") << "/home/bob/x" << "bob" << "/home/<user-2>/x";
        QTest::newRow("ipv4") << "inet 10.23.45.67/24" << "10.23.45.67" << "inet <ip-1>/24";
        QTest::newRow("ipv4 port") << "10.23.45.67:29500" << "10.23.45.67" << "<ip-1>:29500";
        QTest::newRow("ipv6") << "inet6 fd12:3456:789a:1::42/64" << "fd12:3456:789a:1::42" << "inet6 <ip-1>/64";
        QTest::newRow("ipv6 full") << "2001:0db8:85a3:0000:0000:8a2e:0370:7334" << "8a2e" << "<ip-1>";
        QTest::newRow("mac") << "link/ether 3c:ec:ef:12:34:56 brd" << "3c:ec:ef" << "link/ether <mac-1> brd";
        QTest::newRow("mac dashes") << "3C-EC-EF-12-34-56" << "3C-EC-EF" << "<mac-1>";
        QTest::newRow("gpu uuid") << "(UUID: GPU-5d3a8f1e-1c2b-4a5d-9e8f-0123456789ab)" << "5d3a8f1e" << "(UUID: <gpu-uuid-1>)";
        QTest::newRow("bare uuid") << "id 5d3a8f1e-1c2b-4a5d-9e8f-0123456789ab." << "5d3a8f1e" << "id <gpu-uuid-1>.";
        QTest::newRow("32 hex") << "uid 5d3a8f1e1c2b4a5d9e8f0123456789ab" << "5d3a8f1e" << "uid <gpu-uuid-1>";
        QTest::newRow("pci dsn") << "DSN 00-e0-4c-ff-fe-68-12-34" << "00-e0-4c" << "DSN <serial-1>";
        QTest::newRow("unique id hex") << "id a1b2c3d4e5f60718 x" << "a1b2c3d4e5f60718" << "id <serial-1> x";
        QTest::newRow("labelled serial") << "GPU serial 692311001234" << "692311001234" << "GPU serial <serial-1>";
        QTest::newRow("serial number") << "Serial Number: PJ12345X" << "PJ12345X" << "Serial Number: <serial-1>";
        // Names in other letter cases and inside longer words (paths and folders built from them).
        QTest::newRow("user other case") << "owner ZorbUser ok" << "zorbuser" << "owner <user> ok";
        QTest::newRow("user inside word") << "/mnt/data/ZORBUSER_runs/zorbuser-scratch" << "zorbuser"
                                          << "/mnt/data/<user>_runs/<user>-scratch";
        QTest::newRow("host inside word") << "ckpt-zorb-workstation-7.tar" << "zorb-workstation-7" << "ckpt-<host>.tar";
        QTest::newRow("home other case") << "/HOME/ZORBUSER/x" << "zorbuser" << "<home>/x";
        // MAC addresses in other notations.
        QTest::newRow("mac cisco") << "mac 3cec.ef12.3456 up" << "3cec" << "mac <mac-1> up";
        QTest::newRow("mac labelled bare") << "HWaddr=3cecef123456" << "3cecef" << "HWaddr=<mac-1>";
        QTest::newRow("mac address label") << "MAC Address: 3CECEF123456" << "3CECEF" << "MAC Address: <mac-1>";
        // GPU and board serials in other forms.
        QTest::newRow("board serial") << "board_serial: PM1234567890" << "PM1234567890" << "board_serial: <serial-1>";
        QTest::newRow("product serial") << "Product Serial = 1324120012345" << "1324120012345"
                                        << "Product Serial = <serial-1>";
        QTest::newRow("s/n") << "S/N: 0325218012345" << "0325218012345" << "S/N: <serial-1>";
        QTest::newRow("sn") << "GPU[0] SN 692311001234" << "692311001234" << "GPU[0] SN <serial-1>";
        QTest::newRow("serial_no") << "serial_no=AB12CD34EF" << "AB12CD34EF" << "serial_no=<serial-1>";
        QTest::newRow("pci dsn colons") << "DSN 00:e0:4c:ff:fe:68:12:34" << "00:e0:4c" << "DSN <serial-1>";
        // Found by fuzz_report_loader (its idempotence check): a /home/NAME right after a redacted name was left
        // in the first pass (the byte before it was a name's letter) and taken only by a second pass.
        QTest::newRow("home after a redacted home") << "/home/bob/home/alice/x" << "alice" << "/home/<user-2>/home/<user-3>/x";
        // Seven hex pairs: the last six read as a MAC. In the scanner before its split (read, not run), a failed MAC
        // match at the first pair left its length behind, so the text became "<-1>:02", a placeholder of no kind.
        // Issue 36 row 13: what the third hostile round still found in reports.
        QTest::newRow("nvidia-smi -q serial padded") << "    Serial Number                         : 1320221012345"
                                                      << "1320221012345"
                                                      << "    Serial Number                         : <serial-1>";
        QTest::newRow("serial padded with tabs") << "Serial Number\t\t\t: 1320221012345" << "1320221012345"
                                                 << "Serial Number\t\t\t: <serial-1>";
        QTest::newRow("HF_TOKEN") << "HF_TOKEN=hf_aBcDeFgHiJkLmNoPqRsTuVwXyZ012345 python x.py" << "hf_aBcDeF"
                                  << "HF_TOKEN=<secret-1> python x.py";
        QTest::newRow("export quoted _TOKEN") << "export GITHUB_TOKEN=\"ghp_0123456789abcdefABCDEF\"" << "ghp_0123"
                                              << "export GITHUB_TOKEN=\"<secret-1>\"";
        QTest::newRow("_SECRET") << "AWS_SECRET=wJalrXUtnFEMI/K7MDENG/bPxRfiCY" << "wJalrXUtn" << "AWS_SECRET=<secret-1>";
        QTest::newRow("_KEY") << "env OPENAI_API_KEY=sk-proj-1234abcd torchrun" << "sk-proj" << "env OPENAI_API_KEY=<secret-1> torchrun";
        QTest::newRow("PASSWORD") << "PGPASSWORD=hunter2 psql" << "hunter2" << "PGPASSWORD=<secret-1> psql";
        QTest::newRow("DB_PASSWORD yaml") << "DB_PASSWORD: s3cr3t!" << "s3cr3t" << "DB_PASSWORD: <secret-1>";
        QTest::newRow("url ?token=") << "GET https://hf.co/api/x?token=abcdef123456&rev=main" << "abcdef123456"
                                     << "GET https://hf.co/api/x?token=<secret-1>&rev=main";
        QTest::newRow("url &token=") << "https://h/x?a=1&token=abcdef123456" << "abcdef123456" << "https://h/x?a=1&token=<secret-1>";
        QTest::newRow("url key=") << "https://maps.example.com/v1?key=AIzaSyD-1234_abcd" << "AIzaSyD" << "https://maps.example.com/v1?key=<secret-1>";
        QTest::newRow("url access_token=") << "https://h/x?access_token=ya29.a0Af_xyz&x=1" << "ya29" << "https://h/x?access_token=<secret-1>&x=1";
        QTest::newRow("url sig=") << "https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sig=AbC%2Bd3f%3D"
                                  << "AbC%2Bd3f" << "https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sig=<secret-1>";
        QTest::newRow("Authorization: Bearer") << "-H 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOjF9.abc'"
                                               << "eyJhbGci" << "-H 'Authorization: Bearer <secret-1>'";
        QTest::newRow("Authorization: Basic") << "authorization: Basic dXNlcjpwYXNzd29yZA==" << "dXNlcjpw"
                                              << "authorization: Basic <secret-1>";
        QTest::newRow("mac colons") << "HWaddr 0a:1b:2c:3d:4e:5f" << "0a:1b:2c" << "HWaddr <mac-1>";
        QTest::newRow("mac dashes lower") << "addr 0a-1b-2c-3d-4e-5f." << "0a-1b-2c" << "addr <mac-1>.";
        QTest::newRow("mac cisco dotted") << "0a1b.2c3d.4e5f" << "0a1b" << "<mac-1>";
        QTest::newRow("mac bare after MAC") << "MAC 0a1b2c3d4e5f" << "0a1b2c3d4e5f" << "MAC <mac-1>";
        QTest::newRow("mac bare after ether") << "link/ether 0a1b2c3d4e5f brd" << "0a1b2c3d4e5f" << "link/ether <mac-1> brd";
        QTest::newRow("mac bare padded label") << "MAC Address          : 0a1b2c3d4e5f" << "0a1b2c3d4e5f"
                                               << "MAC Address          : <mac-1>";
        QTest::newRow("seven hex pairs") << "id de:ad:be:ef:00:01:02 end" << "ad:be:ef:00:01:02" << "id de:<mac-1> end";
    }
    void replacesPlanted()
    {
        QFETCH(QString, text);
        QFETCH(QString, secret);
        QFETCH(QString, expected);
        auto r = planted();
        const auto out = QString::fromStdString(r.redact(text.toStdString()));
        QVERIFY2(!out.contains(secret, Qt::CaseInsensitive), qPrintable(out));
        QCOMPARE(out, expected);
    }

    // Redacting a redacted text changes nothing (the report loader redacts reports that were redacted before).
    void redactingTwiceChangesNothing_data()
    {
        QTest::addColumn<QString>("text");
        // Found by fuzz_report_loader: the first pass took "3c:ec:ef::" as an IPv6 address and left "::12:00:..."
        // (the byte before it was ':' in the input); a second pass, seeing the placeholder's '>', took that too.
        QTest::newRow("IPv6 after a redacted IPv6") << "link/ether 3c:ec:ef::::12:00:3457:34:56";
        QTest::newRow("home after a redacted home") << "/home/bob/home/alice/x";
        // Also fuzz_report_loader: an IPv6 prefix followed by 32 hex digits is no address until the hex run is a
        // placeholder; a second pass then took "fd12:3456:789a:1::" (fixed by redacting until a pass changes nothing).
        QTest::newRow("IPv6 prefix before a UUID") << "\"fd12:3456:789a:1::5d3a8f1e1c2b4a5d9e8f0123456789ab.e1\"";
        QTest::newRow("IPv4 after a redacted IPv4") << "10.1.2.3.10.1.2.4 and 10.1.2.3:10.1.2.4";
        QTest::newRow("MAC after a MAC") << "3c:ec:ef:12:34:56:3c:ec:ef:12:34:57";
        QTest::newRow("token") << "HF_TOKEN=hf_abc123456 ?token=abc&key=x Authorization: Bearer abc.def";
        QTest::newRow("padded serial") << "Serial Number      :      1320221012345";
        QTest::newRow("token quoted twice") << "A_TOKEN=\"\"x\" B_KEY='' C_SECRET=<x";
        QTest::newRow("planted log") << "zorbuser@zorb-workstation-7:~$ ip addr: inet 10.23.45.67/24 inet6 fd12:3456:789a:1::42/64";
    }
    void redactingTwiceChangesNothing()
    {
        QFETCH(QString, text);
        auto r = planted();
        const std::string once = r.redact(text.toStdString());
        QCOMPARE(QString::fromStdString(r.redact(once)), QString::fromStdString(once));
    }

    void keepsPublicFacts_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("pci bus") << "0000:03:00.0";
        QTest::newRow("gfx target") << "gfx90a:sramecc+:xnack-";
        QTest::newRow("version 4 parts") << "ROCm 6.3.0.60300";
        QTest::newRow("version") << "5.7.1-3";
        QTest::newRow("time") << "2026-11-21T12:00:00Z 18:00:00";
        QTest::newRow("c++ scope") << "c10::add at::cuda";
        QTest::newRow("loopback") << "127.0.0.1 ::1";
        QTest::newRow("sha256") << "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9";
        QTest::newRow("pointer") << "0x00007fffdeadbeef";
        QTest::newRow("root user") << "/root/.cache owned by root";
        QTest::newRow("serialize") << "serialize 123456";
        QTest::newRow("driver") << "580.159.04";
        QTest::newRow("dotted version digits") << "build 2024.1030.1200";
        QTest::newRow("mac word without hex") << "machine ether: up";
        QTest::newRow("version 3 parts") << "torch 2.11.0 transformers 4.46.0";
        QTest::newRow("version with git sha") << "torch 2.6.0a0+git1eba9b3 rocm 6.3.42131-fa1d09cbd";
        QTest::newRow("driver label") << "Driver Version                        : 580.159.04";
        QTest::newRow("pci bus id padded") << "Bus Id                                : 00000000:41:00.0 and 0000:41:00.0";
        QTest::newRow("token word in prose") << "the tokenizer uses a key; see PASSWORD below";
        QTest::newRow("empty assignment") << "HF_TOKEN= PASSWORD=";
        QTest::newRow("key= outside a url") << "sort key=name";
        QTest::newRow("serial N/A padded") << "    Serial Number                         : N/A";
        QTest::newRow("authorization word") << "authorization failed for the request";
        QTest::newRow("sn inside word") << "snapshot 123456";
    }
    void keepsPublicFacts()
    {
        QFETCH(QString, text);
        auto r = planted();
        QCOMPARE(QString::fromStdString(r.redact(text.toStdString())), text);
        QVERIFY(r.replaced().empty());
    }

    void genericHostNamesAreKept()
    {
        PrivateFacts f;
        f.hostNames = {"gpu", "box1"};
        Redactor r(f);
        // A host name in any case, inside longer words too (it used to stay in other cases).
        QCOMPARE(QString::fromStdString(r.redact(std::string("GPU 0 on gpu, box1 and BOX1, inbox1"))),
                 QStringLiteral("GPU 0 on gpu, <host> and <host>, in<host>"));
        QVERIFY(!r.uncertainties().empty());
    }

    // Names too short to look for inside words, or common words, are named in the uncertainties (without
    // the value); the standing note about forms no pattern knows is always there.
    void uncertaintiesSayWhatMayRemain()
    {
        PrivateFacts f;
        f.userNames = {"al", "zorbuser"};
        f.hostNames = {"gpu"};
        Redactor r(f);
        QCOMPARE(QString::fromStdString(r.redact(std::string("al always calls zorbuser"))),
                 QStringLiteral("<user> always calls <user-2>"));
        const auto notes = r.uncertainties();
        QCOMPARE(notes.size(), std::size_t(3));
        QVERIFY(QString::fromStdString(notes[0] + notes[1]).contains(QStringLiteral("2 characters")));
        QVERIFY(QString::fromStdString(notes[0] + notes[1]).contains(QStringLiteral("common word")));
        for (const auto& n : notes)
            QVERIFY2(n.find("zorbuser") == std::string::npos && n.find(" al ") == std::string::npos, n.c_str());
    }

    void placeholdersAreStable()
    {
        auto r = planted();
        const auto a = r.redact(std::string("10.0.0.1 and 10.0.0.2"));
        const auto b = r.redact(std::string("again 10.0.0.2, then 10.0.0.1"));
        QCOMPARE(QString::fromStdString(a), QStringLiteral("<ip-1> and <ip-2>"));
        QCOMPARE(QString::fromStdString(b), QStringLiteral("again <ip-2>, then <ip-1>"));
        // Redacting a redacted text changes nothing.
        QCOMPARE(r.redact(a), a);
        const auto list = r.replaced();
        QCOMPARE(list.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(list[0].placeholder), QStringLiteral("<ip-1>"));
        QCOMPARE(list[0].count, std::size_t(2));
        const auto listed = QString::fromStdString(r.replacedJson().dump());
        QVERIFY(!listed.contains("10.0.0"));
    }

    void jsonKeysAndSecretValues()
    {
        auto r = planted();
        nlohmann::json doc = {{"env", {{"AMD_GPU_SERIAL", "692311001234"}, {"GPU_UUID", "N/A"}}},
                              {"/home/zorbuser/lib", {{"count", 3}, {"ok", true}}},
                              {"note", "serial number is 692311001234"}};
        const auto out = r.redact(doc);
        const auto text = QString::fromStdString(out.dump());
        QVERIFY2(!text.contains("692311001234"), qPrintable(text));
        QVERIFY2(!text.contains("zorbuser"), qPrintable(text));
        QCOMPARE(QString::fromStdString(out["env"]["AMD_GPU_SERIAL"].get<std::string>()), QStringLiteral("<serial-1>"));
        QCOMPARE(QString::fromStdString(out["env"]["GPU_UUID"].get<std::string>()), QStringLiteral("N/A"));
        QVERIFY(out.contains("<home>/lib"));
        QCOMPARE(out["<home>/lib"]["count"].get<int>(), 3);
        QCOMPARE(QString::fromStdString(out["note"].get<std::string>()), QStringLiteral("serial number is <serial-1>"));

        // A credential under its name is replaced whole, and where it is repeated; a short one only under its name.
        nlohmann::json creds = {{"env", {{"HF_TOKEN", "hf_abcdefgh1"}, {"DB_PASSWORD", "x1"}}},
                                {"line", "login with hf_abcdefgh1 ok, x1 kept"}};
        const auto c = r.redact(creds);
        // (keys in name order: DB_PASSWORD is met first)
        QCOMPARE(QString::fromStdString(c["env"]["DB_PASSWORD"].get<std::string>()), QStringLiteral("<secret-1>"));
        QCOMPARE(QString::fromStdString(c["env"]["HF_TOKEN"].get<std::string>()), QStringLiteral("<secret-2>"));
        QCOMPARE(QString::fromStdString(c["line"].get<std::string>()), QStringLiteral("login with <secret-2> ok, x1 kept"));
    }

    void snapshotThroughJson()
    {
        stackscope::Snapshot s;
        s.host.hostname = "zorb-workstation-7";
        s.access.user = "zorbuser";
        s.torch.libraryPath = "/home/zorbuser/venv/libtorch.so";
        s.env["CUDA_VISIBLE_DEVICES"] = "GPU-5d3a8f1e-1c2b-4a5d-9e8f-0123456789ab";
        auto r = Redactor::forMachine(s);
        const auto out = r.redact(s);
        QCOMPARE(QString::fromStdString(*out.host.hostname), QStringLiteral("<host>"));
        QCOMPARE(QString::fromStdString(*out.access.user), QStringLiteral("<user>"));
        QCOMPARE(QString::fromStdString(*out.torch.libraryPath), QStringLiteral("/home/<user>/venv/libtorch.so"));
        QCOMPARE(QString::fromStdString(out.env.at("CUDA_VISIBLE_DEVICES")), QStringLiteral("<gpu-uuid-1>"));
    }

    // The credential, padded-serial and MAC scanners meet each other and placeholders in any order: texts built from
    // their pieces at random (fixed seed) redact to themselves a second time, as fuzz_report_loader checks.
    void credentialPiecesAreIdempotent()
    {
        const std::vector<std::string> pieces {
            "HF_TOKEN", "x-api-key", "PASSWORD", "Authorization", "token", "key", "sig", "=", ":", "::", "\"", "'", "?",
            "&", " ", "\t", "   ", "Bearer", "Basic ", "<secret-1>", "<mac-1>", "abc123456", "hf_x9", "Serial Number",
            "MAC", "0a1b2c3d4e5f", "0a:1b:2c:3d:4e:5f", "0a1b.2c3d.4e5f", "1320221012345", "10.1.2.3", "fd12::1:2",
            "https://h/x", "/home/bob", "zorbuser", "\n", ",", "<", ">"};
        std::mt19937 rng(36);
        std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1);
        std::uniform_int_distribution<int> count(1, 14);
        for (int k = 0; k < 20000; ++k) {
            std::string text;
            for (int n = count(rng); n > 0; --n)
                text += pieces[pick(rng)];
            auto r = planted();
            const auto once = r.redact(text);
            QVERIFY2(r.redact(once) == once, ("input: " + text + "\nonce: " + once).c_str());
        }
    }

    void longLineIsLinear()
    {
        // A log line of 8 MiB: the scanner is hand-written (no std::regex recursion), so this returns.
        auto r = planted();
        std::string line(8u << 20, 'a');
        line += " 10.1.2.3";
        const auto out = r.redact(line);
        QVERIFY(out.size() < line.size());
        QVERIFY(out.find("10.1.2.3") == std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestRedactor)
#include "tst_redactor.moc"
