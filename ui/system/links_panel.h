// The System page's links box: Measure links / Stop / Open a recorded run, a status line that says plainly what is
// happening (or why nothing can be measured here), and the topology view of the run shown.
#pragma once

#include "ui/system/bandwidth_controller.h"

#include <QGroupBox>

class QLabel;
class QPushButton;

namespace stackscope::ui {

class TopologyView;

class LinksPanel : public QGroupBox {
    Q_OBJECT
public:
    explicit LinksPanel(QWidget* parent = nullptr);

    // The run shown and the buttons' actions go through `controller` (owned by the window).
    void setController(BandwidthController* controller);
    TopologyView* view() const { return m_view; }
    QString statusText() const;
    // A drawing with no controller (the report's screenshot of the System page): the buttons go, `text` says what the
    // picture holds in their place (the links box showed its buttons and no text).
    void showNote(const QString& text);

Q_SIGNALS:
    void openRequested();

private:
    BandwidthController* m_controller = nullptr;
    QPushButton* m_measure;
    QPushButton* m_stop;
    QPushButton* m_open;
    QLabel* m_status;
    TopologyView* m_view;
};

} // namespace stackscope::ui
