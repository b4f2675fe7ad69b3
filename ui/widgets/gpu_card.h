// One GPU as a card: name, architecture, VRAM bar, driver, PCI bus and which source said so.
#pragma once

#include "core/snapshot/snapshot.h"

#include <QFrame>

class QLabel;
class QProgressBar;

namespace stackscope::ui {

class GpuCard : public QFrame {
    Q_OBJECT
public:
    explicit GpuCard(const GpuInfo& gpu, QWidget* parent = nullptr);

private:
    QLabel* m_title;
    QLabel* m_details;
    QProgressBar* m_vram;
};

} // namespace stackscope::ui
