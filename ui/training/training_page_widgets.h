// Two small widgets of the Training page: the progress line and the form's scroll area that never scrolls sideways.
#pragma once

#include <QScrollArea>
#include <QWidget>

namespace stackscope::ui {

// A thin progress line. QProgressBar::setValue repaints synchronously (~5-15 ms here, each time); this only schedules
// a paint, which joins the window's next frame.
class ProgressStrip : public QWidget {
public:
    explicit ProgressStrip(QWidget* parent);
    double fraction() const { return m_fraction; }
    void setFraction(double fraction);

protected:
    void paintEvent(QPaintEvent*) override;

private:
    double m_fraction = 0;
};

// The form's scroll area: as wide as the form and a vertical scroll bar where the window allows, following the form's
// minimum width as it fills in after the first layout (the device list, the processes row). It never scrolls
// sideways: at 1024x640 that hid the Browse buttons and the spin boxes. Where the window has room it takes the width
// the form would like (a choice of the Device box whole), up to kPreferredMax and a third of the page: at 1920x1080
// the form kept its minimum and the Device box read "auto (GPU, else C…" beside 900 px of charts. Once the person
// drags the splitter, the form keeps that width (never less than its minimum).
class FormScrollArea : public QScrollArea {
public:
    static constexpr int kPreferredMax = 480;

    FormScrollArea(QWidget* form, QWidget* parent);
    QSize sizeHint() const override;
    // The splitter never gives the form less than it needs.
    QSize minimumSizeHint() const override;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    int wanted() const;
    int preferred() const;
    void fit();

    bool m_watchingSplitter = false;
    bool m_draggedByPerson = false;
};

} // namespace stackscope::ui
