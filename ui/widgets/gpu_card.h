// One GPU as a card: name, architecture, VRAM use (a line of text over a bar), driver, PCI bus and which source said so.
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
    QLabel* m_vramText;
    QProgressBar* m_vram;
    QLabel* m_details;
};

} // namespace stackscope::ui
