// checkTrainingFiles: which epochs of model_metadata.json a folder's checkpoint.pt holds. The folders are made here:
// a checkpoint file of known bytes and metadata whose epochs record hashes (as the trainer's epoch events do,
// checked against a real run in tst_training_run modelFileRoundTrip).
#include "core/training/training_files_check.h"
#include "core/util/sha256.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace stackscope::training;

namespace {

std::string hashOf(const std::string& text)
{
    stackscope::Sha256 h;
    h.update(text.data(), text.size());
    return h.hexDigest();
}

// Epochs 1..n with validation losses `losses`; epoch i recorded the hash of "checkpoint i".
nlohmann::json metadata(const std::vector<double>& losses, bool hashes = true)
{
    nlohmann::json m {{"schema", "stackscope.training/1"}, {"epochs", nlohmann::json::array()}};
    for (std::size_t i = 0; i < losses.size(); ++i) {
        nlohmann::json e {{"epoch", i + 1}, {"val_loss", losses[i]}};
        if (hashes)
            e["checkpoint_sha256"] = hashOf("checkpoint " + std::to_string(i + 1));
        m["epochs"].push_back(e);
    }
    m["best_epoch"] = 3;
    m["best_val_loss"] = losses.empty() ? 0.0 : losses.back();
    return m;
}

} // namespace

class TestTrainingFilesCheck : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void check_data()
    {
        QTest::addColumn<QString>("checkpoint");  // the file's content; empty: no checkpoint.pt
        QTest::addColumn<bool>("hashes");         // the metadata records hashes (written before they did: no)
        QTest::addColumn<int>("epochsShown");     // epochs left in "epochs"
        QTest::addColumn<int>("bestEpoch");
        QTest::addColumn<QString>("note");        // a part of files_note; empty: no note
        QTest::newRow("files hold the last epoch") << "checkpoint 3" << true << 3 << 3 << "";
        QTest::newRow("killed between the metadata and the renames") << "checkpoint 2" << true << 2 << 1
                                                                     << "records epoch 3, but checkpoint.pt holds epoch 2";
        QTest::newRow("two epochs behind") << "checkpoint 1" << true << 1 << 1 << "holds epoch 1";
        QTest::newRow("another run's checkpoint") << "something else" << true << 3 << 3 << "matches none of the 3 epochs";
        QTest::newRow("no checkpoint.pt") << "" << true << 3 << 3 << "cannot be checked";
        QTest::newRow("metadata without hashes") << "checkpoint 2" << false << 3 << 3 << "";
    }
    void check()
    {
        QFETCH(QString, checkpoint);
        QFETCH(bool, hashes);
        QFETCH(int, epochsShown);
        QFETCH(int, bestEpoch);
        QFETCH(QString, note);
        QTemporaryDir dir;
        if (!checkpoint.isEmpty()) {
            QFile f(dir.filePath(QStringLiteral("checkpoint.pt")));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(checkpoint.toUtf8());
        }
        // Epoch 1 is the best of the first two; epoch 3 the best of all.
        auto m = metadata({1.0, 1.5, 0.5}, hashes);
        const auto said = checkTrainingFiles(m, dir.path().toStdString());
        QCOMPARE(m["epochs"].size(), std::size_t(epochsShown));
        QCOMPARE(m["best_epoch"].get<int>(), bestEpoch);
        if (note.isEmpty()) {
            QCOMPARE(said, std::string());
            QVERIFY(!m.contains("files_note"));
        } else {
            QVERIFY2(said.find(note.toStdString()) != std::string::npos, said.c_str());
            QCOMPARE(m["files_note"].get<std::string>(), said);
        }
        if (epochsShown < 3) {
            QCOMPARE(m["epochs_not_in_files"].size(), std::size_t(3 - epochsShown));
            QCOMPARE(m["best_val_loss"].get<double>(), 1.0);
            QVERIFY(said.find("--resume") != std::string::npos); // what to do next
        }
    }
};

QTEST_GUILESS_MAIN(TestTrainingFilesCheck)
#include "tst_training_files_check.moc"
