// The one-image summary card (GPU, arch, VRAM, driver, ROCm / CUDA, torch, probe counts, top findings) people post alone.
#pragma once

#include "core/report/report_summary.h"
#include "core/snapshot/snapshot.h"

#include <QFrame>
#include <QString>

#include <array>
#include <vector>

class QGridLayout;
class QLabel;
class QVBoxLayout;

namespace stackscope::ui {

// What the card shows, taken from a report document's summary (already redacted when the report is).
struct SummaryCardData {
    struct Gpu {
        QString name, arch, vram, driver;
    };
    struct Line {
        Severity severity = Severity::Info;
        QString text;
    };
    QString version;    // StackScope's build
    QString capturedAt; // the snapshot's time
    QString host;       // "<host> · Ubuntu 24.04 · Linux 6.8.0"
    std::vector<Gpu> gpus;
    std::vector<std::pair<QString, QString>> stack; // label, value
    bool probesRun = false;
    std::array<int, 6> probeCounts {}; // per ProbeResult, in the enum's order (Ok ... Unsupported)
    QString probesNote;                // why there are none
    std::vector<Line> findings;        // the most severe first, at most kMaxFindings
    int moreFindings = 0;              // left out
    // What the diagnosis could not check (the report's "not_checked"): shown as unknown, never as ok.
    std::vector<QString> notChecked;
    QString redaction;                 // "Private data redacted: ..." or "Not redacted"
    bool redacted = false;

    static constexpr std::size_t kMaxGpus = 4;
    static constexpr std::size_t kMaxFindings = 4;
};

SummaryCardData summaryCardData(const report::ReportSummary& report);

class SummaryCard : public QFrame {
    Q_OBJECT
public:
    explicit SummaryCard(QWidget* parent = nullptr);

    void setData(const SummaryCardData& data);
    void setReport(const report::ReportSummary& report) { setData(summaryCardData(report)); }
    const SummaryCardData& data() const { return m_data; }
    // The card at its own size, as the report's summary-card.png.
    QImage render();
    QByteArray png();

    static constexpr int kWidth = 680;

private:
    void rebuild();
    // The card's rows, top to bottom, each from m_data.
    void addHeader();
    void addGpus();
    void addStack();
    void addProbes();
    void addFindings();
    void addFooter();

    SummaryCardData m_data;
    QVBoxLayout* m_layout;
};

} // namespace stackscope::ui
