// The Training page's live charts: loss (train per step interval, validation per epoch; linear or log),
// samples/s, and memory (device VRAM used, libtorch allocator allocated and reserved).
#pragma once

#include "core/training/training_run.h"
#include "ui/training/training_series.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <map>

class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QLogValueAxis;
class QValueAxis;
class QWidget;

namespace stackscope::ui {

// Points go into bounded buffers as progress arrives (cheap, any rate); refresh() copies them into the
// chart series and sets the axes, and is what the page's repaint timer calls (at most ~25 times a second).
// The three views are children of `parent`; the page lays them out.
class TrainingCharts : public QObject {
    Q_OBJECT
public:
    explicit TrainingCharts(QWidget* parent);

    QChartView* lossView() const { return m_lossView; }
    QChartView* samplesView() const { return m_samplesView; }
    QChartView* memoryView() const { return m_memoryView; }

    void clear();
    void setPlannedEpochs(int epochs);
    // The run's devices as the trainer names them ("CPU", a GPU's name): what the memory chart says
    // when no figure arrives.
    void setDevices(const QString& devices);
    // A resumed run: drops what came after `epoch` finished, keeps the validation points up to it.
    void truncateAfterEpoch(int epoch);
    void addStep(const training::TrainingProgress& step);
    void addEpoch(int epoch, double valLoss, double samplesPerS);
    // A recorded run (a report's model_metadata.json): each epoch's training and validation loss and samples/s; the
    // memory chart says that a report keeps no memory figures.
    void showRecordedEpochs(const std::vector<training::EpochMetrics>& epochs, int plannedEpochs);
    void refresh();

    void setLogScale(bool on);
    bool logScale() const { return m_logScale; }

    // What the charts hold (tests, and the page's status).
    int trainLossPoints() const { return m_trainLoss.size(); }
    int valLossPoints() const { return m_valLoss.size(); }
    int samplesPoints() const { return m_samples.size(); }
    int memoryPoints() const { return m_deviceUsed.size() + m_allocated.size() + m_reserved.size(); }
    bool memoryNoteShown() const;
    // The memory chart's series names: "VRAM" (the device's used), "reserved", "allocated"; in a run over several processes
    // "GPU d VRAM" for each rank's GPU (the allocator's figures are rank 0's, as the chart's title then says).
    QStringList memorySeriesNames() const;
    // The longest single paint of one chart view since the last reset (the page's share of a GUI stall).
    double longestPaintMs() const { return m_longestPaintNs / 1e6; }
    void resetPaintTiming() { m_longestPaintNs = 0; }

private:
    QChartView* makeView(QChart* chart, QWidget* parent);
    void refreshLoss();
    void refreshSamples();
    void refreshMemory();
    void addRankMemory(double x, const std::vector<training::RankMemory>& ranks);

    int m_plannedEpochs = 1;
    double m_lastX = 0;
    bool m_logScale = false;
    bool m_sawStep = false;
    bool m_memoryReported = false;
    bool m_refitPending = false;
    qint64 m_longestPaintNs = 0;

    DecimatingSeries m_trainLoss;
    DecimatingSeries m_valLoss {100000}; // one point per epoch: never decimated in practice
    DecimatingSeries m_samples;
    DecimatingSeries m_epochSamples {100000};
    DecimatingSeries m_deviceUsed;
    DecimatingSeries m_allocated;
    DecimatingSeries m_reserved;
    // Runs over several processes: each other rank's device VRAM, a line each (rank 0's is m_deviceUsed).
    struct RankLine {
        DecimatingSeries points;
        QLineSeries* series = nullptr;
    };
    std::map<int, RankLine> m_otherRanks;

    QChartView* m_lossView = nullptr;
    QChartView* m_samplesView = nullptr;
    QChartView* m_memoryView = nullptr;
    QChart* m_lossChart = nullptr;
    QLineSeries* m_trainLossSeries = nullptr;
    QLineSeries* m_valLossSeries = nullptr;
    QValueAxis* m_lossX = nullptr;
    QValueAxis* m_lossLinear = nullptr;
    QLogValueAxis* m_lossLog = nullptr;

    QChart* m_samplesChart = nullptr;
    QLineSeries* m_samplesSeries = nullptr;
    QLineSeries* m_epochSamplesSeries = nullptr;
    QValueAxis* m_samplesX = nullptr;
    QValueAxis* m_samplesY = nullptr;

    QChart* m_memoryChart = nullptr;
    QLineSeries* m_deviceUsedSeries = nullptr;
    QLineSeries* m_allocatedSeries = nullptr;
    QLineSeries* m_reservedSeries = nullptr;
    QValueAxis* m_memoryX = nullptr;
    QValueAxis* m_memoryY = nullptr;
    QLabel* m_memoryNote = nullptr;
    QString m_memoryNoteText;
};

} // namespace stackscope::ui
