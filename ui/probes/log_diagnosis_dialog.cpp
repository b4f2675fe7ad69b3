// The paste-a-log dialog: text in, core diagnose() on a worker thread, findings and fixes out.
#include "ui/probes/log_diagnosis_dialog.h"

#include "core/diagnosis/diagnosis.h"
#include "ui/models/findings_model.h"
#include "ui/system/fix_command.h"
#include "ui/widgets/status_colors.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace stackscope::ui {

namespace {

struct Outcome {
    std::vector<Finding> findings;
    QString error;
};

QString fixLine(const FixAdvice& fix)
{
    QString line = fixHtml(QString::fromStdString(fix.text));
    QStringList exports;
    for (const auto& [name, value] : fix.env)
        exports << (value ? QStringLiteral("export %1=%2").arg(QString::fromStdString(name), QString::fromStdString(*value))
                          : QStringLiteral("unset %1").arg(QString::fromStdString(name)));
    if (!exports.isEmpty())
        line += QStringLiteral("<br/><code>%1</code>").arg(exports.join(QStringLiteral("; ")).toHtmlEscaped());
    if (fix.applies == std::optional<bool>(false))
        line += QObject::tr(" <i>(not for this GPU)</i>");
    return line;
}

} // namespace

LogDiagnosisDialog::LogDiagnosisDialog(SnapshotPtr snapshot, QWidget* parent)
    : QDialog(parent)
    , m_snapshot(std::move(snapshot))
    , m_text(new QPlainTextEdit(this))
    , m_diagnose(new QPushButton(tr("&Diagnose"), this))
    , m_summary(new QLabel(this))
    , m_model(new FindingsModel(this))
    , m_table(new QTableView(this))
    , m_detail(new QTextBrowser(this))
{
    setWindowTitle(tr("Paste a log or error"));
    resize(900, 600);
    m_text->setObjectName(QStringLiteral("logText"));
    m_text->setPlaceholderText(tr("Paste a Python traceback, an error message or a whole log here, then press Diagnose "
                                  "(Ctrl+Return). You can also drop a text file on the main window."));
    m_text->setTabChangesFocus(true);
    m_diagnose->setObjectName(QStringLiteral("diagnoseButton"));
    m_diagnose->setDefault(true);
    connect(m_diagnose, &QPushButton::clicked, this, [this] {
        m_origin = tr("pasted text");
        run();
    });
    connect(new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this), &QShortcut::activated, m_diagnose, &QPushButton::click);
    m_summary->setObjectName(QStringLiteral("logSummary"));
    m_summary->setWordWrap(true);
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setTabKeyNavigation(false);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showFinding(current.row()); });
    m_detail->setOpenExternalLinks(true);
    auto* results = new QSplitter(Qt::Horizontal, this);
    results->addWidget(m_table);
    results->addWidget(m_detail);
    results->setStretchFactor(1, 2);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_text);
    split->addWidget(results);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_diagnose, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split, 1);
    layout->addWidget(m_summary);
    layout->addWidget(buttons);
}

void LogDiagnosisDialog::diagnoseText(const QString& text, const QString& origin)
{
    m_text->setPlainText(text.size() > kMaxChars ? text.right(kMaxChars) : text);
    m_origin = origin;
    run();
}

bool LogDiagnosisDialog::diagnoseFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        m_summary->setText(tr("Cannot read %1: %2. Copy the log somewhere readable and drop it again.").arg(path, file.errorString()));
        return false;
    }
    const qint64 size = file.size();
    if (size > kMaxChars)
        file.seek(size - kMaxChars);
    diagnoseText(QString::fromUtf8(file.readAll()), QFileInfo(path).fileName());
    return true;
}

void LogDiagnosisDialog::run()
{
    const std::string text = m_text->toPlainText().toStdString();
    if (text.empty()) {
        m_summary->setText(tr("Nothing to diagnose: paste a log or an error message into the box first."));
        return;
    }
    m_summary->setText(tr("Diagnosing…"));
    m_diagnose->setEnabled(false);
    Q_EMIT logKept(m_origin, m_text->toPlainText());
    m_jobs.run(
        [text, origin = m_origin.toStdString(), snapshot = m_snapshot](const JobControl&) {
            Outcome out;
            DiagnosisInput input;
            input.snapshot = snapshot.get();
            input.logs.push_back({origin, text});
            try {
                out.findings = diagnose(input);
            } catch (const std::exception& e) {
                out.error = QString::fromStdString(e.what());
            }
            return out;
        },
        [this](Outcome out) {
            m_diagnose->setEnabled(true);
            m_model->setFindings(std::move(out.findings));
            const int n = m_model->rowCount();
            m_summary->setText(!out.error.isEmpty() ? tr("The diagnosis failed: %1").arg(out.error)
                               : n == 0 ? tr("No known problem matches this text. It is kept for the support report: export "
                                             "the report on the Report page so someone can read it.")
                               : n == 1 ? tr("1 finding; select it for the cause, the lines that matched and the fixes. The "
                                             "text is kept for the support report (Report page).")
                                        : tr("%1 findings; select one for the cause, the lines that matched and the fixes. The "
                                             "text is kept for the support report (Report page).").arg(n));
            if (n > 0)
                m_table->selectRow(0);
            else
                m_detail->clear();
            Q_EMIT diagnosed();
        },
        [this](const QString& error) { // the job catches what it expects; this is anything else
            m_diagnose->setEnabled(true);
            m_summary->setText(tr("The diagnosis failed: %1").arg(error));
            Q_EMIT diagnosed();
        });
}

QString LogDiagnosisDialog::summary() const
{
    return m_summary->text();
}

void LogDiagnosisDialog::showFinding(int row)
{
    const Finding* f = m_model->findingAt(row);
    if (!f) {
        m_detail->clear();
        return;
    }
    QString evidence;
    for (const auto& e : f->evidence)
        evidence += QStringLiteral("<li>%1%2: <code>%3</code></li>")
                        .arg(QString::fromStdString(e.origin).toHtmlEscaped(), e.line ? QStringLiteral(" line %1").arg(*e.line) : QString(),
                             QString::fromStdString(e.text).toHtmlEscaped());
    QString fixes;
    for (const auto& fix : f->fixes)
        fixes += QStringLiteral("<li>%1</li>").arg(fixLine(fix));
    QString sources;
    for (const auto& s : f->sources) {
        const QString url = QString::fromStdString(s).toHtmlEscaped();
        if (url.startsWith(QStringLiteral("http")))
            sources += QStringLiteral("<li><a href=\"%1\">%1</a></li>").arg(url);
    }
    m_detail->setHtml(tr("<h3 style='color:%1'>%2</h3><p>%3</p><h4>Fixes, in order</h4><ol>%4</ol>"
                         "<h4>Lines that matched</h4><ul>%5</ul><h4>Sources</h4><ul>%6</ul>")
                          .arg(severityColor(f->severity).name(), QString::fromStdString(f->title).toHtmlEscaped(),
                               QString::fromStdString(f->detail).toHtmlEscaped(), fixes, evidence, sources));
}

} // namespace stackscope::ui
