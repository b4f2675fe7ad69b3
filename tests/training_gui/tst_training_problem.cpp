// A refused or failed training start as the page says it: the kind and the option from the core's error types, an
// Input error as "Check <field>:" and a failure as "Training failed:" with its next step.
#include "core/training/training_config.h"
#include "core/util/atomic_file.h"
#include "core/vpoc/market_data.h"
#include "ui/training/training_form.h"
#include "ui/training/training_problem.h"

#include <QtTest>

#include <functional>
#include <stdexcept>

using namespace stackscope;
using namespace stackscope::ui;

using Thrower = std::function<void()>;
Q_DECLARE_METATYPE(Thrower)

class TestTrainingProblem : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void kindAndOption_data()
    {
        QTest::addColumn<Thrower>("thrower");
        QTest::addColumn<bool>("input");
        QTest::addColumn<QString>("option");
        QTest::newRow("an option's value")
            << Thrower([] { throw training::ConfigError("--lr 0: use a positive learning rate such as 0.001"); })
            << true << "--lr";
        QTest::newRow("a message naming no option")
            << Thrower([] { throw training::ConfigError("the rank's configuration is incomplete"); }) << true << "";
        QTest::newRow("a bad line of the data file")
            << Thrower([] { throw vpoc::InputError("bars.csv", 3, 29, "bad number 'x' for high"); }) << true
            << "--input";
        QTest::newRow("an output that cannot be written")
            << Thrower([] { throw FileWriteError("cannot write out/model.pt: disk full"); }) << true << "--output";
        QTest::newRow("the machine failed the job")
            << Thrower([] { throw Error("rank 1 exited with signal 9", ErrorKind::Failed); }) << false << "";
        QTest::newRow("not one of StackScope's errors: a failure, as the CLI's exit 1")
            << Thrower([] { throw std::runtime_error("CUDA error: an illegal memory access"); }) << false << "";
    }
    void kindAndOption()
    {
        QFETCH(Thrower, thrower);
        QFETCH(bool, input);
        QFETCH(QString, option);
        try {
            thrower();
            QFAIL("nothing thrown");
        } catch (const std::exception& e) {
            const RunProblem p = runProblem(e);
            QCOMPARE(p.kind == ErrorKind::Input, input);
            QCOMPARE(QString::fromStdString(p.option), option);
            QCOMPARE(p.message, QString::fromUtf8(e.what()));
        }
    }

    void wording_data()
    {
        QTest::addColumn<bool>("input");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QString>("absent");
        QTest::newRow("the field's label")
            << true << "--lr 0: use a positive learning rate such as 0.001" << "--lr"
            << "<b>Check Learning rate:</b> --lr 0: use a positive learning rate such as 0.001" << "Training failed";
        QTest::newRow("the label stands for a bare option prefix")
            << true << "--input: choose a market data file (Browse…), or Sample data" << "--input"
            << "<b>Check Input CSV:</b> choose a market data file" << "--input:";
        QTest::newRow("an option the form has no field for")
            << true << "--tick -1: not a positive number" << "--tick" << "<b>Check --tick:</b> --tick -1" << "failed";
        QTest::newRow("no option named") << true << "RANK=3 but WORLD_SIZE is 2" << ""
                                         << "<b>Check the input:</b> RANK=3" << "failed";
        QTest::newRow("a failure and its next step")
            << false << "rank 1 exited with signal 9" << ""
            << "<b>Training failed:</b> rank 1 exited with signal 9</span><br>Press Start again" << "Check";
        QTest::newRow("text is escaped") << false << "<b>not bold</b>" << "" << "&lt;b&gt;not bold&lt;/b&gt;" << "<b>not";
    }
    void wording()
    {
        QFETCH(bool, input);
        QFETCH(QString, message);
        QFETCH(QString, option);
        QFETCH(QString, expected);
        QFETCH(QString, absent);
        const RunProblem p {input ? ErrorKind::Input : ErrorKind::Failed, message, option.toStdString()};
        const QString html = problemHtml(p, TrainingForm::fieldLabel(p.option), QStringLiteral("Press Start again"));
        QVERIFY2(html.contains(expected), qPrintable(html));
        QVERIFY2(!html.contains(absent), qPrintable(html));
    }

    // Every option the form has a field for has a label, and the form focuses that field.
    void formFields_data()
    {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("label");
        QTest::addColumn<QString>("widget"); // objectName of the field, where it has one
        QTest::newRow("input") << "--input" << "Input CSV" << "trainingInput";
        QTest::newRow("output") << "--output" << "Output folder" << "trainingOutput";
        QTest::newRow("device") << "--device" << "Device" << "trainingDevice";
        QTest::newRow("processes") << "--nproc" << "Processes" << "trainingProcesses";
        QTest::newRow("learning rate") << "--lr" << "Learning rate" << "";
        QTest::newRow("not in the form") << "--session" << "" << "";
    }
    void formFields()
    {
        QFETCH(QString, option);
        QFETCH(QString, label);
        QFETCH(QString, widget);
        QCOMPARE(TrainingForm::fieldLabel(option.toStdString()), label);
        TrainingForm form(nullptr);
        form.show();
        QVERIFY(QTest::qWaitForWindowActive(&form));
        QCOMPARE(form.focusField(option.toStdString()), !label.isEmpty());
        if (!widget.isEmpty())
            QTRY_VERIFY(form.findChild<QWidget*>(widget)->hasFocus());
    }
};

QTEST_MAIN(TestTrainingProblem)
#include "tst_training_problem.moc"
