// The Monitor panel: a dock (reachable from every page) with one chart per quantity (VRAM,
// utilisation, temperature, power) for all GPUs, the latest readings with sources or reasons, and
// CSV/PNG export. Sampling (1-20 Hz, sampler thread) and repainting (coalesced, at most 25/s, GUI
// thread) run at independent rates.
#pragma once

#include "core/telemetry/sampler.h"
#include "core/telemetry/telemetry_store.h"

#include <QDockWidget>
#include <QElapsedTimer>
#include <QTimer>

#include <atomic>
#include <memory>
#include <vector>

class QComboBox;
class QHBoxLayout;
class QLabel;
class QSplitter;
class QTableView;
class QToolButton;

namespace stackscope::ui {

class LatestReadingsModel;
class SharedTimeAxis;
class TelemetryChart;

class MonitorDock : public QDockWidget {
    Q_OBJECT
public:
    // What the main window adds (one line): samples this machine (NVML, rocm_smi, the torch feed)
    // at 4 Hz, keeping one hour.
    explicit MonitorDock(QWidget* parent = nullptr);
    // Tests and the benchmark: an existing store, and a sampler or none (data pushed from elsewhere).
    MonitorDock(std::shared_ptr<telemetry::TelemetryStore> store, std::unique_ptr<telemetry::TelemetrySampler> sampler,
                QWidget* parent = nullptr);
    ~MonitorDock() override;

    static constexpr int kRepaintIntervalMs = 40; // at most 25 repaints a second

    const std::shared_ptr<telemetry::TelemetryStore>& store() const { return m_store; }
    // Where this process's training code pushes libtorch caching-allocator figures.
    const std::shared_ptr<telemetry::TorchAllocatorFeed>& torchFeed() const { return m_torchFeed; }
    // Shared with the Training page's loss chart so both show the same time window.
    SharedTimeAxis* timeAxis() const { return m_axis; }
    telemetry::TelemetrySampler* sampler() const { return m_sampler.get(); }
    LatestReadingsModel* latestModel() const { return m_model; }
    const std::vector<TelemetryChart*>& charts() const { return m_charts; }
    QWidget* chartArea() const { return m_chartArea; }
    // Why the charts are empty (no GPU, a library not loaded), shown once above them; empty when they draw.
    QString messageText() const;
    // True while there are samples but no GPU in them: the charts and the table fold into the one message line.
    bool chartsCollapsed() const { return m_collapsed; }
    // The height the dock asks for when docked: the controls and the message alone when collapsed, else the charts
    // at a readable size, never more than 40 % of the window (the page keeps the rest).
    int compactHeight() const;
    int refreshCount() const { return m_refreshCount; }
    // "Monitor: this machine": what it samples, whatever machine the pages show.
    static QString titleText();
    // Export CSV/PNG are on only while there are GPU samples to write.
    bool exportsEnabled() const;

    void setSamplingRateHz(int hz);
    // Run started/stopped, epoch end, probe failure, variant change: any thread may call this.
    void addEvent(telemetry::EventKind kind, const std::string& text);

    // Both return an empty string on success, else what went wrong and what to do.
    QString exportCsv(const QString& path) const;
    QString exportPng(const QString& path) const;

public Q_SLOTS:
    // Redraws from the store now (the coalescing timer calls it; tests call it directly).
    void refreshNow();

Q_SIGNALS:
    void refreshed();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void build();
    QHBoxLayout* buildControls(QWidget* body);
    QSplitter* buildChartsAndTable(QWidget* body);
    void connectSignals();
    void scheduleRefresh();
    void chooseCsvFile();
    void choosePngFile();
    QString emptyMessage(const std::optional<telemetry::TelemetrySample>& latest) const;
    void setCollapsed(bool collapsed);
    void enableExports(bool hasGpuSamples);
    // Docked in a main window: gives the dock its compact height there.
    void fitDockedHeight();

    std::shared_ptr<telemetry::TelemetryStore> m_store;
    std::shared_ptr<telemetry::TorchAllocatorFeed> m_torchFeed;
    std::unique_ptr<telemetry::TelemetrySampler> m_sampler;
    SharedTimeAxis* m_axis = nullptr;
    LatestReadingsModel* m_model = nullptr;
    QWidget* m_chartArea = nullptr;
    std::vector<TelemetryChart*> m_charts;
    QComboBox* m_rate = nullptr;
    QComboBox* m_span = nullptr;
    QToolButton* m_live = nullptr;
    QToolButton* m_exportCsv = nullptr;
    QToolButton* m_exportPng = nullptr;
    QTableView* m_table = nullptr;
    QLabel* m_message = nullptr;
    QWidget* m_body = nullptr;
    QSplitter* m_chartsAndTable = nullptr;
    QTimer m_repaintTimer;
    QElapsedTimer m_sinceRefresh;
    std::atomic<bool> m_dirty {false};
    int m_listener = 0;
    int m_refreshCount = 0;
    bool m_collapsed = false;
    bool m_fitted = false; // the first show has sized the dock
    std::uint64_t m_drawnGeneration = 0;
};

} // namespace stackscope::ui
