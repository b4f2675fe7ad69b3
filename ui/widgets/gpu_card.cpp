// GPU card layout.
#include "ui/widgets/gpu_card.h"

#include "core/snapshot/gpu_sku.h"
#include "core/snapshot/stack_rows.h"

#include <QLabel>
#include <QProgressBar>
#include <QVBoxLayout>

#include <algorithm>

namespace stackscope::ui {

GpuCard::GpuCard(const GpuInfo& gpu, QWidget* parent)
    : QFrame(parent)
    , m_title(new QLabel(this))
    , m_vramText(new QLabel(this))
    , m_vram(new QProgressBar(this))
    , m_details(new QLabel(this))
{
    setObjectName(QStringLiteral("gpuCard"));
    setFrameShape(QFrame::StyledPanel);
    // Three cards side by side fit the System page at 1024x640 (at 280 px the third was cut and the strip scrolled
    // sideways); a long name wraps, the VRAM line fits in 220 px.
    setMinimumWidth(220);
    setMaximumWidth(420);
    // The cards share the strip's width up to their maximum before the strip's trailing stretch takes the rest.
    QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    policy.setHorizontalStretch(1);
    setSizePolicy(policy);
    const QString vendor = gpu.vendor == "amd" ? QStringLiteral("AMD") : gpu.vendor == "nvidia" ? QStringLiteral("NVIDIA")
                                                                                                 : QString::fromStdString(gpu.vendor);
    m_title->setText(QStringLiteral("<b>GPU %1 · %2</b><br/><span style='font-size:large'>%3</span>")
                         .arg(gpu.index)
                         .arg(vendor, QString::fromStdString(gpu.name).toHtmlEscaped()));
    m_title->setWordWrap(true);

    // The figures are a line of their own above a thin bar: written inside the bar, the fill covered the text's
    // first letters. The bar shows only a known use; an empty bar would read as "none used".
    m_vramText->setObjectName(QStringLiteral("vramText"));
    m_vram->setObjectName(QStringLiteral("vramBar"));
    m_vram->setTextVisible(false);
    m_vram->setFixedHeight(8);
    const bool totalKnown = gpu.vramTotalBytes && *gpu.vramTotalBytes > 0;
    if (totalKnown && gpu.vramUsedBytes) {
        const double total = static_cast<double>(*gpu.vramTotalBytes);
        const double used = static_cast<double>(*gpu.vramUsedBytes);
        m_vram->setRange(0, 1000);
        m_vram->setValue(static_cast<int>(1000.0 * std::min(used, total) / total));
        m_vramText->setText(tr("VRAM %1 of %2 used").arg(QString::fromStdString(formatBytes(*gpu.vramUsedBytes)),
                                                         QString::fromStdString(formatBytes(*gpu.vramTotalBytes))));
    } else if (totalKnown) {
        m_vramText->setText(tr("VRAM %1 (use unknown)").arg(QString::fromStdString(formatBytes(*gpu.vramTotalBytes))));
    } else {
        m_vramText->setText(tr("VRAM unknown"));
    }
    m_vram->setVisible(totalKnown && gpu.vramUsedBytes);
    m_vram->setToolTip(m_vramText->text());

    // No library said the architecture: an NVIDIA part's name tells it (snapshots made before inspect did this
    // itself), and the card says that it came from the name.
    std::optional<std::string> arch = gpu.arch;
    bool fromName = gpu.source.find("+name") != std::string::npos;
    if (!arch && gpu.vendor == "nvidia") {
        arch = nvidiaArchFromName(gpu.name);
        fromName = arch.has_value();
    }
    const QString archText = arch ? QString::fromStdString(*arch) + (fromName ? tr(" (from the name)") : QString()) : tr("unknown");
    m_details->setText(tr("Architecture: <b>%1</b><br/>Driver: %2<br/>PCI bus: %3<br/><span style='color:gray'>Source: %4</span>")
                           .arg(archText.toHtmlEscaped(),
                                QString::fromStdString(gpu.driverVersion.value_or("unknown")),
                                QString::fromStdString(gpu.pciBus.value_or("unknown")),
                                QString::fromStdString(gpu.source)));

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_vramText);
    layout->addWidget(m_vram);
    layout->addWidget(m_details);
    layout->addStretch(1);
}

} // namespace stackscope::ui
